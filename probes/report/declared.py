"""Where a behaviour is declared: its module, the line of its `@behaviour(` and the block's text.

Found from the registry, never by searching the catalogue's text: a decorated probe's code
starts at the line of its first decorator, so the probe function's file and first line are
the declaration's. A path is that file's from the project's root, so it follows a module
wherever the catalogue puts it (probes/catalogue/tools/offered.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from sdkprobe import behaviour as declaring

PROJECT = Path(__file__).resolve().parents[2]  # the project's root: probes/.. (site-packages for an install)
CATALOGUE = Path(__file__).resolve().parents[1] / "catalogue"


@dataclass(frozen=True)
class Declared:
    path: Path  # the module
    line: int  # 1-based: the line of its `@behaviour(`
    lines: tuple[str, ...]  # from that line up to the next declaration (its lead-in comments not included)

    @property
    def in_project(self) -> bool:
        """Whether sdkprobe's own catalogue declares it (a team's module lies elsewhere)."""
        return self.path.is_relative_to(PROJECT)

    @property
    def relative(self) -> str:
        """The module's path from the project's root (probes/catalogue/tools/offered.py); a
        team's module's from the working directory, or whole when it lies outside that too."""
        for root in (PROJECT, Path.cwd().resolve()):
            if self.path.is_relative_to(root):
                return self.path.relative_to(root).as_posix()
        return self.path.as_posix()

    @property
    def where(self) -> str:
        """file:line, as an editor or a terminal takes it."""
        return f"{self.relative}:{self.line}"

    def numbered(self) -> list[tuple[int, str]]:
        return list(enumerate(self.lines, start=self.line))


def find(bid: str) -> Declared | None:
    """The declaration of `bid` among the selected catalogues' behaviours (sdkprobe's own and
    a team's, `--catalogue`); None when none declares it (an old report's id)."""
    _load()
    b = declaring.REGISTRY.get(bid)
    if b is None:
        return None
    code = b.probe.__code__
    path = Path(code.co_filename).resolve()
    # The block runs up to the next behaviour declared in the same module.
    after = [
        c.co_firstlineno
        for c in (other.probe.__code__ for other in declaring.REGISTRY.values())
        if c.co_filename == code.co_filename and c.co_firstlineno > code.co_firstlineno
    ]
    lines = path.read_text(encoding="utf-8").splitlines()
    return Declared(path, code.co_firstlineno, tuple(block(lines, code.co_firstlineno, min(after, default=None))))


def sub_checks(bid: str) -> tuple[str, ...]:
    """The sub-checks `bid` declares, in its declared order; () when no catalogue loaded declares it."""
    _load()
    b = declaring.REGISTRY.get(bid)
    return tuple(b.checks) if b is not None else ()


def block(lines: list[str], first: int, following: int | None) -> list[str]:
    """The lines from `first` (1-based) up to the line before `following` or the end, less
    the blank and comment lines that end them (they introduce the next declaration)."""
    kept = lines[first - 1 : following - 1 if following else len(lines)]
    while len(kept) > 1 and (not kept[-1].strip() or kept[-1].startswith("#")):
        kept.pop()
    return kept


def area_home(area: str) -> str:
    """Where an id no module declares (an old report's) links, from the project's root: its
    area's package in the catalogue (probes/catalogue/mcp/)."""
    return f"{(CATALOGUE / area).relative_to(PROJECT).as_posix()}/"


@functools.cache
def _load() -> None:
    """The selected catalogues imported, once per process: their behaviours join the registry."""
    from sdkprobe import catalogue

    catalogue.load()
