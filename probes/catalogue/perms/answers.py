"""What each answer of can_use_tool does: the fields it is handed and sends back, a deny, an
interrupt, an updated input and the rules an allow adds."""

from __future__ import annotations

from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    Harness,
    Scenario,
    Script,
    lacks,
    reply,
    result_text,
    tool_use,
)

# --- perms.permission-callback-wire-contract ---------------------------------------------

# The context fields a can_use_tool request carries as plain strings: attribute -> request key.
_STRING_FIELDS = {
    "tool_use_id": "tool_use_id",
    "agent_id": "agent_id",
    "blocked_path": "blocked_path",
    "decision_reason": "decision_reason",
    "title": "title",
    "display_name": "display_name",
    "description": "description",
}

# One update of each type, in the CLI's JSON shape, each with every field its type takes.
_UPDATES: list[dict[str, Any]] = [
    {
        "type": "addRules",
        "destination": "session",
        "rules": [{"toolName": "Bash", "ruleContent": "npm test"}],
        "behavior": "allow",
    },
    {
        "type": "replaceRules",
        "destination": "projectSettings",
        "rules": [{"toolName": "Read", "ruleContent": "./docs/**"}, {"toolName": "Grep", "ruleContent": "*.md"}],
        "behavior": "deny",
    },
    {
        "type": "removeRules",
        "destination": "userSettings",
        "rules": [{"toolName": "WebFetch", "ruleContent": "domain:example.com"}],
        "behavior": "ask",
    },
    {"type": "setMode", "destination": "localSettings", "mode": "acceptEdits"},
    {"type": "addDirectories", "destination": "session", "directories": ["/srv/extra-a", "/srv/extra-b"]},
    {"type": "removeDirectories", "destination": "localSettings", "directories": ["/srv/extra-a"]},
]

# The full request: every optional field the CLI may send, the six updates as its suggestions.
_FULL = {
    "tool_use_id": "toolu_full",
    "agent_id": "agent-7",
    "blocked_path": "/srv/outside/notes.txt",
    "decision_reason": "a PreToolUse hook asked",
    "title": "Claude wants to run npm test",
    "display_name": "Run command",
    "description": "Runs the project's tests",
    "permission_suggestions": _UPDATES,
}

# case -> what the callback answers (keyed by the input's description, which every SDK passes on)
_CASES = {
    "full": "allow with the context's own suggestions as updated_permissions",
    "bare": "allow with one PermissionUpdate of each type, built by the callback",
    "defaults": "allow with an addRules for the whole tool and no destination",
    "unsendable": "allow with an addRules and a setMode that has no mode",
    "deny": "deny with a message",
    "interrupt": "deny with a message and interrupt=True",
}
_DENY_MESSAGE = "refused by the host"
_STOP_MESSAGE = "stop the turn"


# the update sub-checks, in _UPDATES' order
_UPDATE_NAMES = ("add-rules", "replace-rules", "remove-rules", "set-mode", "add-directories", "remove-directories")


def _update_pins(index: int) -> tuple[str, ...]:
    """What an update's sub-check pins: the answer's updated_permissions, the update's type and field; and
    TypeScript's own items, the behavior of its rules and the values it sends (PermissionUpdateDestination)."""
    u = _UPDATES[index]
    field = next(k for k in ("rules", "mode", "directories") if k in u)
    rule = (
        (f"permission-update:{u['type']}.behavior", f"value:PermissionBehavior={u['behavior']}")
        if "behavior" in u
        else ()
    )
    return (
        "permission:PermissionResultAllow.updated_permissions",
        f"permission-update:{field}",
        f"permission-update:type={u['type']}",
        *rule,
        f"value:PermissionUpdateDestination={u['destination']}",
    )


class Answer(TypedDict):
    subtype: str | None
    response: dict[str, Any] | None
    error: str | None


class WireContractSeen(TypedDict):
    context_class: bool  # whether the SDK fills a context class of its own (TypeScript passes plain options)
    contexts: dict[str, dict[str, Any]]  # a key of _CASES -> _seen_context (its fields vary by SDK)
    answers: dict[str, Answer | None]  # a key of _CASES -> the SDK's answer; None: unanswered
    error: str | None


def _request(case: str) -> dict[str, Any]:
    fields: dict[str, Any] = _FULL if case == "full" else {"tool_use_id": f"toolu_{case}"}
    return {"tool_name": "Bash", "input": {"command": "true", "description": case}, **fields}


def _update(wire: dict[str, Any]) -> Any:
    """A PermissionUpdate built from its fields by hand (not by the SDK's from_dict)."""
    from sdkprobe.harness import PermissionRuleValue, PermissionUpdate

    rules = [
        PermissionRuleValue(tool_name=r["toolName"], rule_content=r.get("ruleContent")) for r in wire.get("rules") or []
    ]
    return PermissionUpdate(
        type=wire["type"],
        rules=rules or None,
        behavior=wire.get("behavior"),
        mode=wire.get("mode"),
        directories=wire.get("directories"),
        destination=wire.get("destination"),
    )


def _seen_update(update: Any) -> dict[str, Any]:
    """A suggestion as the callback got it: its class and, for an object, its fields."""
    if isinstance(update, dict):
        return {"class": "dict", "value": update}
    rules = getattr(update, "rules", None)
    return {
        "class": type(update).__name__,
        "type": getattr(update, "type", None),
        "rules": None
        if rules is None
        else [
            {"tool_name": getattr(r, "tool_name", r), "rule_content": getattr(r, "rule_content", None)} for r in rules
        ],
        "behavior": getattr(update, "behavior", None),
        "mode": getattr(update, "mode", None),
        "directories": getattr(update, "directories", None),
        "destination": getattr(update, "destination", None),
    }


