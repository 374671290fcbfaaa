"""Live behaviours' decisions: what an offline CLI says is never taken for what the live part decides."""

from sdkprobe import catalogue
from sdkprobe.behaviour import HOLDS, NEEDS_LIVE

_UNAVAILABLE = (
    "Auto mode is unavailable: its safety check does not run for this session, so Bash was not run. "
    "Other actions that need the check will be denied too."
)


def _auto_mode(steps: dict, **seen: object) -> dict:
    return {
        "init_permission_mode": "auto",
        "callbacks": [],
        "written": True,
        "approved_ran": False,
        "refused_target_kept": True,
        "steps": steps,
        "error": None,
        **seen,
    }


def test_a_refusal_saying_the_classifier_does_not_run_is_no_refusal_by_the_classifier():
    b = catalogue.by_id("perms.auto-mode-bypasses-can-use-tool")
    unavailable = {"is_error": True, "text": _UNAVAILABLE}
    v = b.judge(
        _auto_mode({"write": {"is_error": False, "text": "ok"}, "approved": unavailable, "refused": unavailable})
    )
    assert v.checks == {
        "edit-applied-without-callback": HOLDS,
        "classifier-approved-step-without-callback": NEEDS_LIVE,
        "refused-step-without-callback": NEEDS_LIVE,
    }
    assert "the classifier gave no verdict on the refused step: 'Auto mode is unavailable" in v.note


def test_a_classifier_refusal_is_decided_and_a_step_the_model_never_tried_is_not():
    b = catalogue.by_id("perms.auto-mode-bypasses-can-use-tool")
    denied = {"is_error": True, "text": "Permission for this action was denied by the auto mode classifier."}
    assert (
        b.judge(_auto_mode({"write": None, "approved": None, "refused": denied})).checks[
            "refused-step-without-callback"
        ]
        == HOLDS
    )
    assert (
        b.judge(_auto_mode({"write": None, "approved": None, "refused": None})).checks["refused-step-without-callback"]
        == NEEDS_LIVE
    )


def test_connectors_seen_only_through_the_given_server_are_not_a_verdict():
    b = catalogue.by_id("config.claudeai-connectors-ignore-setting-sources")
    session = {
        "auth": "ANTHROPIC_API_KEY",
        "claude.ai servers": [],
        "claude.ai tools": 0,
        "given server": "connected",
        "given tool offered": True,
    }
    v = b.judge(
        {label: session for label in ("setting_sources=[]", "setting_sources=[], disableClaudeAiConnectors=true")}
    )
    assert v.verdict == NEEDS_LIVE and "(controls held: given-servers-unaffected)" in v.note
