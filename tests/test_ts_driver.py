"""The TypeScript driver and its relay, against a stand-in SDK module (no npm needed):
every way a probe's run crosses into Node and back is relayed, and nothing is left running."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import shutil
from typing import Any

import claude_agent_sdk as py_sdk
import pytest
from ts_fake_release import FakeRelease

from sdkprobe.harness import (
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    PermissionUpdate,
    in_process_server,
    in_process_tool,
    processes,
    sdk,
    under_test,
)
from sdkprobe.harness.typescript import callbacks, relay
from sdkprobe.harness.typescript import options as table
from sdkprobe.harness.typescript.messages import TsMessage
from sdkprobe.harness.typescript.run import TsOptions
from sdkprobe.harness.typescript.sdk_under_test import TypeScriptSdk

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")


def run(prompt: Any = "hi", *, client: bool = False, drive: Any = None, **options: Any) -> sdk.Outcome:
    release = FakeRelease()
    return asyncio.run(
        sdk.run_sdk(
            TsOptions(options, release), prompt, client=client, drive=drive, timeout=30, under=TypeScriptSdk(release)
        )
    )


def seen(outcome: sdk.Outcome) -> dict[str, Any]:
    users = outcome.of_type("UserMessage")
    assert users, [type(m).__name__ for m in outcome.messages]
    return json.loads(users[0].content)


def test_messages_come_in_order_and_none_is_dropped() -> None:
    out = run("hello")
    assert out.error is None
    assert [type(m).__name__ for m in out.messages] == ["SystemMessage", "UserMessage", "TsMessage", "ResultMessage"]
    unknown = out.messages[2]
    assert isinstance(unknown, TsMessage) and unknown.type == "made_up_type" and unknown.data["detail"] == 1
    assert seen(out)["prompt"] == "hello"
    assert out.result.result == "done"


def test_each_message_is_also_kept_as_the_json_the_sdk_yielded() -> None:
    out = run("hello")
    assert out.as_json is not None and len(out.as_json) == len(out.messages)
    assert [m.get("type") for m in out.as_json] == ["system", "user", "made_up_type", "result"]
    assert out.as_json[2] == out.messages[2].data  # whole, as the SDK gave it, never read into a class
    assert sdk.Outcome().as_json is None  # what a Python SDK's run leaves: it yields objects of its classes


def test_can_use_tool_is_asked_through_python_and_its_answer_returned_as_typescript_spells_it() -> None:
    asked: list[tuple[str, dict[str, Any], Any]] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        asked.append((name, tool_input, context))
        return PermissionResultAllow(updated_input={"command": "pwd"})

    got = seen(run(can_use_tool=can_use_tool))
    assert got["permission"] == {"behavior": "allow", "updatedInput": {"command": "pwd"}}
    assert asked[0][:2] == ("Bash", {"command": "ls"})
    assert asked[0][2].tool_use_id == "t1"


def test_a_hook_is_called_and_its_python_spellings_become_json_keys() -> None:
    async def hook(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        return {"continue_": False, "async_": True, "reason": f"{hook_input['hook_event_name']} {tool_use_id}"}

    matcher = HookMatcher(matcher="Bash", hooks=[hook], timeout=5)
    got = seen(run(hooks={"PreToolUse": [matcher]}))
    assert got["PreToolUse"] == {"continue": False, "async": True, "reason": "PreToolUse t1"}
    assert got["PreToolUse matcher"] == {"matcher": "Bash", "timeout": 5, "hooks": 1}


def test_stderr_callback_and_option_names_reach_the_sdk() -> None:
    lines: list[str] = []
    got = seen(run(stderr=lines.append, allowed_tools=["Read"], max_turns=2))
    assert lines == ["a line on stderr"]
    assert {"allowedTools", "maxTurns", "stderr"} <= set(got["options"])


def test_a_client_streams_turns_and_calls_query_methods() -> None:
    async def drive(client: Any, outcome: Any) -> None:
        await client.query("first")
        await client.interrupt()
        outcome.messages.append(await client.set_model("m-2"))
        await client.query("last")
        async for message in client.receive_response():
            outcome.messages.append(message)

    out = run(None, client=True, drive=drive)
    assert out.messages[0] == {"model": "m-2"}
    got = json.loads(out.of_type("UserMessage")[0].content)
    assert got["prompts"] == ["first", "last"] and got["interrupted"] == 1


def test_a_raw_control_request_goes_by_the_query_method_that_sends_it() -> None:
    async def drive(client: Any, outcome: Any) -> None:
        outcome.messages.append(await client.control({"subtype": "reload_plugins", "add_plugins": ["p"]}, 10))
        outcome.messages.append(await client.control({"subtype": "reload_plugins"}, 10))
        with pytest.raises(RuntimeError, match="no method sending a 'mcp_authenticate'"):
            await client.control({"subtype": "mcp_authenticate"}, 10)
        await client.query("last")

    out = run(None, client=True, drive=drive)
    assert out.messages[:2] == [
        {"subtype": "success", "response": {"got": {"addPlugins": ["p"]}}},
        {"subtype": "success", "response": {"got": None}},
    ]


def test_what_the_sdk_throws_is_the_runs_exception_named_as_thrown() -> None:
    out = run(model="throw:bad option")
    assert out.error == "TypeError: bad option"
    assert [type(m).__name__ for m in out.messages] == ["SystemMessage"]


class _Recorded(set):
    """processes.hosts that also remembers every pid it was handed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[int] = []

    def add(self, pid: int) -> None:
        self.seen.append(pid)
        super().add(pid)


