"""Remote MCP servers that sign in: when the CLI asks for OAuth, how the host signs a server in,
and where tokens are kept."""

from __future__ import annotations

import os
from typing import Any, TypedDict, cast
from urllib.parse import parse_qs, urlparse

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import Conversation, Harness, RemoteMcpServer, mcp_oauth_store, sdk_class

_NAME = "r"
_RENAMED = "ext-r"
_SIGN_IN_PATHS = ("/authorize", "/register", "/token")
_BROWSERS = ("xdg-open", "open", "sensible-browser", "x-www-browser", "www-browser", "browser")


class ServerStatus(TypedDict):
    status: str | None
    error: str | None


class Answer(TypedDict):
    answer: str  # the control response's subtype
    error: str | None


class Authenticate(Answer):
    fields: list[str]  # the response's fields
    auth_url: str | bool  # its path on the server, else whether there was one
    redirect: str | None  # the callback it names, without its query


class SignIn(TypedDict, total=False):
    """_sign_in's steps (merged into QuerySeen, whose keys are all written step by step)."""

    authenticate: Authenticate  # always written by _sign_in
    callback: Answer  # only once authenticate gave the server's /authorize
    token_issued: bool


def _status(answer: Any, name: str) -> ServerStatus:
    """One server's status and error from a get_mcp_status() answer."""
    for s in (answer or {}).get("mcpServers") or []:
        if s.get("name") == name:
            return {"status": s.get("status"), "error": s.get("error")}
    return {"status": None, "error": None}


def _init_status(init: dict[str, Any], name: str) -> str | None:
    return next((s.get("status") for s in init.get("mcp_servers") or [] if s.get("name") == name), None)


def _store(h: Harness, urls: dict[str, str]) -> list[dict[str, Any]]:
    """The CLI's MCP OAuth entries in the session's own config dir, URLs named by server."""
    return [{**e, "url": urls.get(str(e["url"]), "other")} for e in mcp_oauth_store(h.config_dir)]


def _has_token(store: list[dict[str, Any]], server: str, url: str | None = None) -> bool:
    return any(e["server"] == server and e["access_token"] and (url is None or e["url"] == url) for e in store)


async def _sign_in(c: Conversation, server: RemoteMcpServer, name: str) -> SignIn:
    """Sign `name` in through the CLI's own control requests, the server approving at once:
    mcp_authenticate, then the callback URL the authorization endpoint redirects to handed
    back with mcp_oauth_callback_url. What each step answered (no URL values, no tokens)."""
    asked = await c.control({"subtype": "mcp_authenticate", "serverName": name})
    response = asked.get("response") or {}
    auth_url = str(response.get("authUrl") or "")
    redirect = urlparse((parse_qs(urlparse(auth_url).query).get("redirect_uri") or [""])[0])
    seen: SignIn = {
        "authenticate": {
            "answer": asked["subtype"],
            "error": asked.get("error"),
            "fields": sorted(response),
            "auth_url": urlparse(auth_url).path if auth_url.startswith(server.base_url + "/") else bool(auth_url),
            "redirect": f"{redirect.scheme}://{redirect.hostname}{redirect.path}" if redirect.hostname else None,
        }
    }
    if not seen["authenticate"]["auth_url"] == "/authorize":
        return seen
    callback = await server.sign_in(auth_url)
    answered = await c.control({"subtype": "mcp_oauth_callback_url", "serverName": name, "callbackUrl": callback})
    seen["callback"] = {"answer": answered["subtype"], "error": answered.get("error")}
    seen["token_issued"] = await server.wait_until(lambda s: s.issued >= 1, 20)
    return seen


