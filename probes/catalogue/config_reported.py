"""Area `config`, reported: thinking options in the model request, and options.env against settings env."""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import MAIN, Harness, project_settings, reply, result_text, tool_use, user_settings


def _fields() -> set[str]:
    """The options the SDK under test takes, by their Python names (read while the probe runs)."""
    from sdkprobe.harness import option_fields

    return option_fields()


# --- config.thinking-options-reach-request --------------------------------------------

# sub-check -> (option, value given): each run is one session, its first main request read.
# The CLI's default model is one it treats as adaptive-capable; _OLDER_MODEL is one from before.
_OLDER_MODEL = "claude-sonnet-4-5"
_ON_OLDER_MODEL = "max-thinking-tokens-budget-on-older-model"
_THINKING_RUNS: dict[str, tuple[str, Any]] = {
    "adaptive-reaches-request": ("thinking", {"type": "adaptive"}),
    "enabled-budget-reaches-request": ("thinking", {"type": "enabled", "budget_tokens": 1024}),
    "disabled-sends-no-thinking": ("thinking", {"type": "disabled"}),
    "max-thinking-tokens-budget-reaches-request": ("max_thinking_tokens", 2048),
    "zero-max-thinking-tokens-sends-no-thinking": ("max_thinking_tokens", 0),
    "effort-reaches-request": ("effort", "high"),
    _ON_OLDER_MODEL: ("max_thinking_tokens", 2048),
}


def _thinking_seen(body: Any) -> dict[str, Any]:
    """What of the request body concerns thinking and effort."""
    body = body if isinstance(body, dict) else {}
    output_config = body.get("output_config") if isinstance(body.get("output_config"), dict) else {}
    return {
        "model": body.get("model"),
        "thinking": body.get("thinking"),
        "effort": body.get("effort", output_config.get("effort")),
    }


