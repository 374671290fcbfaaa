"""Area `results`: what the ResultMessage says when a turn ends, well or badly."""

from probes.behaviour import behaviour
from probes.harness import MAIN, Script, http_error

SOURCE_000 = "000_ad1db49c006aad3b.txt"

_API_ERRORS = {
    "billing-400": (400, "invalid_request_error", "Your credit balance is too low to access the Anthropic API."),
    "access-403": (403, "permission_error", "Your organization does not have access to this model."),
}


@behaviour(
    id="results.success-subtype-with-is-error",
    claim=(
        "A turn that fails on an API error (billing, access) can end in a result with "
        "subtype 'success' and is_error true, the error text in `result`: read is_error, not the subtype."
    ),
    source=(SOURCE_000, "Messages and results"),
    tier="cli",
)
async def success_subtype_with_is_error(h):
    seen, checks = {}, {}
    for case, (status, kind, message) in _API_ERRORS.items():
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
        text = (seen[case]["result"] or "").lower()
        # The CLI may reword the API's message; the claim needs the gist in `result`.
        gist = "credit balance" if status == 400 else "does not have access"
        checks[case] = seen[case]["subtype"] == "success" and seen[case]["is_error"] is True and gist in text
    return h.verdict(checks=checks, observed=seen)
