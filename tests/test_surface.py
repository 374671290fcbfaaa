"""The SDK's public surface is found by introspection, the same every time, and each item's
coverage comes from what behaviours declare: a public item no behaviour covers shows."""

from __future__ import annotations

import dataclasses
import json
import types
from pathlib import Path
from typing import Any

import claude_agent_sdk
import pytest

from sdkprobe import behaviour as declaring
from sdkprobe import catalogue
from sdkprobe.commands import main
from sdkprobe.requirements import parse
from sdkprobe.surface import KINDS, Item, named_by, names, parse_item, surface

FAKE = "sdkprobe_fake_option"


@dataclasses.dataclass
class PatchedOptions(claude_agent_sdk.ClaudeAgentOptions):
    """ClaudeAgentOptions as a release that adds one option would have it."""

    sdkprobe_fake_option: str | None = None


@pytest.fixture
def patched_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The installed SDK with one public option more, as every reader of it sees it."""
    monkeypatch.setattr(claude_agent_sdk, "ClaudeAgentOptions", PatchedOptions)


def test_the_installed_sdk_shows_its_known_items_of_every_kind():
    found = {str(i) for i in surface()}
    for item in (
        "option:tools",
        "option:add_dirs",
        "client:interrupt",
        "client:set_model",
        "function:query",
        "function:list_sessions",
        "hook-event:PreToolUse",
        "hook-output:SyncHookJSONOutput.continue_",
        "hook-output:AsyncHookJSONOutput.async_",
        "hook-output:PreToolUseHookSpecificOutput.permissionDecision",
        "hook-matcher:matcher",
        "permission:PermissionResultDeny",
        "permission:PermissionResultDeny.message",
        "permission:ToolPermissionContext.suggestions",
        "permission-update:destination",
        "permission-update:type=addRules",
        "agent:skills",
        "message:ResultMessage",
        "message:TaskStartedMessage",  # an exported subclass of SystemMessage
        "message:TextBlock",
        "error:ProcessError",
        "error:ClaudeSDKError",
    ):
        assert item in found, item
    # what routes an output, tags a result or is private is no item of its own
    for absent in (
        "hook-output:PreToolUseHookSpecificOutput.hookEventName",
        "hook-output:SyncHookJSONOutput.hookSpecificOutput",
        "permission:PermissionResultAllow.behavior",
        "permission-update:type",
        "client:_query",
    ):
        assert absent not in found, absent


def test_options_are_exactly_the_dataclass_fields_with_where_they_are_defined():
    options = [i for i in surface() if i.kind == "option"]
    assert [i.name for i in options] == sorted(f.name for f in dataclasses.fields(claude_agent_sdk.ClaudeAgentOptions))
    tools = next(i for i in options if i.name == "tools")
    assert tools.origin == "claude_agent_sdk.types.ClaudeAgentOptions.tools"
    errors = {i.name: i.origin for i in surface() if i.kind == "error"}
    assert errors["ProcessError"] == f"{claude_agent_sdk.ProcessError.__module__}.ProcessError"


def test_the_surface_is_the_same_every_time_in_kind_then_name_order():
    first = surface()
    assert first == surface() and names() == sorted(str(i) for i in first)
    assert first == sorted(first, key=lambda i: (KINDS.index(i.kind), i.name))
    assert len({str(i) for i in first}) == len(first)


def test_a_kind_the_sdk_lacks_gives_no_items_and_nothing_odd_crashes():
    """An old SDK (0.1.x has no hook-specific outputs) or an odd one: those kinds are skipped."""
    bare = types.ModuleType("old_sdk")
    bare.ClaudeAgentOptions = claude_agent_sdk.ClaudeAgentOptions  # type: ignore[attr-defined]
    assert {i.kind for i in surface(bare)} == {"option"}
    odd = types.ModuleType("odd_sdk")
    for name in ("HookJSONOutput", "Message", "HookEvent", "PermissionUpdate", "ClaudeSDKClient", "ClaudeSDKError"):
        setattr(odd, name, 3)
    odd.__all__ = ["nothing_here", 4]  # type: ignore[attr-defined]
    assert surface(odd) == []


def test_a_new_public_option_is_an_item_no_behaviour_covers(patched_sdk: None, capsys: pytest.CaptureFixture[str]):
    item = f"option:{FAKE}"
    assert Item("option", FAKE, f"{__name__}.PatchedOptions.{FAKE}") in surface()
    assert catalogue.covering(item) == []
    assert main(["surface", "--uncovered"]) == 0
    out = capsys.readouterr().out
    assert any(line.split()[:2] == ["✗", item] for line in out.splitlines()), out
    assert main(["surface", "--json"]) == 0
    listed = {i["item"]: i for i in json.loads(capsys.readouterr().out)["items"]}
    assert listed[item]["covered_by"] == [] and listed["option:tools"]["covered_by"]


def test_surface_json_gives_every_item_with_its_coverage_and_the_totals(capsys: pytest.CaptureFixture[str]):
    assert main(["surface", "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert set(data) == {"sdk", "sdk_version", "items", "totals"} and data["sdk"] == "claude-agent-sdk"
    assert data["sdk_version"] == claude_agent_sdk.__version__
    assert [i["item"] for i in data["items"]] == [str(i) for i in surface()]
    assert set(data["items"][0]) == {"item", "kind", "name", "origin", "covered_by", "pinned_by"}
    interrupt = next(i for i in data["items"] if i["item"] == "client:interrupt")
    assert interrupt["covered_by"] == catalogue.covering("client:interrupt") != []
    assert interrupt["pinned_by"] == catalogue.pinning()["client:interrupt"]
    assert list(interrupt["pinned_by"]) == interrupt["covered_by"] and all(interrupt["pinned_by"].values())
    totals = data["totals"]
    assert list(totals["kinds"]) == [k for k in KINDS if k in totals["kinds"]]
    covered = sum(bool(i["covered_by"]) for i in data["items"])
    assert totals["overall"] == {
        "covered": covered,
        "items": len(data["items"]),
        "percent": round(100 * covered / len(data["items"]), 1),
    }
    assert sum(f["items"] for f in totals["kinds"].values()) == len(data["items"])


def test_surface_text_marks_the_uncovered_and_ends_with_the_figures(
    patched_sdk: None, capsys: pytest.CaptureFixture[str]
):
    assert main(["surface"]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = {line.split()[1]: line.split()[0] for line in lines if len(line.split()) > 2 and ":" in line.split()[1]}
    assert row[f"option:{FAKE}"] == "✗"
    assert row["option:add_dirs"] == str(len(catalogue.covering("option:add_dirs")))
    assert row["client:interrupt"] == str(len(catalogue.covering("client:interrupt")))
    assert lines[-1].startswith("overall") and "covered " in lines[-1] and "%)" in lines[-1]
    assert any(line.startswith("option ") and " of 5" in line for line in lines)
    assert main(["surface", "--uncovered"]) == 0
    uncovered = [line for line in capsys.readouterr().out.splitlines() if ":" in line and "%" not in line]
    assert uncovered[1:] and all(line.split()[0] == "✗" for line in uncovered[1:])


@pytest.fixture
def reasons_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """This module selected as a catalogue, with no reason of its own declared yet."""
    selected = catalogue.modules()
    monkeypatch.setattr(catalogue, "modules", lambda: [*selected, __name__])
    monkeypatch.setattr(declaring, "LEFT_UNCOVERED", dict(declaring.LEFT_UNCOVERED))


def test_an_item_left_uncovered_shows_its_reason_and_still_counts_uncovered(
    patched_sdk: None, reasons_here: None, capsys: pytest.CaptureFixture[str]
):
    item = f"option:{FAKE}"
    declaring.leave_uncovered(__name__, item, "a fake option of this test: nothing sends it anywhere")
    declaring.leave_uncovered(
        __name__, item, "a fake option of this test:  nothing sends it anywhere"
    )  # the same words
    assert main(["surface", "--uncovered"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if item in line)
    assert line.split()[0] == "✗" and "none: a fake option of this test: nothing sends it anywhere" in line
    assert main(["surface", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    listed = {i["item"]: i for i in data["items"]}
    assert listed[item]["uncovered_because"].startswith("a fake option") and listed[item]["covered_by"] == []
    assert "uncovered_because" not in listed["option:tools"]
    assert data["totals"]["overall"]["covered"] == sum(bool(i["covered_by"]) for i in data["items"])


def test_a_reason_is_one_line_said_once_and_never_for_a_covered_item(reasons_here: None):
    with pytest.raises(declaring.DeclarationError, match="15 to 200 characters"):
        declaring.leave_uncovered(__name__, "option:user", "too short")
    with pytest.raises(declaring.DeclarationError, match="is not KIND:NAME"):
        declaring.leave_uncovered(__name__, "user", "an item without its kind is refused")
    declaring.leave_uncovered(__name__, "hook-event:SdkprobeNever", "an event no SDK has, given one reason")
    with pytest.raises(declaring.DeclarationError, match="a reason is given already"):
        declaring.leave_uncovered(__name__, "hook-event:SdkprobeNever", "and then another reason for it")
    with pytest.raises(declaring.DeclarationError, match="the first argument is the declaring module's __name__"):
        declaring.leave_uncovered("option:user", "an item given where the module goes", "and a reason for it")
    declaring.leave_uncovered(__name__, "option:tools", "a reason for an item that is covered after all")
    with pytest.raises(catalogue.CatalogueError, match="yet covered by a behaviour: option:tools"):
        catalogue.left_uncovered()


@pytest.mark.parametrize(
    ("requirement", "items"),
    [
        ("option:add_dirs", ("option:add_dirs",)),
        ("api:ClaudeSDKClient.interrupt", ("client:interrupt",)),
        ("api:list_sessions", ("function:list_sessions",)),
        ("api:ProcessError", ("error:ProcessError",)),
        ("api:PermissionResultAllow", ("permission:PermissionResultAllow",)),
        ("api:TaskStartedMessage", ("message:TaskStartedMessage",)),
        ("field:AgentDefinition.skills", ("agent:skills",)),
        ("field:HookMatcher.timeout", ("hook-matcher:timeout",)),
        ("field:PermissionResultDeny.interrupt", ("permission:PermissionResultDeny.interrupt",)),
        ("field:PermissionUpdate.destination", ("permission-update:destination",)),
        ("api:HookMatcher", ()),  # a class that is no item: its fields are
        ("field:ResultMessage.permission_denials", ()),
        ("package:mcp", ()),
        ("cli>=2.1.0", ()),
    ],
)
def test_a_requirement_names_the_items_it_names(requirement: str, items: tuple[str, ...]):
    assert named_by(parse(requirement)) == items


def test_every_item_a_declared_requirement_names_is_on_the_installed_surface():
    """No requirement maps to a name the SDK never had (a spelling rule gone wrong): the installed
    SDK's, or for a TypeScript-only claim (`api:AbortError`, `option:persistSession`) a recorded
    TypeScript release's."""
    recorded = sorted((Path(__file__).resolve().parent.parent / "reports" / "ts").glob("*.json"))
    known = set(names()) | {item for path in recorded for item in json.loads(path.read_text())["surface"]}
    named = {item for b in catalogue.load() for r in b.requirements for item in named_by(r)}
    assert named and named <= known, sorted(named - known)


