"""A ``turn`` event that starts a player's turn carries what that seat may do (public: it follows from the stacks and
bets everyone sees), exactly what the engine allows; it never carries hole cards."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import HandEvent
from games.runtime.engine_state import hand_engine_state
from tests.tables.support import START, act, current_hand, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def last_turn(table: Any) -> HandEvent:
    return HandEvent.objects.filter(table=table, kind="turn").order_by("-sequence").first()  # type: ignore[return-value]


def test_each_turn_names_the_acting_seats_legal_actions_as_the_engine_gives_them() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    deal(table, seed=3)
    for action, amount in (("raise_to", 30), ("call", None), ("call", None), ("check", None)):
        hand = current_hand(table)
        assert hand is not None
        turn = last_turn(table)
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        assert turn.audience == "public"
        assert turn.payload["seat"] == hand.acting_seat == legal.seat
        assert turn.payload["legal_actions"] == legal.to_dict()
        assert "cards" not in str(turn.payload)
        act(table, action, amount, now=START)
