"""The workbench served from a background thread on a free loopback port (for the browser
tests, the load test and the latency bench)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Callable, Iterator

from starlette.types import ASGIApp


@contextlib.contextmanager
def serving(app: ASGIApp, start_limit: float = 60.0) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 and a free port; yields its base URL and stops it
    (and the app's workers) on leaving."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_limit
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the workbench did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def warmed(meta: Callable[[], dict], limit: float = 900.0) -> None:
    """Wait until ``meta()`` (the answer of ``GET /api/meta``) lists no kernel still warming: every
    compiled kernel is in numba's cache and loaded in every worker (the first run after an install
    compiles them: minutes on a busy machine)."""
    deadline = time.monotonic() + limit
    while meta()["warming"]:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the kernels were not ready within {limit:g} s")
        time.sleep(0.5)
