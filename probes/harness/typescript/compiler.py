"""What `tsc --strict` says of a TypeScript module that uses the release under test.

The module is written into a folder of the probe's own, beside a `node_modules` link to the
release (so `import ... from "@anthropic-ai/claude-agent-sdk"` resolves as in a user's
project) and a tsconfig with strict on; the pinned compiler (releases/ts_compiler.py) checks
it and its diagnostics come back as rows. The library's own files are not checked
(skipLibCheck): the claim is about the user's code against the SDK's types.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import NotApplicable
from sdkprobe.harness import cli_text
from sdkprobe.harness.isolation import Space
from sdkprobe.harness.typescript.relay import node
from sdkprobe.releases import ts_compiler

MODULE = "probe.ts"
_CONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "skipLibCheck": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "types": [],
    },
    "files": [MODULE],
}
_DIAGNOSTIC = re.compile(
    r"^(?:(?P<file>[^\s(][^(]*)\((?P<line>\d+),(?P<column>\d+)\): )?error (?P<code>TS\d+): (?P<text>.*)$"
)


async def type_check(space: Space, release: Any, source: str, timeout: float) -> list[dict[str, Any]]:
    """tsc's errors for `source`: {line, column, code, message}, in the order it gave them
    (line and column None for an error about no line: the configuration, a missing file)."""
    tsc = ts_compiler.installed()
    if tsc is None:
        raise NotApplicable(
            f"no TypeScript compiler in the cache (sdkprobe run --sdk ts@V installs {ts_compiler.PACKAGE}"
            f"@{ts_compiler.VERSION})"
        )
    folder = space.path("tsc")
    (folder / MODULE).write_text(source, encoding="utf-8")
    (folder / "tsconfig.json").write_text(json.dumps(_CONFIG, indent=2), encoding="utf-8")
    scope = folder / "node_modules" / "@anthropic-ai"
    scope.mkdir(parents=True)
    (scope / "claude-agent-sdk").symlink_to(release.package_dir, target_is_directory=True)
    said = await cli_text.cli_output(
        space, Path(node()), [str(tsc), "-p", str(folder), "--pretty", "false"], timeout=timeout
    )
    return diagnostics(said)


def diagnostics(said: str) -> list[dict[str, Any]]:
    """tsc's plain output as rows; a message's indented continuation lines join it."""
    rows: list[dict[str, Any]] = []
    for line in said.splitlines():
        m = _DIAGNOSTIC.match(line)
        if m:
            at = (int(m["line"]), int(m["column"])) if m["line"] else (None, None)
            rows.append({"line": at[0], "column": at[1], "code": m["code"], "message": m["text"].strip()})
        elif rows and line.startswith(" ") and line.strip():
            rows[-1]["message"] += " " + line.strip()
    return rows
