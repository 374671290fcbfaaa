"""nox sessions: one probe session per SDK version, then the matrix, tests, lint, bench.

    nox -l                                 list the sessions
    nox -s "probe(sdk='0.2.189')"          probe one version, write reports/0.2.189.json/.md
    nox -s probe report                    every version, then reports/COMPATIBILITY.md
    nox -s matrix                          the same, as one session name
    nox -s history                         bisect each change between listed versions -> reports/history/
    nox -s tests                           the test suite on the default (newest) SDK
    nox -s lint bench                      (bench -- NAME ... runs only those scripts)

Each probe session has its own environment with exactly that SDK release (and the pins
it needs, see probes/releases/versions.py). With `-R` an existing environment is reused without
reinstalling, which is how the whole matrix runs in minutes. Arguments after `--` go to
`sdkprobe run` (e.g. `-- --tier wire --merge -j 4`, or `-- --out /tmp/r` instead of reports/,
or `-- --only NEW.ID --merge` to add one new behaviour to every version's report; a run of
some behaviours over a report holding others needs --merge or --replace).
"""

from __future__ import annotations

import glob
import importlib.util
import os
import sys
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent


def _versions_module():  # type: ignore[no-untyped-def]
    """probes/releases/versions.py, read by path: nox runs before sdkprobe is installed anywhere,
    and that module needs only the standard library and packaging."""
    spec = importlib.util.spec_from_file_location("sdkprobe_versions", ROOT / "probes" / "releases" / "versions.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


_versions = _versions_module()
DEFAULT_SDK, SDK_VERSIONS, TS_VERSIONS = _versions.DEFAULT_SDK, _versions.SDK_VERSIONS, _versions.TS_VERSIONS
is_release, requirements, version_key = _versions.is_release, _versions.requirements, _versions.version_key

nox.needs_version = ">=2024.3.2"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["lint", "tests"]

# The interpreter nox itself runs on (3.11 here), so no session asks for a Python that
# is not installed. SDKPROBE_PYTHON=3.12 picks another one.
PYTHON = os.environ.get("SDKPROBE_PYTHON") or f"{sys.version_info[0]}.{sys.version_info[1]}"


def _probe_versions() -> list[str]:
    """The listed versions, plus any in SDKPROBE_EXTRA_SDK (comma-separated).

    That lets CI probe a release that is not listed yet (a team's upgrade target):
    SDKPROBE_EXTRA_SDK=0.2.190 nox -s "probe(sdk='0.2.190')".
    """
    extra = [v.strip() for v in os.environ.get("SDKPROBE_EXTRA_SDK", "").split(",") if v.strip()]
    for v in extra:
        if not is_release(v):
            raise SystemExit(f"SDKPROBE_EXTRA_SDK: {v!r} is not a release number like 0.2.190")
    return sorted(set(SDK_VERSIONS) | set(extra), key=version_key)


def install_project(session: nox.Session, sdk: str, extra: str = "") -> None:
    """This repository (with an extra such as `test`) and one exact SDK release, resolved
    together in one call.

    Resolving them together means `-e .` (which only asks for claude-agent-sdk>=0.1.0)
    can never move the SDK off the pinned release.
    """
    session.install("-e", f"{ROOT}[{extra}]" if extra else str(ROOT), *requirements(sdk))


def _has_option(args: list[str], name: str) -> bool:
    return any(a == name or a.startswith(name + "=") for a in args)


def _option_value(args: list[str], name: str) -> str | None:
    """The value of the last `name VALUE` or `name=VALUE` in args."""
    value = None
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith(name + "="):
            value = a[len(name) + 1 :]
    return value


@nox.session(python=PYTHON)
@nox.parametrize("sdk", _probe_versions())
def probe(session: nox.Session, sdk: str) -> None:
    """Probe one SDK version (with its bundled CLI) and write its report."""
    install_project(session, sdk)
    args = list(session.posargs)
    if not _has_option(args, "--out"):
        args = ["--out", str(ROOT / "reports"), *args]
    session.run("sdkprobe", "run", *args)


@nox.session(python=PYTHON)
@nox.parametrize("ts", TS_VERSIONS)
def probe_ts(session: nox.Session, ts: str) -> None:
    """Probe one TypeScript SDK release (from npm, with its bundled CLI) and write reports/ts/<ts>.json."""
    install_project(session, DEFAULT_SDK)
    args = list(session.posargs)
    if not _has_option(args, "--out"):
        args = ["--out", str(ROOT / "reports" / "ts"), *args]
    session.run("sdkprobe", "run", "--sdk", f"ts@{ts}", *args)


@nox.session(python=PYTHON)
def report(session: nox.Session) -> None:
    """Render the matrix (reports/COMPATIBILITY.md and the HTML table) from reports/."""
    install_project(session, DEFAULT_SDK)
    session.run("sdkprobe", "report", *(session.posargs or [str(ROOT / "reports")]))


@nox.session(python=False)
def matrix(session: nox.Session) -> None:
    """Every probe session, then report (like `nox -s probe report`); args go to the probes."""
    for sdk in _probe_versions():
        session.notify(f"probe(sdk={sdk!r})")
    out = _option_value(list(session.posargs), "--out")
    session.notify("report", posargs=[out] if out else [])


@nox.session(python=PYTHON)
def history(session: nox.Session) -> None:
    """Refresh reports/history/history.json: the exact releases of each change between listed
    versions (entries whose neighbours' verdicts are unchanged are kept); args go to `sdkprobe history`."""
    install_project(session, DEFAULT_SDK)
    args = list(session.posargs)
    if not _has_option(args, "--reports"):
        args = ["--reports", str(ROOT / "reports"), *args]
    session.run("sdkprobe", "history", *args)


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The test suite, as the README runs it, on the default (newest) SDK."""
    install_project(session, DEFAULT_SDK, "test")
    session.run("pytest", "-n", "2", *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff over the repository, and mypy --strict over the sdkprobe package (.ci/typecheck)."""
    session.install("-e", f"{ROOT}[lint]", *requirements(DEFAULT_SDK))
    session.run("ruff", "check", *(session.posargs or ["."]))
    session.run("python", str(ROOT / ".ci" / "typecheck"))


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Every script in bench/ (or those named after --); each prints its own figures."""
    install_project(session, DEFAULT_SDK, "test")
    scripts = sorted(glob.glob(str(ROOT / "bench" / "*.py")))
    if session.posargs:
        wanted = {Path(a).stem for a in session.posargs}
        unknown = wanted - {Path(s).stem for s in scripts}
        if unknown:
            session.error(f"no such benchmark in bench/: {', '.join(sorted(unknown))}")
        scripts = [s for s in scripts if Path(s).stem in wanted]
    if not scripts:
        session.error("no benchmark scripts in bench/")
    env = {}
    uv = _uv_for_nested_nox()
    if uv:
        env["UV"] = uv  # bench/matrix_time.py runs nox again from inside this session
    for script in scripts:
        session.run("python", script, env=env)


def _uv_for_nested_nox() -> str | None:
    """The uv this nox uses, so a nox started inside a session picks the same backend."""
    try:
        from nox.virtualenv import find_uv

        has_uv, uv, _ = find_uv()
    except (ImportError, AttributeError, OSError, TypeError, ValueError):
        # a private helper of nox; without it the nested nox looks for uv on PATH
        return None
    return uv if has_uv else None
