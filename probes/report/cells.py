"""How a verdict, a note and a source look in a rendered cell; shared by every renderer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from probes.behaviour import DIFFERS, ERROR, HOLDS, NEEDS_LIVE, NOT_APPLICABLE

SYMBOLS = {HOLDS: "✅", DIFFERS: "❌", NOT_APPLICABLE: "➖", NEEDS_LIVE: "🔑", ERROR: "💥"}
ABSENT = "—"  # the behaviour is not in that version's report
LEGEND = [(SYMBOLS[v], v) for v in SYMBOLS] + [(ABSENT, "not probed on that version")]
# Verdicts whose note says something worth a footnote (needs-live's note is boilerplate).
FOOTNOTED = (DIFFERS, ERROR, NOT_APPLICABLE)


def symbol(verdict: str | None) -> str:
    return ABSENT if verdict is None else SYMBOLS.get(verdict, "?")


def md(text: object) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped, no raw HTML.

    Notes hold placeholders like <TMP>; unescaped, GitHub would swallow them as tags.
    """
    s = " ".join(str(text).split())
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def source_label(source: Sequence[str]) -> str:
    """'003 § Quick answer' for ('003_60988dc4d5bfdb0e.txt', 'Quick answer')."""
    name, section = (list(source) + ["", ""])[:2]
    m = re.match(r"^(\d+)_[0-9a-f]+\.\w+$", name)
    short = m.group(1) if m else name
    return f"{short} § {section}" if section else short


def declaration(bid: str) -> str:
    """Where a behaviour is declared, relative to reports/: its area's catalogue module."""
    return f"../probes/catalogue/{bid.split('.', 1)[0]}.py"


def checks_text(checks: dict[str, str]) -> str:
    """'✅ empty · ❌ list' for a behaviour's sub-checks, by name (stored reports sort keys)."""
    return " · ".join(f"{symbol(checks[name])} {name}" for name in sorted(checks))
