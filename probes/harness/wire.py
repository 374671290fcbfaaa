"""The wire tier: the SDK against the fake CLI, returning what crossed the wire.

A capture answers "what did the installed SDK send for these options, and how did it
react to what the CLI said?" without any real CLI or network.
"""

from __future__ import annotations

import json
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe.fake_cli.launcher import install
from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import sdk

EVERY_HOST_VARIABLE = "<every variable of the SDK's process>"


@dataclass
class WireRun(sdk.OutcomeView):
    """Everything one wire run recorded, in the order it happened."""

    events: list[dict[str, Any]]
    outcome: sdk.Outcome
    parent_env: dict[str, str] = field(repr=False, default_factory=dict)
    warmed: list[dict[str, Any]] | None = None  # the events recorded when startup() resolved (a pre-warmed run)

    # --- what the fake was started with ------------------------------------------
    @property
    def starts(self) -> list[dict[str, Any]]:
        """Every start of the fake: a `-v` version probe, then the session."""
        return [e for e in self.events if e["event"] == "start"]

    @property
    def session_start(self) -> dict[str, Any]:
        sessions = [e for e in self.starts if e["argv"][:1] not in (["-v"], ["--version"])]
        if not sessions:
            raise AssertionError("the SDK never started the fake CLI for a session")
        return sessions[-1]

    @property
    def argv(self) -> list[str]:
        """argv after the executable's own path."""
        return [str(a) for a in self.session_start["argv"]]

    @property
    def env(self) -> dict[str, str]:
        return {str(k): str(v) for k, v in self.session_start["env"].items()}

    @property
    def env_added(self) -> dict[str, str]:
        """Variables the SDK set or changed compared with its own process environment."""
        return {k: v for k, v in self.env.items() if self.parent_env.get(k) != v}

    @property
    def env_removed(self) -> list[str]:
        """The SDK process's variables the CLI did not get, by name; when it got none of
        them at all, [EVERY_HOST_VARIABLE]: which variables a host has is no fact about the SDK,
        and a report must not change with the shell it was run from."""
        removed = sorted(k for k in self.parent_env if k not in self.env)
        inherited = [k for k, v in self.parent_env.items() if self.env.get(k) == v]
        return [EVERY_HOST_VARIABLE] if removed and not inherited else removed

    @property
    def cwd(self) -> str:
        return str(self.session_start["cwd"])

    def flag(self, name: str) -> str | None:
        """The value following `name` in argv (or after `name=`), whichever spelling was
        used; None when absent. `flag_spelling` tells the two spellings apart."""
        for i, arg in enumerate(self.argv):
            if arg == name:
                return self.argv[i + 1] if i + 1 < len(self.argv) else ""
            if arg.startswith(name + "="):
                return arg[len(name) + 1 :]
        return None

    def flag_spelling(self, name: str) -> str | None:
        """How `name` was written: `--x v` as the two words joined by a space, `--x=v` as
        is, a bare `--x` alone; None when absent. (`flag` gives the value either way.)"""
        for i, arg in enumerate(self.argv):
            if arg == name:
                following = self.argv[i + 1] if i + 1 < len(self.argv) else None
                return name if following is None or following.startswith("--") else f"{name} {following}"
            if arg.startswith(name + "="):
                return arg
        return None

    def has_flag(self, name: str) -> bool:
        return any(a == name or a.startswith(name + "=") for a in self.argv)

    # --- stdin ------------------------------------------------------------------
    @property
    def stdin(self) -> list[Any]:
        """Every stdin line the SDK wrote, parsed (None for a line that is not JSON)."""
        return [e["message"] for e in self.events if e["event"] == "in"]

    @property
    def initialize(self) -> dict[str, Any] | None:
        for m in self.stdin:
            if _is_request(m, "initialize"):
                request: dict[str, Any] = m["request"]
                return request
        return None

    @property
    def user_messages(self) -> list[dict[str, Any]]:
        return [m for m in self.stdin if isinstance(m, dict) and m.get("type") == "user"]

    def control_requests(self, subtype: str | None = None) -> list[dict[str, Any]]:
        """SDK->CLI control requests, optionally of one subtype."""
        return [m for m in self.stdin if _is_request(m, subtype)]

    @property
    def answers(self) -> dict[str, dict[str, Any] | None]:
        """The SDK's control_response to each request the fake sent; None = unanswered."""
        sent = [
            e["message"]["request_id"]
            for e in self.events
            if e["event"] == "out" and isinstance(e["message"], dict) and e["message"].get("type") == "control_request"
        ]
        got = {
            m["response"].get("request_id"): m["response"]
            for m in self.stdin
            if isinstance(m, dict) and m.get("type") == "control_response"
        }
        return {rid: got.get(rid) for rid in sent}

    def timeline(self, events: list[dict[str, Any]] | None = None) -> list[str]:
        """The exchange as short labels in order: `in:user`, `out:result`, `eof`, ...; of
        `events` when given (`run.warmed`: what had happened when startup() resolved)."""
        labels = []
        for e in self.events if events is None else events:
            if e["event"] in ("in", "out"):
                labels.append(f"{e['event']}:{_label(e.get('message'))}")
            elif e["event"] in ("eof", "exit"):
                labels.append(e["event"] if e["event"] == "eof" else f"exit:{e['code']}")
        return labels


