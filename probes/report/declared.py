"""Where a behaviour is declared: the module, the line of its `@behaviour(` and the block's text.

Found by reading the catalogue's modules as text, never by importing them, so a matrix, a
behaviour's page or `sdkprobe show` renders without the SDK the declarations import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sdkprobe.catalogue import is_support

CATALOGUE = Path(__file__).resolve().parent.parent / "catalogue"
PROJECT = CATALOGUE.parent.parent
DECORATOR = "@behaviour("  # a declaration starts at this, at the start of a line


@dataclass(frozen=True)
class Declared:
    path: Path  # the module
    line: int  # 1-based: the line of its `@behaviour(`
    lines: tuple[str, ...]  # from that line up to the next declaration (its lead-in comments not included)

    @property
    def relative(self) -> str:
        """The module's path from the project's root: probes/catalogue/tools/offered.py."""
        return self.path.relative_to(PROJECT).as_posix()

    @property
    def where(self) -> str:
        """file:line, as an editor or a terminal takes it."""
        return f"{self.relative}:{self.line}"

    def numbered(self) -> list[tuple[int, str]]:
        return list(enumerate(self.lines, start=self.line))


def area_modules(area: str) -> list[Path]:
    """The modules that may declare an area's behaviours: those of its package (`mcp/oauth.py`),
    not its support module."""
    return [p for p in sorted((CATALOGUE / area).glob("*.py")) if p.stem != "__init__" and not is_support(p.stem)]


def find(bid: str) -> Declared | None:
    """The declaration of `bid` among its area's modules; None when none declares it (an old report's id)."""
    named = re.compile(rf"""\bid\s*=\s*["']{re.escape(bid)}["']""")
    for path in area_modules(bid.split(".", 1)[0]):
        text = path.read_text(encoding="utf-8")
        if f'"{bid}"' not in text and f"'{bid}'" not in text:
            continue
        for start, block in blocks(text.splitlines()):
            if named.search("\n".join(block)):
                return Declared(path, start + 1, tuple(block))
    return None


def blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Each declaration as (0-based index of its `@behaviour(` line, its lines): up to the next
    top-level `@behaviour(` or the end, less the blank and comment lines that end it (they
    introduce the next one)."""
    starts = [i for i, line in enumerate(lines) if line.startswith(DECORATOR)]
    out = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        block = lines[start:end]
        while len(block) > 1 and (not block[-1].strip() or block[-1].startswith("#")):
            block.pop()
        out.append((start, block))
    return out
