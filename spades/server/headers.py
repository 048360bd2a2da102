"""Security headers on every HTTP answer (docs/server.md, "Protections").

The page (spades/web/static) runs under a strict Content-Security-Policy: its scripts and
styles come from the server's own origin only (no inline script or style attribute; styles
set from scripts through the CSSOM are allowed by CSP), it cannot be framed, and it talks
only to its own origin (HTTP and the WebSocket). The OpenAPI page at /api/docs loads Swagger
UI from its CDN with an inline script, so that one path gets a policy allowing those.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; media-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: "
            "https://fastapi.tiangolo.com; connect-src 'self'; object-src 'none'; "
            "base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/api/docs", "/api/docs/oauth2-redirect")

HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware adding the headers above to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = DOCS_CSP if scope.get("path") in DOCS_PATHS else CSP

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in _OURS]
                headers += HEADERS
                headers.append((b"content-security-policy", csp.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


_OURS = {k for k, _ in HEADERS} | {b"content-security-policy"}
