"""`sdkprobe`: one module per subcommand, each with `register(sub)` adding its parser and a
handler that returns the exit status or raises `UsageError`.

Exit codes: 0 done, 1 a probe errored (or, for `gate`, a verdict moved), 2 bad input
(or an output that cannot be written), 130 interrupted: the first Ctrl-C ends every process
the command started (sdkprobe.scope) and writes nothing. Bad input is one line on stderr,
`sdkprobe COMMAND: error: ...`, whether argparse or the command finds it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn

from sdkprobe import scope
from sdkprobe.commands.shared import choose_catalogue
from sdkprobe.errors import UsageError

# In the order `sdkprobe --help` lists them; each is the module sdkprobe.commands.<name>
# (`list_`: a module named `list` would shadow the builtin in this package).
SUBCOMMANDS = (
    "run",
    "list_",
    "show",
    "surface",
    "capture",
    "rejudge",
    "report",
    "gate",
    "bisect",
    "history",
    "releases",
    "update",
    "site",
)


def main(argv: list[str] | None = None) -> int:
    """The exit status of the command `argv` names (default: sys.argv's); `--help` is 0, input
    argparse refuses 2, both as a command's own."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or Parser.error's one line
        return exc.code if isinstance(exc.code, int) else 2
    args.argv = list(sys.argv[1:] if argv is None else argv)  # as given, for a command that forwards it
    with scope.entered(), scope.interrupts_stop():
        return _command(args)


def _command(args: argparse.Namespace) -> int:
    """The one place a command's failure becomes a line and an exit status."""
    try:
        choose_catalogue(args)
        code: int = args.func(args)
        return code
    except UsageError as exc:  # ReportError, InstallFailed, IndexUnreachable... are UsageErrors
        print(f"sdkprobe {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        scope.stop()  # already done by the first SIGINT; again for an interrupt raised otherwise
        print("sdkprobe: interrupted", file=sys.stderr, flush=True)
        # That line is the last word: what the interrupted probe's event loop left behind is
        # finalised at exit (an SDK transport's "Event loop is closed"), and goes nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
        return 130
    except BrokenPipeError:  # `sdkprobe list | head`: the reader left, which is no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


class Parser(argparse.ArgumentParser):
    """argparse's parser (and each subcommand's, which argparse makes of the same class) with its
    errors as a command's UsageError reads: one line, exit 2, without the usage above it."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="sdkprobe",
        description="Check which behaviours of the Claude Agent SDK (Python or TypeScript) and of the "
        "CLI it starts hold on a release of it: by default, the installed claude-agent-sdk.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"sdkprobe.commands.{name}").register(sub)
    return parser


if __name__ == "__main__":
    sys.exit(main())
