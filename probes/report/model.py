"""Builds one version's report from the runner's results and run info.

Only the fields the schema names are copied, so run-local data (timings) never reaches
a report, and behaviours are put in id order so equal runs give equal reports. The
version's surface (sdkprobe.surface) is copied when the run info has it: optional, so a
report built from older info is as valid as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sdkprobe.report.errors import ReportError
from sdkprobe.report.schema import SCHEMA_VERSION, validate
from sdkprobe.result import REQUIRED_FIELDS, STORED_FIELDS

INFO_FIELDS = ("sdk_version", "cli_version", "cli", "python", "platform")
OPTIONAL_INFO_FIELDS = ("sdk", "node")
BEHAVIOUR_FIELDS = STORED_FIELDS  # written down once, in probes/result.py


def build(results: Iterable[Mapping[str, Any]], info: Mapping[str, Any]) -> dict[str, Any]:
    """A schema-valid report dict; raises ReportError when results or info are incomplete."""
    missing = [k for k in INFO_FIELDS if k not in info]
    if missing:
        raise ReportError(f"run info lacks {', '.join(missing)}")
    behaviours = [_behaviour(r.to_dict() if hasattr(r, "to_dict") else dict(r)) for r in results]
    report: dict[str, Any] = {"schema": SCHEMA_VERSION, **{k: info[k] for k in INFO_FIELDS}}
    for k in OPTIONAL_INFO_FIELDS:  # which SDK, when it is not Python's, and the Node it ran on
        if info.get(k) is not None:
            report[k] = info[k]
    report["behaviours"] = sorted(behaviours, key=lambda b: str(b["id"]))
    if info.get("surface") is not None:  # the version's public items, when the run recorded them
        report["surface"] = sorted(info["surface"])
    validate(report, where=f"report for {info['sdk_version']}")
    return report


def _behaviour(d: dict[str, Any]) -> dict[str, Any]:
    missing = [k for k in REQUIRED_FIELDS if k not in d]
    if missing:
        raise ReportError(f"result {d.get('id', '?')!r} lacks {', '.join(missing)}")
    b = {k: d[k] for k in BEHAVIOUR_FIELDS if k in REQUIRED_FIELDS or d.get(k) is not None}
    b["source"] = dict(b["source"])
    b["checks"] = dict(b["checks"] or {})
    return b
