"""A probe's own space: temp HOME, config dir, cwd and TMPDIR, removed when it ends.

Probes run in parallel and must leave nothing behind, so everything a probe or the CLI
it runs writes goes under one temp root that belongs to that probe alone.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Space:
    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def config(self) -> Path:
        return self.home / ".claude"

    @property
    def cwd(self) -> Path:
        return self.root / "work"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @classmethod
    def create(cls) -> Space:
        root = Path(tempfile.mkdtemp(prefix="sdkprobe-")).resolve()
        space = cls(root)
        for d in (space.home, space.config, space.cwd, space.tmp):
            d.mkdir(parents=True, exist_ok=True)
        return space

    def path(self, name: str) -> Path:
        """A fresh directory for one run inside this space (`fake-1`, `fake-2`, ...)."""
        n = 1
        while (self.root / f"{name}-{n}").exists():
            n += 1
        p = self.root / f"{name}-{n}"
        p.mkdir()
        return p

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Space:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()
