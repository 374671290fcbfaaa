"""sdkprobe adopted by another project, as a team would: a plain (non-editable) install into the
project's own environment, the project's own `probes/` folder beside it, and the worked example
of docs/own-behaviours.md taken from the page itself and run end to end: list, run, a passing
and a failing gate, the pytest entry point, a shipped baseline, and (slow) a bisect."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sdkprobe.harness import sdk
from sdkprobe.releases.envcache import find_uv
from sdkprobe.releases.versions import requirements

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "own-behaviours.md"
OWN = "myapp.max-turns-reaches-the-cli"
VERSION = sdk.sdk_version()


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture(scope="module")
def project(tmp_path_factory, checkout_build):
    """myapp: its own venv with sdkprobe installed from this checkout (not editable) and the
    installed SDK version; its own probes/ and fake_cli/ packages; the docs' example module."""
    root = tmp_path_factory.mktemp("myapp")
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    packages = [f"{ROOT}[pytest]", *requirements(VERSION)]
    uv = find_uv()
    command = (
        [uv, "pip", "install", "--quiet", "--python", str(python), *packages]
        if uv
        else [str(python), "-m", "pip", "install", "--quiet", *packages]
    )
    with checkout_build():
        done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    for own in ("probes", "fake_cli"):  # the common names sdkprobe must not claim
        (root / own).mkdir()
        (root / own / "__init__.py").write_text(f"WHOSE = 'myapp {own}'\n")
    (python_module,) = _blocks("python")[:1]
    (root / "myapp_behaviours.py").write_text(python_module)
    (root / "relied-on.txt").write_text(f"{OWN}\n")
    return root


def _in(project: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "SDKPROBE_CATALOGUE")}
    env["PATH"] = f"{project / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(list(args), cwd=project, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_install_is_one_package_that_leaves_the_projects_own_names_alone(project):
    done = _in(project, "python", "-c", "import probes, fake_cli, sdkprobe; print(probes.WHOSE, fake_cli.WHOSE)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["myapp", "probes", "myapp", "fake_cli"]
    site = _in(project, "python", "-c", "import sdkprobe, sdkprobe.fake_cli; print(sdkprobe.__file__)")
    assert "site-packages" in site.stdout, site.stdout  # the plain install, not this checkout


def test_the_plain_install_carries_every_node_program(project):
    """A program the package data leaves out (the TypeScript harness's, the declarations reader)
    would fail only a TypeScript run, far from here."""
    ours = sorted(p.relative_to(ROOT / "probes").as_posix() for p in (ROOT / "probes").rglob("*.mjs"))
    code = (
        "import pathlib, sdkprobe; root = pathlib.Path(sdkprobe.__file__).parent; "
        "print(*sorted(p.relative_to(root).as_posix() for p in root.rglob('*.mjs')))"
    )
    done = _in(project, "python", "-c", code)
    assert done.returncode == 0, done.stderr
    assert "releases/declarations.mjs" in ours and done.stdout.split() == ours


def test_list_run_and_gate_pick_up_the_teams_behaviours(project):
    own = ("--catalogue", "myapp_behaviours", "--no-builtin")
    listed = _in(project, "sdkprobe", "list", *own, "--json")
    assert listed.returncode == 0, listed.stderr
    assert [b["id"] for b in json.loads(listed.stdout)] == [OWN]

    ran = _in(project, "sdkprobe", "run", *own, "--out", "sdkprobe-reports", "-j", "1")
    assert ran.returncode == 0, ran.stderr
    report = json.loads((project / "sdkprobe-reports" / f"{VERSION}.json").read_text())
    (entry,) = report["behaviours"]
    assert (entry["id"], entry["area"], entry["verdict"]) == (OWN, "myapp", "holds")
    assert entry["source"]["key"] == "myapp-notes"

    baseline = str(project / "sdkprobe-reports" / f"{VERSION}.json")
    gate = ("sdkprobe", "gate", *own, "--relied-on", "relied-on.txt")
    passing = _in(project, *gate, "--baseline", baseline, "--out", "candidate")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "PASS" in passing.stdout and (project / "candidate" / f"{VERSION}.json").is_file()

    was = {
        "verdict": "differs",
        "note": "--max-turns was None, not '3'",
        "checks": {"flag-carries-the-number": "differs"},
    }
    moved = dict(report, behaviours=[{**entry, **was}])  # an older release on which it did not hold
    (project / "older.json").write_text(json.dumps(moved))
    failing = _in(project, *gate, "--baseline", "older.json")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "FAIL" in failing.stdout and OWN in failing.stdout


def test_the_pytest_entry_point_runs_the_teams_behaviours_against_its_reports(project):
    (ini,) = _blocks("ini")
    (project / "pytest.ini").write_text(ini)
    (project / "tests").mkdir(exist_ok=True)
    test_module = _blocks("python")[1]
    (project / "tests" / "test_sdk_behaviours.py").write_text(test_module)
    first = _in(project, "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--snapshot-update")
    assert first.returncode == 0, first.stdout + first.stderr
    again = _in(project, "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    assert again.returncode == 0 and "1 passed" in again.stdout, again.stdout + again.stderr
    assert "site-packages/reports" not in again.stdout + again.stderr
    assert (project / "sdkprobe-reports" / f"{VERSION}.json").is_file()


def test_a_shipped_baseline_by_version_and_a_relied_on_list_probe_only_those(project):
    (project / "relied-builtin.txt").write_text("wire.tools-option-to-flag\n")
    done = _in(project, "sdkprobe", "gate", "--baseline", "0.2.181", "--relied-on", "relied-builtin.txt", "-j", "1")
    assert done.returncode in (0, 1), done.stderr
    assert ": 1 behaviours, 1 at a time" in done.stderr, done.stderr
    assert "0.2.181" in done.stdout
    unknown = _in(project, "sdkprobe", "gate", "--baseline", "0.0.1")
    assert unknown.returncode == 2 and "ships no report for that version" in unknown.stderr
    assert unknown.stderr.count("\n") == 1


@pytest.mark.skipif(os.environ.get("SDKPROBE_SLOW") != "1", reason="installs two SDK releases: set SDKPROBE_SLOW=1")
def test_bisect_on_two_adjacent_releases_from_the_plain_install(project, tmp_path):
    """Each release's environment gets this same sdkprobe (packed again from the plain install)."""
    done = _in(
        project,
        "env",
        f"SDKPROBE_CACHE={tmp_path / 'cache'}",
        "sdkprobe",
        "bisect",
        "wire.tools-option-to-flag",
        "--from",
        "0.2.180",
        "--to",
        "0.2.181",
        "--fresh",
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0.2.180" in done.stdout and "0.2.181" in done.stdout
    assert list((tmp_path / "cache" / "envs" / "itself").glob("*/sdkprobe-*.whl"))
