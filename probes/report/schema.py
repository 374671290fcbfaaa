"""Checks a report dict against schema.json plus what JSON Schema cannot say.

Everything that reads a report (the gate, the matrix) goes through `validate`, so a
hand-edited or truncated file fails here with one line instead of deep in a renderer.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from sdkprobe.report.errors import ReportError

SCHEMA_VERSION = 2
SCHEMA_PATH = Path(__file__).with_name("schema.json")


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def validate(report: Any, where: str = "report") -> None:
    """Raise ReportError naming the first field that is wrong; return None if all is well."""
    if not isinstance(report, dict):
        raise ReportError(f"{where}: expected a JSON object, got {type(report).__name__}")
    if "schema" not in report:
        raise ReportError(f"{where}: no 'schema' field; not an sdkprobe report")
    if report["schema"] != SCHEMA_VERSION:
        raise ReportError(f"{where}: schema version {report['schema']!r}; this sdkprobe reads version {SCHEMA_VERSION}")
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(report))
    if error is not None:
        message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
        raise ReportError(f"{where}: schema mismatch at {error.json_path}: {message}")
    seen: set[str] = set()
    for i, b in enumerate(report["behaviours"]):
        if b["id"] in seen:
            raise ReportError(f"{where}: behaviour {b['id']!r} appears twice")
        seen.add(b["id"])
        if b["area"] != b["id"].split(".", 1)[0]:
            raise ReportError(f"{where}: $.behaviours[{i}]: area {b['area']!r} does not match id {b['id']!r}")
