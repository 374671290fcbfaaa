"""The process area's decisions on what its probes store: nothing Node-only reads
`holds`, and nothing that moves with how a pipe's reads fell is kept."""

from sdkprobe.behaviour import HOLDS, NOT_APPLICABLE
from sdkprobe.catalogue import by_id
from sdkprobe.catalogue.process.child import STDERR_LINE, _reported_limit


def test_the_readline_claims_are_not_applicable_whatever_python_does():
    question = by_id("process.readline-question-non-tty").judge({})
    assert question.verdict == NOT_APPLICABLE and "readline" in question.note
    seen = {"callback_lines": [STDERR_LINE.rstrip("\n")], "error": None}
    prevrows = by_id("process.readline-prevrows-stale").judge(seen)
    assert prevrows.verdict == NOT_APPLICABLE  # the stderr callback working is a control, not the claim
    assert prevrows.checks["cli-stderr-reaches-host-callback"] == HOLDS
    assert "controls held: cli-stderr-reaches-host-callback" in prevrows.note


def test_an_oversized_line_error_is_kept_as_its_limit_not_the_bytes_read():
    one = _reported_limit("ValueError: Buffer size 1052672 exceeds limit 1048576")
    other = _reported_limit("ValueError: Buffer size 1200123 exceeds limit 1048576")
    assert one == other == {"limit": 1048576, "size over limit": True}
    assert _reported_limit(None) is None and _reported_limit("JSONDecodeError: Expecting value") is None


def test_what_the_sdk_leaves_unclosed_after_a_fatal_read_is_collected_on_the_probes_loop(monkeypatch):
    """After the SDK's reader fails on an oversized line it leaves its subprocess transport
    unclosed; the runner collects it while the probe's loop still runs, so nothing raises
    "Event loop is closed" into the unraisable hook once that loop is gone."""
    import gc
    import sys

    from sdkprobe.runner import RunSettings, run_one

    complaints: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: complaints.append(repr(u.exc_value)))
    result = run_one(by_id("process.oversized-stdout-line-delivered"), RunSettings())
    gc.collect()
    assert result.verdict != "error", result.note
    assert [c for c in complaints if "loop is closed" in c] == []
