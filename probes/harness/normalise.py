"""Normalisation: observations hold no paths, ids, timings or secrets.

Two runs of the same SDK version must give byte-identical reports, and nothing a user
would not publish (an API key, their home directory) may reach a report. Everything a
probe stores passes through `normalise` with the run's own paths named.
"""

from __future__ import annotations

import dataclasses
import enum
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_KEY = re.compile(r"sk-ant-[A-Za-z0-9_\-]{6,}")
_REQ_ID = re.compile(r"\breq_\d+_[0-9a-f]{8}\b")
_TOOLU = re.compile(r"\btoolu_[A-Za-z0-9]{16,}\b")
_TMP = re.compile(r"/tmp/[^\s\"'/]+")
_LOOPBACK_PORT = re.compile(r"\b(127\.0\.0\.1|localhost):\d{2,5}\b")
_TIMING_KEYS = {"duration_ms", "duration_api_ms", "pid", "ttft_ms", "timestamp", "time"}


def normalise(value: Any, paths: Iterable[tuple[str | Path, str]] = (), secrets: Iterable[str] = ()) -> Any:
    """A JSON-ready copy of `value` with run-specific parts replaced by placeholders.

    `paths` maps a concrete path to its placeholder (longest first wins); `secrets` are
    strings to remove wherever they appear. Dataclasses (the SDK's messages) become
    dicts with their type name under `_type`.
    """
    pairs = sorted(((str(p), name) for p, name in paths), key=lambda pn: -len(pn[0]))
    home = os.path.expanduser("~")
    host = [(d, "<INVOKING-DIR>") for d in _invoking_dirs() if d != home]
    if home not in ("/", "~"):
        host.append((home, "<HOME>"))
    pairs.extend(sorted(host, key=lambda pn: -len(pn[0])))
    user = os.environ.get("USER") or os.environ.get("LOGNAME")
    hidden = [s for s in secrets if s]
    return _walk(value, pairs, hidden, user)


def _invoking_dirs() -> list[str]:
    """The folder sdkprobe was started from, as the process knows it and as its shell
    told it (PWD): an SDK that hands its own environment on shows it, and where a
    checkout lies is no fact about the SDK."""
    tmp = tempfile.gettempdir()
    found = {os.getcwd(), os.environ.get("PWD", "")}
    # a folder holding the temporary one is left out: the probes' own paths are named there
    return sorted(d for d in found if len(d) > 1 and d.startswith("/") and not f"{tmp}/".startswith(f"{d}/"))


def _walk(v: Any, pairs: list[tuple[str, str]], secrets: list[str], user: str | None) -> Any:
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        d = {"_type": type(v).__name__}
        d.update({f.name: getattr(v, f.name) for f in dataclasses.fields(v)})
        return _walk(d, pairs, secrets, user)
    if isinstance(v, dict):
        return {
            str(k): ("<T>" if k in _TIMING_KEYS and isinstance(x, (int, float)) else _walk(x, pairs, secrets, user))
            for k, x in v.items()
        }
    if isinstance(v, (list, tuple)):
        return [_walk(x, pairs, secrets, user) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(_walk(x, pairs, secrets, user) for x in v)
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, Path):
        v = str(v)
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    if isinstance(v, str):
        return scrub(v, pairs, secrets, user)
    if v is None or isinstance(v, (bool, int, float)):
        return v
    return scrub(repr(v), pairs, secrets, user)


def scrub(s: str, pairs: list[tuple[str, str]], secrets: Iterable[str] = (), user: str | None = None) -> str:
    for secret in secrets:
        s = s.replace(secret, "<SECRET>")
    s = _KEY.sub("<API-KEY>", s)
    for path, name in pairs:
        s = s.replace(path, name)
    s = _TMP.sub("<TMP>", s)
    s = _LOOPBACK_PORT.sub(r"\1:<PORT>", s)
    s = _UUID.sub("<UUID>", s)
    s = _REQ_ID.sub("req_<N>", s)
    s = _TOOLU.sub("toolu_<ID>", s)
    if user and user not in ("root",) and len(user) > 2:
        s = re.sub(rf"\b{re.escape(user)}\b", "<USER>", s)
    return s