def test_the_driver_and_its_spare_end_with_their_host(monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = _Recorded()
    monkeypatch.setattr(processes, "hosts", recorded)
    run("hi")
    assert recorded.seen  # the run went through a Node driver the relay registered
    assert not recorded  # and unregistered every one when the run ended
    for pid in recorded.seen:  # and each is really gone, not merely forgotten
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert len(relay._spares[FakeRelease().entry]) == relay.SPARES  # warm drivers wait for the next runs ...
    spares = [proc.pid for waiting in relay._spares.values() for proc in waiting]
    relay.end_spares()  # ... until its host ends (at exit)
    for pid in spares:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_every_option_of_the_installed_python_sdk_has_a_row() -> None:
    """A Python option the table does not know would reach no TypeScript run unnoticed."""
    names = {f.name for f in dataclasses.fields(py_sdk.ClaudeAgentOptions)}
    assert names - set(table.TABLE) == set()


def test_missing_names_each_reason() -> None:
    why = table.missing({"user", "allowed_tools", "resume_drops_turn"}, ("allowedTools",))
    assert why == [
        "Options has no 'resumeDropsTurn' (ClaudeAgentOptions.resume_drops_turn)",
        "user: the TypeScript SDK cannot run its CLI as another OS user",
    ]


def test_an_option_only_typescript_has_passes_by_its_own_name_and_a_callable_one_asks_python() -> None:
    asked: list[tuple[Any, ...]] = []

    async def on_ask(*args: Any) -> Any:
        asked.append(args)
        return {"answered": args[0]["kind"]}

    got = seen(run(tsOnlyValue={"a": [1, "b"]}, onTsOnlyAsk=on_ask))
    assert got["tsOnlyValue"] == {"a": [1, "b"]}
    assert {"tsOnlyValue", "onTsOnlyAsk"} <= set(got["options"])
    assert got["tsOnlyAnswer"] == {"answered": "probe"}
    assert asked == [({"kind": "probe"}, {"requestId": "r1"})]  # as the SDK called it, its AbortSignal left out


def test_a_node_spawn_starts_the_command_the_sdk_hands_it_marked_and_tells_python() -> None:
    from sdkprobe.harness import NodeSpawn

    calls: list[dict[str, Any]] = []
    got = seen(run(spawnClaudeCodeProcess=NodeSpawn(calls.append)))
    assert got["spawnedMark"] == "spawnClaudeCodeProcess"  # the process the SDK got is the one the driver started
    assert [(c["args"], c["env"]) for c in calls] == [
        (["-e", "console.log(process.env.SDKPROBE_HOST_SPAWN)"], {"PATH": os.environ["PATH"]})
    ]


def test_a_callback_as_given_gets_the_json_the_sdk_called_it_with_not_the_python_types() -> None:
    from sdkprobe.harness import AsGiven

    asked: list[tuple[Any, ...]] = []

    async def can_use_tool(*args: Any) -> Any:
        asked.append(args)
        return {"behavior": "allow", "updatedInput": args[1]}

    got = seen(run(can_use_tool=AsGiven(can_use_tool)))
    assert asked == [("Bash", {"command": "ls"}, {"toolUseID": "t1", "suggestions": []})]  # its AbortSignal left out
    assert got["permission"] == {"behavior": "allow", "updatedInput": {"command": "ls"}}


def test_a_node_abort_aborts_the_controller_the_sdk_holds_when_the_probe_says() -> None:
    from sdkprobe.harness import NodeAbort

    controller = NodeAbort()
    controller.abort()  # before the run: the driver's ask is answered at once
    # the fake waits for the abort when told to (the driver gives every query a controller of its own)
    assert seen(run(abortController=controller, extra_args={"wait-for-abort": None}))["aborted"] is True


def test_an_option_only_typescript_has_is_taken_by_its_name_only_where_the_release_declares_it() -> None:
    declared = ("allowedTools", "maxTurns", "debugFile")
    assert table.fields(declared) == {"allowed_tools", "max_turns", "debugFile"}  # maxTurns is max_turns' name
    assert table.missing({"debugFile", "maxTurns", "projectConfigRoot", "no_such_option"}, declared) == [
        "'maxTurns' is passed by its Python name, 'max_turns'",
        "sdkprobe's option table has no TypeScript counterpart for 'no_such_option'",
        "Options has no 'projectConfigRoot' (an option only the TypeScript SDK has)",
    ]


def test_a_permission_update_is_written_as_given_not_checked() -> None:
    update = PermissionUpdate(type="setMode", destination="session")
    assert callbacks.permission_update(update) == {"type": "setMode", "destination": "session"}


def test_a_process_the_sdk_spawns_is_reported_with_its_exit_code() -> None:
    out = run(extra_args={"exit-code": "3"})
    assert [c["returncode"] for c in out.children] == [3]
    assert out.children[0]["argv"][1:3] == ["-e", "process.exit(3)"]


def test_an_in_process_server_is_built_by_the_sdk_and_its_tool_runs_the_python_handler() -> None:
    """The release's own createSdkMcpServer()/tool() build it from the probe's description (no
    Python SDK server in between); the handler's result reaches the release as returned, with
    only `is_error` spelt `isError`, and what the handler raises the release's tool throws."""
    calls: list[Any] = []

    @in_process_tool("add", "adds two numbers", {"a": int, "b": int})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(args)
        if args["a"] == 0:
            raise ValueError("nothing to add")
        return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}], "is_error": True}

    got = seen(run(mcp_servers={"calc": in_process_server("calc", [add], version="2.0.0")}))["mcp calc"]
    assert (got["type"], got["name"], got["version"], got["tool"]) == ("sdk", "calc", "2.0.0", "add")
    assert got["shape"] == {"a": {"kind": "number", "int": True}, "b": {"kind": "number", "int": True}}
    assert got["called"] == {"content": [{"type": "text", "text": "5"}], "isError": True}
    assert got["thrown"] == "ValueError: nothing to add"
    assert calls == [{"a": 2, "b": 3}, {"a": 0, "b": 0}]


