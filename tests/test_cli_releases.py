"""CLI releases from npm: which build a release's metadata names, the cache, and the one
line with exit 2 for a release that cannot be had. npm is replaced by a double answering
from registry JSON saved in tests/npm_registry/ (trimmed), so only the slow test
(SDKPROBE_SLOW=1) reaches the registry."""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from sdkprobe.commands import main
from sdkprobe.errors import UsageError
from sdkprobe.releases import claude_code
from sdkprobe.releases.claude_code import Build, CliReleaseError, build_for, install_cli, platform_key

REGISTRY = Path(__file__).with_name("npm_registry")


def meta(name: str) -> dict:
    return json.loads((REGISTRY / f"{name}.json").read_text())


class FakeNpm:
    """`npm view` answers from the saved metadata; `npm pack` writes a tarball holding `files`."""

    def __init__(self, files: dict[str, str] | None = None) -> None:
        self.calls: list[list[str]] = []
        self.files = files or {}

    def __call__(self, args, timeout, tick=None):
        self.calls.append(args)
        if args[0] == "view":
            version = args[1].rsplit("@", 1)[1]
            saved = {p.stem.split("-")[2]: p for p in REGISTRY.glob("claude-code-*.json")}
            text = saved[version].read_text() if version in saved else ""
            return subprocess.CompletedProcess(args, 1 if "E404" in text else 0, text, "")
        assert args[0] == "pack"
        into = Path(args[args.index("--pack-destination") + 1])
        with tarfile.open(into / "pkg.tgz", "w:gz") as tar:
            for name, body in self.files.items():
                info = tarfile.TarInfo(f"package/{name}")
                info.size = len(body.encode())
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(body.encode()))
        return subprocess.CompletedProcess(args, 0, "[]", "")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache; Node's path as this machine has it, or a stand-in where it has none
    (installing a cli.js release only names Node in its launcher; running it needs Node)."""
    monkeypatch.setenv("SDKPROBE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(claude_code, "_node", lambda: claude_code.shutil.which("node") or "/usr/bin/node")
    return tmp_path / "cache" / "cli"


def test_a_cli_js_release_without_node_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("SDKPROBE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(claude_code, "_npm", FakeNpm({"cli.js": ""}))
    monkeypatch.setattr(claude_code.shutil, "which", lambda name: None)
    with pytest.raises(CliReleaseError, match=r"^this CLI release is a cli\.js, which needs Node; no `node` on PATH$"):
        install_cli("2.1.50", lambda _: None)


# --- the metadata ------------------------------------------------------------------


def test_a_recent_release_is_its_platform_package_native_binary():
    assert build_for(meta("claude-code-2.1.300"), "2.1.300", "linux-x64") == Build(
        "2.1.300", "native", "@anthropic-ai/claude-code-linux-x64@2.1.300", "claude"
    )
    musl = build_for(meta("claude-code-2.1.300"), "2.1.300", "linux-arm64-musl")
    assert musl.spec == "@anthropic-ai/claude-code-linux-arm64-musl@2.1.300"


def test_an_older_release_is_its_cli_js_on_node():
    # Its optionalDependencies are sharp's image builds, not claude-code platform packages.
    assert build_for(meta("claude-code-2.1.50"), "2.1.50", "linux-x64") == Build(
        "2.1.50", "node", "@anthropic-ai/claude-code@2.1.50", "cli.js"
    )


def test_a_platform_without_a_build_is_named_with_the_builds_there_are():
    with pytest.raises(CliReleaseError, match=r"no build for linux-riscv64 \(it has darwin-arm64, .*linux-x64"):
        build_for(meta("claude-code-2.1.300"), "2.1.300", "linux-riscv64")


@pytest.mark.parametrize(
    "answer, message",
    [
        (meta("claude-code-9.9.9-E404"), "is not on the npm registry"),
        ({}, "is not on the npm registry"),
        ([meta("claude-code-2.1.50"), meta("claude-code-2.1.300")], "matches 2 releases"),
        ({**meta("claude-code-2.1.50"), "bin": {"claude": "bin/claude"}}, "neither a native build nor a cli.js"),
        ({"error": {"code": "ETIMEDOUT", "summary": "network"}}, "could not look up"),
    ],
)
def test_metadata_that_gives_no_build(answer, message):
    with pytest.raises(CliReleaseError, match=message):
        build_for(answer, "2.1.50" if not isinstance(answer, list) else "2.1", "linux-x64")


def test_platform_key_names_the_machine_as_npm_does():
    assert platform_key("Linux", "x86_64", musl=False) == "linux-x64"
    assert platform_key("Linux", "aarch64", musl=True) == "linux-arm64-musl"
    assert platform_key("Darwin", "arm64", musl=False) == "darwin-arm64"


# --- installing, with the npm double --------------------------------------------------


def test_a_cli_js_release_gets_a_node_launcher_and_is_reused(cache, monkeypatch):
    npm = FakeNpm({"cli.js": "console.log('2.1.50 (Claude Code)')\n"})
    monkeypatch.setattr(claude_code, "_npm", npm)
    lines: list[str] = []
    path = install_cli("2.1.50", lines.append)
    assert path == cache / "2.1.50" / "claude" and os.access(path, os.X_OK)
    assert "cli.js" in path.read_text() and any("fetching @anthropic-ai/claude-code@2.1.50" in x for x in lines)
    assert not [p for p in cache.iterdir() if p.name.startswith(".")]  # no work folder left
    if claude_code.shutil.which("node"):
        out = subprocess.run([str(path)], capture_output=True, text=True, timeout=60)
        assert out.stdout.strip() == "2.1.50 (Claude Code)"
    calls = len(npm.calls)
    assert install_cli("2.1.50", lines.append) == path and len(npm.calls) == calls  # cached: npm not asked
    assert "cached at" in lines[-1]


def test_a_native_release_is_its_binary(cache, monkeypatch):
    monkeypatch.setattr(claude_code, "_npm", FakeNpm({"claude": "#!/bin/sh\necho 2.1.300\n"}))
    monkeypatch.setattr(claude_code, "platform_key", lambda: "linux-x64")
    path = install_cli("2.1.300", lambda _: None)
    assert path == cache / "2.1.300" / "package" / "claude" and os.access(path, os.X_OK)
    assert json.loads((cache / "2.1.300" / "install.json").read_text())["kind"] == "native"


def test_a_package_without_its_entry_installs_nothing(cache, monkeypatch):
    monkeypatch.setattr(claude_code, "_npm", FakeNpm({"README.md": "no binary"}))
    monkeypatch.setattr(claude_code, "platform_key", lambda: "linux-x64")
    with pytest.raises(CliReleaseError, match="has no claude"):
        install_cli("2.1.300", lambda _: None)
    assert list(cache.iterdir()) == []


def test_a_broken_cache_entry_is_named_not_reused(cache, monkeypatch):
    (cache / "2.1.50" / "package").mkdir(parents=True)  # no install.json: not a finished install
    monkeypatch.setattr(claude_code, "_npm", FakeNpm({"cli.js": ""}))
    with pytest.raises(CliReleaseError, match="is there but incomplete; remove it"):
        install_cli("2.1.50", lambda _: None)
    assert sorted(p.name for p in cache.iterdir()) == ["2.1.50"]


# --- the commands: one line, exit 2 -----------------------------------------------------


@pytest.mark.parametrize(
    "version, message",
    [
        ("9.9.9", "CLI version 9.9.9 is not on the npm registry"),
        ("latest", "is not a release number like 2.1.300"),
        ("2.1", "is not a release number like 2.1.300"),
    ],
)
@pytest.mark.parametrize("command", ["run", "gate"])
def test_a_bad_cli_version_is_one_line_and_exit_2(command, version, message, cache, tmp_path, monkeypatch, capsys):

    monkeypatch.setattr(claude_code, "_npm", FakeNpm())
    monkeypatch.setattr(
        "sdkprobe.commands.shared.probe_installed", lambda *a: pytest.fail("probed with a bad CLI version")
    )
    baseline = Path(__file__).parents[1] / "reports" / "0.2.189.json"
    args = {
        "run": ["run", "--only", "wire.tools-option-to-flag", "--out", str(tmp_path / "out")],
        "gate": ["gate", "--baseline", str(baseline)],
    }[command]
    assert main([*args, "--cli-version", version]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"sdkprobe {command}: error: ") and message in err
    assert not (tmp_path / "out").exists()


def test_run_takes_cli_or_cli_version_not_both(tmp_path, capsys):
    assert main(["run", "--cli", "/bin/true", "--cli-version", "2.1.300", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sdkprobe run: error: ") and "not allowed with argument" in err


def test_gate_cli_version_needs_a_fresh_candidate(tmp_path, capsys):
    baseline = str(Path(__file__).parents[1] / "reports" / "0.2.189.json")
    assert main(["gate", "--baseline", baseline, "--candidate", baseline, "--cli-version", "2.1.300"]) == 2
    assert "cannot go with --candidate" in capsys.readouterr().err


def test_run_and_gate_probe_against_the_installed_release(cache, tmp_path, monkeypatch):
    """Both hand the release's executable to the probes as --cli does."""

    monkeypatch.setattr(claude_code, "_npm", FakeNpm({"cli.js": ""}))
    seen: list[str | None] = []

    def fake(behaviours, settings, jobs, info=None):
        seen.append(settings.cli_path)
        raise UsageError("stop here")

    monkeypatch.setattr("sdkprobe.commands.shared.probe_installed", fake)
    assert main(["run", "--only", "wire.tools-option-to-flag", "--out", str(tmp_path), "--cli-version", "2.1.50"]) == 2
    baseline = str(Path(__file__).parents[1] / "reports" / "0.2.189.json")
    assert main(["gate", "--baseline", baseline, "--cli-version", "2.1.50"]) == 2
    assert seen == [str(cache / "2.1.50" / "claude")] * 2