def _seen_context(context: Any) -> dict[str, Any]:
    import dataclasses

    names = {f.name for f in dataclasses.fields(context)}
    seen: dict[str, Any] = {"fields": sorted(names)}
    seen.update({name: getattr(context, name) for name in _STRING_FIELDS if name in names})
    given = context.suggestions  # None: the SDK passed none (TypeScript leaves the key out)
    seen["suggestions"] = None if given is None else [_seen_update(s) for s in given]
    return seen


def _answering(contexts: dict[str, Any]) -> Any:
    """The one can_use_tool of the run: notes the context, answers as its case says."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import (
            PermissionResultAllow,
            PermissionResultDeny,
            PermissionRuleValue,
            PermissionUpdate,
        )

        case = str(tool_input.get("description"))
        contexts[case] = _seen_context(context)
        if case == "full":
            return PermissionResultAllow(updated_permissions=list(context.suggestions))
        if case == "bare":
            return PermissionResultAllow(updated_permissions=[_update(u) for u in _UPDATES])
        if case == "defaults":
            whole_tool = PermissionUpdate(
                type="addRules", rules=[PermissionRuleValue(tool_name="Bash")], behavior="allow"
            )
            return PermissionResultAllow(updated_permissions=[whole_tool])
        if case == "unsendable":
            return PermissionResultAllow(updated_permissions=[_update(_UPDATES[0]), PermissionUpdate(type="setMode")])
        if case == "deny":
            return PermissionResultDeny(message=_DENY_MESSAGE)
        return PermissionResultDeny(message=_STOP_MESSAGE, interrupt=True)

    return callback


@behaviour(
    id="perms.permission-callback-wire-contract",
    claim=(
        "Each field of the CLI's can_use_tool request reaches the callback's ToolPermissionContext as its "
        "attribute (tool_use_id, agent_id, blocked_path, decision_reason, title, display_name, description; "
        "permission_suggestions as PermissionUpdate objects in `suggestions`, or as the CLI sent them on an SDK "
        "with no context class of its own), absent ones None or empty; "
        "PermissionResultAllow.updated_permissions is sent as updatedPermissions, each PermissionUpdate in the "
        "CLI's shape (type, destination, rules as toolName/ruleContent with behavior, mode, directories; a rule "
        "with no rule_content without ruleContent, no destination as 'session'; one unsendable update sends "
        "none), a suggestion sent back unchanged; PermissionResultDeny is sent as behavior 'deny' with its "
        "message, and interrupt true only when asked."
    ),
    summary="can_use_tool gets every request field in its context; its answers reach the CLI intact",
    source=("sdk-py", "ToolPermissionContext, PermissionResultAllow, PermissionResultDeny, PermissionUpdate"),
    tier="wire",
    checks=(
        "context-tool-use-id",
        "context-agent-id",
        "context-blocked-path",
        "context-decision-reason",
        "context-title",
        "context-display-name",
        "context-description",
        "context-suggestions-parsed",
        "context-absent-fields-empty",
        "update-add-rules",
        "update-replace-rules",
        "update-remove-rules",
        "update-set-mode",
        "update-add-directories",
        "update-remove-directories",
        "suggestions-round-trip",
        "whole-tool-rule-default-destination",
        "unsendable-update-sends-none",
        "deny-sends-message",
        "deny-interrupt-sent",
    ),
    requires=("option:can_use_tool",),
    pins={
        "context-tool-use-id": ("permission:ToolPermissionContext.tool_use_id",),
        "context-agent-id": ("permission:ToolPermissionContext.agent_id",),
        "context-blocked-path": ("permission:ToolPermissionContext.blocked_path",),
        "context-decision-reason": ("permission:ToolPermissionContext.decision_reason",),
        "context-title": ("permission:ToolPermissionContext.title",),
        "context-display-name": ("permission:ToolPermissionContext.display_name",),
        "context-description": ("permission:ToolPermissionContext.description",),
        "context-suggestions-parsed": ("permission:ToolPermissionContext.suggestions",),
        **{f"update-{name}": _update_pins(n) for n, name in enumerate(_UPDATE_NAMES)},
        "suggestions-round-trip": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission:ToolPermissionContext.suggestions",
        ),
        "whole-tool-rule-default-destination": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:destination",
        ),
        "unsendable-update-sends-none": ("permission:PermissionResultAllow.updated_permissions",),
        "deny-sends-message": ("permission:PermissionResultDeny", "permission:PermissionResultDeny.message"),
        "deny-interrupt-sent": ("permission:PermissionResultDeny", "permission:PermissionResultDeny.interrupt"),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
)
async def permission_callback_wire_contract(h: Harness) -> WireContractSeen:
    scenario = Scenario().wait_for_user().init()
    for case in _CASES:
        scenario = scenario.request("can_use_tool", **_request(case))
    contexts: dict[str, Any] = {}
    # a client: before 0.2.140 can_use_tool refused a string prompt to query()
    wire = await h.wire("go", scenario=scenario.result(), client=True, can_use_tool=_answering(contexts))
    answers: dict[str, Answer | None] = {}
    for n, case in enumerate(_CASES, 1):
        answer = wire.answers.get(f"fake_req_{n}")
        answers[case] = (
            None
            if answer is None
            else {"subtype": answer.get("subtype"), "response": answer.get("response"), "error": answer.get("error")}
        )
    return {
        "context_class": lacks("api:ToolPermissionContext") is None,
        "contexts": contexts,
        "answers": answers,
        "error": wire.error_line,
    }


def _expected_suggestion(wire: dict[str, Any]) -> dict[str, Any]:
    """What a suggestion in the CLI's shape is as a PermissionUpdate's fields."""
    rules = wire.get("rules")
    return {
        "class": "PermissionUpdate",
        "type": wire["type"],
        "rules": None
        if rules is None
        else [{"tool_name": r["toolName"], "rule_content": r.get("ruleContent")} for r in rules],
        "behavior": wire.get("behavior"),
        "mode": wire.get("mode"),
        "directories": wire.get("directories"),
        "destination": wire.get("destination"),
    }


def _response(seen: WireContractSeen, case: str) -> dict[str, Any] | None:
    answer = seen["answers"].get(case)
    return None if answer is None or answer["subtype"] != "success" else answer["response"]


def _answer_said(seen: WireContractSeen, case: str) -> str:
    answer = seen["answers"].get(case)
    if answer is None:
        return f"no answer to the {case!r} request (callback context seen: {case in seen['contexts']})"
    if answer["subtype"] != "success":
        return f"the {case!r} request was answered {answer['subtype']!r}: {answer['error']!r}"
    return f"the {case!r} answer was {answer['response']!r}"


def _context_field(seen: WireContractSeen, name: str) -> Check:
    full, bare = seen["contexts"].get("full"), seen["contexts"].get("bare")
    if full is None or bare is None:
        return check(
            False, f"the callback was asked for {sorted(seen['contexts'])}, not both the full and bare requests"
        )
    if name not in full["fields"]:
        return undecidable(f"this SDK's ToolPermissionContext has no field {name!r}")
    sent = _FULL[_STRING_FIELDS[name]]
    if name == "tool_use_id":
        return check(
            full[name] == sent and bare[name] == "toolu_bare",
            f"tool_use_id sent 'toolu_full' / 'toolu_bare', context had {full[name]!r} / {bare[name]!r}",
        )
    return check(full[name] == sent, f"{_STRING_FIELDS[name]} sent {sent!r}, context.{name} was {full[name]!r}")


def _update_sent(seen: WireContractSeen, index: int) -> Check:
    wanted = _UPDATES[index]
    response = _response(seen, "bare")
    sent = None if response is None else response.get("updatedPermissions")
    got = sent[index] if isinstance(sent, list) and len(sent) == len(_UPDATES) else None
    return check(
        got == wanted,
        f"PermissionUpdate(type={wanted['type']!r}, ...) was sent as {got!r}"
        + ("" if response is not None else f" ({_answer_said(seen, 'bare')})"),
    )


@permission_callback_wire_contract.decide
def _(seen: WireContractSeen) -> dict[str, Check]:
    contexts = seen["contexts"]
    full, bare = contexts.get("full"), contexts.get("bare")
    expected = (
        [_expected_suggestion(u) for u in _UPDATES]
        if seen["context_class"]
        else [{"class": "dict", "value": u} for u in _UPDATES]
    )
    checks = {f"context-{name.replace('_', '-')}": _context_field(seen, name) for name in _STRING_FIELDS}
    got = None if full is None else full["suggestions"]
    checks["context-suggestions-parsed"] = check(
        got == expected,
        f"the six permission_suggestions arrived as {[s['class'] for s in got or []]}"
        + ("" if got == expected or any(s["class"] != expected[0]["class"] for s in got or []) else f": {got!r}"),
    )
    if bare is None:
        checks["context-absent-fields-empty"] = check(False, "the callback was not asked for the bare request")
    else:
        empty = {name: bare[name] for name in _STRING_FIELDS if name in bare and name != "tool_use_id"}
        checks["context-absent-fields-empty"] = check(
            bare["suggestions"] in ([], None) and all(v is None for v in empty.values()),
            f"with only tool_use_id sent, the context had {empty}, suggestions {bare['suggestions']!r}",
        )
    for index, name in enumerate(_UPDATE_NAMES):
        checks[f"update-{name}"] = _update_sent(seen, index)
    full_response = _response(seen, "full")
    checks["suggestions-round-trip"] = check(
        full_response is not None and full_response.get("updatedPermissions") == _UPDATES,
        f"the suggestions sent back as updated_permissions: {_answer_said(seen, 'full')}",
    )
    defaults = _response(seen, "defaults")
    whole_tool = {"type": "addRules", "destination": "session", "rules": [{"toolName": "Bash"}], "behavior": "allow"}
    checks["whole-tool-rule-default-destination"] = check(
        defaults is not None and defaults.get("updatedPermissions") == [whole_tool],
        f"PermissionUpdate('addRules', rules=[PermissionRuleValue('Bash')], behavior='allow'): "
        f"{_answer_said(seen, 'defaults')}",
    )
    unsendable = _response(seen, "unsendable")
    checks["unsendable-update-sends-none"] = check(
        unsendable is not None and unsendable.get("behavior") == "allow" and "updatedPermissions" not in unsendable,
        f"an addRules with a setMode lacking its mode: {_answer_said(seen, 'unsendable')}",
    )
    deny, stop = _response(seen, "deny"), _response(seen, "interrupt")
    checks["deny-sends-message"] = check(
        deny is not None
        and deny.get("behavior") == "deny"
        and deny.get("message") == _DENY_MESSAGE
        and not deny.get("interrupt")
        and "updatedInput" not in deny,
        f"PermissionResultDeny(message={_DENY_MESSAGE!r}): {_answer_said(seen, 'deny')}",
    )
    checks["deny-interrupt-sent"] = check(
        stop is not None
        and stop.get("behavior") == "deny"
        and stop.get("message") == _STOP_MESSAGE
        and stop.get("interrupt") is True,
        f"PermissionResultDeny(message={_STOP_MESSAGE!r}, interrupt=True): {_answer_said(seen, 'interrupt')}",
    )
    return checks


def _success(response: dict[str, Any]) -> Answer:
    return {"subtype": "success", "response": response, "error": None}


_ALL_STRINGS = {name: _FULL[key] for name, key in _STRING_FIELDS.items()}
_ALL_FIELDS = sorted(["signal", "suggestions", *_STRING_FIELDS])

# The contract broken everywhere: fields dropped or renamed, suggestions left as dicts, updates
# in snake_case or with ruleContent null, the unsendable update sent half, a deny sent as allow.
permission_callback_wire_contract.differs_on(
    {
        "context_class": True,
        "contexts": {
            "full": {
                "fields": _ALL_FIELDS,
                **{name: None for name in _STRING_FIELDS},
                "tool_use_id": "toolu_bare",
                "suggestions": [{"class": "dict", "value": u} for u in _UPDATES],
            },
            "bare": {"fields": _ALL_FIELDS, **_ALL_STRINGS, "suggestions": [{"class": "dict", "value": _UPDATES[0]}]},
        },
        "answers": {
            "full": {"subtype": "error", "response": None, "error": "'dict' object has no attribute 'to_dict'"},
            "bare": _success(
                {
                    "behavior": "allow",
                    "updatedInput": {},
                    "updatedPermissions": [
                        {"type": u["type"], "tool_name": "Bash", "rule_content": None, "mode": None} for u in _UPDATES
                    ],
                }
            ),
            "defaults": _success(
                {
                    "behavior": "allow",
                    "updatedPermissions": [
                        {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": None}], "behavior": "allow"}
                    ],
                }
            ),
            "unsendable": _success(
                {
                    "behavior": "allow",
                    "updatedPermissions": [_UPDATES[0], {"type": "setMode", "destination": "session"}],
                }
            ),
            "deny": _success({"behavior": "allow", "updatedInput": {}}),
            "interrupt": _success({"behavior": "deny", "message": _STOP_MESSAGE}),
        },
        "error": None,
    }
)
# Unanswered requests (the callback never asked) make every check differ too, with no context seen.
permission_callback_wire_contract.differs_on(
    {
        "context_class": False,
        "contexts": {},
        "answers": dict.fromkeys(_CASES),
        "error": "ProbeTimeout: the SDK never answered",
    }
)


# --- perms.permission-results-take-effect ------------------------------------------------

_HOST_DENY = "DENIED-BY-HOST: not this file"
_HOST_STOP = "STOPPED-BY-HOST"

# The turn's Bash calls in order (each its own model reply): tool_use id -> the file it touches.
_STEPS = {
    "toolu_rule1": "ruled.txt",  # allowed with an addRules for this very command (session)
    "toolu_rule2": "ruled.txt",  # the identical call: the rule answers, the callback is not asked
    "toolu_deny": "denied.txt",  # denied with a message
    "toolu_edit": "original.txt",  # allowed with updated_input touching rewritten.txt instead
    "toolu_stop": "stopped.txt",  # denied with interrupt=True: the turn ends here
    "toolu_after": "after.txt",  # never reached when the interrupt is honoured
}


def _touch(h: Harness, name: str) -> str:
    return f"touch {h.cwd / name}"


def _deciding(h: Harness, asked: list[str]) -> Any:
    """The host's can_use_tool: a different answer for each file a Bash call touches."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import (
            PermissionResultAllow,
            PermissionResultDeny,
            PermissionRuleValue,
            PermissionUpdate,
        )

        command = str(tool_input.get("command", ""))
        target = command.rsplit("/", 1)[-1]
        asked.append(target)
        if target == "ruled.txt":
            rule = PermissionRuleValue(tool_name="Bash", rule_content=command)
            update = PermissionUpdate(type="addRules", rules=[rule], behavior="allow", destination="session")
            return PermissionResultAllow(updated_permissions=[update])
        if target == "denied.txt":
            return PermissionResultDeny(message=_HOST_DENY)
        if target == "original.txt":
            return PermissionResultAllow(updated_input={**tool_input, "command": _touch(h, "rewritten.txt")})
        if target == "stopped.txt":
            return PermissionResultDeny(message=_HOST_STOP, interrupt=True)
        return PermissionResultAllow()

    return callback