@pytest.mark.parametrize(
    "text", ["option", "options:tools", "option:", ":tools", "option: tools", "option:tools\nmore", None]
)
def test_an_item_is_kind_colon_name_with_a_known_kind(text: Any):
    with pytest.raises(ValueError, match="KIND:NAME"):
        parse_item(text)


def test_list_covers_gives_the_covering_behaviours(patched_sdk: None, capsys: pytest.CaptureFixture[str]):
    assert main(["list", "--covers", "client:interrupt", "--json"]) == 0
    ids = [r["id"] for r in json.loads(capsys.readouterr().out)]
    assert ids and sorted(ids) == catalogue.covering("client:interrupt")
    assert "messages.interrupt-settles-with-own-result" in ids  # a sub-check pins it
    assert main(["list", "--covers", "hook-event:PreToolUse"]) == 0
    assert "hooks.pretooluse-deny-returns-tool-result" in capsys.readouterr().out
    uncovered = f"option:{FAKE}"
    assert main(["list", "--covers", uncovered]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"no behaviour covers {uncovered}\n"


def test_list_covers_takes_an_item_only_a_recorded_typescript_release_has(capsys: pytest.CaptureFixture[str]):
    """A TypeScript item is found on the surface a shipped TypeScript report records, and is
    pinned by what pins it or its Python twin (option:additionalDirectories by add_dirs')."""
    assert main(["list", "--covers", "message:system/init.model"]) == 0
    row = next(
        line for line in capsys.readouterr().out.splitlines() if "messages.every-declared-member-yielded" in line
    )
    assert row.split()[-1] == "every-declared-field-as-sent"
    assert main(["list", "--covers", "option:additionalDirectories", "--json"]) == 0
    ids = [r["id"] for r in json.loads(capsys.readouterr().out)]
    assert ids and sorted(ids) == catalogue.covering("option:add_dirs")
    assert main(["list", "--covers", "message:system/init.modl"]) == 2
    assert "close: message:system/init.model" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("given", "named"),
    [("option:add_dir", "option:add_dirs"), ("add_dirs", "option:add_dirs"), ("client:interupt", "client:interrupt")],
)
def test_list_covers_an_item_the_sdk_lacks_is_one_line_naming_close_ones(
    given: str, named: str, capsys: pytest.CaptureFixture[str]
):
    assert main(["list", "--covers", given]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"sdkprobe list: error: --covers {given}: ") and named in err


