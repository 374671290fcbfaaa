"""Reports: one JSON + Markdown file per SDK version, the compatibility matrix, the gate.

Knows verdict names and the report schema; it runs no probe and knows no particular behaviour.
"""

from probes.report.errors import ReportError
from probes.report.gate import GateResult, compare, read_relied_on
from probes.report.matrix import render_matrix
from probes.report.model import build
from probes.report.render import render_page, render_table
from probes.report.schema import SCHEMA_VERSION
from probes.report.store import dumps, load, write

__all__ = [
    "SCHEMA_VERSION",
    "GateResult",
    "ReportError",
    "build",
    "compare",
    "dumps",
    "load",
    "read_relied_on",
    "render_matrix",
    "render_page",
    "render_table",
    "write",
]
