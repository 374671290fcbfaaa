"""The fake `claude` process: records everything it is given and plays a scenario.

Run through the launcher that `fake_cli.launcher.install` writes; it calls `main` with
the scenario and capture paths. The capture is JSON lines, one event each, flushed as
they happen so that a crash still leaves a complete record up to that point.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any


class Capture:
    """Append-only event log shared by the reader thread and the scenario player."""

    def __init__(self, path: str) -> None:
        self._file = open(path, "a", encoding="utf-8", buffering=1)
        self._lock = threading.Lock()

    def event(self, kind: str, **data: Any) -> None:
        with self._lock:
            self._file.write(json.dumps({"event": kind, **data}) + "\n")


class Stdout:
    def __init__(self, capture: Capture) -> None:
        self._lock = threading.Lock()
        self._capture = capture

    def send(self, message: dict[str, Any]) -> None:
        self.write(json.dumps(message) + "\n", message)

    def write(self, text: str, message: Any = None) -> None:
        with self._lock:
            self._capture.event("out", text=text, message=message)
            try:
                sys.stdout.write(text)
                sys.stdout.flush()
            except BrokenPipeError:
                pass


def matches(value: Any, pattern: Any) -> bool:
    """True when `pattern` is contained in `value` (dicts compare as subsets)."""
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(k in value and matches(value[k], v) for k, v in pattern.items())
    return bool(value == pattern)


def matching(pattern: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda line: matches(line, pattern)


class Stdin:
    """Reads stdin on a thread, answers SDK control requests, wakes waiting steps."""

    def __init__(self, control: dict[str, Any], out: Stdout, capture: Capture, first: list[Any]) -> None:
        self.lines: list[Any] = list(first)
        self.eof = False
        self._cond = threading.Condition()
        self._control = control
        self._served: dict[str, int] = {}  # subtype -> requests answered from its "responses"
        self._out = out
        self._capture = capture
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for raw in sys.stdin:
            try:
                obj = json.loads(raw)
            except ValueError:
                obj = None
            self._capture.event("in", line=raw.rstrip("\n"), message=obj)
            if isinstance(obj, dict) and obj.get("type") == "control_request":
                self._answer(obj)
            with self._cond:
                self.lines.append(obj)
                self._cond.notify_all()
        self._capture.event("eof")
        with self._cond:
            self.eof = True
            self._cond.notify_all()

    def _answer(self, req: dict[str, Any]) -> None:
        subtype = str((req.get("request") or {}).get("subtype"))
        rule = self._control.get(subtype, {"response": {}})
        if rule.get("silent"):
            return
        body: dict[str, Any] = {"request_id": req.get("request_id")}
        if "error" in rule:
            body.update(subtype="error", error=rule["error"])
        elif rule.get("responses"):
            served = self._served.get(subtype, 0)
            self._served[subtype] = served + 1
            body.update(subtype="success", response=rule["responses"][min(served, len(rule["responses"]) - 1)])
        else:
            body.update(subtype="success", response=rule.get("response", {}))
        self._out.send({"type": "control_response", "response": body})

    def wait(self, predicate: Callable[[dict[str, Any]], bool], start: int = 0) -> int | None:
        """Index of the first line at or after `start` that satisfies predicate; None on EOF."""
        with self._cond:
            while True:
                for i in range(start, len(self.lines)):
                    if predicate(self.lines[i]):
                        return i
                start = len(self.lines)
                if self.eof:
                    return None
                self._cond.wait()

    def wait_eof(self, ceiling: float | None = None) -> bool:
        """Whether stdin closed: waits for it, or with `ceiling` at most that many seconds."""
        deadline = None if ceiling is None else time.monotonic() + ceiling
        with self._cond:
            while not self.eof:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
        return True


def argv_prompt(argv: list[str]) -> list[dict[str, Any]]:
    """Old SDKs (up to 0.1.30) pass a string prompt as `--print -- PROMPT` instead of on
    stdin; the scenario sees it as the first user line all the same."""
    if "--print" not in argv or "--" not in argv:
        return []
    prompt = " ".join(argv[argv.index("--") + 1 :])
    return [{"type": "user", "message": {"role": "user", "content": prompt}, "via": "argv"}]


def play(scenario: dict[str, Any], argv: list[str], capture: Capture) -> int:
    out = Stdout(capture)
    stdin = Stdin(scenario.get("control", {}), out, capture, argv_prompt(argv))
    cursor = 0
    for step in scenario.get("steps", []):
        op = step["op"]
        if op == "emit":
            for _ in range(step.get("times", 1)):
                out.send(step["message"])
        elif op == "raw":
            out.write(step["text"])
        elif op == "stderr":
            sys.stderr.write(step["text"])
            sys.stderr.flush()
        elif op == "await":
            found = stdin.wait(matching(step["match"]), cursor)
            if found is None:
                capture.event("await_failed", match=step["match"])
                break
            cursor = found + 1
        elif op == "await_eof":
            if not stdin.wait_eof(step.get("ceiling")):
                capture.event("eof_ceiling", seconds=step["ceiling"])
        elif op == "request":
            rid = step["request_id"]
            out.send({"type": "control_request", "request_id": rid, "request": step["request"]})
            answered = stdin.wait(matching({"type": "control_response", "response": {"request_id": rid}}))
            capture.event("request_done", request_id=rid, answered=answered is not None)
        elif op == "sleep":
            time.sleep(step["seconds"])
        elif op == "exit":
            return int(step["code"])
    stdin.wait_eof()
    return 0


def main(scenario_path: str, capture_path: str) -> int:
    with open(scenario_path, encoding="utf-8") as f:
        scenario = json.load(f)
    capture = Capture(capture_path)
    argv = sys.argv[1:]
    capture.event("start", pid=os.getpid(), argv=argv, cwd=os.getcwd(), env=dict(os.environ))
    if argv and argv[0] in ("-v", "--version"):
        sys.stdout.write(f"{scenario['cli_version']} (Claude Code)\n")
        return 0
    code = play(scenario, argv, capture)
    capture.event("exit", code=code)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # the reader thread may still block on stdin


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
