"""What the TypeScript SDK's settings functions answer without starting the CLI: the settings
resolveSettings() merges and where it says each came from, what filterEscalatingDefaultMode()
drops, and which models matchDeniedModels() says a deniedModels list blocks.

TypeScript only (the Python SDK has none of these functions: not-applicable there, through each
behaviour's `api:` requirement); each function runs in a Node process of its own, its arguments
and answer as JSON."""

from __future__ import annotations

import json
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import Harness, config_dir_env, lacks, session_functions

# --- config.resolve-settings-merges-as-the-cli -----------------------------------------------------

_USER = {"model": "probe-user-model", "cleanupPeriodDays": 9}
_PROJECT = {
    "model": "probe-project-model",
    "env": {"PROBE_PROJECT": "1"},
    "permissions": {"allow": ["Read"], "defaultMode": "bypassPermissions"},
}
_LOCAL = {"model": "probe-local-model"}
_MANAGED = {"allowManagedHooksOnly": True, "permissions": {"deny": ["Bash(curl:*)"]}}
_KEYS = ("allowManagedHooksOnly", "cleanupPeriodDays", "env", "model", "permissions")
# what the CLI's merge gives: local over project over user, managed policy over all
_EFFECTIVE = {
    "allowManagedHooksOnly": True,
    "cleanupPeriodDays": 9,
    "env": {"PROBE_PROJECT": "1"},
    "model": "probe-local-model",
    "permissions": {"allow": ["Read"], "defaultMode": "bypassPermissions", "deny": ["Bash(curl:*)"]},
}
# each key's source, where one tier alone set it or a higher one overrides (and the managed one's origin)
_PROVENANCE = {
    "allowManagedHooksOnly": "managed/parent",
    "cleanupPeriodDays": "user",
    "env": "project",
    "model": "local",
}
_SOURCES = ["user", "project", "local", "managed"]
_MERGED, _NAMED, _FILTERED = (
    "merged-as-the-cli-merges",
    "provenance-names-each-source",
    "escalating-project-mode-dropped",
)


class Resolved(TypedDict):
    """resolveSettings() of a user, project, local and managed tier (the keys the probe set), each
    key's source as `source` or `source/policyOrigin`, the sources in order; what
    filterEscalatingDefaultMode() left of `permissions` for it and for a user tier alone setting
    bypassPermissions (None: the release lacks the function)."""

    effective: dict[str, Any]
    provenance: dict[str, str]
    sources: list[str]
    filtered_project_permissions: Any
    filtered_user_permissions: Any
    filter_lacked: str | None
    error: str | None


def _write(path: Any, settings: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings), encoding="utf-8")


def _source(entry: Any) -> str:
    if not isinstance(entry, dict):
        return repr(entry)
    origin = entry.get("policyOrigin")
    return f"{entry.get('source')}/{origin}" if origin else str(entry.get("source"))


@behaviour(
    id="config.resolve-settings-merges-as-the-cli",
    claim=(
        "resolveSettings() resolves the effective settings with the CLI's merge engine, without starting the CLI: "
        "local over project over user, managed policy (the managedSettings option) over all, permissions.defaultMode "
        "reported as-is; its provenance names the source of each top-level key and its sources list each tier, "
        "low to high; filterEscalatingDefaultMode() drops an escalating defaultMode a project tier set, and keeps "
        "one a user tier set."
    ),
    summary="resolveSettings merges and names sources as the CLI; the filter drops a project mode",
    source=("sdk-ts", "resolveSettings"),
    tier="wire",
    checks=(_MERGED, _NAMED, _FILTERED),
    requires=("api:resolveSettings",),
    pins={
        _MERGED: ("function:resolveSettings",),
        _NAMED: (
            "value:ResolvedSettingSource=user",
            "value:ResolvedSettingSource=project",
            "value:ResolvedSettingSource=local",
            "value:ResolvedSettingSource=managed",
            "value:PolicySettingsOrigin=parent",
        ),
        _FILTERED: ("function:filterEscalatingDefaultMode",),
    },
)
async def resolve_settings_merges_as_the_cli(h: Harness) -> Resolved:
    functions = session_functions()
    _write(h.config_dir / "settings.json", _USER)
    _write(h.cwd / ".claude" / "settings.json", _PROJECT)
    _write(h.cwd / ".claude" / "settings.local.json", _LOCAL)
    other = h.workdir("user-only-config")
    _write(other / "settings.json", {"permissions": {"defaultMode": "bypassPermissions"}})
    options = {"cwd": str(h.cwd), "settingSources": ["user", "project", "local"], "managedSettings": _MANAGED}
    filter_lacked = lacks("api:filterEscalatingDefaultMode")
    seen: Resolved = {
        "effective": {},
        "provenance": {},
        "sources": [],
        "filtered_project_permissions": None,
        "filtered_user_permissions": None,
        "filter_lacked": filter_lacked,
        "error": None,
    }
    try:
        with config_dir_env(h.config_dir):
            resolved = functions.call_exported("resolveSettings", options)
        with config_dir_env(other):
            user_only = functions.call_exported("resolveSettings", {"cwd": str(h.cwd), "settingSources": ["user"]})
        if filter_lacked is None:
            seen["filtered_project_permissions"] = functions.call_exported("filterEscalatingDefaultMode", resolved).get(
                "permissions"
            )
            seen["filtered_user_permissions"] = functions.call_exported("filterEscalatingDefaultMode", user_only).get(
                "permissions"
            )
    except Exception as exc:  # what the SDK threw: a finding
        seen["error"] = f"{type(exc).__name__}: {exc}"
        return seen
    seen["effective"] = {k: v for k, v in (resolved.get("effective") or {}).items() if k in _KEYS}
    seen["provenance"] = {k: _source(v) for k, v in (resolved.get("provenance") or {}).items() if k in _KEYS}
    seen["sources"] = [str(s.get("source")) for s in resolved.get("sources") or [] if isinstance(s, dict)]
    return seen


