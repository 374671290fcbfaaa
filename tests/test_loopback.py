"""The loopback server listens on 127.0.0.1 only, and is gone once stopped."""

import socket
import urllib.request

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from sdkprobe.harness.loopback import LoopbackServer


def _app() -> Starlette:
    return Starlette(routes=[Route("/", lambda request: PlainTextResponse("here"))])


def test_serves_on_loopback_then_stops():
    server = LoopbackServer(_app(), "test server")
    server.start()
    try:
        assert server.running and server.port
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=5) as response:
            assert response.read() == b"here"
        # bound to 127.0.0.1, not to every interface
        assert server._sock is not None and server._sock.getsockname()[0] == "127.0.0.1"
    finally:
        server.stop()
    assert not server.running
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", server.port)) != 0, "still listening after stop()"
