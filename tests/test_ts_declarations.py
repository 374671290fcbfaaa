"""A TypeScript release's own public surface: its sdk.d.ts read by the pinned compiler
(releases/declarations.py), the items named from it (ts_surface.py), what covers each
(harness/typescript/coverage.py), and the commands showing it: `surface --sdk ts@V`,
`rejudge --surface`, and the gate's note on each item a release adds.

The declarations are small excerpts of real releases (tests/ts_declarations/); the tests
that run the compiler use the one in the cache (ts_compiler_at_hand) and never the network."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from sample_reports import info, report, result
from ts_compiler_at_hand import link_into, needs_compiler

from sdkprobe import catalogue, ts_surface
from sdkprobe.commands import main
from sdkprobe.commands.shared import coverage_of
from sdkprobe.harness.typescript.coverage import pinned, python_item
from sdkprobe.releases import declarations, ts_sdk
from sdkprobe.releases.declarations import Declarations
from sdkprobe.releases.ts_sdk import PACKAGE, TsRelease, TsReleaseError
from sdkprobe.surface import KINDS

EXCERPTS = Path(__file__).with_name("ts_declarations")
REGISTRY = Path(__file__).with_name("npm_registry")


# --- naming items, from declarations as the compiler gives them (no compiler needed) ------------------


def _entry(**fields: dict) -> dict:
    return {"kind": "type", "fields": fields}


def _tag(*values: str) -> dict:
    return {"optional": False, "method": False, "literals": list(values)}


PLAIN = {"optional": False, "method": False}
GIVEN = Declarations(
    {
        "AbortError": {"kind": "class", "fields": {}, "error": True},
        "Store": {"kind": "class", "fields": {}},
        "HookEvent": {"kind": "type", "literals": ["Stop"]},
        "HOOK_EVENTS": {"kind": "const", "literals": ["Stop"]},
        "PermissionUpdate": {
            "kind": "type",
            "fields": {},
            "members": [{"name": None, "fields": {"type": _tag("addRules"), "behavior": _tag("allow", "deny")}}],
        },
        "SDKMessage": {
            "kind": "type",
            "fields": {},
            "members": [
                {"name": "SDKResultError", "fields": {"type": _tag("result"), "subtype": _tag("a", "b"), "x": PLAIN}},
                {"name": "SDKUserMessage", "fields": {"type": _tag("user"), "uuid": PLAIN}},
            ],
        },
        "BaseHookInput": _entry(cwd=PLAIN),
        "HookInput": {
            "kind": "type",
            "fields": {},
            "members": [
                {"name": "StopHookInput", "fields": {"cwd": PLAIN, "hook_event_name": _tag("Stop"), "y": PLAIN}}
            ],
        },
        "Mode": {"kind": "type", "literals": ["/login managed key"]},
    }
)


def test_each_union_member_is_named_by_its_tag_and_only_the_tag_is_left_out():
    assert ts_surface.names(GIVEN) == [
        "class:Store",
        "error:AbortError",
        "hook-event:Stop",
        "hook-input:Stop.y",  # the base fields are the base's items, not the event's
        "hook-input:cwd",
        "message:result/a",
        "message:result/a.x",
        "message:result/b",
        "message:result/b.x",
        "message:user",
        "message:user.uuid",
        "permission-update:addRules.behavior",  # a field of its own here, though PermissionResult's tag
        "permission-update:type=addRules",
        "value:Mode=/login managed key",  # HookEvent's members are hook-event items already
    ]


def test_the_declared_messages_are_the_message_items_with_their_fields():
    """What messages.every-declared-member-yielded sends: one line per message item, its fields those items."""
    declared = ts_surface.messages(GIVEN)
    assert declared == {
        "result/a": {"x": {"kinds": [], "literals": []}},
        "result/b": {"x": {"kinds": [], "literals": []}},
        "user": {"uuid": {"kinds": [], "literals": []}},
    }
    named = {f"message:{label}" for label in declared} | {f"message:{m}.{f}" for m in declared for f in declared[m]}
    assert named == {n for n in ts_surface.names(GIVEN) if n.startswith("message:")}


def test_a_hook_inputs_string_values_are_read_by_event_and_field():
    values = Declarations(
        {
            "BaseHookInput": _entry(cwd=PLAIN),
            "HookInput": {
                "kind": "type",
                "fields": {},
                "members": [
                    {"name": "A", "fields": {"hook_event_name": _tag("SessionEnd"), "reason": _tag("clear", "other")}},
                    {"name": "B", "fields": {"hook_event_name": _tag("Stop"), "y": PLAIN}},
                ],
            },
        }
    )
    assert ts_surface.hook_input_values(values) == {"SessionEnd": {"reason": ["clear", "other"]}}


def test_a_field_of_a_function_type_is_one_of_the_objects_it_is_handed():
    """`field:CanUseTool.requestId` asks for a field of canUseTool's options: a release declaring it
    has it, one whose options lack it (or that declares no CanUseTool) does not."""
    from types import SimpleNamespace

    from sdkprobe.harness.typescript.requirements import unmet

    def release(d: Declarations) -> SimpleNamespace:
        def type_fields(name: str) -> tuple[str, ...] | None:
            found = d.fields(name)
            return None if found is None else tuple(sorted(found))

        return SimpleNamespace(version="9.9.9", type_fields=type_fields, declarations=lambda: d)

    handed = {"kind": "type", "fields": {}, "parameters": [{"name": "options", "fields": {"requestId": PLAIN}}]}
    has = release(Declarations({"CanUseTool": handed}))
    assert unmet("field", "CanUseTool.requestId", has) is None
    assert unmet("field", "CanUseTool.mcpServer", has) == (
        "CanUseTool in @anthropic-ai/claude-agent-sdk 9.9.9 has no field 'mcpServer'"
    )
    assert "declares no type CanUseTool" in str(unmet("field", "CanUseTool.requestId", release(Declarations({}))))


def test_a_release_declaring_nothing_known_has_an_empty_surface():
    assert ts_surface.names(Declarations({"Other": _entry(a=PLAIN)})) == []


# --- what covers a TypeScript item ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "twin"),
    [
        ("option:additionalDirectories", "option:add_dirs"),
        ("option:abortController", None),
        ("query:mcpServerStatus", "client:get_mcp_status"),
        ("function:listSessions", "function:list_sessions"),
        ("function:createSdkMcpServer", "function:create_sdk_mcp_server"),
        ("hook-event:Interrupt", "hook-event:Interrupt"),
        ("hook-matcher:matcher", "hook-matcher:matcher"),
        ("hook-matcher:onFailure", "hook-matcher:on_failure"),  # HookCallbackMatcher's field, HookMatcher's snake_cased
        ("hook-output:SyncHookJSONOutput.continue", "hook-output:SyncHookJSONOutput.continue_"),
        (
            "hook-output:StopHookSpecificOutput.additionalContext",
            "hook-output:StopHookSpecificOutput.additionalContext",
        ),
        ("permission:allow", "permission:PermissionResultAllow"),
        ("permission:deny.message", "permission:PermissionResultDeny.message"),
        ("permission:CanUseTool.options.toolUseID", "permission:ToolPermissionContext.tool_use_id"),
        ("permission-update:addRules.rules", "permission-update:rules"),
        ("permission-update:type=setMode", "permission-update:type=setMode"),
        ("message:system/init", None),
        ("value:PermissionMode=plan", None),
    ],
)
def test_a_typescript_item_has_the_python_twin_the_harness_tables_give(item, twin):
    assert python_item(item) == twin


def test_an_item_is_pinned_by_what_pins_it_or_its_twin():
    pinning = {
        "option:add_dirs": {"b.one": ["sent"]},
        "option:additionalDirectories": {"a.two": ["kept"]},
        "hook-event:Interrupt": {},
    }
    assert pinned(pinning, ["option:additionalDirectories", "hook-event:Interrupt", "value:X=y"]) == {
        "option:additionalDirectories": {"a.two": ["kept"], "b.one": ["sent"]}
    }


def test_a_typescript_reports_items_are_looked_up_by_their_python_twins():
    found = coverage_of("typescript", ["option:maxTurns", "hook-event:Stop"])
    assert found["option:maxTurns"] == catalogue.coverage()["option:max_turns"]
    assert found["hook-event:Stop"] == catalogue.coverage()["hook-event:Stop"]
    assert coverage_of("python", []) == catalogue.coverage()


# --- the compiler's reading -------------------------------------------------------------------------------


def _release(root: Path, text: str, version: str = "0.3.333", files: dict[str, str] | None = None) -> TsRelease:
    """An installed release's folder (as the cache holds one) whose sdk.d.ts is `text`."""
    package = root / "node_modules" / PACKAGE
    for name, body in {"sdk.d.ts": text, **(files or {})}.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(body)
    (package / "package.json").write_text(json.dumps({"name": PACKAGE, "version": version, "types": "sdk.d.ts"}))
    (root / "install.json").write_text(json.dumps({"version": version}))
    return TsRelease(version, root)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache of the test's own, holding the machine's compiler."""
    link_into(tmp_path / "cache")
    monkeypatch.setenv("SDKPROBE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


LAYOUTS = """
export type A = { a?: string; b: number };
export interface B { a?: string; b: number }
interface Base { b: number; c: 1 }
interface OnlyB { b: number }
export interface C extends OnlyB { a?: string }
export declare type D = OnlyB & { a?: string };
export type E = Omit<Base, 'c'> & {
  a?: string }
