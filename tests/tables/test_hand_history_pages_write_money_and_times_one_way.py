"""The hand history list and the replayer write amounts and moments one way (GEN-07 / ENG-28 hand history, TRN-16
chips): money as everywhere else on the site (``€1,234.56``; ``1 234,56 €`` on an Estonian page, as
``Poker.money`` and the ``|money`` filter write it), tournament chips as whole numbers grouped the same way
(``12,500`` / ``12 500``, as ``Poker.chips`` writes them, never as euros), and every moment as the page's short date
and time followed by its time zone, the same on both pages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse

from games.models import Hand, HandPlayer, HandStatus
from tests.compliance.desk.support import played_hand, player
from tests.tournaments.support import open_tables, play, register_players, sit_and_go

pytestmark = pytest.mark.django_db

ENDED = datetime(2026, 11, 25, 14, 19, tzinfo=UTC)
NBSP = "\u00a0"


def _with_figures(hand: Hand, user: Any, *, pot: int, net: int) -> None:
    """Large figures on the hand (its pot and the player's result) so that the thousands separator shows."""
    Hand.objects.filter(pk=hand.pk).update(pot_total=pot, ended_at=ENDED)
    HandPlayer.objects.filter(hand=hand, user=user).update(end_stack=F("start_stack") + net)


def _browser(user: Any, language: str = "en") -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    browser.cookies["django_language"] = language
    browser.force_login(user)
    return browser


def _pages(browser: Client, hand: Hand) -> tuple[str, str]:
    listed = browser.get(reverse("games:hand_history")).content.decode()
    replayed = browser.get(reverse("games:hand_replay", args=[hand.pk])).content.decode()
    return listed, replayed


def test_a_cash_hand_is_in_euros_with_one_date_time_and_its_time_zone_on_both_pages() -> None:
    alice = player("alice")
    hand = played_hand([alice, player("bob")])
    _with_figures(hand, alice, pot=123_456, net=1_234)
    listed, replayed = _pages(_browser(alice), hand)
    assert "€1,234.56" in listed
    assert "+€12.34" in listed
    moment = "11/25/2026 2:19 p.m. UTC"
    assert moment in listed
    assert moment in replayed
    assert "€0.05 / €0.10" in replayed  # the blinds


def test_a_cash_hand_on_estonian_pages_is_written_the_estonian_way() -> None:
    alice = player("alice")
    hand = played_hand([alice, player("bob")])
    _with_figures(hand, alice, pot=123_456, net=-1_234)
    listed, replayed = _pages(_browser(alice, "et"), hand)
    assert f"1{NBSP}234,56{NBSP}€" in listed
    assert f"-12,34{NBSP}€" in listed
    moment = "25.11.2026 14:19 UTC"
    assert moment in listed
    assert moment in replayed
    assert f"0,05{NBSP}€ / 0,10{NBSP}€" in replayed


def test_a_tournament_hand_is_in_grouped_chips_never_in_euros() -> None:
    tournament = sit_and_go(seats=2)
    users = register_players(tournament, 2)
    (table,) = open_tables(tournament)
    play(tournament, until=lambda current: Hand.objects.filter(table=table, status=HandStatus.FINISHED).exists())
    hand = Hand.objects.filter(table=table, status=HandStatus.FINISHED).first()
    assert hand is not None
    mine = HandPlayer.objects.get(hand=hand, user=users[0])
    _with_figures(hand, mine.user, pot=12_500, net=1_234)
    listed, replayed = _pages(_browser(mine.user), hand)
    row = listed.split(f'data-hand-id="{hand.pk}"')[1].split("</tr>")[0]
    assert "12,500" in row
    assert "+1,234" in row
    assert "€" not in row
    blinds = f"{hand.config['small_blind']:,} / {hand.config['big_blind']:,}"
    assert blinds in replayed
    assert "11/25/2026 2:19 p.m. UTC" in replayed
    header = replayed.split("<h1>")[1].split('id="replayer"')[0]
    assert "€" not in header

    listed_et, _replayed_et = _pages(_browser(mine.user, "et"), hand)
    row_et = listed_et.split(f'data-hand-id="{hand.pk}"')[1].split("</tr>")[0]
    assert f"12{NBSP}500" in row_et
    assert f"+1{NBSP}234" in row_et
