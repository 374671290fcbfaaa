"""Every release of claude-agent-sdk on the package index, yanked ones included.

`pip index versions` hides yanked releases, yet they install when pinned exactly and some
sit on a boundary, so the list comes from the JSON simple API (PEP 691), whose files carry
`yanked`. Standard library only (plus packaging), like probes/releases/versions.py.
"""

from __future__ import annotations

import json
import platform
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sdkprobe.errors import UsageError
from sdkprobe.releases.versions import version_key

PACKAGE = "claude-agent-sdk"
INDEX_URL = "https://pypi.org/simple/"
_ACCEPT = "application/vnd.pypi.simple.v1+json"


class IndexUnreachable(UsageError):
    """The index could not be read; the message is one line for the user."""


@dataclass(frozen=True)
class Release:
    version: str
    yanked: bool
    # Whether a wheel for this machine bundles the CLI: a pure `none-any` wheel never does.
    bundles_cli: bool
    # When its first file reached the index (ISO 8601, the index's `upload-time`); None when
    # the index does not say.
    published: str | None = None


def fetch_index(index_url: str = INDEX_URL, timeout: float = 30) -> dict[str, Any]:
    """The index's JSON page for the SDK; IndexUnreachable when it cannot be had."""
    url = f"{index_url.rstrip('/')}/{PACKAGE}/"
    request = urllib.request.Request(url, headers={"Accept": _ACCEPT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            page: dict[str, Any] = json.loads(response.read())
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise IndexUnreachable(f"cannot read the release list from {url} (JSON simple API): {reason}") from None
    if not isinstance(page.get("files"), list):
        raise IndexUnreachable(f"{url} did not answer with the JSON simple API (no files list)")
    return page


def parse(page: dict[str, Any], machine: str | None = None) -> list[Release]:
    """Releases oldest first. A release is yanked when all its files are; it bundles a CLI
    when it has a platform wheel for this machine (architecture `machine`)."""
    arch = (machine or platform.machine()).lower()
    files: dict[str, list[dict[str, Any]]] = {}
    for f in page["files"]:
        version = _version_of(str(f.get("filename", "")))
        if version is not None:
            files.setdefault(version, []).append(f)
    for version in page.get("versions", []):
        files.setdefault(str(version), [])
    return [
        Release(
            version=v,
            yanked=bool(fs) and all(bool(f.get("yanked")) for f in fs),
            bundles_cli=_bundles(fs, arch),
            published=min((str(f["upload-time"]) for f in fs if f.get("upload-time")), default=None),
        )
        for v, fs in sorted(files.items(), key=lambda item: version_key(item[0]))
    ]


def _version_of(filename: str) -> str | None:
    stem = "claude_agent_sdk-"
    if not filename.startswith(stem):
        return None
    rest = filename[len(stem) :]
    if rest.endswith(".whl"):
        return rest.split("-", 1)[0]
    if rest.endswith(".tar.gz"):
        return rest[: -len(".tar.gz")]
    return None


def _bundles(files: Iterable[dict[str, Any]], arch: str) -> bool:
    tag = {"Linux": "linux", "Darwin": "macosx", "Windows": "win"}.get(platform.system(), "linux")
    arches = {arch, {"amd64": "x86_64", "x86_64": "amd64", "arm64": "aarch64", "aarch64": "arm64"}.get(arch, arch)}
    for f in files:
        name = str(f.get("filename", ""))
        if not name.endswith(".whl") or name.endswith("-none-any.whl"):
            continue
        platform_tag = name[: -len(".whl")].rsplit("-", 1)[-1]
        if tag in platform_tag and any(platform_tag.endswith(a) for a in arches):
            return True
    return False


def releases(index_url: str = INDEX_URL) -> list[Release]:
    """Every release on the index, oldest first."""
    return parse(fetch_index(index_url))


class BadRange(UsageError):
    """--from/--to that name no release, a yanked end with --no-yanked, or an empty range."""


def select_range(
    index: list[Release], first: str | None, last: str | None, no_yanked: bool
) -> tuple[list[Release], list[str]]:
    """The releases to search, oldest first, and notes on what was left out; BadRange (one line) on bad input."""
    known = {r.version: r for r in index}
    for flag, v in (("--from", first), ("--to", last)):
        if v is not None and v not in known:
            raise BadRange(f"{flag} {v}: no such release of claude-agent-sdk on the index")
        if v is not None and no_yanked and known[v].yanked:
            raise BadRange(f"{flag} {v} is yanked, and --no-yanked leaves yanked releases out")
    if first is not None and last is not None and version_key(first) > version_key(last):
        raise BadRange(f"--from {first} comes after --to {last}")
    lo = version_key(first) if first else None
    hi = version_key(last) if last else None
    chosen = [
        r
        for r in index
        if (lo is None or version_key(r.version) >= lo) and (hi is None or version_key(r.version) <= hi)
    ]
    notes = []
    without = [r.version for r in chosen if not r.bundles_cli]
    if without:
        notes.append(f"skipping {len(without)} releases whose wheel bundles no CLI for this machine: {span(without)}")
    chosen = [r for r in chosen if r.bundles_cli]
    if no_yanked:
        yanked = [r.version for r in chosen if r.yanked]
        if yanked:
            notes.append(f"leaving out {len(yanked)} yanked releases (--no-yanked)")
        chosen = [r for r in chosen if not r.yanked]
    if not chosen:
        raise BadRange("no release in the range bundles a CLI to probe")
    return chosen, notes


def span(versions: list[str]) -> str:
    return versions[0] if len(versions) == 1 else f"{versions[0]} to {versions[-1]}"
