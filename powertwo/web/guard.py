"""Request guards: the Host check (against DNS rebinding), cross-origin refusal and the body cap,
before any route runs."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from .common import MAX_BODY, BadRequest



class Guard:
    """ASGI middleware: Host check, cross-origin refusal and the body cap, before any route runs."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]):
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = hostname(headers.get("host", ""))
        if host not in self.hosts:
            await _refuse(send, 421, f"host {headers.get('host', '')!r} is not served here "
                                     f"(use {' or '.join(sorted(self.hosts))})")
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            if origin is not None and hostname(re.sub(r"^[a-z]+://", "", origin)) not in self.hosts:
                await _refuse(send, 403, f"cross-origin request from {origin} refused")
                return
            if headers.get("sec-fetch-site") == "cross-site":
                await _refuse(send, 403, "cross-site request refused")
                return
            kind = headers.get("content-type", "").split(";")[0].strip()
            if kind != "application/json":
                await _refuse(send, 415, "send the request body as application/json")
                return
        length = headers.get("content-length")
        if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY):
            await _refuse(send, 413, f"request body larger than {MAX_BODY} bytes")
            return
        seen = 0

        async def capped() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise BadRequest(f"request body larger than {MAX_BODY} bytes", 413)
            return message

        await self.app(scope, capped, send)


def hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})

