"""Issue 25, "Capacity of the lobby": anonymous reads of the lobby (LOB-01), the tournament list (LOB-02) and the
HexaPro offers (HEX-02, HEX-03) are answered from a cache at most PAGE_CACHE_SECONDS old, in front of the in-flight gate
(``poker_site.core.page_cache``). Every anonymous visitor gets the same answer, each with CSRF tokens of their own
secret; a logged-in player's page is never read from nor written to the cache; entries expire, and a full gate does
not refuse what the cache can answer.

The site's real ASGI stack runs here (Django on a test database), called directly: no timing is asserted (the burst's
figures are ``benchmarks/bench_burst.py``'s).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

import pytest
from django.core.asgi import get_asgi_application
from django.test import Client

from poker_site.core.busy import RequestAdmission
from poker_site.core.page_cache import PageCache, shareable_page, unmasked

LOBBY_PAGE = "/"
LOBBY_API = "/api/games/tables/"
READS = [
    LOBBY_PAGE,
    LOBBY_API,
    "/tournaments/",
    "/api/tournaments/",
    "/tournaments/hexapro/",
    "/api/tournaments/hexapro/",
]
FORM_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Counting:
    """Django, counting the requests that reach it; requests to ``/held/`` wait until released (they fill the gate)."""

    def __init__(self) -> None:
        self.django = get_asgi_application()
        self.reached: list[str] = []
        self.release = asyncio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.reached.append(scope["path"])
        if scope["path"] == "/held/":
            await self.release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"held"})
            return
        await self.django(scope, receive, send)


def site(seconds: float = 2.0, limit: int = 100) -> tuple[PageCache, Counting, Clock]:
    """The site's HTTP stack as poker_site/asgi.py builds it: the page cache in front of the gate in front of Django."""
    django = Counting()
    clock = Clock()
    return PageCache(RequestAdmission(django, limit), seconds, clock=clock), django, clock


class Answer:
    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.status = int(messages[0]["status"])
        self.headers = [(bytes(name).lower(), bytes(value)) for name, value in messages[0]["headers"]]
        self.body = b"".join(bytes(message.get("body", b"")) for message in messages[1:])

    def header(self, name: bytes) -> bytes | None:
        return next((value for key, value in self.headers if key == name), None)

    @property
    def from_cache(self) -> bool:
        return self.header(b"x-page-cache") == b"hit"

    @property
    def csrf_cookie(self) -> str | None:
        value = self.header(b"set-cookie")
        if value is None:
            return None
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(value.decode("latin-1"))
        return cookie["csrftoken"].value if "csrftoken" in cookie else None

    def tokens(self) -> list[str]:
        return [token.decode() for token in FORM_TOKEN.findall(self.body)]

    def without_tokens(self) -> bytes:
        return FORM_TOKEN.sub(b'name="csrfmiddlewaretoken" value="TOKEN"', self.body)


