"""Checks ClaudeAgentOptions given as JSON (by `sdkprobe capture`) before the SDK sees them.

The SDK's options are a plain dataclass with no validation, so a value of the wrong type
would surface as an odd crash deep in the SDK. Checking the JSON against the field's
annotation turns that into one clear line for the user; an annotation the check does
not understand is let through, and the SDK decides.
"""

from __future__ import annotations

import collections.abc
import json
import os
import types
import typing
from typing import Any

import claude_agent_sdk as sdk_module


def check_json_options(options: dict[str, Any]) -> None:
    """Reject values of the wrong JSON type before the SDK sees them (whether the SDK has
    an option at all is the seam's to say: SdkUnderTest.require_options)."""
    try:
        hints = typing.get_type_hints(sdk_module.ClaudeAgentOptions)
    except Exception:  # an annotation this Python cannot resolve: skip the type check
        hints = {}
    for name, value in options.items():
        if name in hints and not _fits(value, hints[name]):
            raise ValueError(f"option {name!r}: {json.dumps(value)} does not fit its type {_type_name(hints[name])}")
    agents = options.get("agents")
    if isinstance(agents, dict):
        for agent_name, definition in agents.items():
            if not isinstance(definition, dict):
                raise ValueError(f"agent {agent_name!r} must be a JSON object")
            try:
                sdk_module.AgentDefinition(**definition)
            except TypeError as exc:
                raise ValueError(f"agent {agent_name!r}: {exc}") from None


def _fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value can stand for a field of this annotation (loosely)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is typing.Any or isinstance(hint, typing.TypeVar):
        return True
    if origin in (typing.Union, getattr(types, "UnionType", None)):
        return any(_fits(value, a) for a in args)
    if origin is typing.Literal:
        return value in args
    if hint is type(None):
        return value is None
    if origin in (list, collections.abc.Sequence, tuple, set, frozenset):
        return isinstance(value, list) and (not args or all(_fits(v, args[0]) for v in value))
    if origin in (dict, collections.abc.Mapping):
        return isinstance(value, dict)
    if typing.is_typeddict(hint):
        return isinstance(value, dict)
    if origin is collections.abc.Callable:
        return False
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if isinstance(hint, type) and issubclass(hint, os.PathLike):
        return isinstance(value, str)
    if isinstance(hint, type) and hint.__module__.startswith("claude_agent_sdk"):
        return isinstance(value, dict)  # a dataclass or TypedDict of the SDK: its fields as an object
    return True  # an annotation this check does not understand: let the SDK decide


def _type_name(hint: Any) -> str:
    return str(hint).replace("typing.", "")
