"""The model double notices a client that goes away mid-stream (an aborted request, as
on an interrupt), and Conversation.send passes query()'s session_id on."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import pytest

from sdkprobe.harness import Conversation, reply
from sdkprobe.harness.model_double import ModelDouble, Script
from sdkprobe.harness.sdk import Outcome

_BODY = {"model": "m", "max_tokens": 32000, "stream": True, "messages": [{"role": "user", "content": "hi"}]}


def _request(d: ModelDouble) -> bytes:
    body = json.dumps(_BODY).encode()
    head = (
        f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:{d.port}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


def _read_all(d: ModelDouble) -> bytes:
    with socket.create_connection(("127.0.0.1", d.port), timeout=30) as s:
        s.sendall(_request(d))
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


async def test_a_stream_closed_by_its_client_while_held_counts_as_abandoned():
    with ModelDouble(Script(main=[reply("a", "b", hold_after=3)])) as d:
        s = socket.create_connection(("127.0.0.1", d.port), timeout=30)
        try:
            s.sendall(_request(d))
            await d.wait_held(1, timeout=10)
            assert d.abandoned == 0
        finally:
            s.close()  # the client gives up mid-answer
        await d.wait_abandoned(1, timeout=10)
        assert d.abandoned == 1


async def test_a_stream_read_to_its_end_is_not_abandoned():
    with ModelDouble(Script(main=[reply("a")])) as d:
        raw = await asyncio.to_thread(_read_all, d)
        assert b"message_stop" in raw
        with pytest.raises(TimeoutError):
            await d.wait_abandoned(1, timeout=0.3)
        assert d.abandoned == 0


class _Client:
    """Records how query() was called."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, dict[str, Any]]] = []

    async def query(self, prompt: Any, **kw: Any) -> None:
        self.calls.append((prompt, kw))


async def test_conversation_reports_whether_a_stream_was_abandoned():
    with ModelDouble(Script(main=[reply("a", hold_after=2)])) as d:
        c = Conversation(_Client(), Outcome(), d)
        assert await c.abandoned(1, timeout=0.2) is False
        s = socket.create_connection(("127.0.0.1", d.port), timeout=30)
        s.sendall(_request(d))
        await c.held(1, timeout=10)
        s.close()
        assert await c.abandoned(1, timeout=10) is True
        assert [label for _, label in c.marks] == ["abandoned"]


async def test_send_passes_session_id_only_when_given():
    client = _Client()
    c = Conversation(client, Outcome(), None)
    await c.send("first")
    await c.send("second", session_id="B")
    assert client.calls == [("first", {}), ("second", {"session_id": "B"})]
