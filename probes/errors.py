"""The one kind of failure a command reports as a line and exit 2.

Everything the user can fix (bad input, an output that cannot be written, a release index
that cannot be reached, an environment that will not install) is a `UsageError` or a
subclass of it; `sdkprobe.commands.main` catches it once and prints `sdkprobe COMMAND:
error: MESSAGE`. Messages are one line.
"""


class UsageError(Exception):
    def __init__(self, message: object) -> None:
        super().__init__(" ".join(str(message).split()))
