"""The harness: what a behaviour's probe may call. Nothing here knows any behaviour.

A probe receives a `Harness` bound to its own isolated space and uses only its public
calls: `wire` (SDK against the fake CLI), `session` (SDK against the real CLI and the
model double, or the real API for a live behaviour run with --live), `verdict` (a
decision), and the builders of fake-CLI scenarios and model-double scripts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fake_cli.scenario import Scenario
from probes.behaviour import Verdict, decide
from probes.harness import wire as _wire
from probes.harness.isolation import Space
from probes.harness.model_double import script as _script
from probes.harness.model_double.script import *  # noqa: F403
from probes.harness.normalise import normalise

__all__ = ["Harness", "Scenario", "Space", *_script.__all__]


class Harness:
    def __init__(self, space: Space, *, cli_path: str | None = None, live: bool = False) -> None:
        self.space = space
        self.cli_path = cli_path
        self.live = live

    @property
    def cwd(self) -> Path:
        """The probe's working directory (the CLI's cwd in a session)."""
        return self.space.cwd

    async def wire(
        self,
        scenario: Scenario | None = None,
        prompt: str | list[dict[str, Any]] | None = "hi",
        **kwargs: Any,
    ) -> _wire.WireCapture:
        """Run the SDK against the fake CLI; see `probes.harness.wire.capture`."""
        return await _wire.capture(self.space.path("wire"), scenario, prompt, **kwargs)

    async def session(self, prompt: Any = "hi", **kwargs: Any) -> Any:
        """Run the SDK against the real CLI; see `probes.harness.real_cli.session`."""
        from probes.harness import real_cli

        return await real_cli.session(self.space, prompt, cli_path=self.cli_path, live=self.live, **kwargs)

    def observe(self, value: Any) -> Any:
        """`value` normalised: this probe's paths become placeholders."""
        return normalise(
            value,
            paths=[
                (self.space.cwd, "<CWD>"),
                (self.space.home, "<HOME>"),
                (self.space.tmp, "<TMPDIR>"),
                (self.space.root, "<SPACE>"),
            ],
        )

    def verdict(self, **findings: Any) -> Verdict:
        """`probes.behaviour.decide`; the runner normalises what it stores."""
        return decide(**findings)
