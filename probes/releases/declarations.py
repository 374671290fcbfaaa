"""What a TypeScript SDK release's declaration file (`sdk.d.ts`) exports, as the pinned
TypeScript compiler reads it.

declarations.mjs asks the compiler API (typescript, the one pinned version in the cache,
releases/ts_compiler.py) for every export: its kind, an object type's fields (each with
its string literals and, one level down, the object types a union field is made of), a
union's object members, a string-literal union's values, a function type's parameters, and
whether a class derives from Error. The compiler follows what a file may write (`export *`,
re-exports, intersections, Omit/Pick, interfaces extending others) so nothing here parses
TypeScript.

Reading a release takes the compiler seconds, so the answer is kept in
`$SDKPROBE_CACHE/ts-declarations/KEY.json`, KEY hashing the program, the compiler version
and the package's declaration files: a release is read once per machine, and a changed file
or program is read again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from sdkprobe.releases import cache

PROGRAM = Path(__file__).with_name("declarations.mjs")
_TIMEOUT = 300.0


class DeclarationsError(ValueError):
    """The declarations could not be read (no node, no compiler, a file the compiler cannot open)."""


class Declarations:
    """The exports of one declaration file, by name (see declarations.mjs for an entry's keys)."""

    def __init__(self, exports: dict[str, dict[str, Any]]) -> None:
        self.exports = exports

    def entry(self, name: str) -> dict[str, Any] | None:
        return self.exports.get(name)

    def fields(self, name: str) -> dict[str, dict[str, Any]] | None:
        """The fields of the exported type, interface or class `name`; None when it exports none by that name."""
        found = self.exports.get(name)
        return None if found is None or "fields" not in found else dict(found["fields"])

    def methods(self, name: str) -> list[str]:
        """The fields of `name` declared as methods, sorted."""
        return sorted(k for k, f in (self.fields(name) or {}).items() if f.get("method"))

    def of_kind(self, kind: str) -> list[str]:
        """The exported names of one kind (function, class, type, const, enum), sorted."""
        return sorted(n for n, e in self.exports.items() if e.get("kind") == kind)


def read(entry: Path, compiler: Path) -> Declarations:
    """The declarations `entry` exports, read by the compiler API module `compiler`
    (typescript.js); DeclarationsError when they cannot be."""
    return Declarations(_read(entry.resolve(), compiler.resolve()))


@lru_cache(maxsize=8)
def _read(entry: Path, compiler: Path) -> dict[str, dict[str, Any]]:
    key = _key(entry, compiler)
    kept = cache.base() / "ts-declarations" / f"{key}.json"
    try:
        return dict(json.loads(kept.read_text())["exports"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    data = _run(entry, compiler)
    kept.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=kept.parent, prefix=".", suffix=".json", delete=False) as handle:
        handle.write(json.dumps(data, sort_keys=True))
    os.replace(handle.name, kept)  # whole or not at all: a concurrent reader never sees half
    return dict(data["exports"])


def _key(entry: Path, compiler: Path) -> str:
    """What the answer depends on: this program, the compiler, and every declaration file of the package."""
    digest = hashlib.sha256(PROGRAM.read_bytes())
    digest.update(str(compiler).encode())
    folder = entry.parent
    for path in sorted(p for p in folder.rglob("*.d.ts") if "node_modules" not in p.relative_to(folder).parts):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _run(entry: Path, compiler: Path) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        raise DeclarationsError("reading declarations needs node; no `node` on PATH")
    if not entry.is_file():
        raise DeclarationsError(f"no declaration file {entry}")
    if not compiler.is_file():
        raise DeclarationsError(f"the TypeScript compiler has no {compiler}")
    try:
        done = subprocess.run(
            [node, str(PROGRAM), str(compiler), str(entry)], capture_output=True, text=True, timeout=_TIMEOUT
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DeclarationsError(f"the compiler did not read {entry.name}: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no reason given"])[-1]
        raise DeclarationsError(f"the compiler did not read {entry.name}: {last}")
    try:
        data = json.loads(done.stdout)
    except ValueError:
        raise DeclarationsError(f"the compiler's reading of {entry.name} is no JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("exports"), dict):
        raise DeclarationsError(f"the compiler's reading of {entry.name} has no exports")
    return data