def _browser_recorder(h: Harness) -> tuple[dict[str, str], Any]:
    """An env whose BROWSER and usual openers (first on PATH) only note that they ran."""
    folder = h.workdir("browser")
    calls = folder / "calls"
    for name in _BROWSERS:
        script = folder / name
        script.write_text(f'#!/bin/sh\necho "{name}" >> "{calls}"\n', encoding="utf-8")
        script.chmod(0o755)
    env = {"BROWSER": str(folder / "browser"), "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    return env, calls


# ---------------------------------------------------------------------------------------


class PassiveSeen(TypedDict):
    status: str | None  # the server's status in init
    browser_opened: bool
    control_requests_from_cli: list[str]  # their subtypes
    sign_in_requests: list[str]  # of _SIGN_IN_PATHS
    discovery: list[str]
    auth_tools_offered: list[str]
    error: str | None


@behaviour(
    id="mcp.oauth-needs-auth-passive",
    claim=(
        "A remote MCP server that answers 401 and advertises OAuth is reported needs-auth, and the CLI "
        "leaves it there on its own: it opens no browser, sends no elicitation, starts no sign-in and "
        "gives the model no tool to sign in with."
    ),
    summary="An OAuth server is left needs-auth: the CLI starts no sign-in on its own",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=("reports-needs-auth", "no-browser-opened", "no-elicitation", "no-sign-in-started", "no-sign-in-tool"),
    requires=("option:mcp_servers",),
    sdk_ref="claude_agent_sdk.types.McpHttpServerConfig",
)
async def oauth_needs_auth_passive(h: Harness) -> PassiveSeen:
    env, browser_calls = _browser_recorder(h)
    with RemoteMcpServer(_NAME, oauth=True) as server:
        run = await h.cli("hi", mcp_servers={_NAME: server.config()}, env=env, record_stdout=True, timeout=60)
    asked = sorted(
        {
            str((line.get("request") or {}).get("subtype"))
            for line in run.stdout
            if isinstance(line, dict) and line.get("type") == "control_request"
        }
    )
    return {
        "status": _init_status(run.init, _NAME),
        "browser_opened": browser_calls.exists(),
        "control_requests_from_cli": asked,
        "sign_in_requests": sorted({r.path for r in server.requests if r.path in _SIGN_IN_PATHS}),
        "discovery": server.discovery(),
        "auth_tools_offered": sorted(
            t for t in run.offered_tools if t.startswith(f"mcp__{_NAME}") or "auth" in t.lower()
        ),
        "error": run.error_line,
    }


@oauth_needs_auth_passive.decide
def _(seen: PassiveSeen) -> dict[str, Check]:
    return {
        "reports-needs-auth": check(
            seen["status"] == "needs-auth", f"init status of the server was {seen['status']!r}"
        ),
        "no-browser-opened": check(not seen["browser_opened"], "a browser command (BROWSER or an opener on PATH) ran"),
        "no-elicitation": check(
            "elicitation" not in seen["control_requests_from_cli"],
            f"the CLI sent control requests {seen['control_requests_from_cli']}",
        ),
        "no-sign-in-started": check(
            not seen["sign_in_requests"], f"the server was asked for {seen['sign_in_requests']} unprompted"
        ),
        "no-sign-in-tool": check(not seen["auth_tools_offered"], f"the model was offered {seen['auth_tools_offered']}"),
    }


oauth_needs_auth_passive.differs_on(
    {
        "status": "failed",
        "browser_opened": True,
        "control_requests_from_cli": ["elicitation"],
        "sign_in_requests": ["/authorize", "/register"],
        "discovery": [],
        "auth_tools_offered": ["mcp__r__authenticate"],
        "error": None,
    }
)


# ---------------------------------------------------------------------------------------


class _Started(TypedDict):
    python_auth_methods: list[str] | None  # ClaudeSDKClient's public names with "auth" in them (None: no such class)


class QuerySeen(_Started, total=False):
    """Written step by step; a key is absent when the probe stopped before its step (no token issued)."""

    before: str | None  # statuses: get_mcp_status() of the server
    authenticate: Authenticate
    callback: Answer
    token_issued: bool
    store_after_callback: list[dict[str, Any]]  # _store
    after_callback: str | None
    after_a_turn: str | None
    token_sent_before_reconnect: bool
    after_reconnect: str | None
    first_error: str | None
    new_session: str | None
    new_session_token_sent: bool
    clear: Answer
    store_after_clear: list[dict[str, Any]]
    second_error: str | None


@behaviour(
    id="mcp.oauth-query-methods-and-reconnect",
    claim=(
        "The CLI signs a remote MCP server in through control requests the Python SDK has no public method for "
        "(mcp_authenticate gives an authorization URL with a localhost callback, mcp_oauth_callback_url takes "
        "the callback and stores the token, mcp_clear_auth forgets it); the server stays needs-auth in that "
        "session until reconnect_mcp_server, and a new session connects with the stored token at once."
    ),
    summary="Control requests sign an MCP server in; it connects after a reconnect or new session",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "not-in-python-api",
        "authenticate-gives-auth-url",
        "callback-stores-token",
        "needs-auth-until-reconnect",
        "new-session-connects-at-once",
        "clear-auth-forgets-token",
    ),
    requires=(
        "option:mcp_servers",
        "api:ClaudeSDKClient.get_mcp_status",
        "api:ClaudeSDKClient.reconnect_mcp_server",
    ),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.reconnect_mcp_server",
)
async def oauth_query_methods_and_reconnect(h: Harness) -> QuerySeen:
    client = sdk_class("ClaudeSDKClient")
    seen: QuerySeen = {
        "python_auth_methods": None
        if client is None
        else sorted(n for n in dir(client) if not n.startswith("_") and "auth" in n.lower())
    }
    with RemoteMcpServer(_NAME, oauth=True) as server:
        urls = {server.url: "<server>"}
        config = {_NAME: server.config()}

        async def first(c: Conversation) -> None:
            seen["before"] = _status(await c.call("get_mcp_status"), _NAME)["status"]
            # SignIn's keys are QuerySeen's, of the same types (mypy takes no other TypedDict in update)
            seen.update(cast(QuerySeen, await _sign_in(c, server, _NAME)))
            seen["store_after_callback"] = _store(h, urls)
            if not seen.get("token_issued"):
                return
            # The claim: no connection with the new token until asked. Judged at two fences, not
            # after a wait: the CLI's state once it answered the callback, and again after one
            # whole model turn (in which a server that reconnected by itself would be connected),
            # and whether any request carried the token before reconnect_mcp_server was sent.
            seen["after_callback"] = _status(await c.call("get_mcp_status"), _NAME)["status"]
            await c.send("hi")
            await c.response()
            seen["after_a_turn"] = _status(await c.call("get_mcp_status"), _NAME)["status"]
            seen["token_sent_before_reconnect"] = any(r.accepted for r in server.mcp())
            await c.call("reconnect_mcp_server", _NAME)
            seen["after_reconnect"] = _status(await c.call("get_mcp_status"), _NAME)["status"]

        run = await h.converse(first, mcp_servers=config, timeout=90)
        seen["first_error"] = run.error_line
        if not seen.get("token_issued"):
            return seen
        mark = len(server.requests)

        async def second(c: Conversation) -> None:
            seen["new_session"] = _status(await c.call("get_mcp_status"), _NAME)["status"]
            seen["new_session_token_sent"] = any(r.accepted for r in server.mcp(mark))
            cleared = await c.control({"subtype": "mcp_clear_auth", "serverName": _NAME})
            seen["clear"] = {"answer": cleared["subtype"], "error": cleared.get("error")}
            seen["store_after_clear"] = _store(h, urls)

        run = await h.converse(second, mcp_servers=config, timeout=60)
        seen["second_error"] = run.error_line
    return seen