class EffectSeen(TypedDict):
    asked: list[str]  # the file each call the callback was asked about touches
    files: dict[str, bool]  # a file of _STEPS, or rewritten.txt -> whether it exists
    tool_results: dict[str, Any]  # a tool_use id of _STEPS -> is_error and text of its tool_result, or None (h.observe)
    model_requests: int
    result: str | None
    error: str | None


@behaviour(
    id="perms.permission-results-take-effect",
    claim=(
        "What can_use_tool answers is what the CLI does: PermissionResultDeny(message=...) keeps the tool from "
        "running and the model gets the message in the tool result; PermissionResultDeny(interrupt=True) ends "
        "the turn; PermissionResultAllow(updated_input=...) runs the tool with the new input; "
        "PermissionResultAllow(updated_permissions=[addRules, destination 'session']) allows an identical later "
        "call without asking the callback again."
    ),
    summary="A deny stops the tool (interrupt: the turn); updated input and added rules apply",
    source=("sdk-py", "PermissionResultAllow, PermissionResultDeny"),
    tier="cli",
    checks=(
        "deny-tool-not-run",
        "deny-message-reaches-model",
        "deny-interrupt-ends-turn",
        "updated-input-runs-instead",
        "added-rule-not-asked-again",
    ),
    requires=("option:can_use_tool",),
    # each answer's item pinned by the sub-check its own call decides (each call its own file)
    pins={
        "deny-tool-not-run": ("permission:PermissionResultDeny",),
        "deny-message-reaches-model": ("permission:PermissionResultDeny", "permission:PermissionResultDeny.message"),
        "deny-interrupt-ends-turn": ("permission:PermissionResultDeny", "permission:PermissionResultDeny.interrupt"),
        "added-rule-not-asked-again": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
        ),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
    security="a deny or interrupt not honoured, or a rewritten input ignored, would run a tool the host refused",
)
async def permission_results_take_effect(h: Harness) -> EffectSeen:
    asked: list[str] = []
    script = [
        reply(tool_use("Bash", {"command": _touch(h, name), "description": "mark"}, id=tid))
        for tid, name in _STEPS.items()
    ]
    # a client: before 0.2.140 can_use_tool refused a string prompt to query()
    run = await h.cli("mark the files", script=[*script, "done"], client=True, can_use_tool=_deciding(h, asked))
    main = run.on(MAIN)
    last = main[-1] if main else None
    results: dict[str, Any] = {}
    for tid in _STEPS:
        block = last.tool_result(tid) if last else None
        results[tid] = (
            None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)[:200]}
        )
    return {
        "asked": asked,
        "files": {name: (h.cwd / name).exists() for name in (*_STEPS.values(), "rewritten.txt")},
        "tool_results": h.observe(results),
        "model_requests": len(main),
        "result": getattr(run.result, "subtype", None),
        "error": run.error_line,
    }


