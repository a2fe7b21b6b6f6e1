"""Helpers for the bounty tests (TRN-41..TRN-44): a bounty Sit & Go, a stacked deck that deals the hole cards and
board the test asks for, and a hand played at a tournament table with a chosen action per seat."""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model

from games.engine.cards import FULL_DECK, parse_cards
from games.engine.state import HandState
from games.models import Hand, HandEvent, HandStatus, Seat, Table
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act, hand_start
from tests.tournaments.support import START, open_tables, sit_and_go
from tournaments.models import Tournament, TournamentEntry
from tournaments.services import tournaments_advance_all


def bounty_sit_and_go(seats: int = 3, *, kind: str = "progressive", bounty: int = 1_000, **fields: Any) -> Tournament:
    return sit_and_go(seats, buy_in=1_000, fee=100, bounty_kind=kind, bounty=bounty, **fields)


class StackedDeck:
    """A shuffler that puts the deck in the order wanted: the hole cards one at a time clockwise from the first seat
    after the button (``order``), then the board; the rest of the deck after them."""

    def __init__(self, order: list[int], holes: dict[int, str], board: str) -> None:
        cards = []
        dealt = [_cards(holes[seat]) for seat in order]
        for round_ in range(2):
            cards += [hole[round_] for hole in dealt]
        cards += _cards(board)
        self.deck = cards + [card for card in FULL_DECK if card not in cards]
        self.fallback = random.Random(1)

    def shuffle(self, items: MutableSequence[Any], /) -> None:
        items[:] = self.deck

    def choice(self, items: Any) -> Any:
        return self.fallback.choice(items)


def _cards(text: str) -> list[Any]:
    return list(parse_cards(text))


def seat_of(table: Table, user: Any) -> int:
    return int(Seat.objects.get(table=table, user=user).number)


def user_at(table: Table, number: int) -> Any:
    return Seat.objects.get(table=table, number=number).user


Decide = Callable[[HandState, int], tuple[str, int | None]]


def play_hand(table: Table, holes: dict[int, str], board: str, decide: Decide, *, now: datetime, button: int) -> Hand:
    """Deal one hand at ``table`` with the button at ``button`` (the players' seats clockwise from the next seat),
    the given hole cards (by seat) and board, and play it by ``decide``; returns the finished hand."""
    return hand_play_out(table, deal_hand(table, holes, board, now=now, button=button), decide, now=now)


def deal_hand(table: Table, holes: dict[int, str], board: str, *, now: datetime, button: int) -> Hand:
    """Deal one hand at ``table`` as :func:`play_hand` does, and leave it in play."""
    occupied = sorted(holes)
    order = sorted(occupied, key=lambda seat: (seat - button - 1) % table.seat_count)
    hand = hand_start(table, now=now, shuffler=StackedDeck(order, holes, board))  # type: ignore[arg-type]
    assert hand is not None
    assert hand.config["button"] == button, hand.config["button"]
    return hand


def hand_play_out(table: Table, hand: Hand, decide: Decide, *, now: datetime) -> Hand:
    """Play a hand in play at ``table`` to its end by ``decide``; returns the finished hand."""
    hand = Hand.objects.get(pk=hand.pk)
    while hand.status == HandStatus.RUNNING and hand.acting_seat is not None:
        state = hand_engine_state(hand)
        action, amount = decide(state, hand.acting_seat)
        user = get_user_model().objects.get(pk=hand.participants[str(hand.acting_seat)]["user"])
        hand_act(table, user, action, amount, now=now)
        hand = Hand.objects.get(pk=hand.pk)
    return hand


def shove(*callers: int) -> Decide:
    """Everyone able goes all in or calls when they are among ``callers`` (or everyone, when none is named);
    the others check or fold."""

    def decide(state: HandState, seat: int) -> tuple[str, int | None]:
        legal = state.legal_actions()
        assert legal is not None
        kinds = set(legal.kinds)
        if callers and seat not in callers:
            return ("check", None) if "check" in kinds else ("fold", None)
        if "all_in" in kinds:
            return "all_in", None
        if "call" in kinds:
            return "call", None
        return "check", None

    return decide


def the_table(tournament: Tournament) -> Table:
    (table,) = open_tables(tournament)
    return table


def coordinate(now: datetime) -> None:
    tournaments_advance_all(now=now, randomness=random.Random(3))


def entry_of(tournament: Tournament, user: Any) -> TournamentEntry:
    return TournamentEntry.objects.get(tournament=tournament, user=user)


def bounty_events(table: Table) -> list[dict[str, Any]]:
    return [event.payload for event in HandEvent.objects.filter(table=table, kind="bounty_won").order_by("sequence")]


FIRST_HAND_AT = START + timedelta(seconds=20)