@oauth_query_methods_and_reconnect.decide
def _(seen: QuerySeen) -> dict[str, Check]:
    auth: Authenticate | dict[str, Any] = seen.get("authenticate") or {}
    callback: Answer | dict[str, Any] = seen.get("callback") or {}
    clear: Answer | dict[str, Any] = seen.get("clear") or {}
    signed_in = bool(seen.get("token_issued"))
    no_sign_in = undecidable(f"no sign-in happened: mcp_authenticate answered {auth.get('answer')} {auth.get('error')}")
    stored = _has_token(seen.get("store_after_callback") or [], _NAME, "<server>")
    return {
        "not-in-python-api": undecidable("the SDK under test has no ClaudeSDKClient class")
        if seen["python_auth_methods"] is None
        else check(not seen["python_auth_methods"], f"ClaudeSDKClient has {seen['python_auth_methods']}"),
        "authenticate-gives-auth-url": check(
            auth.get("answer") == "success"
            and auth.get("auth_url") == "/authorize"
            and str(auth.get("redirect")).startswith("http://localhost"),
            f"mcp_authenticate answered {auth.get('answer')} ({auth.get('error')}), auth URL {auth.get('auth_url')}, "
            f"redirect {auth.get('redirect')}",
        ),
        "callback-stores-token": check(
            signed_in and callback.get("answer") == "success" and stored,
            f"callback answered {seen.get('callback')}, token issued {signed_in}, stored entries "
            f"{seen.get('store_after_callback')}",
        )
        if auth.get("auth_url") == "/authorize"
        else no_sign_in,
        "needs-auth-until-reconnect": check(
            seen.get("after_callback") == "needs-auth"
            and seen.get("after_a_turn") == "needs-auth"
            and not seen.get("token_sent_before_reconnect")
            and seen.get("after_reconnect") == "connected",
            f"status before {seen.get('before')}, after the callback {seen.get('after_callback')}, after a turn "
            f"{seen.get('after_a_turn')} (token sent before reconnect_mcp_server: "
            f"{seen.get('token_sent_before_reconnect')}), after reconnect_mcp_server {seen.get('after_reconnect')}",
        )
        if signed_in
        else no_sign_in,
        "new-session-connects-at-once": check(
            seen.get("new_session") == "connected" and bool(seen.get("new_session_token_sent")),
            f"a new session's status was {seen.get('new_session')}, token sent {seen.get('new_session_token_sent')}",
        )
        if signed_in
        else no_sign_in,
        "clear-auth-forgets-token": check(
            clear.get("answer") == "success" and not _has_token(seen.get("store_after_clear") or [], _NAME),
            f"mcp_clear_auth answered {seen.get('clear')}, entries after it {seen.get('store_after_clear')}",
        )
        if signed_in
        else no_sign_in,
    }


