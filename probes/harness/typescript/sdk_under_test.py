"""The TypeScript SDK under test: one installed release, driven through Node.

What a probe says in the Python SDK's terms reaches the release through the tables of this
package: options.py for options (and the callbacks among them), client.py for client methods,
functions.py for session functions, requirements.py for declared requirements; run.py runs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sdkprobe.harness.typescript import options as table
from sdkprobe.harness.typescript import requirements
from sdkprobe.harness.typescript.compiler import type_check
from sdkprobe.harness.typescript.functions import TsFunctions
from sdkprobe.harness.typescript.relay import node_version
from sdkprobe.harness.typescript.run import TsOptions, run_ts
from sdkprobe.harness.under_test import RunSpec, SdkUnderTest


class TypeScriptSdk(SdkUnderTest):
    name = "@anthropic-ai/claude-agent-sdk"
    env_is_whole = True

    def __init__(self, release: Any) -> None:
        self.release = release  # a releases.ts_sdk.TsRelease

    @property
    def version(self) -> str:
        return str(self.release.version)

    def bundled_cli_version(self) -> str | None:
        return None if self.release.cli_version is None else str(self.release.cli_version)

    def bundled_cli_path(self) -> Path | None:
        return None if self.release.bundled_cli is None else Path(self.release.bundled_cli)

    # --- options ------------------------------------------------------------------------

    def option_fields(self) -> set[str]:
        return table.fields(self.release.options())

    def why_lacking(self, lacking: list[str]) -> str:
        return f"{self.name} {self.version}: " + "; ".join(table.missing(lacking, self.release.options()))

    def build_options(self, options: dict[str, Any]) -> Any:
        return TsOptions(dict(options), self.release)

    # --- running --------------------------------------------------------------------------

    async def run(self, options: Any, spec: RunSpec, out: Any) -> None:
        await run_ts(options, spec, out)

    def host_process_gap(self) -> str | None:
        return "sdkprobe's host of its own process runs the Python SDK only; none runs a TypeScript one yet"

    async def type_check(self, space: Any, source: str, timeout: float) -> list[dict[str, Any]] | None:
        return await type_check(space, self.release, source, timeout)

    # --- what it declares -----------------------------------------------------------------

    def typed_keys(self, name: str) -> list[str] | None:
        """The keys the release declares for the type probes call `name`, spelt as probes
        write them (table.declared_keys); None when it declares no such type."""
        return table.declared_keys(self.release.declarations(), name)

    def hook_inputs(self) -> dict[str, list[str]]:
        """HOOK_EVENTS's members, each with BaseHookInput's fields and its own input's, as the
        release's declarations give them (its surface's hook-event and hook-input items)."""
        names = requirements.surface_names(self.release)
        base = [n.split(":", 1)[1] for n in names if n.startswith("hook-input:") and "." not in n]
        inputs = {n.split(":", 1)[1]: list(base) for n in names if n.startswith("hook-event:")}
        for n in names:
            if n.startswith("hook-input:") and "." in n:
                event, _, field = n.split(":", 1)[1].partition(".")
                inputs.setdefault(event, list(base)).append(field)
        return {event: sorted(set(fields)) for event, fields in sorted(inputs.items())}

    def hook_input_values(self) -> dict[str, dict[str, list[str]]]:
        """Each HookInput member's string-literal fields, as the release's declarations give them."""
        from sdkprobe import ts_surface

        return ts_surface.hook_input_values(self.release.declarations())

    def declared_messages(self) -> dict[str, dict[str, dict[str, Any]]]:
        """SDKMessage's members as the release's declarations give them (its surface's message items)."""
        from sdkprobe import ts_surface

        return ts_surface.messages(self.release.declarations())

    def unmet(self, kind: str, name: str) -> str | None:
        if kind == "option":
            return self.missing_options([name])
        return requirements.unmet(kind, name, self.release)

    def session_functions(self) -> Any:
        return TsFunctions(self.release)

    def run_info(self) -> dict[str, Any]:
        return {"sdk": "typescript", "node": node_version(), "surface": requirements.surface_names(self.release)}