def test_an_item_only_a_requirement_names_is_uncovered_and_says_who_names_it(
    patched_sdk: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """What a probe needs to run is not what its decision notices: `requires` alone covers
    nothing; a pin that a counterexample shows failing does, and the table names its sub-check."""
    monkeypatch.setattr(declaring, "REGISTRY", dict(declaring.REGISTRY))
    item = f"option:{FAKE}"

    async def probe(h: Any) -> dict[str, Any]:
        return {}

    def declare(bid: str, **pins: Any) -> Any:
        toy = declaring.behaviour(
            id=bid, claim="a toy claim long enough to read", source=("003", "s"), tier="wire", checks=("sent",), **pins
        )(probe)
        toy.decide(lambda seen: {"sent": declaring.check(seen["sent"], "not sent")})
        toy.differs_on({"sent": False})
        return toy.behaviour

    needs = declare("tools.toy-needs", requires=(item,))
    selected = catalogue.load()
    monkeypatch.setattr(catalogue, "load", lambda: [*selected, needs])
    assert catalogue.covering(item) == [] and main(["surface", "--uncovered"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if item in line)
    assert line.split()[0] == "✗" and line.endswith("none; named, not pinned, by tools.toy-needs"), line
    pins = declare("tools.toy-pins", pins={"sent": (item,)})
    monkeypatch.setattr(catalogue, "load", lambda: [*selected, needs, pins])
    assert main(["surface", "--json"]) == 0
    listed = {i["item"]: i for i in json.loads(capsys.readouterr().out)["items"]}[item]
    assert listed["covered_by"] == ["tools.toy-pins"] and listed["pinned_by"] == {"tools.toy-pins": ["sent"]}
    assert main(["surface"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if item in line)
    assert line.split()[0] == "1" and line.endswith("tools.toy-pins (sent)"), line
    assert main(["list", "--covers", item]) == 0
    out = capsys.readouterr().out
    assert f"pinning {item}" in out and "tools.toy-pins" in out and "tools.toy-needs" not in out
