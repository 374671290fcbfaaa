"""The claude-agent-sdk version a project pins, read from its lock or requirements files.

The GitHub Action (action.yml, `sdk-version: lockfile`) asks this before anything is installed,
so the module uses the standard library only and imports nothing from sdkprobe: the action
runs it as a file, `python -I .../probes/releases/lockfile.py DIR`; installed, it is
`python -m sdkprobe.releases.lockfile DIR`. Either prints the version, or one error line on
stderr and exits 2.

Read, in the folder given (not below it):

- `uv.lock` and `poetry.lock`: the `[[package]]` entry named claude-agent-sdk;
- `requirements*.txt`: a line `claude-agent-sdk==X` (extras, an environment marker, hashes
  and `claude_agent_sdk` spellings allowed). A range (`>=`, `~=`, `==0.2.*`) is no pin.

Every file that pins the SDK must pin the same version: two different ones are an error,
not a guess.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib

SDK = "claude-agent-sdk"
LOCK_FILES = ("uv.lock", "poetry.lock")
REQUIREMENTS = "requirements*.txt"
LOOKED_AT = "uv.lock, poetry.lock, requirements*.txt"

_VERSION = re.compile(r"^[0-9][0-9A-Za-z.+!_-]*$")
# A requirement line naming the SDK; group 1 is what follows the name (and its extras).
_SDK_LINE = re.compile(r"^claude[-_.]+agent[-_.]+sdk\s*(?:\[[^\]]*\])?\s*(.*)$", re.I)
_EXACT = re.compile(r"^===?\s*([0-9][0-9A-Za-z.+!_-]*)$")
_LOCK_KEY = re.compile(r'^(name|version)\s*=\s*"([^"]*)"\s*$')


class LockfileError(Exception):
    """No single pinned version: the message is one line naming the folder and what was read."""


def normalise(name: str) -> str:
    """A distribution name as the index compares it (PEP 503): claude_agent_sdk is claude-agent-sdk."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _scan_lock(text: str) -> list[tuple[str, str]]:
    """(name, version) of each top-level `[[package]]` table, read line by line: uv and poetry
    write `name = "..."` and `version = "..."` unindented at the head of each entry."""
    entries: list[tuple[str, str]] = []
    current: dict[str, str] | None = None
    for line in text.splitlines():
        if line.startswith("["):
            if current is not None and "name" in current and "version" in current:
                entries.append((current["name"], current["version"]))
            current = {} if line.strip() == "[[package]]" else None
            continue
        match = _LOCK_KEY.match(line)
        if current is not None and match:
            current.setdefault(match.group(1), match.group(2))
    if current is not None and "name" in current and "version" in current:
        entries.append((current["name"], current["version"]))
    return entries


def _parse_lock(text: str) -> list[tuple[str, str]]:
    """(name, version) of each `[[package]]`: tomllib from Python 3.11 on, _scan_lock before."""
    if sys.version_info >= (3, 11):
        packages = tomllib.loads(text).get("package", [])
        return [
            (str(p["name"]), str(p["version"]))
            for p in packages
            if isinstance(p, dict) and {"name", "version"} <= p.keys()
        ]
    return _scan_lock(text)  # pragma: no cover - Python 3.10


def versions_in_lock(text: str) -> list[str]:
    """The versions of claude-agent-sdk a uv.lock or poetry.lock holds (one, unless resolution forked)."""
    return sorted({v for name, v in _parse_lock(text) if normalise(name) == SDK})


def versions_in_requirements(text: str) -> list[str]:
    """The exact versions `claude-agent-sdk==X` lines of a requirements file pin."""
    found: set[str] = set()
    for line in re.sub(r"\\\n", " ", text).splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()  # a comment, or the rest of the line after one
        match = _SDK_LINE.match(line)
        if not match:
            continue
        spec = match.group(1).split(";", 1)[0]  # drop an environment marker
        spec = re.sub(r"\s--hash[= ]\S+", "", " " + spec).strip()
        exact = _EXACT.match(spec)
        if exact:
            found.add(exact.group(1))
    return sorted(found)


def is_pin_file(name: str) -> bool:
    """Whether a file of this name (no folder) is one this module reads."""
    return name in LOCK_FILES or Path(name).match(REQUIREMENTS)


def pins_in(name: str, text: str) -> list[str]:
    """The claude-agent-sdk versions the file `name` (uv.lock, poetry.lock, requirements*.txt) pins."""
    return versions_in_lock(text) if name in LOCK_FILES else versions_in_requirements(text)


def pinned_version(folder: Path) -> str:
    """The one claude-agent-sdk version the lock and requirements files in `folder` pin;
    LockfileError when none does, or when they disagree."""
    folder = Path(folder)
    if not folder.is_dir():
        raise LockfileError(f"{folder} is not a folder")
    files = [folder / n for n in LOCK_FILES if (folder / n).is_file()]
    files += sorted(p for p in folder.glob(REQUIREMENTS) if p.is_file())
    by_file: dict[str, list[str]] = {}
    for path in files:
        try:
            versions = pins_in(path.name, path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:  # tomllib.TOMLDecodeError is a ValueError
            raise LockfileError(f"cannot read {path}: {str(exc).splitlines()[0] if str(exc) else exc!r}") from exc
        if versions:
            by_file[path.name] = versions
    found = sorted({v for vs in by_file.values() for v in vs})
    if not found:
        read = ", ".join(p.name for p in files) if files else f"none of {LOOKED_AT} exists"
        raise LockfileError(f"no exact {SDK} pin found in {folder} (read: {read}); give the version instead")
    if len(found) > 1:
        where = "; ".join(f"{name} {', '.join(vs)}" for name, vs in by_file.items())
        raise LockfileError(f"{folder} pins more than one {SDK} version ({where}); give the version instead")
    if not _VERSION.match(found[0]):
        raise LockfileError(f"{SDK} is pinned to {found[0]!r} in {folder}, which is not a version")
    return found[0]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python -m sdkprobe.releases.lockfile DIR", file=sys.stderr)
        return 2
    try:
        print(pinned_version(Path(args[0])))
    except LockfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