@permission_results_take_effect.decide
def _(seen: EffectSeen) -> dict[str, Check]:
    files, results, asked = seen["files"], seen["tool_results"], seen["asked"]
    denied = results.get("toolu_deny")
    # the model is asked once per reply until the stop; a request after it means the turn went on
    requests_to_stop = list(_STEPS).index("toolu_stop") + 1
    return {
        "deny-tool-not-run": check(
            "denied.txt" in asked and not files["denied.txt"],
            f"callback asked for {asked}; denied.txt written: {files['denied.txt']}",
        ),
        "deny-message-reaches-model": check(
            denied is not None and denied["is_error"] and _HOST_DENY in denied["text"],
            f"the denied call's tool_result was {denied!r}",
        ),
        "deny-interrupt-ends-turn": check(
            "stopped.txt" in asked
            and not files["stopped.txt"]
            and not files["after.txt"]
            and seen["model_requests"] == requests_to_stop,
            f"stopped.txt written: {files['stopped.txt']}; the model was asked {seen['model_requests']} time(s) "
            f"({requests_to_stop} up to the interrupt); after.txt written: {files['after.txt']}; "
            f"result {seen['result']!r}",
        ),
        "updated-input-runs-instead": check(
            files["rewritten.txt"] and not files["original.txt"],
            f"rewritten.txt written: {files['rewritten.txt']}; original.txt written: {files['original.txt']}",
        ),
        "added-rule-not-asked-again": check(
            asked.count("ruled.txt") == 1
            and files["ruled.txt"]
            and results.get("toolu_rule2") is not None
            and not results["toolu_rule2"]["is_error"],
            f"the callback was asked {asked.count('ruled.txt')} time(s) for the two identical calls; "
            f"the second's tool_result {results.get('toolu_rule2')!r}",
        ),
    }


