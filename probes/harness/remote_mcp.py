"""A remote MCP server on 127.0.0.1 (streamable HTTP), optionally behind OAuth, that
records every request it gets.

Claims about remote servers (needs-auth, which discovery documents the CLI fetches,
whether it sends a configured or stored token) need a server the CLI reaches over HTTP,
not a stdio child. `RemoteMcpServer` is one, served by uvicorn in a thread of its own
(like the model double), on a free loopback port, for as long as the probe holds it
(`with RemoteMcpServer(...) as server:`):

- `POST /mcp` speaks MCP's JSON-RPC (initialize, tools/list, tools/call, ping), answering
  with plain JSON, and offers the `McpTool`s it was given;
- with `oauth=True` every `/mcp` request without a token it accepts gets 401 and
  `WWW-Authenticate: Bearer resource_metadata=...`, and the server is its own OAuth
  authorization server: protected-resource and authorization-server metadata under
  `/.well-known/`, dynamic client registration (`/register`), `/authorize` (answers at
  once with a redirect carrying a code, as a browser sign-in that the user approved would)
  and `/token` (exchanges that code for a fresh access token it then accepts);
- anything else is 404, recorded too.

Each request is kept as a `RemoteRequest`: method, path, the JSON-RPC method, whether an
Authorization header came and whether it carried a token the server accepts, and the
status answered. Header values are never kept. `accept(token)` lets a probe seed a token
(say, one it wrote into the session's credentials store) without any sign-in.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from sdkprobe.harness.loopback import LoopbackService
from sdkprobe.harness.mcp_servers import McpTool

MCP_PATH = "/mcp"
PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource"
AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server"
_OAUTH_PATHS = ("/register", "/authorize", "/token")
_HEX_SUFFIX = re.compile(r"(?<=\|)[0-9a-f]{8,}$")


@dataclass(frozen=True)
class RemoteRequest:
    """One request the server got. `authorization`: an Authorization header was sent;
    `accepted`: it was `Bearer <a token this server accepts>`. No header value is kept."""

    method: str
    path: str
    authorization: bool
    accepted: bool
    status: int
    rpc: str | None = None  # the JSON-RPC method of an MCP POST
    grant_type: str | None = None  # of a /token POST

    @property
    def is_mcp(self) -> bool:
        return self.path == MCP_PATH

    @property
    def is_discovery(self) -> bool:
        return self.path.startswith("/.well-known/")

    @property
    def is_oauth(self) -> bool:
        return self.path in _OAUTH_PATHS

    def summary(self) -> dict[str, Any]:
        """JSON-ready, without anything that moves between runs."""
        out: dict[str, Any] = {"method": self.method, "path": self.path, "status": self.status}
        if self.rpc is not None:
            out["rpc"] = self.rpc
        if self.grant_type is not None:
            out["grant_type"] = self.grant_type
        out["authorization"] = "accepted" if self.accepted else "refused" if self.authorization else "none"
        return out


class RemoteMcpServer(LoopbackService):
    """A streamable-HTTP MCP server on 127.0.0.1; see the module's docstring."""

    service_name = "remote MCP server"

    def __init__(self, name: str = "remote", tools: Sequence[McpTool] = (), *, oauth: bool = False) -> None:
        self.name = name
        self.tools = list(tools) or [McpTool("ping", "Answers pong.", result="pong")]
        self.oauth = oauth
        self.requests: list[RemoteRequest] = []
        self._tokens: set[str] = set()
        self._codes: set[str] = set()
        self.issued = 0  # access tokens handed out by /token
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        """The MCP endpoint."""
        return self.base_url + MCP_PATH

    def config(self, headers: dict[str, str] | None = None) -> dict[str, Any]:
        """The server's `mcp_servers` entry (streamable HTTP), with `headers` if given."""
        entry: dict[str, Any] = {"type": "http", "url": self.url}
        if headers:
            entry["headers"] = dict(headers)
        return entry

    # tokens
    def accept(self, token: str) -> None:
        """Accept `token` as a bearer token from now on (e.g. one a probe seeded)."""
        with self._lock:
            self._tokens.add(token)

    def tokens(self) -> list[str]:
        """The bearer tokens this server accepts now, for another server to accept too
        (whether a client sends a token to a URL it was not issued for)."""
        with self._lock:
            return sorted(self._tokens)

    async def sign_in(self, auth_url: str) -> str:
        """What a browser does with an authorization URL this server issued, short of
        following the redirect: GET it and return the callback URL (with its code and
        state) that the server redirects to. Raises RuntimeError if there is none."""
        if not auth_url.startswith(self.base_url + "/"):
            raise RuntimeError("sign_in follows only this server's own authorization URLs")
        return await asyncio.to_thread(_location, auth_url)

    async def wait_until(self, ready: Callable[[RemoteMcpServer], bool], timeout: float) -> bool:
        """Wait until `ready(server)` holds (checked as requests arrive, every 50 ms at
        most); whether it did within `timeout`. For a probe that waits for what SHOULD
        happen (a bound to outlast load) or briefly for what should NOT."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not ready(self):
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    # reading the record
    def since(self, index: int) -> list[RemoteRequest]:
        """The requests after the first `index` (take `len(server.requests)` as a mark)."""
        with self._lock:
            return list(self.requests[index:])

    def discovery(self, since: int = 0) -> list[str]:
        """The distinct /.well-known paths fetched (sorted)."""
        return sorted({r.path for r in self.since(since) if r.is_discovery})

    def mcp(self, since: int = 0) -> list[RemoteRequest]:
        return [r for r in self.since(since) if r.is_mcp]

    def summary(self, since: int = 0) -> list[dict[str, Any]]:
        """Each distinct request kind (method, path, rpc, grant type, auth, status), sorted:
        what the server saw, in a form two runs agree on (no order, no counts)."""
        kinds = {json.dumps(r.summary(), sort_keys=True) for r in self.since(since)}
        return [json.loads(k) for k in sorted(kinds)]

    # serving
    def _app(self) -> Starlette:
        every = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
        return Starlette(
            routes=[
                Route(MCP_PATH, self._mcp, methods=every),
                Route(PROTECTED_RESOURCE, self._protected_resource, methods=["GET"]),
                Route(PROTECTED_RESOURCE + MCP_PATH, self._protected_resource, methods=["GET"]),
                Route(AUTHORIZATION_SERVER, self._authorization_server, methods=["GET"]),
                Route("/register", self._register, methods=["POST"]),
                Route("/authorize", self._authorize, methods=["GET"]),
                Route("/token", self._token, methods=["POST"]),
                Route("/{path:path}", self._not_found, methods=every),
            ]
        )

    def _record(self, request: Request, status: int, **kw: Any) -> None:
        header = request.headers.get("authorization")
        with self._lock:
            accepted = header is not None and header.startswith("Bearer ") and header[7:].strip() in self._tokens
            self.requests.append(
                RemoteRequest(request.method, request.url.path, header is not None, accepted, status, **kw)
            )

    def _authorized(self, request: Request) -> bool:
        header = request.headers.get("authorization") or ""
        with self._lock:
            return header.startswith("Bearer ") and header[7:].strip() in self._tokens

    async def _mcp(self, request: Request) -> Response:
        raw = await request.body()
        try:
            message = json.loads(raw) if raw else None
        except ValueError:
            message = None
        rpc = message.get("method") if isinstance(message, dict) else None
        rpc = rpc if isinstance(rpc, str) else None
        if self.oauth and not self._authorized(request):
            self._record(request, 401, rpc=rpc)
            metadata = self.base_url + PROTECTED_RESOURCE + MCP_PATH
            return JSONResponse(
                {"error": "invalid_token", "error_description": "sign in first"},
                status_code=401,
                headers={"WWW-Authenticate": f'Bearer error="invalid_token", resource_metadata="{metadata}"'},
            )
        if request.method == "DELETE":
            self._record(request, 200, rpc=rpc)
            return Response(status_code=200)
        if request.method != "POST":  # no server-initiated stream
            self._record(request, 405, rpc=rpc)
            return Response(status_code=405, headers={"Allow": "POST, DELETE"})
        if not isinstance(message, dict):
            self._record(request, 400, rpc=rpc)
            return JSONResponse(_rpc_error(None, -32700, "parse error"), status_code=400)
        if "id" not in message:  # a notification or a response
            self._record(request, 202, rpc=rpc)
            return Response(status_code=202)
        self._record(request, 200, rpc=rpc)
        return JSONResponse(self._answer(message), headers={"Mcp-Session-Id": "sdkprobe-remote-session"})

    def _answer(self, message: dict[str, Any]) -> dict[str, Any]:
        mid, method, params = message.get("id"), message.get("method"), message.get("params") or {}
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": params.get("protocolVersion") or "2025-06-18",
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": self.name, "version": "1.0.0"},
            }
        elif method == "tools/list":
            listed = []
            for t in self.tools:
                spec = t.spec()
                listed.append({k: spec[k] for k in ("name", "description", "inputSchema", "annotations") if spec[k]})
            result = {"tools": listed}
        elif method == "tools/call":
            tool = next((t for t in self.tools if t.name == params.get("name")), None)
            text, error = (tool.result, tool.is_error) if tool else (f"no tool {params.get('name')}", True)
            result = {"content": [{"type": "text", "text": text}], "isError": error}
        elif method == "ping":
            result = {}
        else:
            return _rpc_error(mid, -32601, f"method not found: {method}")
        return {"jsonrpc": "2.0", "id": mid, "result": result}

    async def _protected_resource(self, request: Request) -> Response:
        if not self.oauth:
            return await self._not_found(request)
        self._record(request, 200)
        return JSONResponse(
            {
                "resource": self.url,
                "authorization_servers": [self.base_url],
                "bearer_methods_supported": ["header"],
            }
        )

    async def _authorization_server(self, request: Request) -> Response:
        if not self.oauth:
            return await self._not_found(request)
        self._record(request, 200)
        return JSONResponse(
            {
                "issuer": self.base_url,
                "authorization_endpoint": self.base_url + "/authorize",
                "token_endpoint": self.base_url + "/token",
                "registration_endpoint": self.base_url + "/register",
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "refresh_token"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none", "client_secret_post", "client_secret_basic"],
            }
        )

    async def _register(self, request: Request) -> Response:
        try:
            asked = json.loads(await request.body() or b"{}")
        except ValueError:
            asked = {}
        self._record(request, 201)
        asked = asked if isinstance(asked, dict) else {}
        return JSONResponse(
            {
                **asked,
                "client_id": "sdkprobe-client",
                "client_id_issued_at": 0,
                "token_endpoint_auth_method": "none",
            },
            status_code=201,
        )

    async def _authorize(self, request: Request) -> Response:
        redirect = request.query_params.get("redirect_uri")
        if not redirect:
            self._record(request, 400)
            return JSONResponse({"error": "invalid_request"}, status_code=400)
        code = secrets.token_urlsafe(16)
        with self._lock:
            self._codes.add(code)
        query = {"code": code}
        if "state" in request.query_params:
            query["state"] = request.query_params["state"]
        self._record(request, 302)
        joiner = "&" if urlparse(redirect).query else "?"
        return RedirectResponse(redirect + joiner + urlencode(query), status_code=302)

    async def _token(self, request: Request) -> Response:
        form = parse_qs((await request.body()).decode("utf-8", "replace"))
        grant = (form.get("grant_type") or [""])[0] or None
        code = (form.get("code") or [""])[0]
        with self._lock:
            good = (grant == "authorization_code" and code in self._codes) or grant == "refresh_token"
            if good:
                self._codes.discard(code)
                token = "sdkprobe-" + secrets.token_urlsafe(16)
                self._tokens.add(token)
                self.issued += 1
        if not good:
            self._record(request, 400, grant_type=grant)
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        self._record(request, 200, grant_type=grant)
        return JSONResponse(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 3600,
                "refresh_token": "sdkprobe-refresh-" + secrets.token_urlsafe(8),
            }
        )

    async def _not_found(self, request: Request) -> Response:
        self._record(request, 404)
        return JSONResponse({"error": "not_found"}, status_code=404)


def _rpc_error(mid: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": mid, "error": {"code": code, "message": message}}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _location(url: str) -> str:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect)
    try:
        with opener.open(url, timeout=10) as resp:
            raise RuntimeError(f"the authorization URL answered {resp.status}, not a redirect")
    except urllib.error.HTTPError as err:
        location = err.headers.get("Location")
        if err.code not in (301, 302, 303, 307) or not location:
            raise RuntimeError(f"the authorization URL answered {err.code} without a redirect") from None
        return str(location)


def mcp_oauth_store(config_dir: Path) -> list[dict[str, Any]]:
    """What the CLI keeps for remote MCP servers' OAuth in `<config_dir>/.credentials.json`
    (its `mcpOAuth` map), one dict per entry, sorted by key and URL: the entry's key with any hex suffix
    shown as `<hash>` (`r|<hash>`), the server name and URL it records, and whether it
    holds an access or refresh token. Token values are never read out."""
    path = config_dir / ".credentials.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    entries = data.get("mcpOAuth") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return []
    out = []
    for key, entry in entries.items():
        entry = entry if isinstance(entry, dict) else {}
        out.append(
            {
                "key": _HEX_SUFFIX.sub("<hash>", str(key)),
                "server": entry.get("serverName"),
                "url": entry.get("serverUrl"),
                "access_token": bool(entry.get("accessToken")),
                "refresh_token": bool(entry.get("refreshToken")),
            }
        )
    return sorted(out, key=lambda e: (e["key"], str(e["url"])))