export type F = Pick<Base, Keys> & { a?: string };
type Keys = 'b';
export type G = Partial<Omit<Base, 'c'>> & { readonly a: string };
declare global { interface H { wrong: 1 } }
export declare namespace N { type Options = { wrong: 1 }; }
export type Query = AsyncGenerator<string, void> & {
    /** braces in a comment: { notAKey: true } and `tpl { }` */
    interrupt(): Promise<void>;
    supportedModels?(): Promise<string[]>;
    generic<T extends { a: 1 }>(x: T): T;
    readonly sessionId: string;
    onThing: () => void;
    [Symbol.asyncIterator](): AsyncGenerator<string, void>;
};
export declare function query(_params: { prompt: string }): Query;
export declare function query(_params: { prompt: AsyncIterable<string> }): Query;
declare function internal(): void;
declare function renamed(): void;
export { renamed as createSdkMcpServer };
export declare class AbortError extends Error { method(): void; }
declare class Base2 extends Error {}
export declare class ThirdError extends Base2 {}
export declare class Store { append(): void; }
"""


@needs_compiler
def test_the_compiler_reads_every_layout_and_each_kind_of_export(cache, tmp_path):
    read = _release(tmp_path / "r", LAYOUTS).declarations()
    for name in "ABCDEFG":
        assert sorted(read.fields(name) or {}) == ["a", "b"], name
        assert [f["kinds"] for f in (read.fields(name) or {}).values()] == [["string"], ["number"]], name
    assert read.fields("H") is None and read.fields("Keys") is None
    assert read.methods("Query") == ["generic", "interrupt", "supportedModels"]  # not next/return/throw
    assert sorted(read.fields("Query") or {}) == ["generic", "interrupt", "onThing", "sessionId", "supportedModels"]
    assert read.of_kind("function") == ["createSdkMcpServer", "query"]
    assert read.of_kind("class") == ["AbortError", "Store", "ThirdError"]
    assert [n for n in read.of_kind("class") if (read.entry(n) or {}).get("error")] == ["AbortError", "ThirdError"]


@needs_compiler
def test_export_star_and_imported_aliases_reach_declarations_in_other_files(cache, tmp_path):
    """0.1.77's sdk.d.ts is one `export *` line; 0.0.4's Options is Omit<> of another file's."""
    release = _release(
        tmp_path / "r",
        "export * from './entrypoints/agentSdkTypes.js';\n"
        "import type { Options as BaseOptions } from './sdkTypes.js';\n"
        "export type Options = Omit<BaseOptions, 'customSystemPrompt'> & { agents?: 1 };\n",
        files={
            "entrypoints/agentSdkTypes.d.ts": "export * from './sdk/runtimeTypes.js';\n"
            "export declare function query(_params: {}): void;\n",
            "entrypoints/sdk/runtimeTypes.d.ts": "export interface Query { interrupt(): Promise<void>; }\n"
            "export declare function tool(): void;\n",
            "sdkTypes.d.ts": "export type Options = { cwd?: string; customSystemPrompt?: string };\n",
        },
    )
    assert release.options() == ("agents", "cwd")
    assert release.query_methods() == ("interrupt",) and release.exports() == ("query", "tool")
    assert release.type_fields("NoSuchType") is None


