"""Area `config`: setting sources, memory, skills, the environment, and what reaches the model's context."""

from __future__ import annotations

from typing import Any

from probes.behaviour import Check, behaviour, check
from probes.harness import Harness

GIVEN = {"SDKPROBE_GIVEN": "1", "CLAUDE_CODE_ENTRYPOINT": "custom", "CLAUDE_AGENT_SDK_VERSION": "x"}


@behaviour(
    id="config.env-option-replaces-process-env",
    claim=(
        "The env option replaces the CLI child's environment instead of adding to it, so a caller "
        "who wants the host's own variables kept has to copy them into env."
    ),
    source=("000", "Tools and permissions"),
    tier="wire",
    checks=("inherited-variables-dropped", "given-variables-reach-cli"),
    requires=("option:env",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
)
async def env_option_replaces_process_env(h: Harness) -> dict[str, Any]:
    run = await h.wire(env=dict(GIVEN))
    env = run.env
    return {
        # PATH is set in every host; whether the child kept the host's value decides it.
        "host_path_kept": "PATH" in run.parent_env and env.get("PATH") == run.parent_env["PATH"],
        "host_variables_dropped": run.env_removed,
        "given_seen": {k: env.get(k) for k in sorted(GIVEN) if k != "CLAUDE_AGENT_SDK_VERSION"},
        # the SDK's own version variable: whether env could override it (it writes it last)
        "sdk_version_overridden": env.get("CLAUDE_AGENT_SDK_VERSION") == GIVEN["CLAUDE_AGENT_SDK_VERSION"],
    }


@env_option_replaces_process_env.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    given = seen["given_seen"]
    dropped = seen["host_variables_dropped"]
    return {
        "inherited-variables-dropped": check(
            not seen["host_path_kept"],
            "the host's PATH reached the CLI unchanged"
            + (f"; only {dropped} were dropped" if dropped else "; no host variable was dropped"),
        ),
        "given-variables-reach-cli": check(
            given.get("SDKPROBE_GIVEN") == "1",
            f"the CLI saw {given}",
        ),
    }


env_option_replaces_process_env.differs_on(
    {
        "host_path_kept": True,
        "host_variables_dropped": [],
        "given_seen": {"CLAUDE_CODE_ENTRYPOINT": "sdk-py", "SDKPROBE_GIVEN": None},
        "sdk_version_overridden": False,
    }
)
