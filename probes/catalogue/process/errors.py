"""The errors a host sees when the CLI cannot run or dies: which class, where raised, and what it
carries."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import CliRun, Harness, Scenario, sdk_class

# --- process.process-error-carries-stderr ----------------------------------------------

_DIAGNOSTIC = "boom-diagnostic-XYZ"

# What one run (with or without a stderr callback) raised when the CLI died.
Carried = TypedDict(
    "Carried",
    {
        "raised": str | None,
        "is ProcessError": bool | None,  # None: the SDK under test has no ProcessError class
        "exit_code": Any,
        "stderr attribute": Any,
        "diagnostic in the exception": bool,
        "callback lines with it": int,
    },
)


@behaviour(
    id="process.process-error-carries-stderr",
    renamed_from=("process.error-stderr-placeholder",),
    claim=(
        "When the CLI dies, the caller catches a ProcessError carrying the CLI's exit code and what the CLI "
        "wrote to stderr, whether or not a stderr callback is set."
    ),
    summary="A dead CLI's ProcessError carries its exit code and stderr, with or without a callback",
    source=("py#800", "report"),
    tier="wire",
    checks=("typed-error-with-exit-code", "stderr-carried-without-callback", "stderr-carried-with-callback"),
    requires=("option:stderr",),
    pins={
        "typed-error-with-exit-code": ("error:ProcessError",),
        "stderr-carried-without-callback": ("error:ProcessError",),  # no stderr option in this run
        "stderr-carried-with-callback": ("error:ProcessError", "option:stderr"),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.read_messages",
)
async def process_error_carries_stderr(h: Harness) -> dict[str, Carried]:
    process_error = sdk_class("ProcessError")
    seen: dict[str, Carried] = {}
    for variant in ("no stderr callback", "stderr callback"):
        lines: list[str] = []
        scenario = Scenario().wait_for_user().init().stderr(_DIAGNOSTIC + "\n").exit(7)
        callback: dict[str, Any] = {"stderr": lines.append} if variant == "stderr callback" else {}
        run = await h.wire("hi", scenario=scenario, **callback)
        exc = run.exception
        stderr = getattr(exc, "stderr", None)
        seen[variant] = {
            "raised": None if exc is None else type(exc).__name__,
            "is ProcessError": None if process_error is None else isinstance(exc, process_error),
            "exit_code": getattr(exc, "exit_code", None),
            # the attribute as the SDK filled it (a placeholder is the same on every run)
            "stderr attribute": stderr if stderr is None or _DIAGNOSTIC in str(stderr) else str(stderr)[:80],
            "diagnostic in the exception": exc is not None and (_DIAGNOSTIC in str(exc) or _DIAGNOSTIC in str(stderr)),
            "callback lines with it": sum(_DIAGNOSTIC in line for line in lines),
        }
    return seen


@process_error_carries_stderr.decide
def _(seen: dict[str, Carried]) -> dict[str, Check]:
    untyped = {
        v: (r["raised"], r["exit_code"]) for v, r in seen.items() if not r["is ProcessError"] or r["exit_code"] != 7
    }

    def carried(variant: str) -> Check:
        r = seen[variant]
        return check(
            r["diagnostic in the exception"],
            f"{variant}: the {r['raised']} held no stderr text; its stderr was {r['stderr attribute']!r}"
            + (f", the callback got {r['callback lines with it']} line(s) with it" if "callback " in variant else ""),
        )

    typed = check(not untyped, f"the CLI exited 7; raised (type, exit_code): {untyped}")
    if any(r["is ProcessError"] is None for r in seen.values()):
        typed = undecidable(f"this SDK has no ProcessError class; raised (type, exit_code): {untyped}")
    return {
        "typed-error-with-exit-code": typed,
        "stderr-carried-without-callback": carried("no stderr callback"),
        "stderr-carried-with-callback": carried("stderr callback"),
    }


process_error_carries_stderr.differs_on(
    {
        variant: {
            "raised": "Exception",
            "is ProcessError": False,
            "exit_code": None,
            "stderr attribute": None,
            "diagnostic in the exception": False,
            "callback lines with it": 1,
        }
        for variant in ("no stderr callback", "stderr callback")
    }
)
_CARRIED: Carried = {
    "raised": "ProcessError",
    "is ProcessError": True,
    "exit_code": 7,
    "stderr attribute": None,
    "diagnostic in the exception": True,
    "callback lines with it": 0,
}
process_error_carries_stderr.differs_on(
    {  # the stderr option taking the CLI's stderr away from the error: with a callback the error carries none
        "no stderr callback": _CARRIED,
        "stderr callback": {**_CARRIED, "diagnostic in the exception": False, "callback lines with it": 1},
    }
)

_ERRORS = (
    "ClaudeSDKError",
    "CLIConnectionError",
    "CLINotFoundError",
    "CLIJSONDecodeError",
    "ProcessError",
    "ResultError",
)
_MISSING_CLI = "/nonexistent/sdkprobe/claude"
_CORRUPT = '{"type": "assistant", "message": {sdkprobe-corrupt'
_ERROR_RESULT = {
    "errors": ["Reached maximum number of turns (1)"],
    "terminal_reason": "max_turns",
    "num_turns": 2,
}
# sub-check: (the case it reads, the class it must be, the attributes it must carry)
_CASES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "cli-not-found-error-for-missing-cli-path": ("missing cli_path", "CLINotFoundError", {}),
    "connection-error-before-connect": ("query() before connect()", "CLIConnectionError", {}),
    "connection-error-writing-after-cli-exit": ("query() after the CLI exited", "CLIConnectionError", {}),
    "json-decode-error-for-corrupt-line": (
        "a corrupt JSON line",
        "CLIJSONDecodeError",
        {"line": _CORRUPT, "original_error": "JSONDecodeError"},
    ),
    "result-error-after-error-result": (
        "exit 1 after an error result",
        "ResultError",
        {
            "subtype": "error_max_turns",
            "errors": ["Reached maximum number of turns (1)"],
            "result": None,
            "api_error_status": None,
            "terminal_reason": "max_turns",
            "session_id": "fake-session",
            "exit_code": 1,
            "data subtype": "error_max_turns",
        },
    ),
}
_ATTRIBUTES = ("line", "subtype", "errors", "result", "api_error_status", "terminal_reason", "session_id", "exit_code")


# What one case raised (_raised): "raised" always; the rest only when something was raised, an
# attribute only when the exception has it; "yielded" only for the corrupt line.
Raised = TypedDict(
    "Raised",
    {
        "raised": str | None,
        "instance of": list[str],
        "message": str,
        "line": Any,
        "subtype": Any,
        "errors": Any,
        "result": Any,
        "api_error_status": Any,
        "terminal_reason": Any,
        "session_id": Any,
        "exit_code": Any,
        "original_error": str,
        "data subtype": Any,
        "yielded": list[str],
    },
    total=False,
)
# "classes the SDK has", and each case (the first of a _CASES value) -> what it raised
ErrorsSeen = TypedDict(
    "ErrorsSeen",
    {
        "classes the SDK has": list[str],
        "missing cli_path": Raised,
        "query() before connect()": Raised,
        "query() after the CLI exited": Raised,
        "a corrupt JSON line": Raised,
        "exit 1 after an error result": Raised,
    },
)


def _by_case(seen: ErrorsSeen) -> dict[str, Raised]:
    """Each case's observation by its name, for reading them in _CASES's order."""
    every: Mapping[str, Any] = seen
    return {case: every[case] for case, *_ in _CASES.values()}


def _raised(exc: BaseException | None) -> dict[str, Any]:  # a Raised, its attributes named by _ATTRIBUTES
    """What a case raised: its class, the SDK's error classes it is an instance of, its attributes."""
    if exc is None:
        return {"raised": None}
    kinds = {n: k for n in _ERRORS if (k := sdk_class(n)) is not None}
    seen: dict[str, Any] = {
        "raised": type(exc).__name__,
        "instance of": sorted(n for n, k in kinds.items() if isinstance(exc, k)),
        "message": str(exc).splitlines()[0] if str(exc) else "",
    }
    for name in _ATTRIBUTES:
        if hasattr(exc, name):
            seen[name] = getattr(exc, name)
    original = getattr(exc, "original_error", None)
    if original is not None:
        seen["original_error"] = type(original).__name__
    data = getattr(exc, "data", None)
    if isinstance(data, dict):
        seen["data subtype"] = data.get("subtype")
    return seen


