"""An ASGI app served by uvicorn on 127.0.0.1, in a thread of its own.

The model double and the remote MCP server both need one: a free port on loopback only
(never another interface), a start that returns once it listens, and a stop that ends
open streams at once instead of on uvicorn's 0.1 s tick.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any, TypeVar

import uvicorn


class LoopbackServer:
    """Serves `app` on 127.0.0.1 from `start()` to `stop()`; `port` is set once started."""

    def __init__(self, app: Any, name: str) -> None:
        self.app, self.name = app, name
        self.port = 0
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None

    def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        self._sock, self.port = sock, sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            log_level="critical",
            lifespan="off",
            access_log=False,
            timeout_graceful_shutdown=0,
            loop="asyncio",
            http="h11",
        )
        started = threading.Event()
        self._server = _Server(config, started)
        self._thread = threading.Thread(
            target=self._server.run_until_stopped, args=(sock,), name=self.name, daemon=True
        )
        self._thread.start()
        if not started.wait(10):
            self.stop()
            raise RuntimeError(f"the {self.name} did not start within 10 s")

    def stop(self) -> None:
        if self._server is not None:
            self._server.halt()
        if self._thread is not None:
            self._thread.join(10)
        if self._sock is not None:
            self._sock.close()
        self._server = self._thread = self._sock = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()


_S = TypeVar("_S", bound="LoopbackService")


class LoopbackService:
    """What a server the harness runs on loopback shares: start, stop, `with`, its URL.

    A subclass gives its ASGI app (`_app()`) and a name for errors and thread listings.
    """

    service_name = "loopback server"
    port = 0
    _http: LoopbackServer | None = None

    def _app(self) -> Any:
        raise NotImplementedError

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self: _S) -> _S:
        self._http = LoopbackServer(self._app(), self.service_name)
        self._http.start()
        self.port = self._http.port
        return self

    def stop(self) -> None:
        if self._http is not None:
            self._http.stop()

    @property
    def running(self) -> bool:
        return self._http is not None and self._http.running

    def __enter__(self: _S) -> _S:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Server(uvicorn.Server):
    """uvicorn that says when it listens and stops at once when halted.

    uvicorn notices `should_exit` only on its 0.1 s tick; cancelling its task from the
    probe's thread ends it (and any stream still open) without waiting for the tick.
    """

    def __init__(self, config: uvicorn.Config, started: threading.Event) -> None:
        super().__init__(config)
        self._started = started
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None

    def run_until_stopped(self, sock: socket.socket) -> None:
        async def serve() -> None:
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
            try:
                await self.serve(sockets=[sock])
            except asyncio.CancelledError:
                pass

        asyncio.run(serve())

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        self._started.set()

    def halt(self) -> None:
        self.should_exit = self.force_exit = True
        if self._loop is not None and self._task is not None:
            try:
                self._loop.call_soon_threadsafe(self._task.cancel)
            except RuntimeError:  # the loop already ended
                pass

    def install_signal_handlers(self) -> None:  # uvicorn < 0.29
        pass
