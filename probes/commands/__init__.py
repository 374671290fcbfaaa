"""`sdkprobe`: one module per subcommand, each with `register(sub)` adding its parser and a
handler that returns the exit status or raises `UsageError`.

Exit codes: 0 done, 1 a probe errored (or, for `gate`, a verdict moved), 2 bad input
(or an output that cannot be written), 130 interrupted: the first Ctrl-C ends every process
the command started (sdkprobe.scope) and writes nothing.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

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
    parser = build_parser()
    args = parser.parse_args(argv)
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sdkprobe",
        description="Check which behaviours of claude-agent-sdk and its CLI hold on the installed version.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"sdkprobe.commands.{name}").register(sub)
    return parser


if __name__ == "__main__":
    sys.exit(main())
