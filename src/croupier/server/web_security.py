"""What the card room tells a browser and checks of it: the page headers (a strict
Content-Security-Policy, no framing, no sniffing, no referrer) and the WebSocket
handshake's ``Origin``.

A page of another site may open a WebSocket to the card room from a player's browser
(the browser sends no token by itself, but a page could script one it stole; and a
spectator's socket needs none): the handshake is accepted only from the room's own
origin, its public URL's and any ``--allowed-origin``; another gets HTTP 403 before the
hello. A client that is no browser sends no ``Origin`` and is let through (a bot, the
benchmark, ``curl``): the check stops other sites' pages, not programs.

>>> allowed = allowed_origins("http://127.0.0.1:8000", ["https://poker.example/"])
>>> sorted(allowed)
['http://127.0.0.1:8000', 'https://poker.example']
>>> origin_allowed("https://poker.example", "10.0.0.5:8000", allowed)
True
>>> origin_allowed("http://evil.example", "127.0.0.1:8000", allowed)
False
>>> origin_allowed("http://127.0.0.1:9000", "127.0.0.1:9000", allowed)   # its own
True
>>> origin_allowed("http://rebound.example", "rebound.example", allowed)   # DNS rebinding
False

The room's "own" origin is the one the browser sent the handshake to (``Host``) only when
that host is an IP address or ``localhost``: a page of a domain whose name was made to
resolve to the room's address (DNS rebinding) would otherwise count as the room itself. A
room reached by a domain name names it with ``--public-url`` or ``--allowed-origin``.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from croupier.errors import CroupierError

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "MAX_BODY",
    "SECURITY_HEADERS",
    "SecurityHeaders",
    "allowed_origins",
    "origin_allowed",
    "origin_of",
]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The page may load scripts, styles and connections from the room itself only (no
inline script or style), and no other page may frame it."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every HTTP response (the page, its files and the API)."""

_RAW_HEADERS = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
_API_HEADERS = [*_RAW_HEADERS, (b"cache-control", b"no-store")]
"""An API answer (a token, a hand, the ledger) is kept by no cache."""
_DEFAULT_PORTS = {"http": 80, "https": 443}

MAX_BODY = 16 * 1024
"""The largest HTTP request body read (its declared ``Content-Length``): a table's
settings, a login, a password change are far smaller; anything larger is 413 at once."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response, and
    ``Cache-Control: no-store`` on the API's; a request declaring a body over
    :data:`MAX_BODY` bytes is answered 413 unread (a WebSocket passes through untouched).

    >>> SecurityHeaders(None).app is None
    True
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        extra = _API_HEADERS if str(scope.get("path", "")).startswith("/api/") else _RAW_HEADERS
        declared = dict(scope.get("headers", ())).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            await _refuse_body(send, extra)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refuse_body(send: Send, headers: list[tuple[bytes, bytes]]) -> None:
    body = f'{{"detail":"a request body is at most {MAX_BODY} bytes"}}'.encode()
    start_headers = [(b"content-type", b"application/json"), *headers]
    await send({"type": "http.response.start", "status": 413, "headers": start_headers})
    await send({"type": "http.response.body", "body": body})


def origin_of(url: str) -> str:
    """The origin of ``url``: scheme, host and a port that is not the scheme's default,
    lower-cased (what a browser sends as ``Origin``).

    >>> origin_of("HTTPS://Poker.Example:443/room/")
    'https://poker.example'
    >>> origin_of("ftp://x")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: 'ftp://x' is not an http(s) URL with a host (an origin like https://poker.example)
    """
    try:
        parts = urllib.parse.urlsplit(url.strip())
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        raise CroupierError(
            f"{url!r} is not an http(s) URL with a host (an origin like https://poker.example)"
        )
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}:{port}"
    return f"{scheme}://{host}"


def allowed_origins(public_url: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The origins a WebSocket may come from besides the room's own: its public URL's and
    ``extra`` (each an http(s) URL)."""
    return frozenset(origin_of(u) for u in (public_url, *extra))


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a handshake with ``Origin: origin`` to ``Host: host`` is let in: no origin
    (not a browser), one of ``allowed``, or the room's own (the host it was sent to, when
    that is an IP address or ``localhost``)."""
    if origin is None:
        return True
    seen = origin.strip().rstrip("/").lower()
    if seen in allowed:
        return True
    for scheme in ("http", "https") if host else ():
        try:
            own = origin_of(f"{scheme}://{host}")
        except CroupierError:  # a Host header that is no host
            return False
        if seen == own and _literal_host(own):
            return True
    return False


def _literal_host(origin: str) -> bool:
    """Whether ``origin``'s host is an IP address or ``localhost`` (no name a stranger's
    DNS could point at the room)."""
    name = urllib.parse.urlsplit(origin).hostname or ""
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
