"""The TypeScript SDK's session functions called by their Python names, against the
stand-in SDK module: arguments reach TypeScript as it spells them, results come back as
the Python SDK's types, throws as named exceptions, and no call outlives its time."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import claude_agent_sdk as py_sdk
import pytest
from ts_fake_release import FakeRelease

from sdkprobe.harness.typescript import functions
from sdkprobe.harness.typescript.relay import DriverError, TsError

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")

SDK = functions.TsFunctions(FakeRelease())


def test_arguments_are_spelled_as_typescript_takes_them_and_the_result_typed_as_in_python(monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/cfg/probe")
    info = SDK.get_session_info("s1", directory=Path("/proj"))
    assert type(info).__name__ == "SDKSessionInfo" and dataclasses.is_dataclass(info)
    assert (info.session_id, info.summary, info.file_size) == ("s1", '{"dir":"/proj"}', 12)
    assert info.custom_title == "/cfg/probe"  # the environment the probe set reaches Node


def test_a_result_holds_exactly_the_fields_typescript_returned() -> None:
    """No Python class decides a TypeScript result: a field TypeScript left out is absent, not
    the Python dataclass's default, and one the Python class lacks is kept."""
    info = functions.python_value("get_session_info", {"sessionId": "s1", "newField": 1})
    assert dataclasses.asdict(info) == {"session_id": "s1", "new_field": 1}
    assert not hasattr(info, "custom_title")  # py_sdk.SDKSessionInfo would default it to None
    assert "custom_title" in {f.name for f in dataclasses.fields(py_sdk.SDKSessionInfo)}
    # a field the release's own type declares and the call left undefined reads as None
    declared = {"sessionId": {}, "customTitle": {}}
    info = functions.python_value("get_session_info", {"sessionId": "s1"}, declared)
    assert dataclasses.asdict(info) == {"custom_title": None, "session_id": "s1"}


def test_only_the_options_given_are_passed() -> None:
    (message,) = SDK.get_session_messages("s1", limit=2, offset=1)
    assert type(message).__name__ == "SessionMessage"
    assert message.message == {"limit": 2, "offset": 1}
    assert SDK.get_session_messages("s1")[0].message is None  # no options object at all
    assert SDK.fork_session("s1", up_to_message_id="m2").session_id == 'fork of s1 {"upToMessageId":"m2"}'


def test_nothing_found_is_none_and_a_throw_is_raised_by_its_name() -> None:
    assert SDK.get_session_info("unknown") is None
    with pytest.raises(TsError) as raised:
        SDK.get_session_info("throw")
    assert type(raised.value).__name__ == "TypeError" and str(raised.value) == "not a session id"


def test_a_wrong_call_is_refused_as_python_refuses_it() -> None:
    with pytest.raises(TypeError):
        SDK.get_session_info()  # no session id
    with pytest.raises(TypeError):
        SDK.get_session_info("s1", folder="/x")  # no such parameter


def test_arguments_bind_by_position_or_name_as_in_python() -> None:
    assert functions.ts_arguments("get_subagent_messages", ("s1", "a1", "/d"), {"limit": 2}) == [
        "s1",
        "a1",
        {"dir": "/d", "limit": 2},
    ]
    assert functions.ts_arguments("list_sessions", (), {}) == []
    with pytest.raises(TypeError, match="multiple values"):
        functions.ts_arguments("get_session_info", ("s1",), {"session_id": "s2"})
    with pytest.raises(TypeError, match="takes 2 arguments"):
        functions.ts_arguments("get_session_info", ("s1", "/d", "extra"), {})


@pytest.mark.parametrize("name", sorted(functions.TABLE))
def test_the_table_names_the_installed_python_sdks_parameters(name: str) -> None:
    """The relay binds calls by its own table, not the installed Python SDK; this says when
    the two part (a new parameter to add to the table)."""
    import inspect

    spec = functions.TABLE[name]
    assert tuple(inspect.signature(getattr(py_sdk, name)).parameters) == (*spec.positional, *spec.options)


def test_a_function_the_release_does_not_export_is_absent() -> None:
    assert getattr(SDK, "rename_session", None) is None  # relayed, but this release lacks it
    assert getattr(SDK, "InMemorySessionStore", None) is None  # not relayed at all


def test_a_call_that_never_returns_ends_at_its_time(monkeypatch) -> None:
    monkeypatch.setattr(functions, "_TIMEOUT", 2.0)
    with pytest.raises(DriverError, match="did not return within 2 s"):
        SDK.list_subagents("hang")


def test_a_requirement_on_a_session_function_asks_whether_the_release_exports_it() -> None:
    from sdkprobe.harness.typescript.requirements import unmet

    release = FakeRelease()
    assert unmet("api", "get_session_info", release) is None
    assert (
        unmet("api", "rename_session", release)
        == "@anthropic-ai/claude-agent-sdk 0.0.0-fake exports no renameSession()"
    )
    assert "has no counterpart of project_key_for_directory" in str(unmet("api", "project_key_for_directory", release))
    assert "does not relay the session summary fold yet" in str(unmet("api", "fold_session_summary", release))


def test_a_store_function_the_release_has_but_sdkprobe_cannot_call_makes_the_probe_not_applicable() -> None:
    from sdkprobe.behaviour import NotApplicable

    with pytest.raises(NotApplicable, match=r"does not relay forkSession\(\) with a sessionStore yet"):
        getattr(SDK, "fork_session_via_store", None)  # not merely absent: that would read "this SDK has none"