def test_a_prewarmed_run_calls_startup_then_its_warm_querys_query() -> None:
    """`startup` reaches the release's startup() beside the options; `warmed` is called once
    it resolved, before any message; a startup() that rejects is the run's exception."""
    events: list[str] = []

    class Declared:  # what the requirement api:startup reads of the release's declarations
        def entry(self, name: str) -> dict[str, str] | None:
            return {"kind": "function"} if name == "startup" else None

    class WithStartup(FakeRelease):
        def declarations(self) -> Declared:
            return Declared()

    release = WithStartup()

    def go(startup: dict[str, Any]) -> sdk.Outcome:
        return asyncio.run(
            sdk.run_sdk(
                TsOptions({"model": "m"}, release),
                "hi",
                timeout=30,
                startup=startup,
                warmed=lambda: events.append("warmed"),
                under=TypeScriptSdk(release),
            )
        )

    warm = go({"initializeTimeoutMs": 5000})
    assert events == ["warmed"]
    assert "warmedWith" in seen(warm)["options"] and seen(warm)["prompt"] == "hi"
    cold = go({"initializeTimeoutMs": 1})
    assert events == ["warmed"]  # not called again: startup() rejected
    assert "not initialized within 1ms" in str(cold.exception)


def test_a_prewarmed_run_is_not_applicable_on_an_sdk_without_startup() -> None:
    from sdkprobe.behaviour import NotApplicable

    with pytest.raises(NotApplicable, match="no startup"):
        asyncio.run(sdk.run_sdk(sdk.make_options(), "hi", timeout=30, startup={}, under=under_test._for("python")))


def test_a_server_the_python_sdk_built_is_refused_on_typescript() -> None:
    server = py_sdk.create_sdk_mcp_server("calc", tools=[])
    outcome = run(mcp_servers={"calc": server})
    assert isinstance(outcome.exception, TypeError), outcome.exception
    assert "harness.in_process_server" in str(outcome.exception)


def test_env_passes_as_given_and_a_session_adds_the_hosts_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe's env reaches the TypeScript SDK as it is (whose env is the CLI's whole
    environment); the harness's own sessions give it the host's environment under theirs."""
    assert table.translate({"env": {"SDKPROBE_FAKE_MARK": "probe"}}).options["env"] == {"SDKPROBE_FAKE_MARK": "probe"}
    assert TypeScriptSdk(FakeRelease()).env_is_whole
    monkeypatch.setenv(under_test.VARIABLE, "python")
    assert not under_test.current().env_is_whole


def test_an_answer_that_is_no_permission_result_reaches_the_sdk_as_it_is() -> None:
    assert callbacks.permission_result(None) is None
    assert callbacks.permission_result({"behavior": "allow"}) == {"behavior": "allow"}
    assert callbacks.permission_result(PermissionResultDeny(message="no", interrupt=True)) == {
        "behavior": "deny",
        "message": "no",
        "interrupt": True,
    }


def test_a_session_store_is_called_through_python_with_keys_and_listings_as_each_sdk_spells_them() -> None:
    store = py_sdk.InMemorySessionStore()
    got = seen(run(session_store=store))["store"]
    assert got["loaded"] == [{"type": "user", "uuid": "u1"}]  # appended, then loaded, by the TypeScript side
    assert asyncio.run(store.load({"project_key": "p", "session_id": "s1"})) == got["loaded"]  # into the Python store
    assert [sorted(row) for row in got["listed"]] == [["mtime", "sessionId"]]  # a listing in TypeScript's keys
    assert {"append", "load", "listSessions", "delete", "listSubkeys"} <= set(got["methods"])
