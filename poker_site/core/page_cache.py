"""Anonymous reads of the lobby, the tournament list and the HexaPro offers answered from a short-lived cache in front
of the in-flight gate (issue 25, "Capacity of the lobby").

These pages and their APIs are read far more than they change, and a burst of anonymous requests (a link shared, a
crawler, a reconnect storm) used to take the web process's :class:`~poker_site.core.busy.RequestAdmission` to its limit:
one process answered 21-65 of 1,000 concurrent requests and the rest 503. :class:`PageCache` is an ASGI layer placed
*before* that gate. An anonymous ``GET`` of one of :data:`CACHED_URL_NAMES` is answered from the event loop with the
bytes Django answered an anonymous visitor at most :setting:`PAGE_CACHE_SECONDS` ago: no thread, no database, no seat
in the gate. A miss goes through the gate to Django as before; while one request fills an entry, the others for the
same entry wait for it (at most :data:`FILL_WAIT_SECONDS`) instead of all rendering the same page.

What may be cached, and what never is:

- **Only anonymous requests.** A request with an ``Authorization`` header, or with any cookie besides the CSRF and
  language cookies (the session cookie of a logged-in player, the messages cookie, the device cookies of someone who
  logged out), goes to Django: a player's page (balance, their registrations, their queue) is never read from, nor
  written to, this cache. A logged-in player changes what they see themselves (registering, sitting down) through
  requests that bypass it, so they never see their own change late.
- **Only shareable answers.** An entry is kept only for a ``200`` whose ``Cache-Control`` is not ``private``,
  ``no-store`` or ``no-cache``, whose ``Vary`` names nothing but ``Cookie``, ``Accept`` and ``Accept-Language`` (the
  key covers each: the anonymous cookies, the ``Accept`` header and the language Django would choose), and which sets
  no cookie but the CSRF cookie. The key also holds the scheme, ``Host`` and ``X-Forwarded-Proto``/``-Host`` (the
  Content-Security-Policy names the page's socket origin).
- **No CSRF token is shared.** Every page's language form carries a CSRF token masked from the visitor's secret, and
  Django sets that secret's cookie. The stored bytes are cut at each token that unmasks to the filling request's
  secret; the secret's cookie is dropped. Each hit gets tokens masked from *its own* secret (the one its cookie holds,
  or a new one with a ``Set-Cookie`` made as Django's CSRF middleware makes it), exactly what Django would answer it.
  An answer still holding that secret, or a ``csrfmiddlewaretoken`` not recognised, is not kept.
- **At most PAGE_CACHE_SECONDS old** (2 s by default; 0 turns the cache off). Seat and registration counts change all
  the time (the average pot after every hand), so entries expire rather than being invalidated by each change; the
  pages' sockets bring live updates on top. :meth:`PageCache.invalidate` empties the process's entries at once. One
  exception: when the request refilling an expired entry is refused (a full gate or pool answers it 503), it and the
  requests waiting for it get the expired entry while it is younger than :data:`STALE_FACTOR` × PAGE_CACHE_SECONDS
  rather than a 503 (the busy answer is kept from the client).
- Hits skip the REST API's per-address throttle: it protects the database, and a hit costs none.

Entries live in the process's memory (a few per path: one per language, ``Accept`` and host), so each web process
fills its own once per PAGE_CACHE_SECONDS; the event loop alone touches them, so no lock is needed.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.http import HttpResponse, parse_cookie
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, CSRF_TOKEN_LENGTH, get_token
from django.urls import reverse
from django.utils.translation import get_language_from_request

from poker_site.core.busy import Application, Receive, Scope, Send

CACHED_URL_NAMES = (
    "home",  # the lobby page (LOB-01)
    "games-api:lobby",  # its table list
    "tournaments:index",  # the Full Tournament Lobby (LOB-02)
    "tournaments-api:list",
    "tournaments:hexapro",  # the HexaPro offers (HEX-02, HEX-03, HEX-20)
    "tournaments-api:hexapro-products",
)
"""The read-mostly pages and APIs answered from the cache (their paths without a query string)."""

FILL_WAIT_SECONDS = 10.0
"""How long a request waits for another one filling the same entry before going to Django itself."""

STALE_FACTOR = 2
"""When the request refilling an expired entry is answered 503 busy (the gate or the database pool is full), it and
the requests that waited for it get the expired entry while it is younger than this many times PAGE_CACHE_SECONDS."""

MAX_ENTRIES = 256
MAX_BODY_BYTES = 2 * 1024 * 1024
MAX_KEY_HEADER_BYTES = 512
SHAREABLE_VARY = frozenset({"cookie", "accept", "accept-language"})
UNSHAREABLE_CACHE_CONTROL = ("private", "no-store", "no-cache")
KEY_HEADERS = (b"host", b"accept", b"x-forwarded-proto", b"x-forwarded-host")
MASKED_TOKEN = re.compile(rb"(?<![A-Za-z0-9])[A-Za-z0-9]{" + str(CSRF_TOKEN_LENGTH).encode() + rb"}(?![A-Za-z0-9])")
FORM_TOKEN_FIELD = re.compile(rb'name="csrfmiddlewaretoken"\s+value="([^"]+)"')
CSRF_FORMAT = re.compile(f"[A-Za-z0-9]{{{CSRF_SECRET_LENGTH}}}|[A-Za-z0-9]{{{CSRF_TOKEN_LENGTH}}}")

Key = tuple[str, ...]


def anonymous_cookie_names() -> frozenset[str]:
    """The cookies an anonymous visitor may carry and still be served from the cache."""
    return frozenset({settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME})


def unmasked(token: str) -> str:
    """The secret a masked CSRF token (mask + cipher, ``CSRF_TOKEN_LENGTH`` characters) was made from, as Django's
    CSRF middleware unmasks it."""
    mask, cipher = token[:CSRF_SECRET_LENGTH], token[CSRF_SECRET_LENGTH:]
    return "".join(
        CSRF_ALLOWED_CHARS[CSRF_ALLOWED_CHARS.index(character) - CSRF_ALLOWED_CHARS.index(masking)]
        for character, masking in zip(cipher, mask, strict=True)
    )


def csrf_secret_of(cookie: str | None) -> str | None:
    """The CSRF secret Django's middleware reads from ``cookie`` (None: none, or one it would replace)."""
    if not cookie or not CSRF_FORMAT.fullmatch(cookie):
        return None
    return unmasked(cookie) if len(cookie) == CSRF_TOKEN_LENGTH else cookie


