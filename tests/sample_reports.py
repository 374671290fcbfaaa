"""Hand-made report entries for the tests of reports, the matrix and the gate."""


def result(bid="wire.a", verdict="holds", note="", checks=None, observed=None, *, tier="wire", source=None, claim=None):
    """One behaviour's entry; a verdict that needs a note gets a stock one."""
    if verdict in ("differs", "not-applicable", "error") and not note:
        note = f"{verdict} because"
    return {
        "id": bid,
        "area": bid.split(".", 1)[0],
        "tier": tier,
        "claim": claim or f"claim of {bid}",
        "source": list(source or ["003_60988dc4d5bfdb0e.txt", "Quick answer"]),
        "verdict": verdict,
        "note": note,
        "checks": checks or {},
        "observed": observed,
    }


def info(sdk="0.2.189", cli="2.1.0", python="3.12.3", custom=False):
    """Run info of a report."""
    return {
        "sdk_version": sdk,
        "cli_version": cli,
        "cli": "custom" if custom else "bundled",
        "python": python,
        "platform": "Linux-x86_64",
    }
