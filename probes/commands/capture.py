"""`sdkprobe capture`: what the SDK under test sends its CLI for some options, as the fake CLI
recorded it."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
from typing import Any

from sdkprobe.commands.sdk_flag import SDK_HELP, add_sdk, in_release
from sdkprobe.commands.shared import choose_sdk
from sdkprobe.errors import UsageError
from sdkprobe.harness.options import check_json_options


def register(sub: Any) -> None:
    cap = sub.add_parser(
        "capture",
        allow_abbrev=False,  # --sdk is found by its full name to forward the rest as given
        help="show what the SDK under test sends its CLI for some options",
        description="Run the SDK under test (the installed claude-agent-sdk unless --sdk names another) "
        "against the fake CLI and print its capture: the argv the SDK built (marking the flags the "
        "options added), the initialize request and the environment variables it set. Options are "
        "ClaudeAgentOptions fields by their Python names, as JSON.",
    )
    cap.add_argument(
        "--options", default="{}", metavar="JSON", help="ClaudeAgentOptions fields, e.g. '{\"tools\": []}'"
    )
    cap.add_argument(
        "--agents",
        metavar="JSON",
        help='agent definitions by name, e.g. \'{"r": {"description": "d", "prompt": "p"}}\'',
    )
    add_sdk(cap, SDK_HELP)
    cap.add_argument("--prompt", default="hi", metavar="TEXT", help="the prompt to send (default: hi)")
    cap.add_argument(
        "--json", action="store_true", help="print one JSON object (keys: argv, added, initialize, env, ...)"
    )
    cap.set_defaults(func=cmd_capture)


def cmd_capture(args: argparse.Namespace) -> int:
    from sdkprobe.harness import under_test
    from sdkprobe.harness.isolation import Space
    from sdkprobe.harness.under_test import OptionMissing
    from sdkprobe.harness.wire import capture

    if args.sdk is not None and args.sdk.python_release is not None:
        return in_release(args.sdk.python_release, args)
    choose_sdk(args.sdk)
    under = under_test.current()
    options = _json_object(args.options, "--options")
    if args.agents is not None:
        options["agents"] = _json_object(args.agents, "--agents")
    try:
        under.require_options(options)
        check_json_options(options)
    except (OptionMissing, ValueError) as exc:
        raise UsageError(str(exc)) from None

    async def both() -> tuple[Any, Any]:
        with Space.create() as space:
            base = await capture(space.path("base"), prompt=args.prompt, cwd=str(space.cwd))
            run = await capture(space.path("run"), prompt=args.prompt, **{"cwd": str(space.cwd), **options})
            return base, run

    base, run = asyncio.run(both())
    added, removed = _flag_diff(base.argv, run.argv)
    out = {
        "sdk": under.name,
        "sdk_version": under.version,
        "argv": run.argv,
        "added": added,
        "removed": removed,
        "initialize": run.initialize,
        "env": {k: v for k, v in sorted(run.env_added.items()) if k != "PWD"},
        "env_removed": run.env_removed,
        "user_messages": run.user_messages,
        "warnings": run.warnings,
        "log": run.log,
        "error": run.error,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{out['sdk']} {out['sdk_version']} sends:")
    print("argv (+ added by the options):")
    for item in _flags(run.argv):
        mark = "+" if item in added else " "
        print(f"  {mark} {' '.join(shlex.quote(w) for w in item)}")
    for item in removed:
        print(f"  - {' '.join(shlex.quote(w) for w in item)}   (sent without the options, not with them)")
    print("initialize request:")
    print("  " + json.dumps(out["initialize"]))
    print("environment set by the SDK:")
    for k, v in out["env"].items():
        print(f"  {k}={v}")
    for name in out["env_removed"]:
        print(f"  (removed {name})")
    for w in out["warnings"] + out["log"]:
        print(f"warning: {w}")
    if out["error"]:
        print(f"the SDK raised: {out['error']}")
    return 0


def _json_object(text: str, flag: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{flag} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{flag} must be a JSON object, not {type(value).__name__}")
    return value


def _flags(argv: list[str]) -> list[tuple[str, ...]]:
    """argv grouped into flags with their values: ('--tools', 'Bash,Read')."""
    items: list[list[str]] = []
    for word in argv:
        if word.startswith("--") or not items:
            items.append([word])
        else:
            items[-1].append(word)
    return [tuple(i) for i in items]


def _flag_diff(base: list[str], run: list[str]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    b, r = _flags(base), _flags(run)
    return [i for i in r if i not in b], [i for i in b if i not in r]
