"""`Conversation.mcp_status`: the CLI's list of MCP servers on every SDK, through the public
get_mcp_status() where the client has it and the `mcp_status` control request it sends
where it does not (0.1.19)."""

from __future__ import annotations

from typing import Any

from sdkprobe.harness import Conversation, sdk

_LISTED = {"mcpServers": [{"name": "io", "status": "connected"}]}


class _Query:
    """The SDK's private query object: answers a control request with `answer`, or raises it."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.sent: list[dict[str, Any]] = []

    async def _send_control_request(self, request: dict[str, Any], timeout: float = 60.0) -> Any:
        self.sent.append(request)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class _OldClient:
    """A client of an SDK without get_mcp_status."""

    def __init__(self, answer: Any) -> None:
        self._query = _Query(answer)


class _NewClient(_OldClient):
    def __init__(self) -> None:
        super().__init__({"mcpServers": [{"name": "never", "status": "sent"}]})
        self.asked = 0

    async def get_mcp_status(self) -> dict[str, Any]:
        self.asked += 1
        return _LISTED


async def test_the_public_method_is_used_where_the_client_has_it():
    client = _NewClient()
    c = Conversation(client, sdk.Outcome(), None)
    assert await c.mcp_status() == _LISTED
    assert client.asked == 1 and client._query.sent == []
    assert [label for _, label in c.marks] == ["get_mcp_status"]


async def test_without_the_method_the_control_request_it_sends_gives_the_same_answer():
    client = _OldClient(_LISTED)
    c = Conversation(client, sdk.Outcome(), None)
    assert await c.mcp_status() == _LISTED
    assert client._query.sent == [{"subtype": "mcp_status"}]
    assert [label for _, label in c.marks] == ["control mcp_status"]


async def test_a_refused_request_lists_no_server():
    c = Conversation(_OldClient(Exception("Unsupported control request subtype: mcp_status")), sdk.Outcome(), None)
    assert await c.mcp_status() == {"mcpServers": []}
