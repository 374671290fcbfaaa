"""The CLI as a child process: its stdin and stdout, the environment it inherits, and the terminal
it writes to."""

from __future__ import annotations

import os
import random
import re
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import Harness, Scenario, StdoutRecording, lacks, reply, tool_use

_NODE_ONLY = (
    "Node's readline module, which the Python SDK never runs (the catalogue: not applicable to Python); "
    "Python's own input() or terminal would be the same on every SDK and CLI release"
)


class Nothing(TypedDict):
    """An observation with nothing in it."""


@behaviour(
    id="process.readline-question-non-tty",
    claim=(
        "Node's readline.question() prints its question to stdout even when stdin is not a terminal, "
        "where nobody can ever answer it."
    ),
    summary="readline.question() prints its question even when stdin is not a terminal",
    source=("000", "Terminal"),
    tier="wire",
    checks=("node-question-printed-without-tty",),
    cannot_decide=("node-question-printed-without-tty",),
)
async def readline_question_non_tty(h: Harness) -> Nothing:
    # Nothing to run: Python's own input() would behave the same on every SDK and CLI
    # release, so it would say nothing about either (the catalogue: not SDK behaviour).
    return {}


@readline_question_non_tty.decide
def _(seen: Nothing) -> dict[str, Check]:
    return {"node-question-printed-without-tty": undecidable(_NODE_ONLY)}


STDERR_LINE = "sdkprobe: the CLI writes to stderr\n"


class StderrSeen(TypedDict):
    callback_lines: list[str]
    error: str | None