def masked_token(secret: str | None) -> tuple[str, str]:
    """A freshly masked token of ``secret`` (a new secret when None) and the secret, by Django's own ``get_token``."""
    visitor = SimpleNamespace(META={} if secret is None else {"CSRF_COOKIE": secret})
    token = get_token(visitor)  # type: ignore[arg-type]  # reads and writes META only
    return token, visitor.META["CSRF_COOKIE"]


def csrf_cookie_header(secret: str) -> bytes:
    """The ``Set-Cookie`` value Django's CSRF middleware sends with ``secret`` (``_set_csrf_cookie``)."""
    response = HttpResponse()
    response.set_cookie(
        settings.CSRF_COOKIE_NAME,
        secret,
        max_age=settings.CSRF_COOKIE_AGE,
        domain=settings.CSRF_COOKIE_DOMAIN,
        path=settings.CSRF_COOKIE_PATH,
        secure=settings.CSRF_COOKIE_SECURE,
        httponly=settings.CSRF_COOKIE_HTTPONLY,
        samesite=settings.CSRF_COOKIE_SAMESITE,
    )
    return response.cookies[settings.CSRF_COOKIE_NAME].OutputString().encode("latin-1")


@dataclass(frozen=True)
class CachedPage:
    """A stored answer: its status and headers (no ``Content-Length``, no ``Set-Cookie``) and its body cut at each CSRF
    token (``len(parts) - 1`` tokens)."""

    status: int
    headers: tuple[tuple[bytes, bytes], ...]
    parts: tuple[bytes, ...]
    stored_at: float

    @property
    def uses_csrf_token(self) -> bool:
        return len(self.parts) > 1

    def answer(self, request_csrf_cookie: str | None) -> tuple[list[tuple[bytes, bytes]], bytes]:
        """The headers and body for one request: fresh tokens of its own CSRF secret where the page has tokens."""
        headers = list(self.headers)
        if not self.uses_csrf_token:
            body = self.parts[0]
        else:
            token, secret = masked_token(csrf_secret_of(request_csrf_cookie))
            body = self.parts[0] + token.encode("ascii") + self.parts[1]
            for part in self.parts[2:]:
                token, _secret = masked_token(secret)
                body += token.encode("ascii") + part
            headers.append((b"set-cookie", csrf_cookie_header(secret)))
        headers.append((b"content-length", str(len(body)).encode("ascii")))
        headers.append((b"x-page-cache", b"hit"))
        return headers, body