_STORED = [{"key": "r|<hash>", "server": "r", "url": "<server>", "access_token": True, "refresh_token": True}]
oauth_query_methods_and_reconnect.differs_on(
    {
        "python_auth_methods": ["mcp_authenticate"],
        "before": "needs-auth",
        "authenticate": {"answer": "error", "error": "unsupported", "fields": [], "auth_url": False, "redirect": None},
        "store_after_callback": [],
        "first_error": None,
    }
)
oauth_query_methods_and_reconnect.differs_on(
    {
        "python_auth_methods": [],
        "before": "needs-auth",
        "authenticate": {
            "answer": "success",
            "error": None,
            "fields": ["authUrl"],
            "auth_url": "/authorize",
            "redirect": "http://localhost/callback",
        },
        "callback": {"answer": "success", "error": None},
        "token_issued": True,
        "token_sent_before_reconnect": True,
        "store_after_callback": [],
        "after_callback": "needs-auth",
        "after_a_turn": "connected",
        "after_reconnect": "connected",
        "new_session": "needs-auth",
        "new_session_token_sent": False,
        "clear": {"answer": "success", "error": None},
        "store_after_clear": _STORED,
    }
)


# ---------------------------------------------------------------------------------------


class TokensSeen(TypedDict, total=False):
    """Written step by step: only sign_in, store and sign_in_error when no token was signed in."""

    sign_in: SignIn
    sign_in_error: str | None
    store: list[dict[str, Any]]  # _store, URLs named
    statuses: list[dict[str, str | None]]  # per later session: _NAME's and _RENAMED's status
    errors: list[str | None]
    token_to_other_url: bool
    other_url_status: str | None


