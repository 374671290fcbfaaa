"""TEMPORARY stand-in for the helper's module (replaced at merge): the cached TS release."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "@anthropic-ai/claude-agent-sdk"


def _cache() -> Path:
    return Path(os.environ.get("SDKPROBE_CACHE") or Path.home() / ".cache" / "sdkprobe") / "ts"


@dataclass(frozen=True)
class TsRelease:
    version: str
    root: Path

    @property
    def package_dir(self) -> Path:
        return self.root / "node_modules" / "@anthropic-ai" / "claude-agent-sdk"

    @property
    def entry(self) -> Path:
        return self.package_dir / "sdk.mjs"

    @property
    def bundled_cli(self) -> Path | None:
        p = self.root / "node_modules" / "@anthropic-ai" / "claude-agent-sdk-linux-x64" / "claude"
        return p if p.exists() else None

    @property
    def cli_version(self) -> str | None:
        return json.loads((self.package_dir / "package.json").read_text()).get("claudeCodeVersion")

    def options(self) -> tuple[str, ...]:
        text = (self.package_dir / "sdk.d.ts").read_text()
        start = text.index("export declare type Options = {")
        depth, i, keys = 0, start + len("export declare type Options = "), set()
        line_start = True
        body = text[i:]
        for m in re.finditer(r"^    ([A-Za-z]+)\??:", body, re.M):
            keys.add(m.group(1))
            if body[: m.start()].count("\n}") > 0:
                break
        return tuple(sorted(keys))

    def query_methods(self) -> tuple[str, ...]:
        text = (self.package_dir / "sdk.d.ts").read_text()
        start = text.index("export declare interface Query")
        end = text.index("\n}", start)
        return tuple(sorted(set(re.findall(r"^    ([A-Za-z]+)\(", text[start:end], re.M))))

    def exports(self) -> tuple[str, ...]:
        text = (self.package_dir / "sdk.d.ts").read_text()
        return tuple(sorted(set(re.findall(r"^export declare function ([A-Za-z]+)", text, re.M))))

    def type_fields(self, name: str) -> tuple[str, ...] | None:
        text = (self.package_dir / "sdk.d.ts").read_text()
        for head in (f"export declare type {name} = {{", f"export declare interface {name} {{"):
            if head in text:
                start = text.index(head)
                end = text.index("\n}", start)
                return tuple(sorted(set(re.findall(r"^    ([A-Za-z]+)\??:", text[start:end], re.M))))
        return None


def installed(version: str) -> TsRelease | None:
    root = _cache() / version
    return TsRelease(version, root) if (root / "node_modules").exists() else None


def install(version: str, progress=None) -> TsRelease:
    found = installed(version)
    if found is None:
        raise RuntimeError("stub: not installed")
    return found
