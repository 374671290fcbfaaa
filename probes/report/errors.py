"""The one error every report, matrix and gate function raises on bad input.

Its message is always a single line, so a command can print it as-is and exit 2.
"""


class ReportError(Exception):
    """A report, a relied-on list or a reports folder that cannot be used."""

    def __init__(self, message: object) -> None:
        super().__init__(" ".join(str(message).split()))
