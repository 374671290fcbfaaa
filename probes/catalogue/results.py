"""Area `results`: what the ResultMessage says when a turn ends, well or badly."""

from __future__ import annotations

from typing import Any

from probes.behaviour import Check, behaviour, check
from probes.harness import MAIN, Harness, Script, http_error

# sub-check: (HTTP status, error type, the API's message, the gist `result` must carry)
_API_ERRORS = {
    "billing-error-success-with-is-error": (
        400,
        "invalid_request_error",
        "Your credit balance is too low to access the Anthropic API.",
        "credit balance",
    ),
    "access-error-success-with-is-error": (
        403,
        "permission_error",
        "Your organization does not have access to this model.",
        "does not have access",
    ),
}


@behaviour(
    id="results.success-subtype-with-is-error",
    claim=(
        "A turn that fails on an API error (billing, access) can end in a result with "
        "subtype 'success' and is_error true, the error text in `result`: read is_error, not the subtype."
    ),
    source=("000", "Messages and results"),
    tier="cli",
    checks=tuple(_API_ERRORS),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
)
async def success_subtype_with_is_error(h: Harness) -> dict[str, Any]:
    seen = {}
    for case, (status, kind, message, _) in _API_ERRORS.items():
        # A billing or access error is a standing condition: every request gets it (some
        # CLI versions retry a 400 once, and a one-off error would let the retry succeed).
        run = await h.session("hi", script=Script(fallback=http_error(status, message, kind)))
        result = run.result
        seen[case] = {
            "subtype": getattr(result, "subtype", None),
            "is_error": getattr(result, "is_error", None),
            "result": getattr(result, "result", None),
            "api_error_status": getattr(result, "api_error_status", None),
            "raised": type(run.exception).__name__ if run.exception else None,
            # Requests of the main conversation only: old CLIs also fire side requests whose
            # number depends on timing, which would make the observation flap.
            "main_requests": len(run.on(MAIN)),
        }
    return seen


@success_subtype_with_is_error.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for case, (_, _, _, gist) in _API_ERRORS.items():
        r = seen[case]
        # The CLI may reword the API's message; the claim needs the gist in `result`.
        ok = r["subtype"] == "success" and r["is_error"] is True and gist in (r["result"] or "").lower()
        checks[case] = check(
            ok, f"subtype {r['subtype']!r}, is_error {r['is_error']!r}, result {r['result']!r}, raised {r['raised']}"
        )
    return checks


success_subtype_with_is_error.differs_on(
    {
        case: {
            "subtype": "error_during_execution",
            "is_error": True,
            "result": None,
            "api_error_status": status,
            "raised": None,
            "main_requests": 1,
        }
        for case, (status, *_) in _API_ERRORS.items()
    }
)