def shareable_page(
    start: dict[str, Any] | None, body: bytes, request_csrf_cookie: str | None, stored_at: float
) -> CachedPage | None:
    """The answer Django gave an anonymous request, made fit for any anonymous request; None when it may not be
    shared (see the module's docstring)."""
    if start is None or start.get("status") != 200 or len(body) > MAX_BODY_BYTES:
        return None
    kept: list[tuple[bytes, bytes]] = []
    secrets = {secret for secret in [csrf_secret_of(request_csrf_cookie)] if secret}
    for raw_name, value in start.get("headers") or ():
        name = bytes(raw_name).lower()
        text = bytes(value).decode("latin-1")
        if name == b"set-cookie":
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(text)
            if list(cookie) != [settings.CSRF_COOKIE_NAME]:
                return None  # a session, message or device cookie: someone's own
            secret = csrf_secret_of(cookie[settings.CSRF_COOKIE_NAME].value)
            if secret is None:
                return None
            secrets.add(secret)
            continue
        if name == b"cache-control" and any(word in text.lower() for word in UNSHAREABLE_CACHE_CONTROL):
            return None
        if name == b"vary" and not {word.strip().lower() for word in text.split(",")} <= SHAREABLE_VARY:
            return None
        if name != b"content-length":
            kept.append((name, bytes(value)))
    if len(secrets) > 1:
        return None
    parts = [body]
    if secrets:
        (secret,) = secrets
        parts, start_of_part = [], 0
        for match in MASKED_TOKEN.finditer(body):
            if unmasked(match.group().decode("ascii")) == secret:
                parts.append(body[start_of_part : match.start()])
                start_of_part = match.end()
        parts.append(body[start_of_part:])
        if any(secret.encode("ascii") in part for part in parts):
            return None
    if _unrecognised_token(parts):
        return None
    return CachedPage(int(start["status"]), tuple(kept), tuple(parts), stored_at)


def _unrecognised_token(parts: Iterable[bytes]) -> bool:
    """Whether a form field ``csrfmiddlewaretoken`` still carries a value (one not cut out as the secret's token)."""
    return any(FORM_TOKEN_FIELD.search(part) for part in parts)


class Recorder:
    """Passes an answer on to the client and keeps a copy of its start and body. With ``withhold_busy``, a 503 busy
    answer is kept from the client (``withheld``): the caller answers instead."""

    def __init__(self, send: Send, *, withhold_busy: bool = False) -> None:
        self.send_onward = send
        self.withhold_busy = withhold_busy
        self.withheld = False
        self.start: dict[str, Any] | None = None
        self.chunks: list[bytes] = []
        self.size = 0
        self.complete = False

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.start = message
            self.withheld = self.withhold_busy and message.get("status") == 503
        if self.withheld:
            return
        if message["type"] == "http.response.body":
            chunk = bytes(message.get("body", b""))
            self.size += len(chunk)
            if self.size <= MAX_BODY_BYTES:
                self.chunks.append(chunk)
            if not message.get("more_body", False):
                self.complete = True
        await self.send_onward(message)

    @property
    def body(self) -> bytes | None:
        return b"".join(self.chunks) if self.complete and self.size <= MAX_BODY_BYTES else None