@needs_compiler
def test_a_release_is_read_once_and_again_only_when_its_files_change(cache, tmp_path, monkeypatch):
    release = _release(tmp_path / "r", "export type Options = { a?: 1 };\n")
    assert release.options() == ("a",)
    declarations._read.cache_clear()  # a new process: the answer comes from the cache folder
    monkeypatch.setattr(declarations, "_run", lambda *a: pytest.fail("read a release again"))
    assert release.options() == ("a",)
    assert len(list((cache / "ts-declarations").glob("*.json"))) == 1
    monkeypatch.undo()
    monkeypatch.setenv("SDKPROBE_CACHE", str(cache))
    (release.package_dir / "sdk.d.ts").write_text("export type Options = { b?: 1 };\n")
    declarations._read.cache_clear()
    assert release.options() == ("b",)


@pytest.mark.skipif(shutil.which("node") is None, reason="runs declarations.mjs with node")
def test_a_declaration_file_that_cannot_be_read_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("SDKPROBE_CACHE", str(tmp_path / "cache"))
    compiler = tmp_path / "typescript.js"
    compiler.write_text("throw new Error('broken compiler')\n")
    monkeypatch.setattr("sdkprobe.releases.ts_compiler.install", lambda *a: tmp_path / "tsc.js")
    release = _release(tmp_path / "r", "export type Options = {};\n")
    with pytest.raises(TsReleaseError, match=r"^TS SDK 0\.3\.333: cannot read sdk\.d\.ts: .*broken compiler") as e:
        release.options()
    assert "\n" not in str(e.value)


