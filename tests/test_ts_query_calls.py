"""The harness's way to any Query method by its TypeScript name, an AbortController to abort,
the error class the SDK exports naming what it threw, and exported functions and classes called
by their TypeScript names: each against the stand-in SDK module (no npm needed)."""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

import pytest
from ts_fake_release import FakeRelease

from sdkprobe.harness import sdk
from sdkprobe.harness.typescript.client import iterable
from sdkprobe.harness.typescript.functions import TsFunctions
from sdkprobe.harness.typescript.relay import TsError
from sdkprobe.harness.typescript.run import TsOptions
from sdkprobe.harness.typescript.sdk_under_test import TypeScriptSdk

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")


def run(drive: Any, **options: Any) -> sdk.Outcome:
    release = FakeRelease()
    return asyncio.run(
        sdk.run_sdk(
            TsOptions(options, release), None, client=True, drive=drive, timeout=30, under=TypeScriptSdk(release)
        )
    )


def test_a_query_method_is_called_by_its_typescript_name_with_json_arguments() -> None:
    got: dict[str, Any] = {}

    async def drive(client: Any, outcome: Any) -> None:
        got["echo"] = await client.query_method("echo", "a", {"b": [1, None]}, None)
        got["collected"] = await client.query_method("collect", iterable([{"n": 1}, {"n": 2}]))
        with pytest.raises(TsError, match="no thanks") as refused:
            await client.query_method("refuse", "no thanks")
        got["refused"] = refused.value.ts_name
        with pytest.raises(TsError, match="Query has no method nothingLikeIt"):
            await client.query_method("nothingLikeIt")
        await client.query("last")

    out = run(drive)
    assert out.error is None
    assert got["echo"] == {"args": ["a", {"b": [1, None]}, None]}
    assert got["collected"] == [{"n": 1}, {"n": 2}] and got["refused"] == "Error"


def test_abort_aborts_the_querys_controller_and_its_error_names_the_sdks_exported_class() -> None:
    async def drive(client: Any, outcome: Any) -> None:
        client.abort()
        async for message in client.receive_messages():
            outcome.messages.append(message)

    out = run(drive, model="wait-for-abort")
    assert isinstance(out.exception, TsError)
    assert out.exception.ts_name == "Aborted" and str(out.exception) == "aborted by its host"
    assert out.exception.exported == "AbortError"  # the class the SDK exports it as


def test_an_error_of_no_exported_class_names_none() -> None:
    out = run(None, model="throw:bad option")
    assert isinstance(out.exception, TsError) and out.exception.exported is None


def test_an_exported_function_is_called_by_its_typescript_name() -> None:
    functions = TsFunctions(FakeRelease())
    assert functions.call_exported("twice", 21) == 42
    with pytest.raises(TsError, match="exports no function nope"):
        functions.call_exported("nope")


def test_an_exported_class_is_made_once_and_its_methods_called_in_turn() -> None:
    functions = TsFunctions(FakeRelease())
    replies = functions.instance_calls("Tally", [("add", [2]), ("add", ["x"]), ("read", []), ("gone", [])], 40)
    assert replies[0] == {"undefined": True}
    assert replies[1] == {"error": {"name": "TypeError", "message": "not a number"}}
    assert replies[2] == {"value": 42}  # the error before did not stop it, and the instance is the one made
    assert replies[3]["error"]["message"] == "Tally has no method gone"
    with pytest.raises(TsError, match="exports no class Nope"):
        functions.instance_calls("Nope", [])


class _Declared:
    """What a release's sdk.d.ts exports, as requirements read it."""

    def __init__(self, exports: dict[str, dict[str, Any]]) -> None:
        self._exports = exports

    def entry(self, name: str) -> dict[str, Any] | None:
        return self._exports.get(name)

    def methods(self, name: str) -> list[str]:
        return sorted(k for k, v in (self._exports.get(name) or {}).get("fields", {}).items() if v.get("method"))


class _Release:
    version = "9.9.9"

    def query_methods(self) -> tuple[str, ...]:
        return ("close", "readFile")

    def declarations(self) -> _Declared:
        return _Declared(
            {
                "matchDeniedModels": {"kind": "function"},
                "Tally": {"kind": "class", "fields": {"add": {"method": True}, "total": {"method": False}}},
                "Settings": {"kind": "type", "fields": {}},
            }
        )


def test_a_requirement_names_the_releases_own_query_methods_functions_and_classes() -> None:
    from sdkprobe.harness.typescript.requirements import unmet

    release, sdk_ = _Release(), "@anthropic-ai/claude-agent-sdk 9.9.9"
    assert unmet("api", "Query.readFile", release) is None
    assert unmet("api", "Query.reinitialize", release) == f"{sdk_}: Query has no method reinitialize()"
    assert unmet("api", "matchDeniedModels", release) is None
    assert unmet("api", "Tally", release) is None and unmet("api", "Tally.add", release) is None
    assert unmet("api", "Tally.total", release) == f"Tally in {sdk_} has no method total()"
    assert unmet("api", "prewarm", release) == f"{sdk_} exports no function or class prewarm"
    assert unmet("api", "Settings", release) == f"{sdk_} exports no function or class Settings"
    # a Python name the release has no counterpart of stays sdkprobe's gap, not the release's
    python_name = unmet("api", "ClaudeAgentOptions", release)
    assert python_name == "@anthropic-ai/claude-agent-sdk 9.9.9 exports no function or class ClaudeAgentOptions"
