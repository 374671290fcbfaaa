"""The one error every report, matrix and gate function raises on bad input.

Its message is always a single line, so a command can print it as-is and exit 2.
"""

from sdkprobe.errors import UsageError


class ReportError(UsageError):
    """A report, a relied-on list or a reports folder that cannot be used."""
