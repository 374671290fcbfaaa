"""wire.option-flags-and-defaults decides on what the CLI is told, not on how a value is written."""

from __future__ import annotations

from sdkprobe.behaviour import REGISTRY
from sdkprobe.catalogue.wire import argv

_FLAGS = REGISTRY["wire.option-flags-and-defaults"]


def test_values_written_in_their_flags_token_read_as_the_two_token_form() -> None:
    """A TypeScript release writes `--max-turns=3`; the CLI reads it as `--max-turns 3`."""
    assert _FLAGS.judge(argv._one_token_forms()).verdict == "holds"


def test_a_flag_dropped_among_one_token_forms_still_differs() -> None:
    verdict = _FLAGS.judge(argv._one_token_forms(dropping="max-turns-sent"))
    assert verdict.verdict == "differs"
    assert [name for name, v in verdict.checks.items() if v != "holds"] == ["max-turns-sent"]