async def get(
    application: Any, path: str, cookies: dict[str, str] | None = None, headers: list[tuple[bytes, bytes]] | None = None
) -> Answer:
    sent: list[dict[str, Any]] = []
    received = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if not received.is_set():
            received.set()
            return {"type": "http.request", "body": b""}
        await asyncio.Event().wait()  # no disconnect before the answer
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    path, _, query = path.partition("?")
    request_headers = [(b"host", b"testserver"), (b"accept", b"*/*"), *(headers or [])]
    if cookies:
        request_headers.append((b"cookie", "; ".join(f"{name}={value}" for name, value in cookies.items()).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": request_headers,
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    await application(scope, receive, send)
    return Answer(sent)


def run(scenario: Callable[[], Any]) -> Any:
    return asyncio.run(scenario())


@pytest.fixture
def player(transactional_db: Any) -> tuple[Any, str]:
    """A player with €1,234.56 and the session cookie of their log-in."""
    from django.contrib.auth import get_user_model

    from wallet.services import deposit_through_provider

    user = get_user_model().objects.create_user("cachedalice", "cachedalice@example.com", "a-long-enough-passphrase-42")
    deposit_through_provider(user, 123456, "page-cache-test-deposit")
    client = Client()
    client.force_login(user)
    return user, client.cookies["sessionid"].value


def test_every_anonymous_visitor_gets_the_same_lobby_tournament_list_and_hexapro_offers(transactional_db: Any) -> None:
    """Issue 25 (LOB-01, LOB-02, HEX-02): the second anonymous read of each page and API is the first one's answer,
    from the cache (Django renders each once); twenty at once on an empty entry reach Django once."""

    async def scenario() -> None:
        cache, django, _clock = site()
        for path in READS:
            first = await get(cache, path)
            second = await get(cache, path)
            assert first.status == second.status == 200, path
            assert not first.from_cache, path
            assert second.from_cache, path
            assert second.without_tokens() == first.without_tokens(), path
            assert dict(second.headers)[b"content-type"] == dict(first.headers)[b"content-type"], path
        assert sorted(django.reached) == sorted(READS)

        cache.invalidate()
        answers = await asyncio.gather(*(get(cache, "/tournaments/") for _ in range(20)))
        assert [answer.status for answer in answers] == [200] * 20
        assert django.reached.count("/tournaments/") == 2, "the nineteen others waited for the one filling the entry"
        assert len({answer.without_tokens() for answer in answers}) == 1

    run(scenario)


def test_no_visitor_gets_another_visitors_csrf_token_or_cookie(transactional_db: Any) -> None:
    """Issue 25: the lobby page carries CSRF tokens (its language form). The cached bytes hold none of the first
    visitor's secret; every visitor gets tokens of their own secret (a new one with its cookie, or the one their cookie
    holds), and such a token passes Django's CSRF check."""

    async def scenario() -> tuple[Answer, str]:
        cache, _django, _clock = site()
        first = await get(cache, LOBBY_PAGE)
        first_secret = first.csrf_cookie
        assert first_secret
        assert first.tokens()
        assert {unmasked(token) for token in first.tokens()} == {first_secret}

        (entry,) = cache.entries.values()
        stored = b"".join(entry.parts) + b"".join(value for _name, value in entry.headers)
        assert first_secret.encode() not in stored
        assert not [token for token in first.tokens() if token.encode() in stored]
        assert all(name != b"set-cookie" for name, _value in entry.headers)

        second = await get(cache, LOBBY_PAGE)
        assert second.from_cache
        second_secret = second.csrf_cookie
        assert second_secret
        assert second_secret != first_secret
        assert {unmasked(token) for token in second.tokens()} == {second_secret}
        assert first_secret.encode() not in second.body

        own = "B" * 32
        third = await get(cache, LOBBY_PAGE, cookies={"csrftoken": own})
        assert third.from_cache
        assert third.csrf_cookie == own, "the cookie is sent again, as Django does when a page uses the token"
        assert {unmasked(token) for token in third.tokens()} == {own}
        return second, second_secret

    second, secret = run(scenario)
    browser = Client(enforce_csrf_checks=True)
    browser.cookies["csrftoken"] = secret
    changed = browser.post("/i18n/setlang/", {"language": "et", "next": "/", "csrfmiddlewaretoken": second.tokens()[0]})
    assert changed.status_code == 302


def test_a_logged_in_players_page_is_never_served_from_nor_stored_in_the_cache(player: tuple[Any, str]) -> None:
    """Issue 25: a request with a session cookie goes to Django (it shows the player's balance and name) whether or not
    an anonymous entry exists, and what it answered is never given to an anonymous visitor."""
    _user, session = player

    async def scenario() -> None:
        cache, django, _clock = site()
        own = await get(cache, LOBBY_PAGE, cookies={"sessionid": session})
        assert not own.from_cache
        assert b'data-cents="123456"' in own.body
        assert b"cachedalice" in own.body
        assert cache.entries == {}, "a logged-in answer is not stored"

        anonymous = await get(cache, LOBBY_PAGE)
        assert not anonymous.from_cache
        assert b"cachedalice" not in anonymous.body
        assert b"header-balance" not in anonymous.body
        assert (await get(cache, LOBBY_PAGE)).from_cache

        again = await get(cache, LOBBY_PAGE, cookies={"sessionid": session, "csrftoken": "C" * 32})
        assert not again.from_cache
        assert b'data-cents="123456"' in again.body
        tournaments = await get(cache, "/tournaments/", cookies={"sessionid": session})
        assert not tournaments.from_cache
        assert django.reached.count(LOBBY_PAGE) == 3

        for entry in cache.entries.values():
            assert b"cachedalice" not in b"".join(entry.parts)

    run(scenario)


def test_only_anonymous_gets_of_the_cached_paths_use_the_cache(transactional_db: Any) -> None:
    """Issue 25: another cookie (messages, a device cookie), an ``Authorization`` header, a query string or another
    path goes to Django; the language chosen by cookie or ``Accept-Language`` has an entry of its own."""

    async def scenario() -> None:
        cache, django, _clock = site()
        await get(cache, LOBBY_API)
        assert (await get(cache, LOBBY_API)).from_cache
        for cookies, headers in (
            ({"messages": "x"}, None),
            ({"device": "d" * 32}, None),
            (None, [(b"authorization", b"Basic eDp5")]),
        ):
            assert not (await get(cache, LOBBY_API, cookies=cookies, headers=headers)).from_cache
        assert not (await get(cache, LOBBY_API + "?game=holdem")).from_cache
        await get(cache, "/rules/")
        assert not (await get(cache, "/rules/")).from_cache
        assert django.reached.count(LOBBY_API) == 5

        english = await get(cache, LOBBY_PAGE)
        estonian = await get(cache, LOBBY_PAGE, headers=[(b"accept-language", b"et")])
        by_cookie = await get(cache, LOBBY_PAGE, cookies={"django_language": "et"})
        assert b'<html lang="en">' in english.body
        assert b'<html lang="et">' in estonian.body
        assert not estonian.from_cache
        assert b'<html lang="et">' in by_cookie.body
        assert by_cookie.from_cache

    run(scenario)


def test_an_entry_expires_after_page_cache_seconds_and_invalidation_empties_the_cache(transactional_db: Any) -> None:
    """Issue 25: the lobby shown to anonymous visitors is at most PAGE_CACHE_SECONDS old: a table opened meanwhile
    appears once the entry expired (or at once after ``invalidate``); 0 seconds turns the cache off."""
    from games.bots.setup import ensure_tables

    def table_names(answer: Answer) -> set[str]:
        import json

        return {row["name"] for row in json.loads(answer.body)}

    async def scenario() -> None:
        cache, django, clock = site(seconds=2.0)
        before = table_names(await get(cache, LOBBY_API))
        await asyncio.to_thread(ensure_tables, 1, prefix="Cached")
        clock.now += 1.9
        fresh = await get(cache, LOBBY_API)
        assert fresh.from_cache
        assert table_names(fresh) == before
        clock.now += 0.1
        expired = await get(cache, LOBBY_API)
        assert not expired.from_cache
        assert table_names(expired) - before == {"Cached NL10 #1"}

        await asyncio.to_thread(ensure_tables, 2, prefix="Cached")
        cache.invalidate()
        assert "Cached NL10 #2" in table_names(await get(cache, LOBBY_API))
        assert django.reached.count(LOBBY_API) == 3

        off, off_django, _clock = site(seconds=0)
        for _ in range(3):
            assert not (await get(off, LOBBY_API)).from_cache
        assert off_django.reached.count(LOBBY_API) == 3
        assert off.entries == {}

    run(scenario)


def test_a_full_gate_does_not_refuse_what_the_cache_answers(player: tuple[Any, str]) -> None:
    """Issue 25: the cache answers before WEB_MAX_CONCURRENT_REQUESTS' gate. With the gate full (one place, held), an
    anonymous read of a stored entry is answered 200; a logged-in player, another path or an entry not stored yet is
    answered 503 busy by the gate as before, and a 503 is never stored. Once the entry expired, the gate refuses its
    refill too: that request gets the expired entry up to twice PAGE_CACHE_SECONDS old, not later."""
    _user, session = player

    async def scenario() -> None:
        cache, django, clock = site(limit=1)
        await get(cache, LOBBY_PAGE)
        await get(cache, "/api/tournaments/hexapro/")
        held = asyncio.create_task(get(cache, "/held/"))
        await asyncio.sleep(0.05)
        assert django.reached[-1] == "/held/"

        page = await get(cache, LOBBY_PAGE)
        offers = await get(cache, "/api/tournaments/hexapro/")
        assert (page.status, offers.status) == (200, 200)
        assert page.from_cache
        assert offers.from_cache
        assert page.csrf_cookie
        assert page.tokens()

        assert (await get(cache, LOBBY_PAGE, cookies={"sessionid": session})).status == 503
        assert (await get(cache, "/rules/")).status == 503
        refused = await get(cache, "/tournaments/")
        assert refused.status == 503
        assert not refused.from_cache
        assert not any(key[1] == "/tournaments/" for key in cache.entries)

        clock.now += 2.0  # the entry expired: the gate refuses the refill, which gets the last entry instead
        gate = cache.application
        assert isinstance(gate, RequestAdmission)
        turned_away = gate.turned_away
        refill = await get(cache, LOBBY_PAGE)
        assert refill.status == 200
        assert refill.from_cache
        assert gate.turned_away == turned_away + 1, "the refill went to the gate first"
        clock.now += 2.0  # twice PAGE_CACHE_SECONDS: too old to be given even then
        assert (await get(cache, LOBBY_PAGE)).status == 503

        django.release.set()
        assert (await held).status == 200
        assert (await get(cache, "/tournaments/")).status == 200
        assert (await get(cache, LOBBY_PAGE)).status == 200

    run(scenario)


def test_the_site_answers_http_through_the_cache_in_front_of_the_gate() -> None:
    """Issue 25: poker_site/asgi.py puts the page cache before WEB_MAX_CONCURRENT_REQUESTS' gate (not behind it, where a
    full gate would refuse the burst), for the lobby, tournament list and HexaPro offers, pages and APIs."""
    from django.conf import settings

    from poker_site.asgi import application

    http = application.application_mapping["http"]
    assert isinstance(http, PageCache)
    assert isinstance(http.application, RequestAdmission)
    assert http.paths == set(READS)
    assert http.seconds == settings.PAGE_CACHE_SECONDS


def start(status: int = 200, headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    base = [(b"Content-Type", b"text/html; charset=utf-8"), (b"Vary", b"Cookie, Accept-Language")]
    return {"type": "http.response.start", "status": status, "headers": base + (headers or [])}


def test_only_shareable_answers_are_stored() -> None:
    """Issue 25: an answer is stored only when it is a 200 anyone may get: no session, message or device cookie, no
    private or no-store Cache-Control, no Vary beyond Cookie, Accept and Accept-Language, and no CSRF token of a secret
    other than the one Django set with it."""
    body = b"<p>lobby</p>"
    assert shareable_page(start(), body, None, 0.0) is not None
    refused = {
        "a 503": (start(503), body),
        "a redirect": (start(302), body),
        "a session cookie": (start(headers=[(b"Set-Cookie", b"sessionid=abc; Path=/")]), body),
        "a message cookie": (start(headers=[(b"Set-Cookie", b"messages=abc; Path=/")]), body),
        "private": (start(headers=[(b"Cache-Control", b"private, max-age=0")]), body),
        "no-store": (start(headers=[(b"Cache-Control", b"no-store")]), body),
        "Vary: Authorization": (start(headers=[(b"Vary", b"Authorization")]), body),
        "a token of an unknown secret": (start(), b'<input name="csrfmiddlewaretoken" value="' + b"x" * 64 + b'">'),
    }
    for reason, (response_start, response_body) in refused.items():
        assert shareable_page(response_start, response_body, None, 0.0) is None, reason

    secret = "S" * 32
    cookie = (b"Set-Cookie", b"csrftoken=" + secret.encode() + b"; Path=/; SameSite=Lax")
    assert shareable_page(start(headers=[cookie]), b"<p>" + secret.encode() + b"</p>", None, 0.0) is None
    own = "T" * 32
    leaked = b"<p>" + own.encode() + b"</p>"
    assert shareable_page(start(), leaked, own, 0.0) is None, "the filling request's own secret is not stored"