@behaviour(
    id="mcp.oauth-tokens-keyed-by-server-name",
    claim=(
        "The CLI keeps remote MCP servers' OAuth tokens in <CLAUDE_CONFIG_DIR>/.credentials.json under the "
        "server's name, and setting_sources does not keep them out: a session that names a server like a "
        "signed-in one sends that token, even to another URL, while a server under another name gets none."
    ),
    summary="OAuth tokens are kept by server name, so a same-named server gets the token",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "stored-in-config-dir",
        "key-is-server-name",
        "setting-sources-do-not-isolate",
        "same-name-other-url-gets-token",
        "other-name-gets-no-token",
    ),
    requires=(
        "option:mcp_servers",
        "option:setting_sources",
        "api:ClaudeSDKClient.get_mcp_status",
    ),
    sdk_ref="claude_agent_sdk.types.McpHttpServerConfig",
    pins={"setting-sources-do-not-isolate": ("option:setting_sources",)},
)
async def oauth_tokens_keyed_by_server_name(h: Harness) -> TokensSeen:
    seen: TokensSeen = {}
    with RemoteMcpServer(_NAME, oauth=True) as signed, RemoteMcpServer(_NAME, oauth=True) as other:
        urls = {signed.url: "<signed-in url>", other.url: "<other url>"}

        async def sign_in(c: Conversation) -> None:
            seen["sign_in"] = await _sign_in(c, signed, _NAME)
            seen["store"] = _store(h, urls)

        run = await h.converse(sign_in, mcp_servers={_NAME: signed.config()}, timeout=90)
        seen["sign_in_error"] = run.error_line
        if not (seen.get("sign_in") or {}).get("token_issued"):  # e.g. a CLI that never answered
            return seen
        # the other server takes the same tokens: whether the CLI sends one is what is seen
        for token in signed.tokens():
            other.accept(token)

        async def statuses(c: Conversation) -> None:
            answer = await c.call("get_mcp_status")
            seen.setdefault("statuses", []).append({n: _status(answer, n)["status"] for n in (_NAME, _RENAMED)})

        # same name and URL plus the same URL renamed, with no setting sources
        run = await h.converse(
            statuses, mcp_servers={_NAME: signed.config(), _RENAMED: signed.config()}, setting_sources=[], timeout=60
        )
        # the same name for another URL
        run2 = await h.converse(statuses, mcp_servers={_NAME: other.config()}, setting_sources=[], timeout=60)
        seen["errors"] = [run.error_line, run2.error_line]
        seen["token_to_other_url"] = any(r.accepted for r in other.mcp())
        seen["other_url_status"] = seen["statuses"][-1][_NAME]
    return seen


@oauth_tokens_keyed_by_server_name.decide
def _(seen: TokensSeen) -> dict[str, Check]:
    sign_in = seen.get("sign_in") or {}
    if not sign_in.get("token_issued"):
        why = undecidable(f"no token was signed in: {sign_in.get('authenticate') or seen.get('sign_in_error')}")
        return dict.fromkeys(
            (
                "stored-in-config-dir",
                "key-is-server-name",
                "setting-sources-do-not-isolate",
                "same-name-other-url-gets-token",
                "other-name-gets-no-token",
            ),
            why,
        )
    store = seen.get("store") or []
    mine = [e for e in store if e["server"] == _NAME and e["access_token"]]
    together = (seen.get("statuses") or [{}])[0]
    return {
        "stored-in-config-dir": check(bool(mine), f"entries in <config>/.credentials.json: {store}"),
        "key-is-server-name": check(
            bool(mine) and all(e["key"] == _NAME for e in mine),
            f"the token's key is {[e['key'] for e in mine]}, not the bare name {_NAME!r}",
        ),
        "setting-sources-do-not-isolate": check(
            together.get(_NAME) == "connected",
            f"with setting_sources=[] the signed-in server {_NAME!r} was {together.get(_NAME)}",
        ),
        "same-name-other-url-gets-token": check(
            bool(seen.get("token_to_other_url")),
            f"{_NAME!r} at another URL got no stored token (status {seen.get('other_url_status')})",
        ),
        "other-name-gets-no-token": check(
            together.get(_RENAMED) != "connected",
            f"{_RENAMED!r} at the signed-in URL was {together.get(_RENAMED)}",
        ),
    }