# --- the real registry --------------------------------------------------------------------


@pytest.mark.skipif(os.environ.get("SDKPROBE_SLOW") != "1", reason="fetches ~150 MB from npm: SDKPROBE_SLOW=1")
@pytest.mark.parametrize("version", ["2.1.50", "2.1.300"])  # a cli.js release and a native one
def test_a_real_release_installs_and_says_its_version(version, cache):
    from sdkprobe.harness import sdk

    path = install_cli(version, lambda _: None)
    assert sdk.cli_version(str(path)) == version


def test_the_release_list_is_plain_releases_oldest_first(monkeypatch):
    answer = json.dumps(["2.1.10", "0.2.9", "2.1.9", "2.1.100-beta.1", "1.0.0"])
    monkeypatch.setattr(
        claude_code, "_npm", lambda args, timeout, tick=None: subprocess.CompletedProcess(args, 0, answer, "")
    )
    assert claude_code.release_list() == ["0.2.9", "1.0.0", "2.1.9", "2.1.10"]


def test_an_unreadable_release_list_is_one_line(monkeypatch):
    monkeypatch.setattr(
        claude_code,
        "_npm",
        lambda args, timeout, tick=None: subprocess.CompletedProcess(
            args, 1, "", "npm ERR! network\nnpm ERR! ETIMEDOUT"
        ),
    )
    with pytest.raises(
        CliReleaseError, match=r"^npm view @anthropic-ai/claude-code versions failed: npm ERR! ETIMEDOUT$"
    ):
        claude_code.release_list()
