"""Running the emulator: blocking (`run`, the CLI) or in a background thread (`EmulatorServer`).

`EmulatorServer` binds an ephemeral port on 127.0.0.1 so parallel test sessions never collide,
and talks to the live app through its admin endpoints only via the shared `EmulatorState`.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from types import TracebackType

import uvicorn

from adk_memory.testing.emulator.app import EmulatorState, create_app
from adk_memory.testing.emulator.faults import FaultConfig, FaultInjector


def bind(host: str, port: int) -> socket.socket:
    """A listening socket whose connections send small responses without delay."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted sockets inherit this: without it every small response waits ~40 ms on Nagle's
    # algorithm meeting the client's delayed ACK, which would dwarf injected latencies.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    return sock


def run(
    host: str = "127.0.0.1",
    port: int = 8765,
    data_path: str | Path | None = None,
    *,
    faults: FaultConfig | None = None,
    state: EmulatorState | None = None,
) -> None:
    """Serves the emulator until interrupted."""
    state = state or EmulatorState(
        faults=FaultInjector(faults), data_path=Path(data_path) if data_path else None
    )
    sock = bind(host, port)
    config = uvicorn.Config(create_app(state), log_level="warning", access_log=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


class EmulatorServer:
    """The emulator in a daemon thread, for tests and benchmarks.

    Usage:
        with EmulatorServer() as server:
            os.environ["GOOGLE_VERTEX_BASE_URL"] = server.base_url
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        data_path: str | Path | None = None,
        faults: FaultConfig | None = None,
        state: EmulatorState | None = None,
        startup_timeout: float = 20.0,
    ) -> None:
        self.state = state or EmulatorState(
            faults=FaultInjector(faults), data_path=Path(data_path) if data_path else None
        )
        self._host = host
        self._port = port
        self._startup_timeout = startup_timeout
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None

    @property
    def port(self) -> int:
        if self._socket is None:
            raise RuntimeError("emulator is not running")
        port: int = self._socket.getsockname()[1]
        return port

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    def set_faults(self, config: FaultConfig) -> None:
        """Switches the injected faults of the running server."""
        self.state.faults.configure(config)

    def start(self) -> EmulatorServer:
        # Bind here, not in uvicorn, so the port is known before the thread starts.
        sock = bind(self._host, self._port)
        self._socket = sock
        config = uvicorn.Config(
            create_app(self.state), log_level="warning", lifespan="on", access_log=False
        )
        server = uvicorn.Server(config)
        self._server = server
        self._thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name="adk-memory-emulator", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + self._startup_timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("emulator did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._socket is not None:
            self._socket.close()
        self._server = None
        self._thread = None

    def __enter__(self) -> EmulatorServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