# --- the excerpts of 0.3.333 and 0.3.336: the surface, the commands, the gate ------------------------------


def _cached(cache: Path, version: str) -> TsRelease:
    shared = {"shared.d.ts": (EXCERPTS / "shared.d.ts").read_text()}
    return _release(cache / "ts" / version, (EXCERPTS / f"{version}.d.ts").read_text(), version, shared)


@needs_compiler
def test_a_releases_surface_has_every_kind(cache):
    items = ts_surface.surface(_cached(cache, "0.3.333").declarations())
    assert {i.kind for i in items} == set(KINDS) - {"client"}  # every kind but the Python client's
    named = [str(i) for i in items]
    for item in (
        "option:additionalDirectories",
        "query:setPermissionMode",
        "hook-input:StopFailure.error",
        "message:system/init.model",
        "message:result/error_max_turns.is_error",
        "permission:CanUseTool.options.toolUseID",
        "value:PermissionMode=plan",
        "value:SDKStartupFailureReason=cwd_unavailable",
    ):
        assert item in named
    assert "query:sessionId" not in named and "message:system/init.subtype" not in named
    assert [i.kind for i in items] == sorted((i.kind for i in items), key=KINDS.index)


def _ts_report(version: str) -> dict:
    return report([result()], {**info(sdk=version, cli=f"2.1.{version.split('.')[-1]}"), "sdk": "typescript"})