permission_results_take_effect.differs_on(
    {
        "asked": ["ruled.txt", "ruled.txt", "denied.txt", "original.txt", "stopped.txt", "after.txt"],
        "files": {
            "ruled.txt": True,
            "denied.txt": True,
            "original.txt": True,
            "stopped.txt": False,
            "after.txt": True,
            "rewritten.txt": False,
        },
        "tool_results": {
            "toolu_rule2": {"is_error": False, "text": ""},
            "toolu_deny": {"is_error": True, "text": "Permission denied"},
        },
        "model_requests": 7,
        "result": "success",
        "error": None,
    }
)

# As 2.1.332 answers every call: the base each regression below changes one answer of.
_EFFECTS_KEPT: EffectSeen = {
    "asked": ["ruled.txt", "denied.txt", "original.txt", "stopped.txt"],
    "files": {
        "ruled.txt": True,
        "denied.txt": False,
        "original.txt": False,
        "stopped.txt": False,
        "after.txt": False,
        "rewritten.txt": True,
    },
    "tool_results": {
        "toolu_rule1": {"is_error": False, "text": ""},
        "toolu_rule2": {"is_error": False, "text": ""},
        "toolu_deny": {"is_error": True, "text": _HOST_DENY},
        "toolu_edit": {"is_error": False, "text": ""},
        "toolu_stop": None,
        "toolu_after": None,
    },
    "model_requests": 5,
    "result": "error_during_execution",
    "error": None,
}
# updated_permissions (its addRules) no longer sent: the identical second call is asked again
permission_results_take_effect.differs_on({**_EFFECTS_KEPT, "asked": ["ruled.txt", *_EFFECTS_KEPT["asked"]]})
# PermissionResultDeny.message no longer sent: the model gets the CLI's own words
permission_results_take_effect.differs_on(
    {
        **_EFFECTS_KEPT,
        "tool_results": {
            **_EFFECTS_KEPT["tool_results"],
            "toolu_deny": {"is_error": True, "text": "Permission denied"},
        },
    }
)
# PermissionResultDeny.interrupt no longer sent: the stop is a plain deny and the turn goes on
permission_results_take_effect.differs_on(
    {
        **_EFFECTS_KEPT,
        "asked": [*_EFFECTS_KEPT["asked"], "after.txt"],
        "files": {**_EFFECTS_KEPT["files"], "after.txt": True},
        "model_requests": 7,
        "result": "success",
    }
)

_FILES = ("a.txt", "b.txt", "c.txt")
_AFTER = "the model was asked again after the denial"


def _calls() -> Any:
    return reply(
        *(
            tool_use("Bash", {"command": f"touch {name}", "description": "probe"}, f"toolu_par_{name[0]}")
            for name in _FILES
        )
    )


