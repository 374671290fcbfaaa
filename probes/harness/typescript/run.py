"""One run of the TypeScript SDK, collected as a Python run is: messages, error, nothing else.

`run_ts` takes the run `sdk.run_sdk` was asked for and fills the same `Outcome`, so the wire and
cli tiers, Conversation and every probe work on either SDK. The TypeScript SDK has no
Python warnings or logger, so those stay empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdkprobe.harness.typescript import mcp
from sdkprobe.harness.typescript import options as table
from sdkprobe.harness.typescript.client import TsClient
from sdkprobe.harness.typescript.messages import neutral
from sdkprobe.harness.typescript.relay import Relay
from sdkprobe.harness.under_test import RunSpec


@dataclass
class TsOptions:
    """The options a probe gave, by their Python names, for the TypeScript release `release`."""

    values: dict[str, Any]
    release: Any


async def run_ts(options: TsOptions, spec: RunSpec, out: Any) -> None:
    """Fill `out` (an sdk.Outcome) from one TypeScript query(); the caller bounds its time."""
    prompt, client, connect_prompt, drive, watch = spec.prompt, spec.client, spec.connect_prompt, spec.drive, spec.watch
    translated = table.translate(dict(options.values))
    relay = Relay(translated)
    streaming = client or connect_prompt or isinstance(prompt, list)
    mcp.serve(translated.options, translated.servers, translated.answers)
    try:
        await relay.start(
            options.release.entry,
            None if streaming or isinstance(prompt, list) else (prompt or ""),
            spec.startup,
            spec.warmed,
        )
        if not streaming:
            await _read_all(relay, out, watch)
        elif not (client or connect_prompt):  # an iterable prompt given to query(): sent, then ended
            for item in prompt if isinstance(prompt, list) else []:
                relay.send_user(item)
            relay.end_input()
            await _read_all(relay, out, watch)
        else:
            c = TsClient(relay)
            if connect_prompt and prompt is not None:
                await c.query(prompt if isinstance(prompt, str) else _iterate(prompt))
                if isinstance(prompt, list):
                    relay.end_input()
            if drive is not None:
                await drive(c, out)
            else:
                if prompt is not None and not connect_prompt:
                    await c.query(prompt if isinstance(prompt, str) else _iterate(prompt))
                async for message in c.receive_response():
                    out.messages.append(message)
            relay.end_input()
    finally:
        await relay.close()
        out.log.extend(relay.log)
        out.as_json = [*(out.as_json or []), *relay.yielded]
        out.children.extend(relay.children)
    if relay.error is not None and out.exception is None:
        raise relay.error


async def _read_all(relay: Relay, out: Any, watch: Any) -> None:
    async for raw in relay.messages():
        message = neutral(raw)
        out.messages.append(message)
        if watch is not None:
            watch(message)


async def _iterate(items: list[dict[str, Any]]) -> Any:
    for item in items:
        yield item
