"""Nobody sees the dealer's cards, the coming board or the rest of the deck of an Ultimate Texas Hold'em round in play,
staff of every role included, through the REST recall, the back office's round, hand and event pages (architecture
rule 4, UTH-03, UTH-34, GEN-07). Once the round is over, the roles that may recall it (support staff, compliance
reviewers and administrators: `uth.view_uthround` in docs/roles.md) see every card.

The compliance desk (/compliance/) has no UTH page: its replayer reads cash and tournament hands only, which
tests/tournaments/test_no_staff_sees_hidden_cards_of_a_hand_in_play_in_any_product.py covers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from games.engine.cards import format_cards, parse_cards
from games.uth.models import UthEvent, UthHand, UthRound, UthTable
from games.uth.services import uth_bet_place, uth_decide, uth_seat_take
from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.cards_on_pages import cards_shown
from tests.foundation.staff_roles import staff_member

from .conftest import Clock, current_round

pytestmark = pytest.mark.django_db

ROLES = [SUPPORT_STAFF, COMPLIANCE_REVIEWERS, ADMINISTRATORS]
TOP = "Ah 9h Kc Kd 2h 5h Jh 7c 3s"
PLAYER, DEALER, BOARD = parse_cards(TOP)[0:2], parse_cards(TOP)[2:4], parse_cards(TOP)[4:9]
BOARD_SHOWN = {"preflop": 0, "flop": 3, "river": 5}


def _hidden_cards(round_: UthRound, phase: str) -> list[str]:
    """The dealer's cards, the board not dealt yet, and every card below the board in the deck."""
    deck = [str(card) for card in round_.deck_cards]
    return [*deck[2:4], *deck[4 + BOARD_SHOWN[phase] :]]


def _round_in(phase: str, table: UthTable, clock: Clock, player: User) -> UthRound:
    uth_seat_take(player, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(player, table.pk, "ante", 1_000, now=clock.now)
    clock.rig(TOP)
    clock.tick(15)
    for passed in ("preflop", "flop"):
        if current_round(table).phase == phase:
            break
        assert current_round(table).phase == passed
        uth_decide(player, table.pk, "check", now=clock.now)
        clock.tick(10)
    round_ = current_round(table)
    assert round_.phase == phase
    return round_


def _staff_pages(client: Client, round_: UthRound) -> dict[str, str]:
    hand = UthHand.objects.get(round=round_)
    pages = {
        "api recall": f"/api/uth/rounds/{round_.game_number}/",
        "admin round list": f"/admin/uth/uthround/?q={round_.game_number}",
        "admin round": f"/admin/uth/uthround/{round_.pk}/change/",
        "admin hand": f"/admin/uth/uthhand/{hand.pk}/change/",
        "admin hand list": f"/admin/uth/uthhand/?q={round_.game_number}",
        "admin event list": f"/admin/uth/uthevent/?q={round_.game_number}",
        **{
            f"admin event {event.kind}": f"/admin/uth/uthevent/{event.pk}/change/"
            for event in UthEvent.objects.filter(round=round_)
        },
    }
    shown = {}
    for name, path in pages.items():
        response = client.get(path)
        assert response.status_code == 200, (name, response.status_code)
        shown[name] = response.content.decode()
    return shown


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("phase", ["preflop", "flop", "river"])
def test_uth_staff_of_every_role_see_no_hidden_card_of_a_round_in_play(
    role: str, phase: str, table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    round_ = _round_in(phase, table, clock, make_player("alice", 50_000))
    client = Client()
    client.force_login(staff_member(role))

    pages = _staff_pages(client, round_)

    hidden = _hidden_cards(round_, phase)
    for name, page in pages.items():
        assert round_.deck not in page, name
        assert cards_shown(hidden, page) == [], name
    recall = client.get(f"/api/uth/rounds/{round_.game_number}/").json()
    assert "deck" not in recall
    assert recall["round"]["dealer_cards"] == []
    assert recall["round"]["community"] == [str(card) for card in BOARD[: BOARD_SHOWN[phase]]]
    assert "Hidden until the round is over" in pages["admin round"]


@pytest.mark.parametrize("role", ROLES)
def test_uth_staff_of_every_role_recall_every_card_once_the_round_is_settled(
    role: str, table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    alice = make_player("alice", 50_000)
    _round_in("river", table, clock, alice)
    uth_decide(alice, table.pk, "play_1x", now=clock.now)
    clock.tick(10)
    round_ = current_round(table)
    assert round_.phase == "settled"
    client = Client()
    client.force_login(staff_member(role))

    recall = client.get(f"/api/uth/rounds/{round_.game_number}/").json()
    page = client.get(f"/admin/uth/uthround/{round_.pk}/change/").content.decode()

    assert recall["deck"] == format_cards(round_.deck_cards, symbols=False)
    assert recall["round"]["dealer_cards"] == [str(card) for card in DEALER]
    assert "player A♥ 9♥ · dealer K♣ K♦ · board 2♥ 5♥ J♥ 7♣ 3♠" in page
    assert round_.deck in page
    assert "Hidden until the round is over" not in page


def test_uth_a_cancelled_round_is_recalled_with_its_deck_by_staff(
    table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    """A cancelled round is over too: staff investigating the malfunction (UTH-36) see the deck it had."""
    from games.uth.services import uth_round_cancel

    round_ = _round_in("flop", table, clock, make_player("alice", 50_000))
    support = staff_member(SUPPORT_STAFF)
    uth_round_cancel(round_.pk, reason="shoe jammed", by=support)
    client = Client()
    client.force_login(support)

    recall = client.get(f"/api/uth/rounds/{round_.game_number}/").json()

    assert recall["round"]["phase"] == "cancelled"
    assert recall["deck"] == format_cards(UthRound.objects.get(pk=round_.pk).deck_cards, symbols=False)
