"""Plugin folders that change under a running session (a link removed and put back, a
folder emptied and refilled, a manifest with userConfig), and `Conversation.control`,
which sends a control request the SDK has no method for (the CLI's `reload_plugins`)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from sdkprobe.harness import Conversation, Harness, plugin_folder, sdk


def test_a_link_to_a_plugin_can_be_removed_and_put_back(space):
    real = plugin_folder(space.path("real"), "demo", commands={"hello": "Say hello."})
    link = real.link(space.path("links") / "mounted")
    assert link.name == "demo" and link.path.is_symlink()
    assert link.config == {"type": "local", "path": str(link.path)}
    assert (link.path / "commands" / "hello.md").read_text() == "Say hello."
    link.unlink()
    assert not link.path.exists() and (real.path / "commands" / "hello.md").exists()
    assert real.link(link.path).path == link.path and link.path.is_symlink()
    with pytest.raises(ValueError, match="not a link"):
        real.unlink()
    with pytest.raises(ValueError, match="is a link"):
        link.clear()


def test_a_plugin_folder_can_be_emptied_and_written_again(space):
    plugin = plugin_folder(space.path("p"), "demo", skills={"s": "---\nname: s\ndescription: d\n---\nS."})
    plugin.clear()
    assert plugin.path.is_dir() and list(plugin.path.iterdir()) == []
    again = plugin_folder(plugin.path, "demo", agents={"a": "---\nname: a\ndescription: d\n---\nA."})
    assert again == plugin
    assert sorted(p.name for p in plugin.path.iterdir()) == [".claude-plugin", "agents"]


def test_user_config_goes_into_the_manifest_only_when_given(space):
    field = {"type": "string", "title": "Mode", "description": "d", "options": ["a", "b"], "default": "a"}
    with_config = plugin_folder(space.path("p"), "demo", user_config={"mode": field})
    manifest = json.loads((with_config.path / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["userConfig"] == {"mode": field}
    bare = plugin_folder(space.path("q"), "demo")
    assert "userConfig" not in json.loads((bare.path / ".claude-plugin" / "plugin.json").read_text())


class _Query:
    """Stands in for the SDK's private query object: answers, refuses, or never answers."""

    def __init__(self, outcome: Any) -> None:
        self.outcome = outcome
        self.sent: list[tuple[dict[str, Any], float]] = []

    async def _send_control_request(self, request: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        self.sent.append((request, timeout))
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return dict(self.outcome)


class _Client:
    def __init__(self, outcome: Any) -> None:
        self._query = _Query(outcome)


def _conversation(client: Any) -> Conversation:
    return Conversation(client, sdk.Outcome(), None)


async def test_control_gives_the_answer_or_the_refusal_as_data():
    answered = _Client({"commands": []})
    c = _conversation(answered)
    assert await c.control({"subtype": "reload_plugins"}, timeout=5) == {
        "subtype": "success",
        "response": {"commands": []},
    }
    assert answered._query.sent == [({"subtype": "reload_plugins"}, 5)]
    assert c.marks == [(0, "control reload_plugins")]
    refused = _conversation(_Client(Exception("Unsupported control request subtype: nope")))
    assert await refused.control({"subtype": "nope"}) == {
        "subtype": "error",
        "error": "Unsupported control request subtype: nope",
    }


async def test_control_without_an_answer_or_a_channel_is_an_error():
    silent = _conversation(_Client(Exception("Control request timeout: reload_plugins")))
    with pytest.raises(RuntimeError, match="no answer to control request 'reload_plugins'"):
        await silent.control({"subtype": "reload_plugins"})
    with pytest.raises(RuntimeError, match="no control channel"):
        await _conversation(object()).control({"subtype": "reload_plugins"})


def _version(text: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text or "")[:3])


@pytest.mark.skipif(
    sdk.bundled_cli_path() is None or _version(sdk.bundled_cli_version()) < (2, 1, 85),
    reason="this SDK bundles no CLI, or one that does not answer reload_plugins (first seen in 2.1.85)",
)
async def test_the_cli_reloads_a_plugin_whose_link_was_removed(space):
    h = Harness(space)
    real = plugin_folder(h.workdir("real"), "demo", commands={"hello": "Say hello."})
    link = real.link(h.workdir("links") / "mounted")
    answers: list[dict[str, Any]] = []

    async def steps(c: Conversation) -> None:
        await c.send("one")
        await c.response()
        link.unlink()
        answers.append(await c.control({"subtype": "reload_plugins"}))
        answers.append(await c.control({"subtype": "sdkprobe_no_such_request"}))
        await c.send("two")
        await c.response()

    run = await h.converse(steps, script=["a", "b"], plugins=[link.config])
    inits = [m.data for turn in run.turns for m in turn if getattr(m, "subtype", None) == "init"]
    commands = [[c for c in i.get("slash_commands") or [] if c.startswith("demo:")] for i in inits]
    assert commands == [["demo:hello"], []]  # loaded through the link, gone after the reload
    assert answers[0]["subtype"] == "success"
    assert "demo" not in [p.get("name") for p in answers[0]["response"].get("plugins", [])]
    assert answers[1]["subtype"] == "error" and answers[1]["error"]
    assert [label for _, label in run.marks if label.startswith("control")] == [
        "control reload_plugins",
        "control sdkprobe_no_such_request",
    ]
