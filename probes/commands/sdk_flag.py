"""`--sdk`: the one spelling, on every command, for the SDK under test and its release.

`python` is the installed claude-agent-sdk, `python@0.2.189` that release in an environment
of its own in the cache, `ts@0.3.336` that release of @anthropic-ai/claude-agent-sdk from
npm. A command that lists or walks releases (`releases`, `bisect`, `history`, `update`) takes
the SDK alone, `python` or `ts`. The old spellings (`run --sdk-version V`, `--axis ts`) store
the same choice, so a value that names nothing, or two spellings naming different SDKs, is
argparse's usage error: one line, exit 2, before the command starts.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sdkprobe.errors import UsageError

PYTHON = "python"
TYPESCRIPT = "ts"
_KINDS = {"python": PYTHON, "py": PYTHON, "ts": TYPESCRIPT, "typescript": TYPESCRIPT}  # py, typescript: as before
_VERSION = re.compile(r"\d+(\.\d+)+([-+.]?[0-9A-Za-z]+)*")  # 0.2.189, 0.3.336, 0.1.0a1, 1.0.0-beta.2
EXAMPLES = "python, python@0.2.189 or ts@0.3.336"


@dataclass(frozen=True)
class SdkChoice:
    """An SDK, and the release of it when the command runs one (None: the installed Python SDK,
    or every release for a command that walks them)."""

    kind: str  # PYTHON or TYPESCRIPT
    version: str | None = None

    def __str__(self) -> str:
        return self.kind if self.version is None else f"{self.kind}@{self.version}"

    @property
    def typescript(self) -> bool:
        return self.kind == TYPESCRIPT

    @property
    def python_release(self) -> str | None:
        """The Python release to run in its own cached environment; None for the installed one or TypeScript."""
        return self.version if self.kind == PYTHON else None


def with_release(text: str) -> SdkChoice:
    """--sdk on a command that runs one release: python, python@VERSION or ts@VERSION."""
    choice = _parse(text, EXAMPLES)
    if choice.typescript and choice.version is None:
        raise argparse.ArgumentTypeError(f"{text} names no release: give ts@VERSION (e.g. ts@0.3.336)")
    return choice


def alone(text: str, expected: str = "python or ts") -> SdkChoice:
    """--sdk on a command that lists or walks releases: python or ts, without a release."""
    if "@" in text:
        raise argparse.ArgumentTypeError(f"{text!r} names a release; this command takes the SDK alone: {expected}")
    return _parse(text, expected)


def _old_sdk_version(text: str) -> SdkChoice:
    """--sdk-version V, the old spelling of --sdk python@V."""
    return _parse(f"{PYTHON}@{text}", EXAMPLES, given=text)


def _parse(text: str, expected: str, given: str | None = None) -> SdkChoice:
    kind, at, version = text.partition("@")
    if kind not in _KINDS:
        raise argparse.ArgumentTypeError(f"{text!r} names no SDK: give {expected}")
    if at and not _VERSION.fullmatch(version):
        example = "0.3.336" if _KINDS[kind] == TYPESCRIPT else "0.2.189"
        raise argparse.ArgumentTypeError(f"{given or version!r} is not a release number (e.g. {example})")
    return SdkChoice(_KINDS[kind], version or None)


class _Choose(argparse.Action):
    """Store the choice in `sdk`; a second spelling naming another SDK is a usage error."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        given = values.version if option_string == "--sdk-version" else values
        _store(self, namespace, values, f"{option_string} {given}")


def _store(action: argparse.Action, namespace: Any, choice: SdkChoice, spelt: str) -> None:
    """namespace.sdk = choice, unless an earlier spelling chose another (`spelt`: as given, kept
    so that the message names both as the user wrote them)."""
    earlier = getattr(namespace, "sdk", None)
    if earlier is not None and earlier != choice:
        said = getattr(namespace, "_sdk_spelt", f"--sdk {earlier}")
        raise argparse.ArgumentError(action, f"{spelt} and {said} choose different SDKs; give one")
    namespace.sdk = choice
    namespace._sdk_spelt = spelt