oauth_tokens_keyed_by_server_name.differs_on(
    {
        "sign_in": {"token_issued": True},
        "store": [{"key": "r|<hash>", "server": "x", "url": "other", "access_token": True, "refresh_token": True}],
        "sign_in_error": None,
        "statuses": [{_NAME: "needs-auth", _RENAMED: "connected"}, {_NAME: "needs-auth", _RENAMED: None}],
        "errors": [None, None],
        "token_to_other_url": False,
        "other_url_status": "needs-auth",
    }
)


# ---------------------------------------------------------------------------------------


class HeaderRun(ServerStatus):
    authorization_sent: list[str]  # the Authorization summaries of its MCP requests
    oauth_requests: list[str]  # discovery and OAuth paths it was asked for


HeaderSeen = TypedDict("HeaderSeen", {"with header": HeaderRun, "without": HeaderRun, "error": str | None})


@behaviour(
    id="mcp.authorization-header-disables-oauth",
    claim=(
        "A remote MCP server configured with an Authorization header gets no OAuth: when it answers that "
        "header with 401 the server is failed, with an error that names the header, where the same server "
        "without headers is needs-auth."
    ),
    summary="An Authorization header turns OAuth off: a 401 fails the server, not needs-auth",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "header-sent",
        "rejected-header-fails",
        "error-names-the-header",
        "no-oauth-attempted",
        "no-header-needs-auth",
    ),
    requires=("option:mcp_servers", "api:ClaudeSDKClient.get_mcp_status"),
    sdk_ref="claude_agent_sdk.types.McpHttpServerConfig",
)
async def authorization_header_disables_oauth(h: Harness) -> HeaderSeen:
    answer: dict[str, Any] = {}
    with RemoteMcpServer("with-header", oauth=True) as headed, RemoteMcpServer("plain", oauth=True) as plain:

        async def steps(c: Conversation) -> None:
            answer.update(await c.call("get_mcp_status"))

        run = await h.converse(
            steps,
            mcp_servers={
                "with-header": headed.config({"Authorization": "Bearer not-a-token-it-accepts"}),
                "plain": plain.config(),
            },
            timeout=60,
        )
        return {
            "with header": {
                **_status(answer, "with-header"),
                "authorization_sent": sorted({r.summary()["authorization"] for r in headed.mcp()}),
                "oauth_requests": sorted({r.path for r in headed.requests if r.is_discovery or r.is_oauth}),
            },
            "without": {
                **_status(answer, "plain"),
                "authorization_sent": sorted({r.summary()["authorization"] for r in plain.mcp()}),
                "oauth_requests": sorted({r.path for r in plain.requests if r.is_discovery or r.is_oauth}),
            },
            "error": run.error_line,
        }


@authorization_header_disables_oauth.decide
def _(seen: HeaderSeen) -> dict[str, Check]:
    headed, plain = seen["with header"], seen["without"]
    error = str(headed.get("error") or "")
    return {
        "header-sent": check(
            headed["authorization_sent"] == ["refused"],
            f"Authorization on its requests: {headed['authorization_sent']}",
        ),
        "rejected-header-fails": check(
            headed["status"] == "failed", f"with the header the status was {headed['status']!r}"
        ),
        "error-names-the-header": check(
            "authorization" in error.lower() and "header" in error.lower(), f"the error was {headed.get('error')!r}"
        ),
        "no-oauth-attempted": check(
            not headed["oauth_requests"], f"with the header the server was still asked for {headed['oauth_requests']}"
        ),
        "no-header-needs-auth": check(
            plain["status"] == "needs-auth", f"without headers the status was {plain['status']!r}"
        ),
    }


authorization_header_disables_oauth.differs_on(
    {
        "with header": {
            "status": "needs-auth",
            "error": None,
            "authorization_sent": ["none"],
            "oauth_requests": ["/.well-known/oauth-protected-resource/mcp"],
        },
        "without": {"status": "failed", "error": "HTTP 401", "authorization_sent": ["none"], "oauth_requests": []},
        "error": None,
    }
)
