"""An option only some sub-checks need makes only those not-applicable on an SDK without it
(the TypeScript SDK has no `user`, `debug_stderr` or `max_buffer_size`): the behaviour's
other sub-checks are still decided, as they are on the SDK that has it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import claude_agent_sdk
import pytest

from sdkprobe import catalogue
from sdkprobe.behaviour import NOT_APPLICABLE

REPORT = Path(__file__).resolve().parent.parent / "reports" / f"{claude_agent_sdk.__version__}.json"
LACKING = "@anthropic-ai/claude-agent-sdk 0.0.0: user: the TypeScript SDK cannot run its CLI as another OS user"


def stored(bid: str) -> dict:
    if not REPORT.is_file():
        pytest.skip(f"no report of the installed SDK ({REPORT.name})")
    entries = json.loads(REPORT.read_text(encoding="utf-8"))["behaviours"]
    return copy.deepcopy(next(e["observed"] for e in entries if e["id"] == bid))


@pytest.mark.parametrize(
    "bid, absent, lacking",
    [
        (
            "wire.host-guard-options",
            ("own user", "unknown user"),
            {"own-user-starts-the-cli", "unknown-user-fails-the-start"},
        ),
        ("wire.store-and-stderr-options", ("debug_stderr got",), {"debug-stderr-not-written"}),
        (
            "process.oversized-stdout-line-delivered",
            ("wire/max_buffer_size 4 MiB",),
            {"raised-max-buffer-size-delivers-it"},
        ),
    ],
)
def test_only_the_sub_checks_needing_the_option_are_not_applicable(bid: str, absent: tuple, lacking: set) -> None:
    b = catalogue.by_id(bid)
    assert not any(str(r) in ("option:user", "option:debug_stderr", "option:max_buffer_size") for r in b.requires)
    seen = stored(bid)
    having = b.judge(seen).checks
    for path in absent:
        *parents, key = path.split("/")
        holder = seen
        for parent in parents:
            holder = holder[parent]
        holder[key] = {"absent": LACKING}
    without = b.judge(seen)
    assert {c for c, v in without.checks.items() if v == NOT_APPLICABLE} == lacking
    assert {c: v for c, v in without.checks.items() if c not in lacking} == {
        c: v for c, v in having.items() if c not in lacking
    }
    assert LACKING in without.note