async def _missing_cli(h: Harness) -> BaseException | None:
    from claude_agent_sdk import ClaudeAgentOptions, query

    try:
        async for _ in query(prompt="hi", options=ClaudeAgentOptions(cli_path=_MISSING_CLI, cwd=str(h.cwd))):
            pass
    except Exception as exc:  # what the SDK raises is the finding
        return exc
    return None


async def _before_connect(h: Harness) -> BaseException | None:
    from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient

    try:
        await ClaudeSDKClient(options=ClaudeAgentOptions(cwd=str(h.cwd))).query("hi")
    except Exception as exc:
        return exc
    return None


async def _after_exit(client: Any, out: Any) -> None:
    """One turn read to its result; the fake CLI then exits 0; a second query() writes to it."""
    await client.query("hi")
    async for message in client.receive_response():
        out.messages.append(message)
    async for message in client.receive_messages():  # ends when the SDK has read the CLI's stdout to its end
        out.messages.append(message)
    await client.query("again")


@behaviour(
    id="process.errors-raised-where-documented",
    claim=(
        "The SDK's error classes are raised where it says: CLINotFoundError (a CLIConnectionError) for a "
        "cli_path that does not exist; CLIConnectionError for a ClaudeSDKClient used before connect() and "
        "for a write after its CLI exited; CLIJSONDecodeError, carrying the line and the original error, for "
        "a stdout line that looks like JSON and does not parse; ResultError (a ProcessError) when the CLI "
        "exits non-zero after an is_error result, carrying its subtype, errors, result, api_error_status, "
        "terminal_reason, session_id, exit_code and the raw result as data; and every one is a ClaudeSDKError."
    ),
    summary="Each SDK error class is raised where documented, with its attributes",
    source=("sdk-py", "claude_agent_sdk._errors"),
    tier="wire",
    checks=(*_CASES, "every-error-is-a-claude-sdk-error"),
    # the Python SDK's error classes: an SDK without them (TypeScript) has nothing to raise here
    requires=("api:ClaudeSDKError",),
    pins={
        "cli-not-found-error-for-missing-cli-path": ("error:CLINotFoundError",),
        "connection-error-before-connect": ("error:CLIConnectionError",),
        "connection-error-writing-after-cli-exit": ("error:CLIConnectionError",),
        "json-decode-error-for-corrupt-line": ("error:CLIJSONDecodeError",),
        "result-error-after-error-result": ("error:ResultError",),
        "every-error-is-a-claude-sdk-error": ("error:ClaudeSDKError",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport",
)
async def errors_raised_where_documented(h: Harness) -> ErrorsSeen:
    corrupt = Scenario().wait_for_user().init().raw(_CORRUPT + "\n").assistant("after").result()
    failed = Scenario().wait_for_user().init().result("error_max_turns", True, **_ERROR_RESULT).exit(1)
    after = Scenario().wait_for_user().init().assistant("one").result().exit(0)
    exceptions = {
        "missing cli_path": await _missing_cli(h),
        "query() before connect()": await _before_connect(h),
        "query() after the CLI exited": (await h.wire(client=True, drive=_after_exit, scenario=after)).exception,
        "exit 1 after an error result": (await h.wire("hi", scenario=failed)).exception,
    }
    corrupted = await h.wire("hi", scenario=corrupt)
    exceptions["a corrupt JSON line"] = corrupted.exception
    seen = {case: _raised(exc) for case, exc in exceptions.items()}
    # what the caller got instead, when nothing was raised for the corrupt line
    seen["a corrupt JSON line"]["yielded"] = [type(m).__name__ for m in corrupted.messages]
    observed: ErrorsSeen = h.observe({"classes the SDK has": [n for n in _ERRORS if sdk_class(n) is not None], **seen})
    return observed


def _case_check(seen: ErrorsSeen, name: str) -> Check:
    case, cls, attributes = _CASES[name]
    got = _by_case(seen)[case]
    if cls not in seen["classes the SDK has"]:
        return undecidable(f"this SDK has no {cls}; {case}: raised {got['raised']} ({got.get('message')!r})")
    if got["raised"] is None:
        yielded = f"; the caller got {got['yielded']}" if "yielded" in got else ""
        return check(False, f"{case}: nothing was raised{yielded}")
    wrong = [f"{k}={got.get(k, '<absent>')!r} (documented: {v!r})" for k, v in attributes.items() if got.get(k) != v]
    if cls not in got["instance of"]:
        wrong.insert(0, f"raised {got['raised']} ({got['message']!r}), not a {cls}")
    if name.startswith("cli-not-found") and _MISSING_CLI not in got["message"]:
        wrong.append(f"the message {got['message']!r} does not name the cli_path")
    return check(not wrong, f"{case}: " + "; ".join(wrong))


@errors_raised_where_documented.decide
def _(seen: ErrorsSeen) -> dict[str, Check]:
    checks = {name: _case_check(seen, name) for name in _CASES}
    cases = _by_case(seen)
    outside = {
        case: cases[case]["raised"]
        for case, *_ in _CASES.values()
        if cases[case]["raised"] is not None and "ClaudeSDKError" not in cases[case]["instance of"]
    }
    raised = [case for case, *_ in _CASES.values() if cases[case]["raised"] is not None]
    checks["every-error-is-a-claude-sdk-error"] = (
        check(False, "no case raised anything")
        if not raised
        else check(not outside, f"raised outside ClaudeSDKError: {outside}")
    )
    return checks


_PLAIN: Raised = {"raised": "Exception", "instance of": [], "message": "Command failed with exit code 1"}
errors_raised_where_documented.differs_on(
    {  # every case raised a plain Exception
        "classes the SDK has": list(_ERRORS),
        "missing cli_path": _PLAIN,
        "query() before connect()": _PLAIN,
        "query() after the CLI exited": _PLAIN,
        "a corrupt JSON line": _PLAIN,
        "exit 1 after an error result": _PLAIN,
    }
)
errors_raised_where_documented.differs_on(
    {
        "classes the SDK has": list(_ERRORS),
        "missing cli_path": {
            "raised": "CLINotFoundError",
            "instance of": ["CLIConnectionError", "CLINotFoundError", "ClaudeSDKError"],
            "message": "Claude Code not found",
        },
        "query() before connect()": {"raised": None},
        "query() after the CLI exited": {"raised": None},
        "a corrupt JSON line": {
            "raised": "CLIJSONDecodeError",
            "instance of": ["CLIJSONDecodeError", "ClaudeSDKError"],
            "message": "Failed to decode JSON",
            "line": "",
            "original_error": "ValueError",
        },
        "exit 1 after an error result": {
            "raised": "ResultError",
            "instance of": ["ClaudeSDKError", "ProcessError", "ResultError"],
            "message": "Claude Code returned an error result",
            "subtype": None,
            "errors": [],
            "result": None,
            "api_error_status": None,
            "terminal_reason": None,
            "session_id": None,
            "exit_code": 1,
            "data subtype": None,
        },
    }
)

# --- process.bypass-refused-as-root ---------------------------------------------------------

# run -> (permission_mode, the env the probe gives the session): the session drops the host's
# own IS_SANDBOX (and every CLAUDE* variable, CLAUDE_CODE_BUBBLEWRAP included), so each run
# has exactly the sandbox declaration named here and nothing of the host's
_ROOT_RUNS: dict[str, tuple[str, dict[str, str]]] = {
    "bypass": ("bypassPermissions", {}),
    "bypass, IS_SANDBOX=1": ("bypassPermissions", {"IS_SANDBOX": "1"}),
    "acceptEdits": ("acceptEdits", {}),
}
_ROOT_CHECKS = {
    "bypass": "bypass-refused-as-root",
    "bypass, IS_SANDBOX=1": "sandbox-declared-bypass-runs",
    "acceptEdits": "other-mode-runs-as-root",
}
_NOT_ROOT_CHECK = "bypass-runs-when-not-root"
_ROOT_WORDS = ("root", "sudo")


class RootRun(TypedDict):
    error: str | None
    error_names_root: bool
    stderr_names_root: bool
    result: str | None  # the result's subtype
    exit_code: int | None


class RootSeen(TypedDict):
    as_root: bool
    runs: dict[str, RootRun]  # a key of _ROOT_RUNS -> how it ended


def _ended(run: CliRun) -> RootRun:
    """How one session ended, as its caller saw it: the error, a result, the CLI's exit, its stderr on root."""
    error = run.error or ""
    return {
        "error": run.error_line,
        "error_names_root": any(w in error.lower() for w in _ROOT_WORDS),
        "stderr_names_root": any(w in line.lower() for line in run.stderr for w in _ROOT_WORDS),
        "result": getattr(run.result, "subtype", None),
        "exit_code": run.exit_code,
    }


@behaviour(
    id="process.bypass-refused-as-root",
    claim=(
        "When the CLI runs as root, permission_mode='bypassPermissions' is refused: the CLI exits before the "
        "session starts and the caller gets an error (its text, or what the stderr callback was given, naming "
        "root), unless the environment declares a sandbox with IS_SANDBOX=1; other modes run as root as usual."
    ),
    summary="bypassPermissions as root fails with an error unless IS_SANDBOX=1 declares a sandbox",
    security="a root CLI that takes bypass mode without a declared sandbox runs every tool unasked with root rights",
    source=("cc#9184", "report"),
    tier="cli",
    checks=(*_ROOT_CHECKS.values(), _NOT_ROOT_CHECK),
    requires=("option:permission_mode", "option:env"),
    # a mode that never reaches the CLI leaves a default-mode session, refused by nobody: only the
    # refusal sub-check sees it (the runs that should run, run either way)
    pins={"bypass-refused-as-root": ("option:permission_mode",)},
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def bypass_refused_as_root(h: Harness) -> RootSeen:
    runs: dict[str, RootRun] = {}
    for label, (mode, env) in _ROOT_RUNS.items():
        run = await h.cli("hi", script=["done"], permission_mode=mode, env=dict(env), timeout=60)
        runs[label] = _ended(run)
    # the CLI checks process.getuid() === 0; the harness starts it as this process's own user
    return {"as_root": os.geteuid() == 0, "runs": runs}


@bypass_refused_as_root.decide
def _(seen: RootSeen) -> dict[str, Check]:
    runs = seen["runs"]

    def shown(label: str) -> str:
        r = runs[label]
        return (
            f"{label} as root: error {r['error']!r} (naming root: text {r['error_names_root']}, stderr "
            f"{r['stderr_names_root']}), result {r['result']!r}, exit code {r['exit_code']!r}"
        )

    def ran(label: str) -> bool:
        return runs[label]["error"] is None and runs[label]["result"] == "success"

    if not seen["as_root"]:
        decided = dict.fromkeys(_ROOT_CHECKS.values(), undecidable("the host is not root: nothing to refuse"))
        decided[_NOT_ROOT_CHECK] = check(ran("bypass"), shown("bypass").replace(" as root", " not root"))
        return decided
    refused = runs["bypass"]
    return {
        "bypass-refused-as-root": check(
            refused["error"] is not None
            and refused["result"] is None
            and (refused["error_names_root"] or refused["stderr_names_root"]),
            shown("bypass"),
        ),
        "sandbox-declared-bypass-runs": check(ran("bypass, IS_SANDBOX=1"), shown("bypass, IS_SANDBOX=1")),
        "other-mode-runs-as-root": check(ran("acceptEdits"), shown("acceptEdits")),
        _NOT_ROOT_CHECK: undecidable(
            "the host is root and the harness starts the CLI as the host's own user: a non-root CLI cannot be shown"
        ),
    }


def _root_run(error: str | None, names_root: bool, result: str | None) -> RootRun:
    return {
        "error": error,
        "error_names_root": names_root,
        "stderr_names_root": names_root,
        "result": result,
        "exit_code": 1 if error else 0,
    }


_RAN = _root_run(None, False, "success")
bypass_refused_as_root.differs_on(
    {  # a CLI that takes bypass mode as root: the refusal gone (and, with it, the sandbox escape); so
        # too when permission_mode no longer reaches the CLI, and a default-mode session runs
        "as_root": True,
        "runs": {"bypass": _RAN, "bypass, IS_SANDBOX=1": _RAN, "acceptEdits": _RAN},
    }
)
bypass_refused_as_root.differs_on(
    {  # a CLI that refuses every root session, or ignores IS_SANDBOX
        "as_root": True,
        "runs": {
            "bypass": _root_run("ProcessError: Command failed with exit code 1", True, None),
            "bypass, IS_SANDBOX=1": _root_run("ProcessError: Command failed with exit code 1", True, None),
            "acceptEdits": _root_run("ProcessError: Command failed with exit code 1", True, None),
        },
    }
)
bypass_refused_as_root.differs_on(
    {  # not root, and bypass is refused all the same
        "as_root": False,
        "runs": {
            "bypass": _root_run("ProcessError: Command failed with exit code 1", True, None),
            "bypass, IS_SANDBOX=1": _RAN,
            "acceptEdits": _RAN,
        },
    }
)
