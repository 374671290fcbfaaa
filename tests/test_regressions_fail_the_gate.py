"""Hand-made SDK regressions fail the gate: the newest committed report's observation edited
to what the regression would produce, judged again (`sdkprobe rejudge`) and gated against the
report as committed, as a team's CI would see a release that brought it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sdkprobe.commands import main
from sdkprobe.releases.versions import NEWEST

REPORT = Path(__file__).resolve().parents[1] / "reports" / f"{NEWEST}.json"


def _no_result_usage(seen: dict[str, Any]) -> None:
    """A parsed ResultMessage lost its usage field."""
    for record in seen["yielded"]:
        if record.get("__class__") == "ResultMessage":
            del record["usage"]


def _tools_option_not_sent(seen: dict[str, Any]) -> None:
    """tools=['Bash', 'Read'] stopped reaching the CLI."""
    seen["--tools"]["list-sent-comma-joined"] = None


def _background_not_sent(seen: dict[str, Any]) -> None:
    """AgentDefinition.background no longer sent."""
    del seen["full"]["background"]


def _env_entry_lost(seen: dict[str, Any]) -> None:
    """An entry of the env option no longer reaches the CLI's environment."""
    seen["env overrides"]["watched"]["SDKPROBE_ENV_MARK"] = None


REGRESSIONS: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "a field dropped from a parsed message": ("messages.every-line-kind-typed", _no_result_usage),
    "an option that stops reaching the CLI": ("wire.tools-option-to-flag", _tools_option_not_sent),
    "an agent field no longer sent": ("agents.definition-fields-sent", _background_not_sent),
    "an environment entry lost": ("wire.sdk-set-environment", _env_entry_lost),
}


def _candidate(tmp_path: Path, edit: Callable[[dict[str, Any]], None] | None, bid: str) -> Path:
    """The committed report in a folder of its own, one observation edited, judged again."""
    folder = tmp_path / "candidate"
    folder.mkdir()
    report = json.loads(REPORT.read_text(encoding="utf-8"))
    entry = next(e for e in report["behaviours"] if e["id"] == bid)
    assert entry["verdict"] == "holds", f"{bid} must hold in the committed report for its regression to show"
    if edit is not None:
        edit(entry["observed"])
    (folder / REPORT.name).write_text(json.dumps(report, indent=2), encoding="utf-8")
    assert main(["rejudge", str(folder)]) == 0
    return folder / REPORT.name


@pytest.mark.parametrize("kind", list(REGRESSIONS))
def test_a_hand_made_regression_fails_the_gate(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    bid, edit = REGRESSIONS[kind]
    base = tmp_path / "base.json"
    shutil.copy(REPORT, base)
    (tmp_path / "same").mkdir()
    unchanged = _candidate(tmp_path / "same", None, bid)  # judged again, nothing edited: the gate passes
    assert main(["gate", "--baseline", str(base), "--candidate", str(unchanged)]) == 0
    capsys.readouterr()
    regressed = _candidate(tmp_path, edit, bid)
    assert main(["gate", "--baseline", str(base), "--candidate", str(regressed)]) == 1
    out = capsys.readouterr().out
    assert bid in out and "differs" in out, out


TS_REPORT = Path(__file__).resolve().parents[1] / "reports" / "ts" / "0.3.336.json"


def test_a_value_flag_dropped_among_one_token_forms_fails_the_typescript_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A TypeScript release writes `--max-turns=3`; one that stopped sending it must not pass
    because its other value flags are written in one token too."""
    bid, check = "wire.option-flags-and-defaults", "max-turns-sent"
    report = json.loads(TS_REPORT.read_text(encoding="utf-8"))
    entry = next(e for e in report["behaviours"] if e["id"] == bid)
    assert entry["checks"][check] == "holds", f"{check} must hold in the committed report for its regression to show"
    entry["observed"][check] = {"3": {"added": [], "removed": []}}
    (tmp_path / "candidate").mkdir()
    candidate = tmp_path / "candidate" / TS_REPORT.name
    candidate.write_text(json.dumps(report, indent=2), encoding="utf-8")
    assert main(["rejudge", str(candidate.parent)]) == 0
    capsys.readouterr()
    assert main(["gate", "--baseline", str(TS_REPORT), "--candidate", str(candidate)]) == 1
    out = capsys.readouterr().out
    assert bid in out and f"{check} holds → differs" in out, out
