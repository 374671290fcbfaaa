"""The SDK versions sdkprobe reports on, and what each needs beside it to install.

This is the one list: the nox sessions, the CI example and the tests read it from here.
It imports nothing but the standard library (and packaging, which nox brings), so the noxfile can load it before any SDK
is installed.

How the list was chosen (survey on Python 3.11, all PyPI releases up to 0.2.189):

- 0.1.19 is the oldest release whose wheel bundles the CLI (`_bundled/claude`) that
  `pip index versions` shows; 0.1.7 and everything before it are ~35 kB wheels without
  one. 0.1.8 to 0.1.18 are yanked: the index's JSON API still lists them, with ~65 MB
  platform wheels like the later ones; `sdkprobe bisect` probes them, the matrix does not.
- Releases before 0.2.100 declare `mcp>=0.1.0` (later `>=1.19`, `>=1.23`) with no upper
  bound. They import beside mcp 2.x, but `create_sdk_mcp_server` then fails with
  `AttributeError: 'Server' object has no attribute 'list_tools'`, so they get `mcp<2`.
  0.2.100 to 0.2.139 pin `mcp<2` themselves; from 0.2.140 on (`mcp<3`) mcp 2.x works.
- The picks sit where the wire changes: a string prompt goes as `--print -- PROMPT`
  up to 0.1.30 and over stdin (`--input-format stream-json`) from 0.1.33; `thinking` and
  `effort` appear by 0.1.37; `--setting-sources ""` is no longer sent by 0.1.58;
  `session_store`, `skills`, `strict_mcp_config` by 0.1.81; the SDK stops running
  `claude -v` before a session at 0.2.181. The bundled CLI goes from 2.1.1 to 2.1.332.
- Where a reported behaviour (CATALOGUE-3) names the release that changed it, the last
  release before and the first one after are both listed, so the matrix shows the move:
  0.1.51/0.1.52 (py#766), 0.1.52/0.1.53 (py#779), 0.1.59/0.1.60 (cc#30304) and
  0.2.139/0.2.140 (py#1105, py#1203, py#800). 0.1.58 and 0.2.141 gave way to 0.1.59 and
  0.2.140, which keep what they were picked for. 0.1.53, 0.1.59 and 0.1.60 are yanked on
  the index; an exact pin installs them all the same, as it does any yanked release.

Keep it sorted oldest first; the last entry is the newest release and the default for
`nox -s tests`. See docs/ci.md for how to add one.
"""

from __future__ import annotations

import os
import re
from typing import Any

# Oldest first. Why each one is here:
SDK_VERSIONS: list[str] = [
    "0.1.19",  # oldest wheel bundling the CLI (2.1.1); string prompt as `--print -- PROMPT`
    "0.1.33",  # first sending a string prompt over stdin with initialize (CLI 2.1.37)
    "0.1.51",  # last before connect() sends a string prompt (py#766; CLI 2.1.85)
    "0.1.52",  # connect() sends it (CHANGELOG 0.1.52); last before the string-prompt stall fix (CLI 2.1.87)
    "0.1.53",  # string prompt no longer stalls callbacks (py#779, CHANGELOG 0.1.53; CLI 2.1.88)
    "0.1.59",  # thinking/effort/task_budget; last where `setting_sources=[]` sends nothing (CLI 2.1.105)
    "0.1.60",  # `setting_sources=[]` sends `--setting-sources=` (cc#30304, CHANGELOG 0.1.60; CLI 2.1.111)
    "0.1.81",  # last 0.1.x: session_store, skills, strict_mcp_config (CLI 2.1.139)
    "0.2.82",  # first 0.2.x (CLI 2.1.142)
    "0.2.139",  # last raising ValueError for can_use_tool with a string prompt, bare Exception errors (CLI 2.1.233)
    "0.2.140",  # can_use_tool with a string prompt, typed errors with the real cause (py#1105, py#1203; CLI 2.1.235)
    "0.2.160",  # verbatim_prompts; mcp 2.x, resume_session_at, forward_subagent_text (CLI 2.1.283)
    "0.2.180",  # last that runs `claude -v` before a session (CLI 2.1.321)
    "0.2.181",  # no `-v` probe any more; client_app (CLI 2.1.323)
    "0.2.189",  # newest (CLI 2.1.332)
]