class RunResult(TypedDict):
    subtype: str
    is_error: bool
    terminal_reason: str | None


ParallelRun = TypedDict(
    "ParallelRun",
    {
        "asked": list[str],  # the Bash commands can_use_tool was asked about
        "files": dict[str, bool],  # a file of _FILES -> whether it exists
        "model requests": int,
        "result": RunResult | None,
        "error": str | None,
    },
)


async def _session(h: Harness, interrupt: bool) -> ParallelRun:
    from sdkprobe.harness import PermissionResultAllow, PermissionResultDeny

    asked: list[str] = []

    async def deny_a(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        command = str(tool_input.get("command", ""))
        asked.append(command)
        if "a.txt" in command:
            return PermissionResultDeny(message="not a", interrupt=interrupt)
        return PermissionResultAllow()

    for name in _FILES:
        (h.cwd / name).unlink(missing_ok=True)
    run = await h.cli(
        "touch three files",
        client=True,
        script=Script(main=[_calls(), _AFTER], fallback=reply("ok")),
        can_use_tool=deny_a,
    )
    result = run.result
    return {
        "asked": asked,
        "files": {name: (h.cwd / name).exists() for name in _FILES},
        "model requests": len(run.on(MAIN)),
        "result": None
        if result is None
        else {
            "subtype": result.subtype,
            "is_error": result.is_error,
            "terminal_reason": getattr(result, "terminal_reason", None),
        },
        "error": run.error_line,
    }


ParallelSeen = TypedDict("ParallelSeen", {"interrupt=True": ParallelRun, "interrupt=False": ParallelRun})


@behaviour(
    id="perms.deny-interrupt-stops-parallel",
    claim=(
        "A PermissionResultDeny with interrupt=True ends the turn: the denied tool does not run, nor do the other "
        "tool calls of the same assistant message, and the model is not asked again; with interrupt=False only "
        "the denied call is refused, the others run and the turn goes on."
    ),
    summary="Deny with interrupt=True stops the message's other calls; interrupt=False doesn't",
    source=("acp#425", "report"),
    tier="cli",
    checks=(
        "interrupting-deny-denied-tool-not-run",
        "interrupting-deny-stops-sibling-calls",
        "interrupting-deny-ends-turn",
        "plain-deny-siblings-run-turn-goes-on",
    ),
    controls=("plain-deny-siblings-run-turn-goes-on",),
    requires=("option:can_use_tool", "api:PermissionResultDeny"),
    pins={
        # interrupt lost, the deny still keeps its own call from running: that is the deny's
        "interrupting-deny-denied-tool-not-run": ("permission:PermissionResultDeny",),
        "interrupting-deny-stops-sibling-calls": ("permission:PermissionResultDeny.interrupt",),
        "interrupting-deny-ends-turn": ("permission:PermissionResultDeny.interrupt",),
    },
    sdk_ref="claude_agent_sdk.types.PermissionResultDeny",
    security="a denial meant to stop the turn would let the other commands the model queued beside it run",
    timeout=120,
)
async def deny_interrupt_stops_parallel(h: Harness) -> ParallelSeen:
    return {
        "interrupt=True": await _session(h, True),
        "interrupt=False": await _session(h, False),
    }


@deny_interrupt_stops_parallel.decide
def _(seen: ParallelSeen) -> dict[str, Check]:
    stop, plain = seen["interrupt=True"], seen["interrupt=False"]

    def said(run: ParallelRun) -> str:
        return (
            f"asked for {run['asked']}, files made {run['files']}, the model asked {run['model requests']} time(s), "
            f"result {run['result']}, raised {run['error']}"
        )

    return {
        "interrupting-deny-denied-tool-not-run": check(
            bool(stop["asked"]) and not stop["files"]["a.txt"], f"interrupt=True: {said(stop)}"
        ),
        "interrupting-deny-stops-sibling-calls": check(
            not stop["files"]["b.txt"] and not stop["files"]["c.txt"], f"interrupt=True: {said(stop)}"
        ),
        "interrupting-deny-ends-turn": check(stop["model requests"] == 1, f"interrupt=True: {said(stop)}"),
        "plain-deny-siblings-run-turn-goes-on": check(
            not plain["files"]["a.txt"]
            and plain["files"]["b.txt"]
            and plain["files"]["c.txt"]
            and plain["model requests"] >= 2,
            f"interrupt=False: {said(plain)}",
        ),
    }


def _seen(files: dict[str, bool], requests: int) -> ParallelRun:
    return {
        "asked": ["touch a.txt", "touch b.txt", "touch c.txt"],
        "files": files,
        "model requests": requests,
        "result": {"subtype": "success", "is_error": False, "terminal_reason": None},
        "error": None,
    }


# interrupt dropped (claude-agent-acp#425 before its fix, read the other way): the siblings ran
# and the turn went on; and a plain deny that stopped everything.
deny_interrupt_stops_parallel.differs_on(
    {
        "interrupt=True": _seen({"a.txt": False, "b.txt": True, "c.txt": True}, 2),
        "interrupt=False": _seen({"a.txt": False, "b.txt": False, "c.txt": False}, 1),
    }
)
# The denied call itself ran.
deny_interrupt_stops_parallel.differs_on(
    {
        "interrupt=True": _seen({"a.txt": True, "b.txt": False, "c.txt": False}, 1),
        "interrupt=False": _seen({"a.txt": True, "b.txt": True, "c.txt": True}, 2),
    }
)


# --- perms.ts-answer-classification-sent ---------------------------------------------------

# case -> the answer can_use_tool gives, as a TypeScript host writes a PermissionResult
_CLASSIFIED: dict[str, dict[str, Any]] = {
    "allow-once": {"behavior": "allow", "decisionClassification": "user_temporary", "toolUseID": "toolu_c_once"},
    "allow-always": {"behavior": "allow", "decisionClassification": "user_permanent", "toolUseID": "toolu_c_always"},
    "allow-by-policy": {"behavior": "allow", "decisionClassification": "config", "toolUseID": "toolu_c_policy"},
    "deny-by-user": {
        "behavior": "deny",
        "message": "the user said no",
        "decisionClassification": "user_reject",
        "toolUseID": "toolu_c_reject",
    },
    "deny-by-policy": {
        "behavior": "deny",
        "message": "policy says no",
        "decisionClassification": "config",
        "toolUseID": "toolu_c_deny_policy",
    },
}
_ALLOW_CLASS, _DENY_CLASS = "allow-decision-classification-sent", "deny-decision-classification-sent"
_ALLOW_ID, _DENY_ID = "allow-tool-use-id-sent", "deny-tool-use-id-sent"


class ClassifiedSeen(TypedDict):
    asked: list[str]  # the cases can_use_tool was asked for, in order
    responses: dict[str, Any]  # case -> the control response the CLI got (None: unanswered)
    error: str | None


def _classified_request(case: str) -> dict[str, Any]:
    # the request's own tool_use_id differs from the answer's toolUseID, so the one sent is the answer's
    return {"tool_name": "Bash", "input": {"command": "true", "description": case}, "tool_use_id": f"toolu_req_{case}"}


@behaviour(
    id="perms.ts-answer-classification-sent",
    claim=(
        "A canUseTool answer's decisionClassification (user_temporary, user_permanent, config on an allow; "
        "user_reject, config on a deny) reaches the CLI in the control response as given, beside the behavior; "
        "the response's toolUseID names the call the request was about (the request's tool_use_id), so an "
        "answer's own toolUseID cannot tie it to another call."
    ),
    summary="An answer's decisionClassification reaches the CLI; its toolUseID is the request's call",
    source=("sdk-ts", "PermissionResult, PermissionDecisionClassification"),
    tier="wire",
    checks=(_ALLOW_CLASS, _DENY_CLASS, _ALLOW_ID, _DENY_ID),
    requires=("option:can_use_tool", "field:PermissionResult.decisionClassification"),  # TypeScript's only
    pins={
        _ALLOW_CLASS: (
            "permission:allow.decisionClassification",
            "value:PermissionDecisionClassification=user_temporary",
            "value:PermissionDecisionClassification=user_permanent",
            "value:PermissionDecisionClassification=config",
        ),
        _DENY_CLASS: (
            "permission:deny.decisionClassification",
            "value:PermissionDecisionClassification=user_reject",
            "value:PermissionDecisionClassification=config",
        ),
        _ALLOW_ID: ("permission:allow.toolUseID",),
        _DENY_ID: ("permission:deny.toolUseID",),
    },
)
async def ts_answer_classification_sent(h: Harness) -> ClassifiedSeen:
    asked: list[str] = []

    async def classify(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        case = str(tool_input.get("description"))
        asked.append(case)
        return _CLASSIFIED[case]  # a PermissionResult as TypeScript spells it, handed to the SDK as it is

    scenario = Scenario().wait_for_user().init()
    for case in _CLASSIFIED:
        scenario = scenario.request("can_use_tool", **_classified_request(case))
    wire = await h.wire("go", scenario=scenario.result(), client=True, can_use_tool=classify)
    responses = {}
    for n, case in enumerate(_CLASSIFIED, 1):
        answer = wire.answers.get(f"fake_req_{n}")
        responses[case] = None if answer is None else answer.get("response", {"error": answer.get("error")})
    return {"asked": asked, "responses": responses, "error": wire.error_line}


def _carried(seen: ClassifiedSeen, behavior: str, key: str) -> Check:
    """Each `behavior` answer's response carries `key` as wanted: decisionClassification as the answer gave
    it, toolUseID as the request's own tool_use_id (the answer gave another)."""
    wrong = {}
    for case, answer in _CLASSIFIED.items():
        if answer["behavior"] != behavior:
            continue
        want = _classified_request(case)["tool_use_id"] if key == "toolUseID" else answer[key]
        got = seen["responses"].get(case)
        if not isinstance(got, dict) or got.get("behavior") != behavior or got.get(key) != want:
            wrong[case] = got
    error = f"; the run raised {seen['error']}" if seen["error"] else ""
    wanted = "the request's tool_use_id" if key == "toolUseID" else f"the answer's {key}"
    return check(
        not wrong and not error, f"wanted {wanted}, the CLI got {wrong} (callback asked for {seen['asked']}){error}"
    )


@ts_answer_classification_sent.decide
def _(seen: ClassifiedSeen) -> dict[str, Check]:
    return {
        _ALLOW_CLASS: _carried(seen, "allow", "decisionClassification"),
        _DENY_CLASS: _carried(seen, "deny", "decisionClassification"),
        _ALLOW_ID: _carried(seen, "allow", "toolUseID"),
        _DENY_ID: _carried(seen, "deny", "toolUseID"),
    }


def _as_answered(drop: tuple[str, ...] = (), changed: dict[str, Any] | None = None) -> ClassifiedSeen:
    """What 0.3.336 sends (the request's tool_use_id as toolUseID; updatedInput {} on an allow), with `drop`
    keys left out and `changed` cases' responses replaced."""
    responses = {
        case: {
            k: v for k, v in {**answer, "toolUseID": _classified_request(case)["tool_use_id"]}.items() if k not in drop
        }
        for case, answer in _CLASSIFIED.items()
    }
    return {"asked": list(_CLASSIFIED), "responses": {**responses, **(changed or {})}, "error": None}


# a release whose answer builder copies behavior, updatedInput and message only
ts_answer_classification_sent.differs_on(_as_answered(drop=("decisionClassification", "toolUseID")))
# a release that sends each answer as the host wrote it (its own toolUseID), 'config' turned to user_reject on a deny
ts_answer_classification_sent.differs_on(
    _as_answered(
        changed={
            case: {**answer, **({"decisionClassification": "user_reject"} if answer["behavior"] == "deny" else {})}
            for case, answer in _CLASSIFIED.items()
        }
    )
)


# --- perms.ts-callback-options-as-sent -------------------------------------------------------

# the request's fields only the TypeScript SDK's canUseTool is handed -> what its options carry for them
_ASK_FIELDS: dict[str, Any] = {
    "default_to_no": True,
    "suppress_always_allow_rule": True,
    "mcp_server": {"name": "probe-mcp", "source": "project"},
    "matched_ask_rule": {"source": "projectSettings", "tool_name": "Bash", "rule_content": "npm test"},
}
_OPTIONS_WANTED: dict[str, Any] = {
    "defaultToNo": True,
    "suppressAlwaysAllowRule": True,
    "mcpServer": {"name": "probe-mcp", "source": "project"},
    "matchedAskRule": {"source": "projectSettings", "toolName": "Bash", "ruleContent": "npm test"},
    "requestId": "fake_req_1",  # the control request's own id, from its envelope
}
_OPTION_CHECKS = {
    "default-to-no-handed": "defaultToNo",
    "suppress-always-allow-rule-handed": "suppressAlwaysAllowRule",
    "mcp-server-handed": "mcpServer",
    "matched-ask-rule-handed": "matchedAskRule",
    "request-id-handed": "requestId",
}


class HandedSeen(TypedDict):
    lacking: dict[str, str]  # a key of canUseTool's options -> why the release does not declare it
    handed: list[Any]  # canUseTool's third argument on each call, as the SDK gave it (its AbortSignal left out)
    answer: Any  # the control response the CLI got
    error: str | None


@behaviour(
    id="perms.ts-callback-options-as-sent",
    claim=(
        "canUseTool's third argument carries what the CLI's can_use_tool request says of the ask: default_to_no as "
        "defaultToNo, suppress_always_allow_rule as suppressAlwaysAllowRule, mcp_server as mcpServer {name, source}, "
        "matched_ask_rule as matchedAskRule {source, toolName, ruleContent}, and the control request's id as "
        "requestId."
    ),
    summary="canUseTool is handed defaultToNo, matchedAskRule, mcpServer, requestId as sent",
    source=("sdk-ts", "CanUseTool"),
    tier="wire",
    checks=tuple(_OPTION_CHECKS),
    requires=("option:can_use_tool",),
    pins={name: (f"permission:CanUseTool.options.{key}",) for name, key in _OPTION_CHECKS.items()},
)
async def ts_callback_options_as_sent(h: Harness) -> HandedSeen:
    from sdkprobe.harness import AsGiven  # the SDK's own arguments: on the Python SDK, not-applicable

    handed: list[Any] = []

    async def can_use_tool(tool_name: Any, tool_input: Any, options: Any = None) -> Any:
        handed.append(options)
        return {"behavior": "allow", "updatedInput": tool_input}

    request = {"tool_name": "Bash", "input": {"command": "npm test"}, "tool_use_id": "toolu_asked", **_ASK_FIELDS}
    scenario = Scenario().wait_for_user().init().request("can_use_tool", **request).result()
    wire = await h.wire("go", scenario=scenario, client=True, can_use_tool=AsGiven(can_use_tool))
    answer = wire.answers.get("fake_req_1")
    lacking = {key: why for key in _OPTIONS_WANTED if (why := lacks(f"field:CanUseTool.{key}")) is not None}
    return {
        "lacking": lacking,
        "handed": handed,
        "answer": None if answer is None else answer.get("response"),
        "error": wire.error_line,
    }


@ts_callback_options_as_sent.decide
def _(seen: HandedSeen) -> dict[str, Check]:
    handed = seen["handed"]
    options = handed[0] if len(handed) == 1 and isinstance(handed[0], dict) else None
    error = f"; the run raised {seen['error']}" if seen["error"] else ""
    checks: dict[str, Check] = {}
    for name, key in _OPTION_CHECKS.items():
        if key in seen["lacking"]:
            checks[name] = undecidable(seen["lacking"][key])
            continue
        got = "no call" if options is None else options.get(key, "absent")
        checks[name] = check(
            got == _OPTIONS_WANTED[key] and not error,
            f"the request sent {_OPTIONS_WANTED[key]!r}, canUseTool was handed {key}={got!r}"
            + (f" (called {len(handed)} times)" if options is None else "")
            + error,
        )
    return checks


_HANDED = {"signal": None, "suggestions": None, "toolUseID": "toolu_asked", **_OPTIONS_WANTED}
# a release whose callback options are built from an older list of request fields
ts_callback_options_as_sent.differs_on(
    {
        "lacking": {},
        "handed": [
            {k: v for k, v in _HANDED.items() if k not in ("defaultToNo", "suppressAlwaysAllowRule", "mcpServer")}
        ],
        "answer": {"behavior": "allow", "toolUseID": "toolu_asked"},
        "error": None,
    }
)
# a release that passes the matched rule as the CLI spells it and leaves the request id out
ts_callback_options_as_sent.differs_on(
    {
        "lacking": {},
        "handed": [
            {
                **{k: v for k, v in _HANDED.items() if k != "requestId"},
                "matchedAskRule": _ASK_FIELDS["matched_ask_rule"],
            }
        ],
        "answer": {"behavior": "allow", "toolUseID": "toolu_asked"},
        "error": None,
    }
)
