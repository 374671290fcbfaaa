"""TypeScript SDK releases from npm: a release's folder, the install into the cache with an npm double
answering from registry JSON saved in tests/npm_registry/ (trimmed), `sdkprobe releases --sdk
ts`, and one slow test (SDKPROBE_SLOW=1) installing two real releases."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest

from sdkprobe.commands import main
from sdkprobe.releases import ts_sdk
from sdkprobe.releases.ts_sdk import PACKAGE, TsRelease, TsReleaseError

REGISTRY = Path(__file__).with_name("npm_registry")
NATIVE = f"{PACKAGE}-{ts_sdk.platform_key()}"


# --- a release's folder ---------------------------------------------------------------------------


def _release(
    root: Path,
    version: str = "0.3.333",
    dts_text: str = "export declare type Options = { model?: string };\n",
    manifest: dict | None = None,
    native: bool = True,
    cli_js: str | None = None,
) -> TsRelease:
    """A release folder as npm leaves it: the package, a peer and (when `native`) the platform package."""
    package = root / "node_modules" / PACKAGE
    package.mkdir(parents=True, exist_ok=True)
    data = {"name": PACKAGE, "version": version, "main": "sdk.mjs", "types": "sdk.d.ts"}
    if manifest is not None:
        data = {"name": PACKAGE, "version": version, **manifest}
    (package / "package.json").write_text(json.dumps(data))
    (package / "sdk.mjs").write_text("export function query() {}\n")
    (package / "sdk.d.ts").write_text(dts_text)
    if cli_js is not None:
        (package / "cli.js").write_text(cli_js)
    if native:
        binary = root / "node_modules" / NATIVE / "claude"
        binary.parent.mkdir(parents=True, exist_ok=True)
        binary.write_text("#!/bin/sh\necho '2.1.333 (Claude Code)'\n")
        binary.chmod(0o644)  # as a tarball might leave it; install() makes it executable
    zod = root / "node_modules" / "zod" / "package.json"
    zod.parent.mkdir(parents=True, exist_ok=True)
    zod.write_text(json.dumps({"name": "zod", "version": "4.1.0"}))
    return TsRelease(version, root)


def test_a_recent_release_names_its_entry_binary_and_cli_version(tmp_path):
    release = _release(
        tmp_path,
        manifest={
            "main": "sdk.mjs",
            "exports": {".": {"types": "./sdk.d.ts", "default": "./sdk.mjs"}, "./core": "./core.mjs"},
            "claudeCodeVersion": "2.1.333",
        },
    )
    assert release.package_dir == tmp_path / "node_modules" / "@anthropic-ai" / "claude-agent-sdk"
    assert release.entry == release.package_dir / "sdk.mjs"
    assert release.types == release.package_dir / "sdk.d.ts"
    assert release.bundled_cli == tmp_path / "node_modules" / NATIVE / "claude"
    assert release.cli_version == "2.1.333"


def test_the_entry_follows_exports_then_main(tmp_path):
    nested = {"exports": {".": {"import": {"types": "./x/index.d.ts", "default": "./x/index.mjs"}}}, "main": "m.js"}
    release = _release(tmp_path / "a", manifest=nested)
    assert release.entry == release.package_dir / "x" / "index.mjs"
    assert release.types == release.package_dir / "x" / "index.d.ts"
    release = _release(tmp_path / "b", manifest={"main": "lib/sdk.mjs", "typings": "lib/sdk.d.ts"})
    assert (release.entry, release.types) == (release.package_dir / "lib/sdk.mjs", release.package_dir / "lib/sdk.d.ts")
    release = _release(tmp_path / "c", manifest={})
    assert (release.entry.name, release.types.name) == ("sdk.mjs", "sdk.d.ts")


def test_an_old_release_runs_its_cli_js_whose_header_names_the_cli(tmp_path):
    header = "#!/usr/bin/env node\n// (c) Anthropic PBC.\n\n// Version: 2.0.30\n\nimport{x}from'y';\n"
    release = _release(tmp_path, "0.1.30", manifest={"main": "sdk.mjs"}, native=False, cli_js=header)
    assert release.bundled_cli == release.package_dir / "cli.js"
    assert release.cli_version == "2.0.30"
    assert _release(tmp_path / "none", "0.1.30", manifest={}, native=False).bundled_cli is None


# --- installing, with the npm double ------------------------------------------------------------------


class FakeNpm:
    """`npm view` answers from the saved registry JSON; `npm install` lays out a release folder."""

    def __init__(self, fail: str | None = None, delay: float = 0.0, raise_in_install: BaseException | None = None):
        self.calls: list[list[str]] = []
        self.fail, self.delay, self.raise_in_install = fail, delay, raise_in_install
        self.lock = threading.Lock()

    def __call__(self, args, timeout, tick=None):
        with self.lock:
            self.calls.append(args)
        if args[0] == "view" and "versions" in args:
            text = (REGISTRY / "claude-agent-sdk-versions.json").read_text()
            return subprocess.CompletedProcess(args, 0, text, "")
        if args[0] == "view":
            version = args[1].rsplit("@", 1)[1]
            saved = REGISTRY / f"claude-agent-sdk-{version}.json"
            text = saved.read_text() if saved.exists() else (REGISTRY / "claude-agent-sdk-9.9.9-E404.json").read_text()
            return subprocess.CompletedProcess(args, 1 if "E404" in text else 0, text, "")
        assert args[0] == "install" and "--ignore-scripts" in args
        prefix = Path(args[args.index("--prefix") + 1])
        version = args[-1].rsplit("@", 1)[1]
        if self.raise_in_install is not None:
            (prefix / "node_modules").mkdir()
            raise self.raise_in_install
        if self.fail:
            return subprocess.CompletedProcess(args, 1, "", f"npm error code E500\nnpm error {self.fail}")
        time.sleep(self.delay)
        meta = json.loads((REGISTRY / f"claude-agent-sdk-{version}.json").read_text())
        native = any(name.startswith(f"{PACKAGE}-") for name in meta.get("optionalDependencies", {}))
        keep = {k: meta[k] for k in ("main", "types", "exports", "claudeCodeVersion") if k in meta}
        header = f"#!/usr/bin/env node\n// Version: 2.0.{version.split('.')[-1]}\n"
        _release(prefix, version, manifest=keep, native=native, cli_js=None if native else header)
        return subprocess.CompletedProcess(args, 0, "added 5 packages\n", "")

    def installs(self) -> int:
        return sum(1 for c in self.calls if c[0] == "install")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SDKPROBE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(ts_sdk, "_check_node", lambda meta, version: "v20.0.0")
    return tmp_path / "cache" / "ts"


def test_a_native_release_installs_once_and_is_reused(cache, monkeypatch):
    npm = FakeNpm()
    monkeypatch.setattr(ts_sdk, "_npm", npm)
    assert ts_sdk.installed("0.3.333") is None
    lines: list[str] = []
    release = ts_sdk.install("0.3.333", lines.append)
    assert release == TsRelease("0.3.333", cache / "0.3.333") == ts_sdk.installed("0.3.333")
    cli = release.bundled_cli
    assert cli == cache / "0.3.333" / "node_modules" / NATIVE / "claude" and os.stat(cli).st_mode & stat.S_IXUSR
    assert release.cli_version == "2.1.333" and release.types == release.package_dir / "sdk.d.ts"
    record = json.loads((cache / "0.3.333" / "install.json").read_text())
    assert record["bundled_cli"] == f"node_modules/{NATIVE}/claude" and record["peers"] == {"zod": "4.1.0"}
    assert sorted(p.name for p in cache.iterdir()) == [".locks", "0.3.333"]  # no work folder left
    assert any(f"with its peers and {NATIVE}" in x for x in lines) and "installed in" in lines[-1]
    calls = len(npm.calls)
    assert ts_sdk.install("0.3.333", lines.append) == release and len(npm.calls) == calls  # cached: npm not asked
    assert "cached at" in lines[-1]


def test_an_old_release_installs_with_its_cli_js(cache, monkeypatch):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    release = ts_sdk.install("0.1.30", lambda _: None)
    assert release.bundled_cli == release.package_dir / "cli.js" and release.cli_version == "2.0.30"


@pytest.mark.parametrize(
    "version, message",
    [
        ("9.9.9", r"^TS SDK version 9\.9\.9 is not on the npm registry \(@anthropic-ai/claude-agent-sdk@9\.9\.9\)$"),
        ("latest", r"^TS SDK version 'latest' is not a release number like 0\.3\.333$"),
        ("0.3", r"is not a release number"),
        ("../x", r"is not a release number"),
    ],
)
def test_a_bad_version_is_one_line_and_installs_nothing(version, message, cache, monkeypatch):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    lines: list[str] = []
    with pytest.raises(TsReleaseError, match=message):
        ts_sdk.install(version, lines.append)
    assert lines == [] and not cache.exists()


def test_a_platform_without_a_build_is_named_with_the_builds_there_are(cache, monkeypatch):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    monkeypatch.setattr(ts_sdk, "platform_key", lambda: "linux-riscv64")
    with pytest.raises(TsReleaseError, match=r"has no build for linux-riscv64 \(it has darwin-arm64, .*linux-x64,"):
        ts_sdk.install("0.3.333", lambda _: None)


def test_a_failed_npm_install_leaves_nothing(cache, monkeypatch):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm(fail="network down"))
    with pytest.raises(
        TsReleaseError, match=r"^npm install @anthropic-ai/claude-agent-sdk@0\.3\.333 failed: npm error network down$"
    ):
        ts_sdk.install("0.3.333", lambda _: None)
    assert [p.name for p in cache.iterdir()] == [".locks"]


def test_an_interrupted_install_is_not_reused_and_its_leftovers_go(cache, monkeypatch):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm(raise_in_install=KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        ts_sdk.install("0.3.333", lambda _: None)
    assert [p.name for p in cache.iterdir()] == [".locks"] and ts_sdk.installed("0.3.333") is None
    # A kill that left no chance to clean up: its half-built work folder is never used, and goes.
    half = cache / ".0.3.333-killed"
    _release(half)
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    assert ts_sdk.installed("0.3.333") is None
    ts_sdk.install("0.3.333", lambda _: None)
    assert not half.exists() and ts_sdk.installed("0.3.333") is not None


def test_a_cache_entry_without_its_record_is_not_reused(cache, monkeypatch):
    _release(cache / "0.3.333")  # a folder there, but no install.json: not a finished install
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    assert ts_sdk.installed("0.3.333") is None
    with pytest.raises(TsReleaseError, match="is there but incomplete; remove it"):
        ts_sdk.install("0.3.333", lambda _: None)


def test_two_installs_of_one_release_at_once_install_it_once(cache, monkeypatch):
    npm = FakeNpm(delay=0.5)
    monkeypatch.setattr(ts_sdk, "_npm", npm)
    results: list[TsRelease] = []
    threads = [
        threading.Thread(target=lambda: results.append(ts_sdk.install("0.3.333", lambda _: None))) for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(results) == 2 and results[0] == results[1] and npm.installs() == 1


def test_node_too_old_or_missing_is_one_line(tmp_path, monkeypatch):
    meta = json.loads((REGISTRY / "claude-agent-sdk-0.3.333.json").read_text())
    old = tmp_path / "bin" / "node"
    old.parent.mkdir()
    old.write_text("#!/bin/sh\necho v18.12.1\n")
    old.chmod(0o755)
    monkeypatch.setenv("PATH", str(old.parent))
    with pytest.raises(
        TsReleaseError, match=r"^TS SDK version 0\.3\.333 needs Node >=18\.14\.0; `node` on PATH is v18\.12\.1$"
    ):
        ts_sdk._check_node(meta, "0.3.333")
    old.write_text("#!/bin/sh\necho v18.14.0\n")
    assert ts_sdk._check_node(meta, "0.3.333") == "v18.14.0"
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(TsReleaseError, match=r"runs on Node \(it wants >=18\.14\.0\); no `node` on PATH$"):
        ts_sdk._check_node(meta, "0.3.333")


def test_cache_size_counts_the_bytes_there(cache, monkeypatch):
    assert ts_sdk.cache_size() == 0
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    release = ts_sdk.install("0.3.333", lambda _: None)
    files = [p for p in release.root.rglob("*") if p.is_file()]
    one = sum(p.stat().st_size for p in files)
    assert ts_sdk.cache_size("0.3.333") == one > 0 and ts_sdk.cache_size() >= one
    ts_sdk.install("0.1.30", lambda _: None)
    assert ts_sdk.cache_size() > one


# --- the release list and `sdkprobe releases --sdk ts` ----------------------------------------------


def test_releases_are_oldest_first_between_the_bounds(monkeypatch):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    every = ts_sdk.releases()
    assert len(every) == 342 and every[0] == "0.0.4" and every[-1] == "0.3.333"
    assert every.index("0.1.9") < every.index("0.1.10") < every.index("0.2.0")
    assert ts_sdk.releases(since="0.3.331") == ["0.3.331", "0.3.332", "0.3.333"]
    assert ts_sdk.releases(since="0.3.330", until="0.3.331") == ["0.3.330", "0.3.331"]
    assert ts_sdk.releases(until="0.1.0") == ["0.0.4", "0.1.0"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--from", "9.9.9"],
            "TS SDK version 9.9.9 is not on the npm registry (@anthropic-ai/claude-agent-sdk has 0.0.4 to 0.3.333)",
        ),
        (["--to", "latest"], "TS SDK version 'latest' is not a release number like 0.3.333"),
        (["--from", "0.3.333", "--to", "0.3.330"], "TS SDK version 0.3.333 comes after 0.3.330"),
        (["--no-yanked"], "--no-yanked is for --sdk python: npm has no yanked releases"),
    ],
)
def test_the_command_says_a_bad_version_in_one_line(argv, message, monkeypatch, capsys):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    assert main(["releases", "--sdk", "ts", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"sdkprobe releases: error: {message}\n" and captured.out == ""


def test_the_command_lists_ts_releases_as_lines_or_json(monkeypatch, capsys):
    monkeypatch.setattr(ts_sdk, "_npm", FakeNpm())
    assert main(["releases", "--sdk", "ts", "--from", "0.3.331"]) == 0
    assert capsys.readouterr().out == "0.3.331\n0.3.332\n0.3.333\n"
    assert main(["releases", "--sdk", "ts", "--from", "0.3.330", "--to", "0.3.331", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == ["0.3.330", "0.3.331"]


def test_the_command_still_lists_the_python_sdk_by_default(monkeypatch, capsys):
    from sdkprobe.commands import releases as releases_command
    from sdkprobe.releases.index import Release

    monkeypatch.setattr(ts_sdk, "_npm", lambda *a, **k: pytest.fail("asked npm for the Python SDK"))
    monkeypatch.setattr(releases_command, "releases", lambda: [Release("0.2.189", False, True)])
    assert main(["releases", "--json"]) == 0 and json.loads(capsys.readouterr().out) == ["0.2.189"]


def test_an_unreadable_release_list_is_one_line(monkeypatch):
    monkeypatch.setattr(
        ts_sdk, "_npm", lambda args, timeout, tick=None: subprocess.CompletedProcess(args, 1, "", "npm error ETIMEDOUT")
    )
    with pytest.raises(
        TsReleaseError, match=r"^npm view @anthropic-ai/claude-agent-sdk versions failed: npm error ETIMEDOUT$"
    ):
        ts_sdk.releases()


def test_no_npm_is_one_line(monkeypatch):
    monkeypatch.setattr("sdkprobe.releases.npm.shutil.which", lambda name: None)
    with pytest.raises(TsReleaseError, match=r"^fetching TS SDK releases needs npm, which is not on PATH$"):
        ts_sdk.releases()


# --- the real registry ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("SDKPROBE_SLOW") != "1", reason="installs two TS SDK releases (~900 MB): SDKPROBE_SLOW=1"
)
def test_two_real_releases_install_into_the_cache_and_read_their_surface():
    """Into the real cache (SDKPROBE_CACHE, default ~/.cache/sdkprobe), so a warm one is reused."""
    older, newer = ts_sdk.install("0.3.332", lambda _: None), ts_sdk.install("0.3.333", lambda _: None)
    for release in (older, newer):
        assert ts_sdk.installed(release.version) == release
        assert release.entry == release.package_dir / "sdk.mjs" and release.entry.is_file()
        cli = release.bundled_cli
        assert cli is not None and cli.name == "claude" and os.access(cli, os.X_OK)
        assert release.cli_version == "2.1." + release.version.split(".")[-1]
        out = subprocess.run([str(cli), "--version"], capture_output=True, text=True, timeout=120)
        assert release.cli_version in out.stdout
        assert {"model", "cwd", "canUseTool", "hooks", "mcpServers", "systemPrompt"} <= set(release.options())
        assert {"interrupt", "setPermissionMode", "setModel"} <= set(release.query_methods())
        assert {"query", "tool", "createSdkMcpServer", "listSessions"} <= set(release.exports())
        assert {"description", "prompt"} <= set(release.type_fields("AgentDefinition") or ())
    assert set(older.options()) <= set(newer.options())
