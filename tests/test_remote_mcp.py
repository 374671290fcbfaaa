"""The remote MCP server on its own: it answers MCP over HTTP, refuses what has no token
with the 401 an OAuth client expects, serves discovery and a sign-in, and records each
request (with or without an Authorization header, accepted or not) without its values."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlencode, urlparse

from sdkprobe.harness import McpTool, RemoteMcpServer, mcp_oauth_store

_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def call(url: str, body: dict | None = None, headers: dict | None = None, form: dict | None = None):
    data = json.dumps(body).encode() if body is not None else urlencode(form).encode() if form else None
    kind = "application/json" if body is not None else "application/x-www-form-urlencoded"
    req = urllib.request.Request(url, data=data, headers={"content-type": kind, **(headers or {})})
    try:
        with _DIRECT.open(req, timeout=10) as resp:
            return resp.status, dict(resp.headers), resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read().decode()


def rpc(method: str, mid: int | None = 1, **params) -> dict:
    m = {"jsonrpc": "2.0", "method": method, "params": params}
    return m if mid is None else {**m, "id": mid}


def test_it_speaks_mcp_over_http_and_records_without_auth():
    with RemoteMcpServer("plain", [McpTool("echo", result="echoed")]) as server:
        assert urlparse(server.url).hostname == "127.0.0.1" and server.config() == {"type": "http", "url": server.url}
        status, _, body = call(server.url, rpc("initialize", protocolVersion="2025-06-18"))
        assert status == 200 and json.loads(body)["result"]["serverInfo"]["name"] == "plain"
        assert call(server.url, rpc("notifications/initialized", None))[0] == 202
        tools = json.loads(call(server.url, rpc("tools/list", 2))[2])["result"]["tools"]
        assert [t["name"] for t in tools] == ["echo"]
        result = json.loads(call(server.url, rpc("tools/call", 3, name="echo", arguments={}))[2])["result"]
        assert result["content"][0]["text"] == "echoed" and result["isError"] is False
        # no OAuth: no discovery documents
        assert call(server.base_url + "/.well-known/oauth-protected-resource")[0] == 404
    assert [(r.rpc, r.status, r.authorization) for r in server.mcp()] == [
        ("initialize", 200, False),
        ("notifications/initialized", 202, False),
        ("tools/list", 200, False),
        ("tools/call", 200, False),
    ]
    assert server.discovery() == ["/.well-known/oauth-protected-resource"]  # asked for, and answered 404
    assert server.requests[-1].status == 404


def test_oauth_refuses_without_an_accepted_token_and_notices_the_header():
    with RemoteMcpServer("r", oauth=True) as server:
        status, headers, _ = call(server.url, rpc("initialize"))
        assert status == 401
        challenge = {k.lower(): v for k, v in headers.items()}["www-authenticate"]
        assert challenge.startswith("Bearer ") and f'resource_metadata="{server.base_url}/.well-known/' in challenge
        assert call(server.url, rpc("initialize"), {"Authorization": "Bearer wrong"})[0] == 401
        server.accept("seeded-token")
        assert call(server.url, rpc("initialize"), {"Authorization": "Bearer seeded-token"})[0] == 200
    seen = [(r.authorization, r.accepted, r.status) for r in server.mcp()]
    assert seen == [(False, False, 401), (True, False, 401), (True, True, 200)]
    kinds = [s["authorization"] for s in server.summary()]
    assert sorted(kinds) == ["accepted", "none", "refused"]
    # no header value is kept anywhere in the record
    assert "seeded-token" not in repr(server.requests) and "wrong" not in json.dumps(server.summary())


def test_discovery_registration_and_a_sign_in_give_a_token_it_then_accepts():
    async def flow(server: RemoteMcpServer) -> str:
        prm = json.loads(call(server.base_url + "/.well-known/oauth-protected-resource/mcp")[2])
        assert prm["resource"] == server.url and prm["authorization_servers"] == [server.base_url]
        meta = json.loads(call(server.base_url + "/.well-known/oauth-authorization-server")[2])
        assert meta["registration_endpoint"] == server.base_url + "/register"
        client = json.loads(call(meta["registration_endpoint"], {"redirect_uris": ["http://localhost:1/callback"]})[2])
        query = {"client_id": client["client_id"], "redirect_uri": "http://localhost:1/callback", "state": "s1"}
        callback = await server.sign_in(meta["authorization_endpoint"] + "?" + urlencode(query))
        got = parse_qs(urlparse(callback).query)
        assert callback.startswith("http://localhost:1/callback?") and got["state"] == ["s1"]
        status, _, body = call(
            meta["token_endpoint"], form={"grant_type": "authorization_code", "code": got["code"][0]}
        )
        assert status == 200
        return str(json.loads(body)["access_token"])

    with RemoteMcpServer("r", oauth=True) as server:
        token = asyncio.run(flow(server))
        assert server.issued == 1
        assert call(server.url, rpc("initialize"), {"Authorization": f"Bearer {token}"})[0] == 200
        # a code is good once
        assert call(server.base_url + "/token", form={"grant_type": "authorization_code", "code": "x"})[0] == 400
    assert server.discovery() == [
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource/mcp",
    ]
    paths = [(r.method, r.path, r.status) for r in server.requests if r.is_oauth]
    assert paths == [
        ("POST", "/register", 201),
        ("GET", "/authorize", 302),
        ("POST", "/token", 200),
        ("POST", "/token", 400),
    ]
    assert server.mcp()[-1].accepted and token not in repr(server.requests)


def test_wait_until_sees_a_request_arrive_and_gives_up_on_one_that_does_not():
    async def run(server: RemoteMcpServer) -> tuple[bool, bool]:
        later = asyncio.get_running_loop().run_in_executor(None, call, server.url, rpc("ping"))
        arrived = await server.wait_until(lambda s: any(r.rpc == "ping" for r in s.requests), 10)
        await later
        never = await server.wait_until(lambda s: s.issued > 0, 0.2)
        return arrived, never

    with RemoteMcpServer() as server:
        assert asyncio.run(run(server)) == (True, False)


def test_it_binds_loopback_on_a_free_port_and_leaves_nothing_listening():
    with RemoteMcpServer() as a, RemoteMcpServer() as b:
        assert a.port != b.port and a.running
        port = a.port
    assert not a.running and not b.running
    probe = socket.socket()
    try:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # nothing answers there any more
    finally:
        probe.close()


def test_the_oauth_store_reads_entries_by_server_without_token_values(tmp_path):
    (tmp_path / ".credentials.json").write_text(
        json.dumps(
            {
                "claudeAiOauth": {"accessToken": "not-mcp"},
                "mcpOAuth": {
                    "r|0123456789abcdef": {
                        "serverName": "r",
                        "serverUrl": "http://127.0.0.1:1/mcp",
                        "accessToken": "t",
                    },
                    "s|fedcba9876543210": {"serverName": "s", "serverUrl": "http://127.0.0.1:2/mcp", "accessToken": ""},
                },
            }
        )
    )
    store = mcp_oauth_store(tmp_path)
    assert store == [
        {
            "key": "r|<hash>",
            "server": "r",
            "url": "http://127.0.0.1:1/mcp",
            "access_token": True,
            "refresh_token": False,
        },
        {
            "key": "s|<hash>",
            "server": "s",
            "url": "http://127.0.0.1:2/mcp",
            "access_token": False,
            "refresh_token": False,
        },
    ]
    assert mcp_oauth_store(tmp_path / "absent") == []