@behaviour(
    id="config.thinking-options-reach-request",
    claim=(
        "thinking={'type': 'adaptive'} makes the CLI ask the model for adaptive thinking, "
        "{'type': 'enabled', 'budget_tokens': N} and max_thinking_tokens=N for thinking with a budget of N, "
        "{'type': 'disabled'} and max_thinking_tokens=0 for no thinking at all, and effort sets the "
        "request's effort: each option reaches the Messages API request as given, on the CLI's default "
        "model and on an older one."
    ),
    summary="thinking, max_thinking_tokens and effort reach the model request as given",
    source=("ts#168", "report"),
    tier="cli",
    checks=tuple(_THINKING_RUNS),
    pins={
        "disabled-sends-no-thinking": ("option:thinking",),
        "max-thinking-tokens-budget-reaches-request": ("option:thinking", "option:max_thinking_tokens"),
        "zero-max-thinking-tokens-sends-no-thinking": ("option:thinking", "option:max_thinking_tokens"),
        "effort-reaches-request": ("option:effort",),
        "max-thinking-tokens-budget-on-older-model": ("option:thinking", "option:max_thinking_tokens"),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=180,
)
async def thinking_options_reach_request(h: Harness) -> dict[str, Any]:
    fields = _fields()
    seen: dict[str, Any] = {}
    for name, (option, value) in _THINKING_RUNS.items():
        if option not in fields:
            seen[name] = {"absent": f"ClaudeAgentOptions of this SDK has no field {option!r}"}
            continue
        options: dict[str, Any] = {option: value, **({"model": _OLDER_MODEL} if name == _ON_OLDER_MODEL else {})}
        run = await h.session("think about it", script=["ok"], **options)
        first = run.first(MAIN)
        seen[name] = {
            "given": {option: value},
            "request": _thinking_seen(first.body) if first else None,
            "error": run.error_line,
        }
    return seen


def _thinking_ok(name: str, request: dict[str, Any]) -> bool:
    thinking = request.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    budget = thinking.get("budget_tokens") if isinstance(thinking, dict) else None
    if name == "adaptive-reaches-request":
        return kind == "adaptive"
    if name == "enabled-budget-reaches-request":
        return kind == "enabled" and budget == 1024
    if name in ("max-thinking-tokens-budget-reaches-request", _ON_OLDER_MODEL):
        return kind == "enabled" and budget == 2048
    if name in ("disabled-sends-no-thinking", "zero-max-thinking-tokens-sends-no-thinking"):
        return thinking is None or kind == "disabled"
    return request.get("effort") == "high"


@thinking_options_reach_request.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks: dict[str, Check] = {}
    for name in _THINKING_RUNS:
        run = seen[name]
        if "absent" in run:
            checks[name] = undecidable(run["absent"])
            continue
        request = run["request"]
        checks[name] = check(
            request is not None and _thinking_ok(name, request),
            f"{run['given']} sent the model {request if request is not None else 'no request'} (error {run['error']})",
        )
    return checks


def _thinking_run(option: str, value: Any, request: dict[str, Any]) -> dict[str, Any]:
    return {"given": {option: value}, "request": {"model": "claude-x", **request}, "error": None}


thinking_options_reach_request.differs_on(
    {
        "adaptive-reaches-request": _thinking_run("thinking", {"type": "adaptive"}, {"thinking": None, "effort": None}),
        "enabled-budget-reaches-request": _thinking_run(
            "thinking",
            {"type": "enabled", "budget_tokens": 1024},
            {"thinking": {"type": "adaptive"}, "effort": None},
        ),
        "disabled-sends-no-thinking": _thinking_run(
            "thinking", {"type": "disabled"}, {"thinking": {"type": "adaptive"}, "effort": None}
        ),
        "max-thinking-tokens-budget-reaches-request": _thinking_run(
            "max_thinking_tokens", 2048, {"thinking": {"type": "enabled", "budget_tokens": 31999}, "effort": None}
        ),
        "zero-max-thinking-tokens-sends-no-thinking": _thinking_run(
            "max_thinking_tokens", 0, {"thinking": {"type": "enabled", "budget_tokens": 0}, "effort": None}
        ),
        "effort-reaches-request": _thinking_run("effort", "high", {"thinking": None, "effort": None}),
        _ON_OLDER_MODEL: _thinking_run("max_thinking_tokens", 2048, {"thinking": None, "effort": None}),
    }
)


# --- config.settings-env-vs-options-env ------------------------------------------------

_VAR = "SDKPROBE_PROBE_VAR"
_FROM_OPTIONS = "from-options"
_ECHO = f'echo "{_VAR}=${_VAR}"'
_ENV_RUNS: dict[str, list[str] | None] = {
    "options-env-wins-default-sources": None,
    "options-env-wins-project-source": ["project"],
    "options-env-wins-no-sources": [],
}


@behaviour(
    id="config.settings-env-vs-options-env",
    claim=(
        "A variable given in the env option is the value the CLI and its tools (Bash) see, even when a "
        "user or project settings file sets the same variable in its `env`, whatever setting_sources is."
    ),
    summary="A variable in options.env beats the same variable in a settings file's env",
    security="a settings file silently replacing what the host put in env (a key, a proxy, a path)",
    source=("ts#217", "report"),
    tier="cli",
    checks=tuple(_ENV_RUNS),
    requires=("option:env", "option:setting_sources", "option:allowed_tools"),
    pins={
        "options-env-wins-default-sources": ("option:env", "option:setting_sources"),
        "options-env-wins-project-source": ("option:env", "option:setting_sources"),
        "options-env-wins-no-sources": ("option:env", "option:setting_sources"),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
    timeout=150,
)
async def settings_env_vs_options_env(h: Harness) -> dict[str, Any]:
    project = h.workdir("proj")
    user_settings(h.config_dir, {"env": {_VAR: "from-user-settings"}})
    project_settings(project, {"env": {_VAR: "from-project-settings"}})
    seen: dict[str, Any] = {}
    for name, sources in _ENV_RUNS.items():
        run = await h.session(
            "what is the variable?",
            script=[reply(tool_use("Bash", {"command": _ECHO}, id="toolu_var")), "done"],
            cwd=str(project),
            allowed_tools=["Bash"],
            setting_sources=sources,
            env={_VAR: _FROM_OPTIONS},
        )
        main = run.on(MAIN)
        out = result_text(main[1].tool_result("toolu_var") if len(main) > 1 else None).strip()
        seen[name] = {"setting_sources": sources, "bash printed": out, "error": run.error_line}
    return seen


@settings_env_vs_options_env.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    return {
        name: check(
            seen[name]["bash printed"] == f"{_VAR}={_FROM_OPTIONS}",
            f"env={{{_VAR!r}: {_FROM_OPTIONS!r}}} with user and project settings setting it, "
            f"setting_sources={seen[name]['setting_sources']!r}: Bash printed {seen[name]['bash printed']!r} "
            f"(error {seen[name]['error']})",
        )
        for name in _ENV_RUNS
    }


settings_env_vs_options_env.differs_on(
    {
        "options-env-wins-default-sources": {
            "setting_sources": None,
            "bash printed": f"{_VAR}=from-project-settings",
            "error": None,
        },
        "options-env-wins-project-source": {
            "setting_sources": ["project"],
            "bash printed": f"{_VAR}=from-project-settings",
            "error": None,
        },
        "options-env-wins-no-sources": {
            "setting_sources": [],
            "bash printed": f"{_VAR}=from-user-settings",
            "error": None,
        },
    }
)
