"""Which pages may open the site's sockets: only its own origins, compared by scheme, host *and* port.

A browser sends the session cookie with a WebSocket handshake from any page, so the Origin header is what stops a page
elsewhere from playing with a player's session. Channels' ``AllowedHostsOriginValidator`` compares the origin's host
with ALLOWED_HOSTS only: ``http://127.0.0.1:9999`` (another program on the same machine) passed for a site on port
8000. :class:`SiteOriginValidator` accepts exactly the rule Django's CSRF check applies to a form post:

* the request's own origin: the scheme of the connection (``wss`` → ``https``, also behind a proxy that
  SECURE_PROXY_SSL_HEADER trusts) with the Host header (host and port), when that host is in ALLOWED_HOSTS;
* or one of CSRF_TRUSTED_ORIGINS (exact, or ``https://*.example.com`` for subdomains).

Default ports are made explicit before comparing (``https://example.com`` = ``https://example.com:443``). A handshake
without an Origin or a Host header is refused. A refused handshake is closed before any consumer runs, so nothing it
sends is obeyed.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}


class Origin(NamedTuple):
    scheme: str
    host: str
    port: int


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` with the port made explicit, lower-cased; None for anything else (``null``, paths)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.query:
        return None
    return Origin(scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[scheme])


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for header_name, value in scope.get("headers", ()):
        if header_name == name:
            return bytes(value).decode("latin-1")
    return None


def _is_secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        meta_name, secure_value = proxy_header
        header_name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        value = _header(scope, header_name)
        return value is not None and value.split(",")[0].strip() == secure_value
    return False


def _allowed_hosts() -> list[str]:
    # Django's own fallback (HttpRequest.get_host) while DEBUG is on and ALLOWED_HOSTS is empty.
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return list(settings.ALLOWED_HOSTS)


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the site as this handshake reached it, or None without an allowed Host header."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return parse_origin(f"{'https' if _is_secure(scope) else 'http'}://{host}")


def is_trusted_origin(origin: Origin) -> bool:
    """Whether ``origin`` is one of CSRF_TRUSTED_ORIGINS (a ``*.`` pattern covers the domain's subdomains)."""
    for pattern in settings.CSRF_TRUSTED_ORIGINS:
        if "://*." in pattern:
            scheme, _, domain_and_port = pattern.partition("://*")
            wildcard = parse_origin(f"{scheme}://{domain_and_port.lstrip('.')}")
            if (
                wildcard is not None
                and (origin.scheme, origin.port) == (wildcard.scheme, wildcard.port)
                and is_same_domain(origin.host, f".{wildcard.host}")
            ):
                return True
        elif parse_origin(pattern) == origin:
            return True
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether the handshake's Origin header is the site's own origin or a trusted one."""
    text = _header(scope, b"origin")
    origin = parse_origin(text) if text else None
    if origin is None:
        return False
    return origin == own_origin(scope) or is_trusted_origin(origin)


class SiteOriginValidator:
    """ASGI middleware for the WebSocket router: closes a handshake from a foreign origin (see the module docstring)
    before the application below sees it."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator guards WebSocket connections only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
