"""A TypeScript verdict rests on what the TypeScript SDK yielded or sent, never on the Python SDK.

Three things hold that: the relay reads the release's messages with sdkprobe's own table (not
the Python SDK's parser), imports the Python SDK only where a test below names why, and a
TypeScript report is the same whichever Python SDK release is installed beside it.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sdkprobe.harness import message_fields
from sdkprobe.harness.typescript import messages
from sdkprobe.releases import ts_sdk
from sdkprobe.releases.versions import SDK_VERSIONS, TS_VERSIONS

_RELAY = Path(messages.__file__).parent
_REPORTS = Path(__file__).resolve().parents[1] / "reports" / "ts"

# The relay's imports of the Python SDK, and why none of them decides a verdict: none.
_PYTHON_SDK_USES: dict[str, str] = {}

_CATALOGUE = Path(__file__).resolve().parents[1] / "probes" / "catalogue"

# The behaviours' only imports of the Python SDK (module, function), and why none of them
# decides a TypeScript sub-check. Everything else a probe needs of the SDK under test it asks
# the harness: its classes (sdk_class), requirements (lacks), declared keys (typed_keys).
_CATALOGUE_PYTHON_SDK_USES = {
    ("agents/definitions.py", "ts_compiler_catches_misuse"): "the Python analogue, run only when no tsc was asked",
    ("process/errors.py", "_missing_cli"): "its behaviour requires api:ClaudeSDKError, which TypeScript lacks",
    ("process/errors.py", "_before_connect"): "its behaviour requires api:ClaudeSDKError, which TypeScript lacks",
    ("wire/spawn.py", "_missing_cli"): "run only where sdk_class('CLINotFoundError') is the SDK's own",
    ("sessions/transcripts.py", "config_dir_moves_root_only"): "project_key_for_directory, declared in requires",
    ("sessions/stores.py", "_store_class"): "the probe's own in-memory store, an input handed to either SDK",
}


def _python_sdk_imports(path: Path, root: Path = _CATALOGUE) -> set[tuple[str, str]]:
    """(file, enclosing function or <module>) of each import of claude_agent_sdk in `path`."""
    found = set()

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            names = (
                [a.name for a in child.names]
                if isinstance(child, ast.Import)
                else [child.module or ""]
                if isinstance(child, ast.ImportFrom)
                else []
            )
            if any(n.split(".")[0] == "claude_agent_sdk" for n in names):
                found.add((path.relative_to(root).as_posix(), function))
            walk(child, inner)

    walk(ast.parse(path.read_text()), "<module>")
    return found


def test_the_relay_imports_the_python_sdk_only_where_it_says_why() -> None:
    found = {file for path in sorted(_RELAY.glob("*.py")) for file, _ in _python_sdk_imports(path, _RELAY)}
    assert found == set(_PYTHON_SDK_USES), f"the relay imports claude_agent_sdk in {sorted(found)}"


def test_behaviours_import_the_python_sdk_only_where_they_say_why() -> None:
    found = set().union(*(_python_sdk_imports(p) for p in sorted(_CATALOGUE.rglob("*.py"))))
    assert found == set(_CATALOGUE_PYTHON_SDK_USES), f"claude_agent_sdk imported in {sorted(found)}"


def test_the_scan_notices_an_import_in_a_probe(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("async def probe(h):\n    from claude_agent_sdk import ProcessError\n")
    assert _python_sdk_imports(probe, tmp_path) == {("probe.py", "probe")}


def test_a_message_is_read_by_sdkprobes_table_with_every_field_as_yielded() -> None:
    raw = {
        "type": "assistant",
        "uuid": "u1",
        "parent_tool_use_id": None,
        "message": {
            "id": "msg_1",
            "model": "claude-test",
            "stop_reason": "tool_use",
            "content": [
                {"type": "redacted_thinking", "data": "opaque"},
                {"type": "text", "text": "hi"},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "true"}},
            ],
        },
        "newer_field": 7,
    }
    m = messages.neutral(raw)
    assert type(m).__name__ == "AssistantMessage"
    assert [type(b).__name__ for b in m.content] == ["RedactedThinkingBlock", "TextBlock", "ToolUseBlock"]
    assert (m.content[0].data, m.content[1].text, m.content[2].input) == ("opaque", "hi", {"command": "true"})
    assert (m.model, m.message_id, m.stop_reason, m.newer_field) == ("claude-test", "msg_1", "tool_use", 7)
    assert m.usage is None and m.error is None  # absent: None, as undefined in TypeScript
    assert m.raw is raw
    assert message_fields(m)["newer_field"] == 7 and message_fields(m)["model"] == "claude-test"


def test_a_tool_results_content_stays_as_yielded_and_unknown_types_are_kept() -> None:
    user = messages.neutral(
        {
            "type": "user",
            "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text"}]}]},
        }
    )
    assert user.content[0].content == [{"type": "text"}]  # a block's own content is not read as blocks
    result = messages.neutral({"type": "result", "subtype": "success", "modelUsage": {"m": 1}})
    assert (type(result).__name__, result.model_usage, result.subtype) == ("ResultMessage", {"m": 1}, "success")
    system = messages.neutral({"type": "system", "subtype": "task_updated", "patch": {"status": "completed"}})
    assert (type(system).__name__, system.status, system.data["patch"]) == (
        "TaskUpdatedMessage",
        "completed",
        {"status": "completed"},
    )
    other = messages.neutral({"type": "tool_progress", "elapsed": 3})
    assert (type(other).__name__, other.type, other.subtype, other.elapsed) == ("TsMessage", "tool_progress", None, 3)


# Behaviours whose TypeScript verdicts once rested on the Python SDK's parser, classes, types or
# in-process MCP server (wire.initialize-request-fields built its HookMatcher with the installed
# Python SDK's class, which before 0.2.180 takes no on_failure: it gives the harness's now).
_READERS = (
    "messages.every-content-block-kept",
    "messages.rate-limit-and-unknown-types-survive",
    "perms.permission-callback-wire-contract",
    "hooks.output-reaches-cli-as-returned",
    "agents.definition-fields-sent",
    "mcp.tool-decorator-listed-and-called",
    "agents.definition-fields-unvalidated",
    "process.process-error-carries-stderr",
    "wire.host-guard-options",
    "wire.initialize-request-fields",
)
_TS = TS_VERSIONS[-1]
_BESIDE = SDK_VERSIONS[-7]  # an older Python SDK release, with older message classes and types
_TS_WANTED = os.environ.get("SDKPROBE_TS") == "1" or os.environ.get("SDKPROBE_SLOW") == "1"


@pytest.mark.skipif(
    shutil.which("node") is None or not (_TS_WANTED or ts_sdk.installed(_TS) is not None),
    reason=f"installs @anthropic-ai/claude-agent-sdk {_TS} from npm: set SDKPROBE_TS=1",
)
def test_a_typescript_report_is_the_same_with_another_python_sdk_beside_it(tmp_path: Path) -> None:
    from sdkprobe.releases.envcache import EnvCache

    env = EnvCache().ensure(_BESIDE)
    argv = [str(env.sdkprobe), "run", "--sdk", f"ts@{_TS}", "--out", str(tmp_path), "-j", "1", "--only", *_READERS]
    ran = subprocess.run(argv, capture_output=True, text=True, timeout=1200)
    assert ran.returncode in (0, 1), ran.stderr[-2000:]
    beside = {e["id"]: e for e in json.loads((tmp_path / f"{_TS}.json").read_text())["behaviours"]}
    committed = {e["id"]: e for e in json.loads((_REPORTS / f"{_TS}.json").read_text())["behaviours"]}
    assert sorted(beside) == sorted(_READERS)
    changed = [bid for bid in _READERS if beside[bid] != committed[bid]]
    assert changed == [], f"on TypeScript {_TS}, with claude-agent-sdk {_BESIDE} beside it: {changed} changed"