@needs_compiler
def test_the_gate_notes_the_interrupt_hook_event_and_the_config_classification_336_adds(cache, tmp_path, capsys):
    reports = tmp_path / "reports"
    reports.mkdir()
    for version in ("0.3.333", "0.3.336"):
        _cached(cache, version)
        (reports / f"{version}.json").write_text(json.dumps(_ts_report(version)))
    assert main(["rejudge", "--surface", str(reports)]) == 0
    said = capsys.readouterr().out
    assert "0.3.336.json: 80 surface items, 80 added, 0 removed" in said
    recorded = json.loads((reports / "0.3.336.json").read_text())["surface"]
    assert recorded == sorted(recorded) and "hook-event:Interrupt" in recorded

    code = main(["gate", "--baseline", str(reports / "0.3.333.json"), "--candidate", str(reports / "0.3.336.json")])
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note:")]
    assert code == 0
    assert notes == [
        "note: 0.3.336 adds hook-event:Interrupt: covered by hooks.every-listed-event-answered",
        "note: 0.3.336 adds hook-input:Interrupt.reason: covered by hooks.every-listed-event-answered",
        "note: 0.3.336 adds hook-input:Interrupt.source: covered by hooks.every-listed-event-answered",
        "note: 0.3.336 adds hook-input:Interrupt.via: covered by hooks.every-listed-event-answered",
        "note: 0.3.336 adds value:PermissionDecisionClassification=config: "
        "covered by perms.ts-answer-classification-sent",
    ]


@needs_compiler
def test_surface_of_a_typescript_release_lists_its_items_with_coverage(cache, capsys, monkeypatch):
    from sdkprobe.harness import under_test

    monkeypatch.delenv(under_test.VARIABLE, raising=False)
    _cached(cache, "0.3.336")
    assert main(["surface", "--sdk", "ts@0.3.336"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{PACKAGE} 0.3.336: its public surface")
    row = next(line for line in out.splitlines() if " option:additionalDirectories " in line)
    assert row.split()[0] != "✗"  # covered through add_dirs' behaviours
    assert next(line for line in out.splitlines() if " hook-event:Interrupt " in line).split()[0] != "✗"
    assert next(line for line in out.splitlines() if " hook-input:Interrupt.source " in line).split()[0] != "✗"
    config = " value:PermissionDecisionClassification=config "
    assert next(line for line in out.splitlines() if config in line).split()[0] != "✗"  # a TypeScript item pinned
    assert "overall            covered" in out
    assert main(["surface", "--sdk", "ts@0.3.336", "--json", "--uncovered"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sdk"] == PACKAGE and data["sdk_version"] == "0.3.336"
    assert data["totals"]["overall"]["items"] == 80 and all(not i["covered_by"] for i in data["items"])
    assert under_test.VARIABLE not in os.environ  # only read: nothing was put under test for what follows


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ("ts@9.9.9", r"TS SDK version 9\.9\.9 is not on the npm registry"),
        ("ts@latest", r"argument --sdk: 'latest' is not a release number \(e\.g\. 0\.3\.336\)"),
        ("rust", r"argument --sdk: 'rust' names no SDK: give python, python@0\.2\.189 or ts@0\.3\.336"),
    ],
)
def test_surface_of_a_release_not_on_npm_is_one_line_and_exit_2(choice, message, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SDKPROBE_CACHE", str(tmp_path / "cache"))
    saved = (REGISTRY / "claude-agent-sdk-9.9.9-E404.json").read_text()
    monkeypatch.setattr(ts_sdk, "_npm", lambda args, *_, **__: subprocess.CompletedProcess(args, 1, saved, ""))
    assert main(["surface", "--sdk", choice]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.strip().splitlines()
    assert line.startswith("sdkprobe surface: error: ")
    assert re.search(message, line)


@needs_compiler
def test_a_typescript_runs_report_records_its_releases_own_surface(cache, monkeypatch):
    from sdkprobe.harness import under_test
    from sdkprobe.runner import RunSettings, run_info

    release = _cached(cache, "0.3.336")
    monkeypatch.setenv(under_test.VARIABLE, "ts@0.3.336")
    under_test._for.cache_clear()
    try:
        recorded = run_info(RunSettings(cli_path="/bin/true"))
    finally:
        under_test._for.cache_clear()
    assert recorded["sdk"] == "typescript" and recorded["surface"] == ts_surface.names(release.declarations())
    assert "hook-event:Interrupt" in recorded["surface"]
