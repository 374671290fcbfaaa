"""The SDK version list, and the nox sessions built from it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sdkprobe.releases.versions import DEFAULT_SDK, PINS, SDK_VERSIONS, requirements, version_key

ROOT = Path(__file__).resolve().parent.parent

# The newest release when the list was surveyed by hand; `sdkprobe update` lists newer ones after it.
SURVEYED = "0.2.189"
# Older wheels carry no CLI (`claude_agent_sdk/_bundled/claude`), so nothing to probe.
OLDEST_BUNDLING_CLI = "0.1.19"


def test_versions_are_sorted_and_unique():
    assert SDK_VERSIONS == sorted(SDK_VERSIONS, key=version_key)
    assert len(SDK_VERSIONS) == len(set(SDK_VERSIONS))


def test_versions_are_plain_releases():
    for v in SDK_VERSIONS:
        assert re.fullmatch(r"\d+\.\d+\.\d+", v), v


def test_versions_span_both_series_from_the_first_bundled_cli_to_the_newest():
    assert len(SDK_VERSIONS) >= 8
    assert {v.rsplit(".", 1)[0] for v in SDK_VERSIONS} >= {"0.1", "0.2"}
    assert SDK_VERSIONS[0] == OLDEST_BUNDLING_CLI
    assert SDK_VERSIONS[-1] == DEFAULT_SDK and version_key(DEFAULT_SDK) >= version_key(SURVEYED)


def test_every_listed_version_has_its_committed_report():
    from sdkprobe.releases.versions import TS_VERSIONS

    assert TS_VERSIONS == sorted(TS_VERSIONS, key=version_key)
    for folder, listed in ((ROOT / "reports", SDK_VERSIONS), (ROOT / "reports" / "ts", TS_VERSIONS)):
        missing = [v for v in listed if not (folder / f"{v}.json").is_file()]
        assert not missing, f"listed without a report in {folder}: {missing}"


def test_every_pinned_version_is_listed():
    assert set(PINS) <= set(SDK_VERSIONS)
    for v, pins in PINS.items():
        assert pins and all(isinstance(p, str) and p for p in pins), v
        assert not any(p.startswith("claude-agent-sdk") for p in pins), "the SDK pin is implied"


def test_requirements_pin_the_exact_release_with_its_extras():
    assert requirements("0.1.19") == ["claude-agent-sdk==0.1.19", *PINS["0.1.19"]]
    assert requirements(DEFAULT_SDK) == [f"claude-agent-sdk=={DEFAULT_SDK}", *PINS.get(DEFAULT_SDK, [])]
    with pytest.raises(ValueError):
        requirements("latest")


def test_versions_module_imports_without_the_sdk():
    code = (
        "import sys; import sdkprobe.releases.versions as v; "
        "assert 'claude_agent_sdk' not in sys.modules; print(len(v.SDK_VERSIONS))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(len(SDK_VERSIONS))


def nox_list(extra_sdk: str | None = None) -> list[str]:
    """Session names from `nox -l`, in order."""
    try:
        import nox  # noqa: F401
    except ImportError:
        pytest.skip("nox is not installed")
    env = {k: v for k, v in os.environ.items() if k != "SDKPROBE_EXTRA_SDK"}
    if extra_sdk is not None:
        env["SDKPROBE_EXTRA_SDK"] = extra_sdk
    out = subprocess.run(
        [sys.executable, "-m", "nox", "-l", "-f", str(ROOT / "noxfile.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return re.findall(r"^[*-] (\S+)", out.stdout, flags=re.MULTILINE)


def test_nox_lists_one_probe_session_per_version_and_the_others():
    listed = nox_list()
    probes = [s for s in listed if s.startswith("probe(")]
    assert probes == [f"probe(sdk={v!r})" for v in SDK_VERSIONS]
    assert {"report", "matrix", "tests", "lint", "bench"} <= set(listed)


def test_nox_takes_an_unlisted_version_from_the_environment():
    probes = [s for s in nox_list(extra_sdk="0.2.188") if s.startswith("probe(")]
    assert "probe(sdk='0.2.188')" in probes
    assert len(probes) == len(SDK_VERSIONS) + 1
    assert probes[-1] == f"probe(sdk={SDK_VERSIONS[-1]!r})"  # still in version order