@resolve_settings_merges_as_the_cli.decide
def _(seen: Resolved) -> dict[str, Check]:
    error = f"; it threw {seen['error']}" if seen["error"] else ""
    named = {k: seen["provenance"].get(k) for k in _PROVENANCE}
    project, user = seen["filtered_project_permissions"], seen["filtered_user_permissions"]
    filtered_ok = (
        isinstance(project, dict)
        and "defaultMode" not in project
        and project.get("allow") == ["Read"]
        and isinstance(user, dict)
        and user.get("defaultMode") == "bypassPermissions"
    )
    return {
        _MERGED: check(seen["effective"] == _EFFECTIVE and not error, f"effective: {seen['effective']}{error}"),
        _NAMED: check(
            named == _PROVENANCE and seen["sources"] == _SOURCES and not error,
            f"provenance {named}, sources {seen['sources']}{error}",
        ),
        _FILTERED: undecidable(seen["filter_lacked"])
        if seen["filter_lacked"]
        else check(
            filtered_ok and not error,
            f"filtered permissions: project's bypassPermissions -> {project}, user's -> {user}{error}",
        ),
    }


_RESOLVED: Resolved = {
    "effective": _EFFECTIVE,
    "provenance": {**_PROVENANCE, "permissions": "managed/parent"},
    "sources": _SOURCES,
    "filtered_project_permissions": {"allow": ["Read"], "deny": ["Bash(curl:*)"]},
    "filtered_user_permissions": {"defaultMode": "bypassPermissions"},
    "filter_lacked": None,
    "error": None,
}
# a release whose merge lets the project tier win over the local one
resolve_settings_merges_as_the_cli.differs_on(
    {**_RESOLVED, "effective": {**_EFFECTIVE, "model": "probe-project-model"}}
)
# a release that names the winning file's tier wrongly (local read as project), and lists no managed source
resolve_settings_merges_as_the_cli.differs_on(
    {**_RESOLVED, "provenance": {**_PROVENANCE, "model": "project"}, "sources": ["user", "project", "local"]}
)
# a release that reads a managed value's origin as a file on disk, and a user-only key as the project's
resolve_settings_merges_as_the_cli.differs_on(
    {
        **_RESOLVED,
        "provenance": {**_PROVENANCE, "allowManagedHooksOnly": "managed/file", "cleanupPeriodDays": "project"},
    }
)
# a release whose project-only env key is named as the user's
resolve_settings_merges_as_the_cli.differs_on({**_RESOLVED, "provenance": {**_PROVENANCE, "env": "user"}})
# a release whose filter keeps a project's bypassPermissions
resolve_settings_merges_as_the_cli.differs_on(
    {**_RESOLVED, "filtered_project_permissions": {"allow": ["Read"], "defaultMode": "bypassPermissions"}}
)
# a release whose filter drops an escalating mode whichever tier set it
resolve_settings_merges_as_the_cli.differs_on({**_RESOLVED, "filtered_user_permissions": {}})