class PageCache:
    """ASGI middleware in front of ``application`` (the in-flight gate and Django): anonymous ``GET``s of ``paths``
    are answered from entries at most ``seconds`` old (0: off). See the module's docstring."""

    def __init__(
        self,
        application: Application,
        seconds: float,
        paths: Iterable[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.application = application
        self.seconds = seconds
        self.paths = frozenset(paths if paths is not None else (reverse(name) for name in CACHED_URL_NAMES))
        self.clock = clock
        self.entries: OrderedDict[Key, CachedPage] = OrderedDict()
        self.filling: dict[Key, asyncio.Future[CachedPage | None]] = {}
        self.hits = 0
        self.fills = 0

    def invalidate(self) -> None:
        """Forgets every entry: the next anonymous request of each goes to Django."""
        self.entries.clear()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self.key(scope) if scope["type"] == "http" and self.seconds > 0 else None
        if key is None:
            await self.application(scope, receive, send)
            return
        page = self.fresh(key)
        if page is None:
            pending = self.filling.get(key)
            if pending is None:
                await self.fill(key, scope, receive, send)
                return
            try:
                page = await asyncio.wait_for(asyncio.shield(pending), FILL_WAIT_SECONDS)
            except TimeoutError:
                page = None
            page = page or self.fresh(key, self.seconds * STALE_FACTOR)
            if page is None:  # not shareable, or not in time: Django answers this one itself
                await self.application(scope, receive, send)
                return
        await self.answer(page, scope, send)

    async def answer(self, page: CachedPage, scope: Scope, send: Send) -> None:
        self.hits += 1
        headers, body = page.answer(self.csrf_cookie(scope))
        await send({"type": "http.response.start", "status": page.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def fresh(self, key: Key, seconds: float | None = None) -> CachedPage | None:
        """The entry for ``key`` if it is younger than ``seconds`` (PAGE_CACHE_SECONDS by default)."""
        page = self.entries.get(key)
        if page is None or self.clock() - page.stored_at >= (self.seconds if seconds is None else seconds):
            return None
        return page

    async def fill(self, key: Key, scope: Scope, receive: Receive, send: Send) -> None:
        future: asyncio.Future[CachedPage | None] = asyncio.get_running_loop().create_future()
        self.filling[key] = future
        last = self.fresh(key, self.seconds * STALE_FACTOR)
        recorder = Recorder(send, withhold_busy=last is not None)
        page: CachedPage | None = None
        try:
            await self.application(scope, receive, recorder.send)
            if recorder.withheld and last is not None:  # refused: the last entry rather than a 503
                await self.answer(last, scope, send)
                return
            body = recorder.body
            if body is not None:
                page = shareable_page(recorder.start, body, self.csrf_cookie(scope), self.clock())
            if page is not None:
                self.fills += 1
                self.entries[key] = page
                self.entries.move_to_end(key)
                while len(self.entries) > MAX_ENTRIES:
                    self.entries.popitem(last=False)
        finally:
            del self.filling[key]
            future.set_result(page)

    @staticmethod
    def csrf_cookie(scope: Scope) -> str | None:
        return request_cookies(scope).get(settings.CSRF_COOKIE_NAME)

    def key(self, scope: Scope) -> Key | None:
        """The entry an anonymous ``GET`` of a cached path reads; None for any other request (it goes to Django)."""
        if scope.get("method") != "GET" or scope.get("query_string") or scope.get("path") not in self.paths:
            return None
        seen: dict[bytes, bytes] = {}
        for raw_name, value in scope.get("headers") or ():
            name = bytes(raw_name).lower()
            if name == b"authorization":
                return None
            if name in KEY_HEADERS or name == b"accept-language":
                if name in seen or len(value) > MAX_KEY_HEADER_BYTES:
                    return None  # a header sent twice is joined by Django: not worth reproducing
                seen[name] = bytes(value)
        cookies = request_cookies(scope)
        if not set(cookies) <= anonymous_cookie_names():
            return None
        visitor = SimpleNamespace(
            COOKIES=cookies, META={"HTTP_ACCEPT_LANGUAGE": seen.get(b"accept-language", b"").decode("latin-1")}
        )
        language = get_language_from_request(visitor)  # type: ignore[arg-type]  # reads COOKIES and META only
        return (
            str(scope.get("scheme", "http")),
            str(scope["path"]),
            language,
            *(seen.get(name, b"").decode("latin-1") for name in KEY_HEADERS),
        )


def request_cookies(scope: Scope) -> dict[str, str]:
    """The request's cookies as Django reads them (several ``Cookie`` headers joined)."""
    values = [bytes(value).decode("latin-1") for name, value in scope.get("headers") or () if name.lower() == b"cookie"]
    return parse_cookie("; ".join(values)) if values else {}
