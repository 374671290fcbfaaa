"""Reports: one JSON + Markdown file per SDK version, the compatibility matrix, the gate.

Knows verdict names and the report schema; it runs no probe and knows no particular behaviour.
"""

from sdkprobe.report.errors import ReportError
from sdkprobe.report.gate import GateResult, compare, read_relied_on
from sdkprobe.report.matrix import render_matrix
from sdkprobe.report.model import build
from sdkprobe.report.render import render_page, render_table
from sdkprobe.report.schema import SCHEMA_VERSION
from sdkprobe.report.store import dumps, load, write

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