# --- config.match-denied-models-answers-per-model ------------------------------------------------

# case -> the arguments (models, deniedModels): what the doc comment fixes the answer of
_CASES: dict[str, tuple[Any, ...]] = {
    "listed": (["claude-opus-4-1", "claude-sonnet-4-5"], ["claude-opus-4-1"]),
    "no list": (["claude-opus-4-1"],),  # deniedModels undefined
    "models not a list": ("claude-opus-4-1", ["claude-opus-4-1"]),
    "bad entry": (["claude-opus-4-1"], [42]),
}


class Matched(TypedDict):
    """matchDeniedModels' answer per case ({denied, warnings}), or what it threw as `Name: message`."""

    answers: dict[str, Any]


@behaviour(
    id="config.match-denied-models-answers-per-model",
    claim=(
        "matchDeniedModels(models, deniedModels) says, for each model asked about and in order, whether an entry "
        "blocks it: a model an entry names is denied, one no entry names is not, and without a list none is; "
        "nothing throws: models that is not a list gets an empty denied, a bad entry is ignored, and warnings "
        "note each."
    ),
    summary="matchDeniedModels answers per model, in order, and never throws",
    source=("sdk-ts", "matchDeniedModels"),
    tier="wire",
    checks=("named-model-denied", "unnamed-model-not-denied", "bad-input-noted-not-thrown"),
    requires=("api:matchDeniedModels",),
    pins={
        "named-model-denied": ("function:matchDeniedModels",),
        "unnamed-model-not-denied": ("function:matchDeniedModels",),
        "bad-input-noted-not-thrown": ("function:matchDeniedModels",),
    },
)
async def match_denied_models_answers_per_model(h: Harness) -> Matched:
    functions = session_functions()
    answers: dict[str, Any] = {}
    for case, args in _CASES.items():
        try:
            answers[case] = functions.call_exported("matchDeniedModels", *args)
        except Exception as exc:  # the doc comment says nothing throws: a finding
            answers[case] = f"{type(exc).__name__}: {exc}"
    return {"answers": answers}


def _denied(answer: Any) -> Any:
    return answer.get("denied") if isinstance(answer, dict) else answer


def _warned(answer: Any) -> bool:
    return isinstance(answer, dict) and bool(answer.get("warnings"))


@match_denied_models_answers_per_model.decide
def _(seen: Matched) -> dict[str, Check]:
    a = seen["answers"]
    listed, unlisted, bad, entry = a.get("listed"), a.get("no list"), a.get("models not a list"), a.get("bad entry")
    return {
        "named-model-denied": check(
            isinstance(_denied(listed), list) and _denied(listed)[:1] == [True],
            f"claude-opus-4-1 against ['claude-opus-4-1']: {_denied(listed)}",
        ),
        "unnamed-model-not-denied": check(
            _denied(listed) == [True, False] and _denied(unlisted) == [False],
            f"[opus, sonnet] against [opus]: {_denied(listed)}; [opus] without a list: {_denied(unlisted)}",
        ),
        "bad-input-noted-not-thrown": check(
            _denied(bad) == [] and _warned(bad) and _denied(entry) == [False] and _warned(entry),
            f"models not a list gave {bad}; a bad entry gave {entry}",
        ),
    }


_MATCHED: Matched = {
    "answers": {
        "listed": {"denied": [True, False], "warnings": []},
        "no list": {"denied": [False], "warnings": []},
        "models not a list": {"denied": [], "warnings": ['"models" is not a list of model names']},
        "bad entry": {"denied": [False], "warnings": ["an entry that is not a string was ignored"]},
    }
}
# a release whose comparison misses an exact ID (only aliases are matched)
match_denied_models_answers_per_model.differs_on(
    {"answers": {**_MATCHED["answers"], "listed": {"denied": [False, False], "warnings": []}}}
)
# a release that denies every model once any entry is there, or when no list is given
match_denied_models_answers_per_model.differs_on(
    {
        "answers": {
            **_MATCHED["answers"],
            "listed": {"denied": [True, True], "warnings": []},
            "no list": {"denied": [True], "warnings": []},
        }
    }
)
# a release that throws on a non-list, and silently ignores a bad entry
match_denied_models_answers_per_model.differs_on(
    {
        "answers": {
            **_MATCHED["answers"],
            "models not a list": "TypeError: models.map is not a function",
            "bad entry": {"denied": [False], "warnings": []},
        }
    }
)
