"""The pinned TypeScript compiler: installed once into the cache (npm faked here), its plain
output read as rows, and asked only when a TypeScript SDK is under test."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from sdkprobe.behaviour import NotApplicable
from sdkprobe.harness import Harness, Space
from sdkprobe.harness.typescript import compiler
from sdkprobe.releases import ts_compiler
from sdkprobe.releases.ts_sdk import TsReleaseError

SAID = "\n".join(
    [
        "probe.ts(2,69): error TS2561: Object literal may only specify known properties, but 'allowedTools' "
        "does not exist in type 'AgentDefinition'. Did you mean to write 'disallowedTools'?",
        "probe.ts(4,34): error TS2322: Type '{ a: number; }' is not assignable to type 'string'.",
        "  Object literal may only specify known properties.",
        "error TS5023: Unknown compiler option 'made-up'.",
        "Found 3 errors.",
    ]
)


def test_tsc_output_becomes_rows_with_continuations_joined_and_lineless_errors_kept() -> None:
    rows = compiler.diagnostics(SAID)
    assert [(r["line"], r["column"], r["code"]) for r in rows] == [
        (2, 69, "TS2561"),
        (4, 34, "TS2322"),
        (None, None, "TS5023"),
    ]
    assert rows[0]["message"].endswith("Did you mean to write 'disallowedTools'?")
    assert rows[1]["message"] == (
        "Type '{ a: number; }' is not assignable to type 'string'. Object literal may only specify known properties."
    )


class FakeNpm:
    def __init__(self, fail: bool = False) -> None:
        self.installs, self.fail = 0, fail

    def __call__(self, args, timeout, tick=None):
        assert args[0] == "install" and "--ignore-scripts" in args and args[-1] == f"typescript@{ts_compiler.VERSION}"
        self.installs += 1
        if self.fail:
            return subprocess.CompletedProcess(args, 1, "", "npm error code ENOTFOUND\nnpm error network down")
        lib = Path(args[args.index("--prefix") + 1]) / "node_modules" / "typescript" / "lib"
        lib.mkdir(parents=True)
        (lib / "tsc.js").write_text("// tsc\n")
        return subprocess.CompletedProcess(args, 0, "added 1 package\n", "")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SDKPROBE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "tsc"


def test_the_compiler_installs_once_and_is_reused(cache, monkeypatch) -> None:
    npm = FakeNpm()
    monkeypatch.setattr(ts_compiler, "_npm", npm)
    assert ts_compiler.installed() is None
    tsc = ts_compiler.install(lambda _: None)
    assert (
        tsc == cache / ts_compiler.VERSION / "node_modules" / "typescript" / "lib" / "tsc.js" == ts_compiler.installed()
    )
    assert ts_compiler.install(lambda _: None) == tsc and npm.installs == 1
    assert sorted(p.name for p in cache.iterdir()) == [".locks", ts_compiler.VERSION]  # no work folder left


def test_a_failed_install_is_one_line_and_leaves_nothing(cache, monkeypatch) -> None:
    monkeypatch.setattr(ts_compiler, "_npm", FakeNpm(fail=True))
    with pytest.raises(TsReleaseError, match=r"^npm install typescript@\S+ failed: npm error network down$"):
        ts_compiler.install(lambda _: None)
    assert ts_compiler.installed() is None and sorted(p.name for p in cache.iterdir()) == [".locks"]


def test_no_compiler_runs_for_the_python_sdk_and_none_cached_is_not_applicable(cache, monkeypatch) -> None:
    with Space.create() as space:
        assert asyncio.run(Harness(space, tier="wire").type_check("const x: number = 1;\n")) is None
        with pytest.raises(NotApplicable, match="no TypeScript compiler in the cache"):
            asyncio.run(compiler.type_check(space, object(), "const x: number = 1;\n", timeout=10))


@pytest.mark.parametrize(
    "said",
    [
        [{"line": 1, "column": 39, "code": "TS2307", "message": "Cannot find module '@anthropic-ai/claude-agent-sdk'"}],
        [],  # not even the wrongly typed description failed: AgentDefinition was not the SDK's type
    ],
)
def test_the_misuse_probe_refuses_a_module_that_did_not_check_against_the_sdk(said, monkeypatch) -> None:
    from sdkprobe.catalogue.agents.definitions import ts_compiler_catches_misuse

    async def type_check(self, source, timeout=60.0):
        return said

    monkeypatch.setattr(Harness, "type_check", type_check)
    with Space.create() as space, pytest.raises(RuntimeError, match="could not check the module"):
        asyncio.run(ts_compiler_catches_misuse.behaviour.probe(Harness(space, tier="wire")))
