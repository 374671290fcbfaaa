"""Files the CLI reads into the model's context, written where it looks for them.

Claims about what reaches the model (a user's `language` setting, auto-memory, the git
status, the logged-in account) need those files in a probe's own space: settings files
of each source, the CLI's global config (`.claude.json`), the auto-memory file of a
project, and a git repository in the working directory. Each function writes one of
them in the layout the CLI uses and returns its path; nothing here reads ~/.claude or
the machine's own git configuration.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# The CLI's project folder name: non-alphanumerics become '-', long names are cut and hashed.
_UNSAFE = re.compile(r"[^a-zA-Z0-9]")
_MAX_KEY = 200
# A fixed author date makes the commit (and so its hash in the git status) the same every run.
_GIT_DATE = "2026-01-01T00:00:00+00:00"


def _write_json(path: Path, data: Mapping[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def user_settings(config_dir: Path, settings: Mapping[str, Any]) -> Path:
    """The user source's settings: `<CLAUDE_CONFIG_DIR>/settings.json`."""
    return _write_json(config_dir / "settings.json", settings)


def project_settings(cwd: Path, settings: Mapping[str, Any], *, local: bool = False) -> Path:
    """The project source's `<cwd>/.claude/settings.json` (or the local source's settings.local.json)."""
    return _write_json(cwd / ".claude" / ("settings.local.json" if local else "settings.json"), settings)


def global_config(config_dir: Path, data: Mapping[str, Any]) -> Path:
    """The CLI's own state file, `<CLAUDE_CONFIG_DIR>/.claude.json` (~/.claude.json without
    the variable), where a login keeps `oauthAccount`."""
    return _write_json(config_dir / ".claude.json", data)


def project_key(directory: Path) -> str:
    """The folder the CLI keeps a project's sessions and memory in, under `<config>/projects/`."""
    name = unicodedata.normalize("NFC", os.path.realpath(directory))
    key = _UNSAFE.sub("-", name)
    if len(key) <= _MAX_KEY:
        return key
    h = 0
    for ch in name:  # the CLI's 32-bit hash (as the SDK's project_key_for_directory computes it)
        h = ((h << 5) - h + ord(ch)) & 0xFFFFFFFF
    signed = h - (1 << 32) if h & 0x80000000 else h
    return f"{key[:_MAX_KEY]}-{_base36(abs(signed))}"


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def auto_memory(config_dir: Path, cwd: Path, text: str) -> Path:
    """The auto-memory index of the project in `cwd`: `<config>/projects/<key>/memory/MEMORY.md`."""
    path = config_dir / "projects" / project_key(cwd) / "memory" / "MEMORY.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def git_repo(
    directory: Path,
    *,
    user_name: str,
    user_email: str = "probe@example.invalid",
    branch: str = "main",
    message: str = "first commit",
) -> str:
    """Make `directory` a git repository on `branch` with `user.name`/`user.email` in its
    own config and one (empty) commit; return the commit's hash, the same every run. The
    machine's global and system git configuration are not read."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_DATE": _GIT_DATE,
        "GIT_COMMITTER_DATE": _GIT_DATE,
    }

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=directory, env=env, check=True, capture_output=True, text=True, timeout=30
        )
        return done.stdout.strip()

    directory.mkdir(parents=True, exist_ok=True)
    git("init", "-q")
    git("symbolic-ref", "HEAD", f"refs/heads/{branch}")  # `init -b` needs git 2.28
    git("config", "user.name", user_name)
    git("config", "user.email", user_email)
    git("commit", "-q", "--allow-empty", "-m", message)
    return git("rev-parse", "HEAD")


def claude_md(directory: Path, text: str) -> Path:
    """A memory file, `<directory>/CLAUDE.md`: the user's own in a config dir (or in
    `<HOME>/.claude`), the project's in a working directory."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "CLAUDE.md"
    path.write_text(text, encoding="utf-8")
    return path


def user_skill(config_dir: Path, name: str, description: str, body: str = "Follow the description.") -> Path:
    """A user-level skill, `<CLAUDE_CONFIG_DIR>/skills/<name>/SKILL.md`, with its front matter."""
    path = config_dir / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n\n{body}\n", encoding="utf-8")
    return path