def _is_request(m: Any, subtype: str | None) -> bool:
    return (
        isinstance(m, dict)
        and m.get("type") == "control_request"
        and (subtype is None or (m.get("request") or {}).get("subtype") == subtype)
    )


def _label(m: Any) -> str:
    if not isinstance(m, dict):
        return "raw"
    kind = m.get("type", "?")
    if kind == "control_request":
        return f"control_request/{(m.get('request') or {}).get('subtype')}"
    if kind == "control_response":
        return f"control_response/{(m.get('response') or {}).get('subtype')}"
    if kind == "system":
        return f"system/{m.get('subtype')}"
    return str(kind)


async def capture(
    workdir: Path,
    scenario: Scenario | None = None,
    prompt: str | list[dict[str, Any]] | None = "hi",
    *,
    client: bool = False,
    drive: sdk.Drive | None = None,
    timeout: float = 10.0,
    connect_prompt: bool = False,
    startup: dict[str, Any] | None = None,
    **options: Any,
) -> WireRun:
    """Run the SDK against the fake CLI in `workdir` and return what it recorded.

    `options` are ClaudeAgentOptions fields by their Python names; `cli_path` and (unless
    given) `cwd` are set to the fake and to `workdir`. With `startup`, the CLI is pre-warmed
    by the SDK's startup() (sdk.run_sdk); the run's `warmed` is then what the fake had
    recorded when startup() resolved (None if it never did).
    """
    scenario = scenario or Scenario().turn()
    fake_dir = workdir / "fake"
    launcher, capture_file = install(fake_dir, scenario.to_json())
    options.setdefault("cwd", str(workdir))
    opts = sdk.make_options(cli_path=str(launcher), **options)
    parent_env = dict(os.environ)
    warmed: list[list[dict[str, Any]]] = []
    try:
        outcome = await sdk.run_sdk(
            opts,
            prompt,
            client=client,
            drive=drive,
            timeout=timeout,
            connect_prompt=connect_prompt,
            startup=startup,
            warmed=lambda: warmed.append(_read(capture_file)),
        )
    finally:
        _kill_leftovers(_read(capture_file), launcher)
    return WireRun(_read(capture_file), outcome, parent_env, warmed[0] if warmed else None)


def _read(path: Path) -> list[dict[str, Any]]:
    events = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:  # a line cut short by a kill
            pass
    return events


def _kill_leftovers(events: list[dict[str, Any]], launcher: Path) -> None:
    """A fake still running after its run (a timeout, an SDK that never closed) is killed:
    those that recorded their start, and those started too late to record it before the SDK
    gave up (found by the launcher's path in their command line, which is this run's own).

    The pid is checked against the launcher's path first, so a recycled pid is left alone.
    """
    recorded = {int(e["pid"]) for e in events if e["event"] == "start"}
    for pid in sorted(recorded | _running(launcher)):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if str(launcher).encode() in cmdline:
                os.kill(pid, signal.SIGKILL)
        except (OSError, ProcessLookupError):
            pass


def _running(launcher: Path) -> set[int]:
    """The live processes whose command line names `launcher`."""
    needle = str(launcher).encode()
    found = set()
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                if needle in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.add(int(entry))
            except OSError:  # ended while read
                pass
    return found