# Extra requirements installed together with a version (same resolver call).
# The TypeScript SDK's releases sdkprobe reports on (reports/ts/), oldest first: the two the
# source documents measured (004: 0.3.270, 003: 0.3.274), the one bundling the same CLI as
# the newest Python release (0.3.332 and 0.2.189 both bundle CLI 2.1.332), and the newest.
TS_VERSIONS: list[str] = [
    "0.3.270",  # source 004's release
    "0.3.274",  # source 003's release
    "0.3.332",  # bundles CLI 2.1.332, as Python 0.2.189 does: the two SDKs side by side
    "0.3.333",  # newest (CLI 2.1.333)
    "0.3.334",  # recorded by sdkprobe update (CLI 2.1.334)
    "0.3.335",  # recorded by sdkprobe update (CLI 2.1.335)
    "0.3.336",  # recorded by sdkprobe update (CLI 2.1.336)
]

_OLD_MCP = ["mcp<2"]  # in-process MCP servers break on mcp 2.x before 0.2.100
_FIRST_WITH_OWN_MCP_BOUND = "0.2.100"  # from here the SDK bounds mcp itself


def pins(version: str) -> list[str]:
    """The extras any release needs beside it (the rule the docstring explains), listed or not,
    so a bisect over every release installs each one the way the listed ones are."""
    from packaging.version import Version

    return list(_OLD_MCP) if Version(version) < Version(_FIRST_WITH_OWN_MCP_BOUND) else []


PINS: dict[str, list[str]] = {v: pins(v) for v in SDK_VERSIONS if pins(v)}

NEWEST: str = SDK_VERSIONS[-1]
DEFAULT_SDK: str = NEWEST


def is_release(version: str) -> bool:
    """Whether `version` is a plain release number such as 0.2.189."""
    return re.fullmatch(r"\d+(\.\d+)*", version) is not None


def version_key(version: str) -> tuple[Any, ...]:
    """Sort key as people read versions (0.2.9 < 0.2.10 < 0.2.189); anything that is not
    a PEP 440 version (a CLI's odd build label) sorts after those, piece by piece."""
    from packaging.version import InvalidVersion, Version  # nox depends on packaging too

    try:
        return (0, Version(version), ())
    except InvalidVersion:
        return (1, 0, tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.+_-]", version)))


def requirements(version: str) -> list[str]:
    """What to install for one SDK version: the exact release plus its pins.

    An unlisted version is allowed (try a new release before adding it) and gets the pins
    the rule gives any release.
    """
    if not is_release(version):
        raise ValueError(f"{version!r} is not a release number like 0.2.190")
    return [f"claude-agent-sdk=={version}", *pins(version)]


def add_listed(name: str, version: str, why: str, path: str | None = None) -> bool:
    """Append `version` to the list called `name` (SDK_VERSIONS or TS_VERSIONS) in this file's
    text, with `why` as its comment: how `sdkprobe update` lists a release it recorded, so that
    nox, the history and CI see it as the newest. False when it is listed already.

    The file is edited, not regenerated: every other line and comment stays as written."""
    from pathlib import Path

    file = Path(path or __file__)
    text = file.read_text(encoding="utf-8")
    block = re.search(rf"^{name}: list\[str\] = \[\n(?P<body>.*?)^\]", text, re.S | re.M)
    if block is None:
        raise ValueError(f"{file} has no list {name}")
    if re.search(rf'^\s*"{re.escape(version)}",', block["body"], re.M):
        return False
    line = f'    "{version}",  # {why}\n'
    temp = file.with_name(f".{file.name}.tmp")  # whole or not at all, as every file sdkprobe writes
    temp.write_text(text[: block.end("body")] + line + text[block.end("body") :], encoding="utf-8")
    os.replace(temp, file)
    return True
