"""JSON options are checked against ClaudeAgentOptions' annotations before the SDK runs."""

import pytest

from sdkprobe.harness.options import check_json_options


@pytest.mark.parametrize(
    "options",
    [
        {"tools": ["Bash"]},
        {"tools": {"type": "preset", "preset": "claude_code"}},
        {"permission_mode": "plan"},
        {"max_turns": 3, "env": {"A": "b"}, "cwd": "/somewhere"},
        {"agents": {"r": {"description": "d", "prompt": "p", "tools": ["Read"]}}},
    ],
)
def test_fitting_options_pass(options):
    check_json_options(options)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"permission_mode": "sometimes"}, "does not fit"),
        ({"can_use_tool": "yes"}, "does not fit"),  # a callback cannot come from JSON
        ({"max_turns": True}, "does not fit"),
        ({"tools": ["Bash", 3]}, "does not fit"),
        ({"agents": {"r": "not an object"}}, "must be a JSON object"),
    ],
)
def test_misfits_are_named(options, message):
    with pytest.raises(ValueError, match=message):
        check_json_options(options)