@behaviour(
    id="process.readline-prevrows-stale",
    claim=(
        "Node readline's prevRows bookkeeping goes stale when other code writes to the terminal, so an "
        "interactive chat has to reset it after every such write."
    ),
    summary="readline's prevRows goes stale when other code writes to the terminal",
    source=("000", "Terminal"),
    tier="wire",
    checks=("node-prevrows-stale-after-foreign-write", "cli-stderr-reaches-host-callback"),
    requires=("option:stderr",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
    cannot_decide=("node-prevrows-stale-after-foreign-write",),
    # What a Python chat would need to do that reset: learn of each write the CLI child
    # makes behind its back, through the stderr callback. It says nothing of stale rows.
    controls=("cli-stderr-reaches-host-callback",),
)
async def readline_prevrows_stale(h: Harness) -> StderrSeen:
    lines: list[str] = []
    run = await h.wire("hi", scenario=Scenario().init().stderr(STDERR_LINE).turn(), stderr=lines.append)
    return {
        "callback_lines": [line.rstrip("\n") for line in lines if "sdkprobe" in line],
        "error": run.error,
    }


@readline_prevrows_stale.decide
def _(seen: StderrSeen) -> dict[str, Check]:
    got = seen["callback_lines"]
    return {
        "node-prevrows-stale-after-foreign-write": undecidable(_NODE_ONLY),
        "cli-stderr-reaches-host-callback": check(
            got == [STDERR_LINE.rstrip("\n")],
            f"the stderr callback got {got}" + (f"; the run failed: {seen['error']}" if seen["error"] else ""),
        ),
    }


readline_prevrows_stale.differs_on({"callback_lines": [], "error": None})


# How each host ends in a process of its own (h.host_run), once it has read its result.
_RETURNED: Final = "host returned without disconnect()"
_KILLED: Final = "host SIGKILLed"

QueryEnd = TypedDict(
    "QueryEnd", {"result seen": bool, "CLI ended by the time the SDK was done": bool, "processes left": bool}
)
# "CLI": how the CLI ended ("gone", "still running", "never started", "exit N", ...)
HostEnd = TypedDict("HostEnd", {"result seen": bool, "host error": str | None, "CLI": str, "processes left": bool})
ExitSeen = TypedDict(
    "ExitSeen",
    {"query()": QueryEnd, "host returned without disconnect()": HostEnd, "host SIGKILLed": HostEnd},
)


@behaviour(
    id="process.exit-on-stdin-close",
    claim=(
        "A process driven over stdin/stdout must exit once its stdin closes, or orphans pile up; "
        "the bundled CLI ends on its own when its stdin closes (its host SIGKILLed), and no CLI process "
        "is left behind once a query() is done, nor when the host returns without disconnect()."
    ),
    summary="The CLI exits when its stdin closes, and no CLI process outlives a query",
    source=("004", "Keep the runner tidy"),
    tier="cli",
    checks=("cli-exits-on-stdin-eof", "no-cli-left-after-query", "no-cli-left-after-host-returns"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.close",
    timeout=240.0,
)
async def exit_on_stdin_close(h: Harness) -> ExitSeen:
    # In this process: the SDK closes stdin and, after a grace period, sends SIGTERM, so how
    # the CLI ended (exit 0 or the SIGTERM) is a race with that period; only whether
    # anything was left once the SDK was done is kept.
    run = await h.cli("hi", script=["ok"])
    query: QueryEnd = {
        "result seen": run.result is not None,
        "CLI ended by the time the SDK was done": run.exit_code is not None,
        "processes left": bool(run.leftovers),
    }
    hosts: dict[str, HostEnd] = {}
    # A host of its own: a SIGKILLed host closes the CLI's stdin and nobody signals the CLI,
    # so how it ends (waited for, with a ceiling only a hang reaches) is the CLI's alone.
    # A host that returns may reap the CLI itself, so only whether it is gone is kept.
    for name, ending in ((_RETURNED, "return"), (_KILLED, "sigkill")):
        host = await h.host_run("hi", ending=ending, script=["ok"])
        ended = host.cli_end if ending == "sigkill" or host.cli_end == "still running" else "gone"
        hosts[name] = {
            "result seen": host.result_seen,
            "host error": host.error,
            "CLI": ended if host.cli_started else "never started",
            "processes left": bool(host.leftovers),
        }
    return {"query()": query, _RETURNED: hosts[_RETURNED], _KILLED: hosts[_KILLED]}


@exit_on_stdin_close.decide
def _(seen: ExitSeen) -> dict[str, Check]:
    query, returned, killed = seen["query()"], seen[_RETURNED], seen[_KILLED]

    def ran(host: HostEnd) -> Check | None:
        if host["result seen"] and host["CLI"] != "never started":
            return None
        return undecidable(f"the host never read its result (CLI {host['CLI']}, error {host['host error']})")

    return {
        "cli-exits-on-stdin-eof": ran(killed)
        or check(
            killed["CLI"] != "still running",
            f"once its host was SIGKILLed (its stdin closed, no signal sent to it) the CLI: {killed['CLI']}",
        ),
        "no-cli-left-after-query": check(
            query["CLI ended by the time the SDK was done"] and not query["processes left"],
            f"once query() was done the CLI had ended: {query['CLI ended by the time the SDK was done']}; "
            f"process(es) of the session's tree left: {query['processes left']}",
        ),
        "no-cli-left-after-host-returns": ran(returned)
        or check(
            returned["CLI"] == "gone",
            f"once its host returned without disconnect() the CLI: {returned['CLI']}",
        ),
    }


exit_on_stdin_close.differs_on(
    {
        "query()": {"result seen": True, "CLI ended by the time the SDK was done": False, "processes left": True},
        _RETURNED: {"result seen": True, "host error": None, "CLI": "still running", "processes left": True},
        _KILLED: {"result seen": True, "host error": None, "CLI": "still running", "processes left": True},
    }
)


# --- process.oversized-stdout-line-delivered -------------------------------------------

_MIB = 1024 * 1024
_BIG_TEXT = 1_200_000  # characters of one assistant text: a stdout line over the 1 MiB default


def _noise_png(side: int, seed: int = 7) -> bytes:
    """An RGB PNG of random noise: incompressible, so its size is what a screenshot's worst case is."""
    rng = random.Random(seed)
    rows = b"".join(b"\x00" + rng.randbytes(side * 3) for _ in range(side))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


# "Buffer size N exceeds limit L": N is what the reader had buffered when it gave up, which
# moves with how the pipe's reads fell; only whether it exceeded L, and L, are kept.
_REPORTED_SIZE = re.compile(r"([Bb]uffer size )(\d+)")
_REPORTED_LIMIT = re.compile(r"[Bb]uffer size (\d+) exceeds limit (\d+)")


def _reported_limit(said: str | None) -> dict[str, Any] | None:
    """The limit an error names and whether the size it names exceeds it (None: no such error)."""
    found = _REPORTED_LIMIT.search(said or "")
    if found is None:
        return None
    return {"limit": int(found.group(2)), "size over limit": int(found.group(1)) > int(found.group(2))}


def _texts(run: Any) -> list[str]:
    """Each yielded text, a long one by its length only."""
    out = []
    for m in run.of_type("AssistantMessage"):
        for b in m.content:
            t = getattr(b, "text", None)
            if isinstance(t, str):
                out.append(t if len(t) < 100 else f"<{len(t)} chars>")
    return out


# One wire run's delivery of the big line: "absent" alone when the SDK lacks the variant's option.
WireDelivery = TypedDict(
    "WireDelivery",
    {
        "absent": str,
        "texts": list[str],
        "result": bool,
        "error": str | None,
        "original_error": str | None,
        "limit reported": dict[str, Any] | None,  # _reported_limit
    },
    total=False,
)


class OversizedSeen(TypedDict):
    wire: dict[str, WireDelivery]  # "default", "max_buffer_size 4 MiB"
    # "png bytes", "tool result line KiB" and each variant run ("default", "max_buffer_size 8 MiB"):
    # {"tool result delivered", "result", "error"}
    cli: dict[str, Any]


@behaviour(
    id="process.oversized-stdout-line-delivered",
    renamed_from=("process.oversized-stdout-line-fatal",),
    claim=(
        "A big tool result (a large file, an image) can't end the session: a CLI stdout line over 1 MiB is "
        "delivered, and where a limit applies, raising max_buffer_size lets it through."
    ),
    summary="A CLI stdout line over 1 MiB is delivered instead of ending the session",
    source=("py#98", "report"),
    tier="cli",
    checks=("default-buffer-delivers-big-line", "raised-max-buffer-size-delivers-it", "cli-image-read-delivered"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.read_messages",
    timeout=120.0,
    pins={"raised-max-buffer-size-delivers-it": ("option:max_buffer_size",)},
)
async def oversized_stdout_line_delivered(h: Harness) -> OversizedSeen:
    scenario = (
        Scenario().wait_for_user().init().assistant("before").assistant("x" * _BIG_TEXT).assistant("after").result()
    )
    no_limit = lacks("option:max_buffer_size")  # an SDK without it (TypeScript) has no limit to raise
    wire: dict[str, WireDelivery] = {}
    for variant, limit in (("default", None), ("max_buffer_size 4 MiB", 4 * _MIB)):
        if limit is not None and no_limit is not None:
            wire[variant] = {"absent": no_limit}
            continue
        limited: dict[str, Any] = {} if limit is None else {"max_buffer_size": limit}
        run = await h.wire("hi", scenario=scenario, **limited)
        original = getattr(run.exception, "original_error", None)
        said = None if original is None else f"{type(original).__name__}: {original}".splitlines()[0]
        wire[variant] = {
            "texts": _texts(run),
            "result": run.result is not None,
            "error": run.error_line,
            "original_error": None if said is None else re.sub(_REPORTED_SIZE, r"\1<N>", said),
            "limit reported": _reported_limit(said),
        }

    # The real CLI reads a 900x900 noise PNG; the default buffer first, 8 MiB only if that died.
    (h.cwd / "noise.png").write_bytes(_noise_png(900))
    call = tool_use("Read", {"file_path": str(h.cwd / "noise.png")}, "toolu_probe_png")
    cli: dict[str, Any] = {"png bytes": (h.cwd / "noise.png").stat().st_size}
    sizes = [0]
    for variant, limit in (("default", None), ("max_buffer_size 8 MiB", 8 * _MIB)):
        if limit is not None and no_limit is not None:
            break
        recording = StdoutRecording(h.workdir("stdout"))
        buffer: dict[str, Any] = {} if limit is None else {"max_buffer_size": limit}
        session = await h.cli("look at the image", script=[reply(call), "seen"], record_stdout=recording, **buffer)
        # The complete lines carrying the image's tool_result: a dying SDK stops the CLI while
        # that line may still be half written, so a cut-off line is not counted.
        complete = recording.path.read_bytes().split(b"\n")[:-1]
        sizes += [len(line) for line in complete if b"toolu_probe_png" in line]
        cli[variant] = {
            "tool result delivered": any(
                getattr(b, "tool_use_id", None) == "toolu_probe_png"
                for m in session.of_type("UserMessage")
                for b in (m.content if isinstance(m.content, list) else [])
            ),
            "result": session.result is not None,
            "error": session.error_line,
        }
        if session.result is None and session.error_line is None:
            # Neither a result nor an error (seen once on 0.1.33 under load): how the CLI ended.
            cli[variant]["exit code"] = session.exit_code
        if cli[variant]["result"] and cli[variant]["error"] is None:
            break
    cli["tool result line KiB"] = max(sizes) // 1024
    return {"wire": wire, "cli": cli}


@oversized_stdout_line_delivered.decide
def _(seen: OversizedSeen) -> dict[str, Check]:
    wire, cli = seen["wire"], seen["cli"]

    def delivered(variant: str) -> Check:
        r = wire[variant]
        if "absent" in r:
            return undecidable(r["absent"])
        ok = r["result"] and r["error"] is None and f"<{_BIG_TEXT} chars>" in r["texts"]
        return check(ok, f"{variant}: yielded texts {r['texts']}, raised {r['error']} ({r['original_error']})")

    d = cli["default"]
    then = cli.get("max_buffer_size 8 MiB")
    return {
        "default-buffer-delivers-big-line": delivered("default"),
        "raised-max-buffer-size-delivers-it": delivered("max_buffer_size 4 MiB"),
        "cli-image-read-delivered": check(
            d["result"] and d["error"] is None and d["tool result delivered"],
            f"reading a {cli['png bytes'] // 1024} KiB PNG gave a {cli['tool result line KiB']} KiB stdout line; "
            f"the default run raised {d['error']}"
            + ("" if then is None else f"; with 8 MiB: result {then['result']}, error {then['error']}"),
        ),
    }


oversized_stdout_line_delivered.differs_on(
    {
        "wire": {
            variant: {
                "texts": ["before"],
                "result": False,
                "error": "CLIJSONDecodeError: Failed to decode JSON: JSON message exceeded maximum buffer size",
                "original_error": "ValueError: Buffer size <N> exceeds limit 1048576",
                "limit reported": {"limit": 1048576, "size over limit": True},
            }
            for variant in ("default", "max_buffer_size 4 MiB")
        },
        "cli": {
            "png bytes": 2430000,
            "tool result line KiB": 6000,
            "default": {"tool result delivered": False, "result": False, "error": "x"},
        },
    }
)


# --- process.claudecode-env -----------------------------------------------------------------

_NESTED = "CLAUDECODE"


@contextmanager
def _caller_env(name: str, value: str | None) -> Iterator[None]:
    """This process's own `name` set to `value` (None: absent) while an SDK run starts, the caller's
    put back after: the SDK reads it from its own environment. Safe because one probe runs at a time
    in a process."""
    before = os.environ.get(name)
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


class EnvPassed(TypedDict):
    seen: str | None  # CLAUDECODE in the environment the CLI was started with
    error: str | None


class NestedRun(TypedDict):
    result: str | None  # the result's subtype
    error: str | None
    stderr_says_nested: bool


class ClaudecodeSeen(TypedDict):
    wire: dict[str, EnvPassed]  # "inherited", "env option"
    cli: NestedRun


@behaviour(
    id="process.claudecode-env",
    claim=(
        "An SDK program started from inside a Claude Code session (CLAUDECODE=1 in its environment) does not "
        "pass CLAUDECODE on to the CLI it starts, so that CLI runs as a session of its own; a CLAUDECODE the "
        "caller puts in the env option does reach the CLI, and the CLI still runs the session with it."
    ),
    summary="An inherited CLAUDECODE is not passed to the CLI; one given in env is, and the CLI runs",
    source=("py#573", "report"),
    tier="cli",
    checks=("inherited-claudecode-dropped", "env-option-claudecode-passed", "cli-runs-with-claudecode"),
    requires=("option:env",),
    pins={"env-option-claudecode-passed": ("option:env",)},
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
)
async def claudecode_env(h: Harness) -> ClaudecodeSeen:
    with _caller_env(_NESTED, "1"):
        inherited = await h.wire()
    with _caller_env(_NESTED, None):
        given = await h.wire(env={_NESTED: "1"})
        # the real CLI given CLAUDECODE=1 (the session drops the caller's own CLAUDE* variables itself, so an
        # inherited one never reaches it there: what the SDK passes on is the wire runs' to show)
        run = await h.cli("hi", script=["done"], env={_NESTED: "1"}, timeout=60)
    return {
        "wire": {
            "inherited": {"seen": inherited.env.get(_NESTED), "error": inherited.error_line},
            "env option": {"seen": given.env.get(_NESTED), "error": given.error_line},
        },
        "cli": {
            "result": getattr(run.result, "subtype", None),
            "error": run.error_line,
            "stderr_says_nested": any("nested" in line.lower() for line in run.stderr),
        },
    }


@claudecode_env.decide
def _(seen: ClaudecodeSeen) -> dict[str, Check]:
    inherited, given = seen["wire"]["inherited"], seen["wire"]["env option"]
    cli = seen["cli"]
    return {
        "inherited-claudecode-dropped": check(
            inherited["seen"] is None,
            f"with CLAUDECODE=1 in the SDK's environment the CLI was started with CLAUDECODE={inherited['seen']!r}",
        ),
        "env-option-claudecode-passed": check(
            given["seen"] == "1",
            f"with env={{'CLAUDECODE': '1'}} the CLI was started with CLAUDECODE={given['seen']!r} "
            f"(error {given['error']!r})",
        ),
        "cli-runs-with-claudecode": check(
            cli["error"] is None and cli["result"] == "success",
            f"the real CLI given CLAUDECODE=1: result {cli['result']!r}, error {cli['error']!r}, "
            f"stderr naming a nested session {cli['stderr_says_nested']}",
        ),
    }


claudecode_env.differs_on(
    {  # before SDK 0.1.51 (py#573): the inherited variable went on and the CLI refused a nested session
        "wire": {"inherited": {"seen": "1", "error": None}, "env option": {"seen": "1", "error": None}},
        "cli": {"result": None, "error": "ProcessError: Command failed with exit code 1", "stderr_says_nested": True},
    }
)
claudecode_env.differs_on(
    {  # a filter that also drops the caller's own env entry
        "wire": {"inherited": {"seen": None, "error": None}, "env option": {"seen": None, "error": None}},
        "cli": {"result": "success", "error": None, "stderr_says_nested": False},
    }
)
