"""LOB-02, LOB-03, TRN-10, TRN-35: the tournament lobby lists "My tournaments" (the player's registrations and
running entries), offers filters and sorting over rows that carry their game, type, price and status, and shows the
prize a Sit & Go pays once full instead of the €0.00 of its entrants so far; a tournament's page asks to confirm the
buy-in, fee and bounty before money is taken, offers Unregister only while unregistering is still accepted, and no
page shows a requirement ID or an internal word to players."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.tournaments.support import player, scheduled, sit_and_go
from tournaments.services import tournament_register

pytestmark = pytest.mark.django_db

REQUIREMENT_ID = re.compile(r"\b(TRN|CASH|HEX|LOB|ENG|FEE|CXL|FRD|UTH|AMB|TB|RAKE)-\d+")


def visible_text(html: str) -> str:
    """The page's text as a player reads it: no scripts, styles, tags or attributes."""
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    return re.sub(r"(?s)<[^>]+>", " ", html)


def logged_in(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_the_lobby_lists_my_tournaments_filters_and_the_sit_and_go_prize_when_full(in_english: None) -> None:
    later = scheduled(timezone.now() + timedelta(hours=2), bounty_kind="regular", bounty=500)
    empty = sit_and_go(2, buy_in=1_000, fee=100)
    alice = player()
    tournament_register(alice, later)

    page = logged_in(alice).get("/tournaments/").content.decode()
    mine = page[page.index('id="my-tournaments"') : page.index('id="tournament-filters"')]
    assert f'href="/tournaments/{later.pk}/"' in mine
    assert 'id="tournament-filters"' in page
    row = re.search(rf'<tr data-tournament-id="{later.pk}"[^>]*>', page)
    assert row is not None
    assert 'data-types="scheduled mtt bounty"' in row.group(0)
    assert 'data-price="1600"' in row.group(0)  # buy-in 1,000 + fee 100 + bounty 500
    assert 'data-status="open"' in row.group(0)
    sit_and_go_row = page[page.index(f'<tr data-tournament-id="{empty.pk}"') :]
    prize = re.search(r'data-testid="prize-when-full">([^<]+)<', sit_and_go_row)
    assert prize is not None
    assert prize.group(1) == "€20.00"  # two seats of €10.00, not the €0.00 of nobody registered
    assert not REQUIREMENT_ID.search(visible_text(page))


def test_the_sit_and_go_page_shows_its_prizes_when_full(in_english: None) -> None:
    empty = sit_and_go(3, buy_in=1_000, fee=100)
    page = Client().get(f"/tournaments/{empty.pk}/").content.decode()
    assert "Prize pool: €30.00" in page
    assert "€0.00" not in page


def test_registering_asks_to_confirm_the_buy_in_fee_and_bounty_first(in_english: None) -> None:
    tournament = scheduled(timezone.now() + timedelta(hours=2), bounty_kind="regular", bounty=500)
    page = logged_in(player()).get(f"/tournaments/{tournament.pk}/").content.decode()
    form = re.search(r'<form method="post" action="[^"]+" data-confirm[^>]*>', page)
    assert form is not None
    assert 'data-buy-in="1000" data-fee="100" data-bounty="500"' in form.group(0)
    assert 'id="register-confirm"' in page
    assert not REQUIREMENT_ID.search(visible_text(page))


def test_unregister_is_offered_only_until_its_deadline(in_english: None) -> None:
    soon = scheduled(timezone.now() + timedelta(minutes=3), unregistration_closes_minutes=5)
    later = scheduled(timezone.now() + timedelta(hours=2), unregistration_closes_minutes=5)
    alice = player()
    for tournament in (soon, later):
        tournament_register(alice, tournament)
    client = logged_in(alice)
    assert 'id="unregister"' not in client.get(f"/tournaments/{soon.pk}/").content.decode()
    assert 'id="unregister"' in client.get(f"/tournaments/{later.pk}/").content.decode()
