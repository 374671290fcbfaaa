"""Area `process`, reported by users (CATALOGUE-4 Part B, B6): what the CLI process refuses to
start with, and what of the host's environment decides it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import CliRun, Harness

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


def _ended(run: CliRun) -> dict[str, Any]:
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
    pins={
        "bypass-refused-as-root": ("option:permission_mode",),
        "sandbox-declared-bypass-runs": ("option:permission_mode",),
        "other-mode-runs-as-root": ("option:permission_mode",),
        "bypass-runs-when-not-root": ("option:permission_mode",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def bypass_refused_as_root(h: Harness) -> dict[str, Any]:
    runs: dict[str, Any] = {}
    for label, (mode, env) in _ROOT_RUNS.items():
        run = await h.session("hi", script=["done"], permission_mode=mode, env=dict(env), timeout=60)
        runs[label] = _ended(run)
    # the CLI checks process.getuid() === 0; the harness starts it as this process's own user
    return {"as_root": os.geteuid() == 0, "runs": runs}


@bypass_refused_as_root.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


def _root_run(error: str | None, names_root: bool, result: str | None) -> dict[str, Any]:
    return {
        "error": error,
        "error_names_root": names_root,
        "stderr_names_root": names_root,
        "result": result,
        "exit_code": 1 if error else 0,
    }


_RAN = _root_run(None, False, "success")
bypass_refused_as_root.differs_on(
    {  # a CLI that takes bypass mode as root: the refusal gone (and, with it, the sandbox escape)
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
async def claudecode_env(h: Harness) -> dict[str, Any]:
    with _caller_env(_NESTED, "1"):
        inherited = await h.wire()
    with _caller_env(_NESTED, None):
        given = await h.wire(env={_NESTED: "1"})
        # the real CLI given CLAUDECODE=1 (the session drops the caller's own CLAUDE* variables itself, so an
        # inherited one never reaches it there: what the SDK passes on is the wire runs' to show)
        run = await h.session("hi", script=["done"], env={_NESTED: "1"}, timeout=60)
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