def add_sdk(parser: argparse.ArgumentParser, help: str, *, release: bool = True) -> None:
    """--sdk (dest `sdk`, an SdkChoice or None): python, python@V or ts@V on a command that runs
    one release; with release=False, python or ts alone."""
    parse, metavar = (with_release, "SDK[@V]") if release else (alone, "SDK")
    parser.add_argument("--sdk", type=parse, action=_Choose, default=None, metavar=metavar, help=help)


def add_sdk_version(parser: argparse.ArgumentParser) -> None:
    """--sdk-version V, the old spelling of --sdk python@V."""
    parser.add_argument(
        "--sdk-version",
        dest="sdk",
        type=_old_sdk_version,
        action=_Choose,
        metavar="V",
        help="(old spelling of --sdk python@V)",
    )


class _Axis(argparse.Action):
    """--axis sdk|cli, and `--axis ts`, the old spelling of --sdk ts (on the SDK axis)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        if values == TYPESCRIPT:
            _store(self, namespace, SdkChoice(TYPESCRIPT), f"{option_string} {values}")
            values = "sdk"
        namespace.axis = values


def add_axis(parser: argparse.ArgumentParser, help: str) -> None:
    """--axis sdk|cli (dest `axis`), `ts` kept as the old spelling of --sdk ts."""
    parser.add_argument(
        "--axis",
        choices=("sdk", "cli", TYPESCRIPT),
        action=_Axis,
        default="sdk",
        help=help + " (ts: old spelling of --sdk ts)",
    )


def axis(args: argparse.Namespace) -> str:
    """`sdk` (Python SDK releases), `ts` (TypeScript SDK releases) or `cli` (CLI releases under the
    installed Python SDK), from --axis and --sdk; UsageError for a CLI axis under TypeScript."""
    typescript = args.sdk is not None and args.sdk.typescript
    if args.axis == "cli" and typescript:
        raise UsageError("--axis cli holds the installed Python SDK fixed: it takes no --sdk ts")
    return TYPESCRIPT if typescript else str(args.axis)


SDK_HELP = (
    "the SDK under test: python (the installed claude-agent-sdk, the default), python@VERSION "
    "(claude-agent-sdk release VERSION from the package index, run in an environment of its own, installed "
    "once into $SDKPROBE_CACHE/envs) or ts@VERSION (@anthropic-ai/claude-agent-sdk release VERSION from npm, "
    "installed once into $SDKPROBE_CACHE/ts; needs node and npm)"
)


def in_release(version: str, args: argparse.Namespace) -> int:
    """The same command, as given less its SDK flag, by the `sdkprobe` of claude-agent-sdk release
    `version`'s own cached environment (two releases cannot share one interpreter); its exit
    status is ours. UsageError, one line, for a release not on the index or not installable."""
    from sdkprobe import scope
    from sdkprobe.harness import under_test
    from sdkprobe.releases.envcache import EnvCache, InstallFailed
    from sdkprobe.releases.index import releases

    known = {r.version for r in releases()}  # IndexUnreachable is a UsageError: one line, exit 2
    if version not in known:
        raise UsageError(f"--sdk python@{version}: no such release of claude-agent-sdk on the index")
    try:
        env = EnvCache().ensure(version, lambda line: print(f"sdkprobe: {line}", file=sys.stderr, flush=True))
    except InstallFailed as exc:
        raise UsageError(f"--sdk python@{version}: {exc}") from None
    command = [str(env.sdkprobe), args.command, *without_sdk(args.argv, args.command)]
    # The release's own Python, and its Python SDK under test whatever SDKPROBE_SDK said here.
    variables = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", under_test.VARIABLE)}
    variables.update(VIRTUAL_ENV=str(env.path), PATH=f"{env.bin}{os.pathsep}{variables.get('PATH', '')}")
    # In a process session of its own: a Ctrl-C reaches this process only, which ends that command.
    return scope.run(command, env=variables, capture=False).returncode


def without_sdk(argv: Sequence[str], command: str) -> list[str]:
    """The command's own arguments as the user gave them, less --sdk X or --sdk-version V: the
    release's sdkprobe gets every other flag as it is (same working directory, so relative paths
    mean the same). The commands that forward are parsed with allow_abbrev=False, so the flags
    are found by their full names."""
    words = list(argv[list(argv).index(command) + 1 :])
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in ("--sdk", "--sdk-version"):
            skip = True
        elif not word.startswith(("--sdk=", "--sdk-version=")):
            kept.append(word)
    return kept
