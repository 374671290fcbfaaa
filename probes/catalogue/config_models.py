"""Area `config`, which model a session talks to: fallback_model on a failing model, set_model mid-turn."""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import MAIN, ByModel, CliRun, Harness, Script, http_error, reply

# --- config.fallback-model-triggers ----------------------------------------------------

_MAIN_MODEL, _FB_MODEL = "m-main", "m-fb"
_FB_ANSWER = "FB-ANSWER"
# Retries bounded but not off: the CLI counts consecutive overloads before it falls back.
_FALLBACK_ENV = {"CLAUDE_CODE_MAX_RETRIES": "3"}
# sub-check -> (status m-main answers, prompt shape); 429 is recorded, not judged (see claim).
_FALLBACK_RUNS: dict[str, tuple[int, str]] = {
    "overloaded-moves-to-fallback-string-prompt": (529, "string"),
    "overloaded-moves-to-fallback-iterable-prompt": (529, "iterable"),
    "server-error-moves-to-fallback": (500, "string"),
    "unavailable-moves-to-fallback": (404, "string"),
}
_RECORDED_RUNS = {"rate-limited": (429, "string")}
_VISIBLE = "fallback-is-visible"
_SAME = "fallback-equal-to-model-refused"


def _models_script(status: int) -> ByModel:
    return ByModel(
        {
            _MAIN_MODEL: Script(fallback=http_error(status, f"scripted {status} for {_MAIN_MODEL}")),
            _FB_MODEL: Script(fallback=reply(_FB_ANSWER)),
        }
    )


def _notices(run: CliRun) -> list[dict[str, Any]]:
    """System messages other than init, each as its subtype and whether it names the fallback model."""
    return [
        {"subtype": getattr(m, "subtype", None), "names fallback": _FB_MODEL in repr(getattr(m, "data", None))}
        for m in run.of_type("SystemMessage")
        if getattr(m, "subtype", None) != "init"
    ]


def _fallback_seen(run: CliRun) -> dict[str, Any]:
    result = run.result
    return {
        "models asked": [r.model for r in run.on(MAIN)],
        "statuses": [r.status for r in run.on(MAIN)],
        "notices": _notices(run),
        "assistant models": sorted({str(getattr(m, "model", None)) for m in run.of_type("AssistantMessage")}),
        "result": getattr(result, "subtype", None),
        "result text": getattr(result, "result", None),
        "error": run.error_line,
    }


@behaviour(
    id="config.fallback-model-triggers",
    claim=(
        "With model='m-main' and fallback_model='m-fb', a turn whose main model is overloaded (529), fails "
        "(500) or is unavailable (404) is answered by m-fb instead, for a string prompt and for an iterable "
        "one, and the session says so with a system message naming the fallback model; a fallback_model "
        "equal to model is refused when the session starts."
    ),
    summary="fallback_model answers when the main model is overloaded, failing or unavailable",
    source=("cc#8413", "report"),
    tier="cli",
    checks=(*_FALLBACK_RUNS, _VISIBLE, _SAME),
    requires=("option:fallback_model", "option:model"),
    covers=("option:fallback_model",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=300,
)
async def fallback_model_triggers(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for name, (status, shape) in {**_FALLBACK_RUNS, **_RECORDED_RUNS}.items():
        prompt: Any = "answer me" if shape == "string" else [_user("answer me")]
        run = await h.session(
            prompt,
            script=_models_script(status),
            model=_MAIN_MODEL,
            fallback_model=_FB_MODEL,
            env=_FALLBACK_ENV,
            timeout=90,
        )
        seen[name] = {"m-main answers": status, "prompt": shape, **_fallback_seen(run)}
    same = await h.session(
        "answer me",
        script=ByModel({_MAIN_MODEL: Script(fallback=reply("MAIN-ANSWER"))}),
        model=_MAIN_MODEL,
        fallback_model=_MAIN_MODEL,
        env=_FALLBACK_ENV,
    )
    seen[_SAME] = {"fallback_model": _MAIN_MODEL, **_fallback_seen(same)}
    return seen


def _user(text: str) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None}


def _fell_back(run: dict[str, Any]) -> bool:
    return _FB_MODEL in run["models asked"] and run["result"] == "success" and _FB_ANSWER in str(run["result text"])


def _said(run: dict[str, Any]) -> str:
    return (
        f"models asked {run['models asked']} (statuses {run['statuses']}), result {run['result']} "
        f"{run['result text']!r}, error {run['error']}"
    )


@fallback_model_triggers.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {
        name: check(
            _fell_back(seen[name]),
            f"m-main answered {seen[name]['m-main answers']} to a {seen[name]['prompt']} prompt: {_said(seen[name])}",
        )
        for name in _FALLBACK_RUNS
    }
    first = seen["overloaded-moves-to-fallback-string-prompt"]
    checks[_VISIBLE] = check(
        _fell_back(first) and any(n["names fallback"] for n in first["notices"]),
        f"after the fall back to m-fb the session yielded system messages {first['notices']} "
        f"(assistant models {first['assistant models']})",
    )
    same = seen[_SAME]
    checks[_SAME] = check(
        same["result"] != "success",
        f"fallback_model equal to model: {_said(same)}",
    )
    return checks


def _fallback_run(status: int, shape: str, models: list[str], result: str, text: str) -> dict[str, Any]:
    return {
        "m-main answers": status,
        "prompt": shape,
        "models asked": models,
        "statuses": [status if m == _MAIN_MODEL else 200 for m in models],
        "notices": [],
        "assistant models": [],
        "result": result,
        "result text": text,
        "error": None,
    }


_NO_FALLBACK = {
    name: _fallback_run(status, shape, [_MAIN_MODEL], "error_during_execution", "API Error")
    for name, (status, shape) in _FALLBACK_RUNS.items()
}
_SILENT_FALLBACK = {
    name: _fallback_run(status, shape, [_MAIN_MODEL, _FB_MODEL], "success", _FB_ANSWER)
    for name, (status, shape) in _FALLBACK_RUNS.items()
}
_SAME_ACCEPTED = {"fallback_model": _MAIN_MODEL, **_fallback_run(200, "string", [_MAIN_MODEL], "success", "ok")}
fallback_model_triggers.differs_on({**_NO_FALLBACK, _SAME: _SAME_ACCEPTED})
fallback_model_triggers.differs_on({**_SILENT_FALLBACK, _SAME: _SAME_ACCEPTED})
