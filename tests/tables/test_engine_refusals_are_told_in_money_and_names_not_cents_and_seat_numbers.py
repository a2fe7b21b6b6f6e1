"""An action the engine refuses is told to the player in money and names (QA report F, finding 5): the engine keeps its
own reasons ("minimum raise is to 8", "cannot raise to 1000000000000: seat 5 has only 400 in total"), and the table
runtime turns them into the ``illegal_action`` message a player reads, in euros at a cash table ("The smallest raise is
to €0.08"), in chips at a tournament table, with "you" for the player's own seat and a name for another's, and
translated (Estonian). Nothing changes when an action is refused (CASH-10, ENG-16, ENG-18)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games.engine.actions import IllegalAction, RaiseTo
from games.models import Seat
from games.runtime.engine_state import hand_engine_state
from games.runtime.refusals import engine_refusal
from games.services import ActionRefused, NotYourTurn, hand_act
from tests.tables.support import START, acting_user, current_hand, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def nl4_hand() -> Any:
    """Texas Hold'em NL4 (€0.02/€0.04), three players with €4.00 each, the first to act preflop facing the big blind."""
    table = open_table("holdem", "NL4")
    seat_players(table, [player(f"player{number}") for number in range(1, 4)], 400)
    deal(table)
    return table


def refusal(table: Any, user: Any, action: str, amount: int | None = None) -> str:
    with pytest.raises((ActionRefused, NotYourTurn)) as refused:
        hand_act(table, user, action, amount, now=START)
    return str(refused.value)


def test_the_smallest_raise_is_told_in_euros(nl4_hand: Any) -> None:
    assert refusal(nl4_hand, acting_user(nl4_hand), "raise_to", 5) == "The smallest raise is to €0.08."


def test_a_check_facing_the_big_blind_is_told_in_euros(nl4_hand: Any) -> None:
    assert refusal(nl4_hand, acting_user(nl4_hand), "check") == (
        "You cannot check facing a bet of €0.04: call €0.04, raise or fold."
    )


def test_a_raise_beyond_the_stack_names_the_players_own_chips_in_euros_not_their_seat(nl4_hand: Any) -> None:
    message = refusal(nl4_hand, acting_user(nl4_hand), "raise_to", 10**12)
    assert message == "You cannot raise to €10,000,000,000.00: you have only €4.00 in total."
    assert "seat" not in message


def test_acting_out_of_turn_names_the_player_to_act_not_their_seat_number(nl4_hand: Any) -> None:
    hand = current_hand(nl4_hand)
    assert hand is not None
    to_act = acting_user(nl4_hand)
    other = Seat.objects.exclude(user=to_act).filter(table=nl4_hand, user__isnull=False).first()
    assert other is not None
    before = hand_engine_state(hand).events

    message = refusal(nl4_hand, other.user, "fold")

    assert message == f"It is not your turn: {to_act.table_name} is to act."
    assert hand_engine_state(current_hand(nl4_hand)).events == before  # type: ignore[arg-type]


class Occupied:
    """A seat whose player has a table name."""

    def __init__(self, name: str) -> None:
        self.user = type("User", (), {"table_name": name})()


NAMED_SEATS = {3: Occupied("carol"), 5: Occupied("bob")}


def test_at_a_tournament_table_amounts_are_chips_and_other_seats_are_named() -> None:
    seats = NAMED_SEATS
    assert engine_refusal("minimum raise is to 80", seats=seats, chips=True) == "The smallest raise is to 80 chips."
    assert (
        engine_refusal("cannot raise to 5000: seat 3 has only 1500 in total", seats=seats, chips=True)
        == "You cannot raise to 5,000 chips: you have only 1,500 chips in total."
    )
    assert engine_refusal("it is seat 5's turn, not seat 3's", seats=seats, chips=True) == (
        "It is not your turn: bob is to act."
    )


def test_every_refusal_the_engine_gives_a_player_is_reworded(nl4_hand: Any) -> None:
    """Each reason the engine's betting rules give is known here: none reaches a player with cents or seat numbers."""
    state = hand_engine_state(current_hand(nl4_hand))  # type: ignore[arg-type]
    seat = state.actor
    assert seat is not None
    with pytest.raises(IllegalAction) as engine:
        state.verify(RaiseTo(seat, 5))
    assert str(engine.value) == "minimum raise is to 8"  # the engine keeps its own words
    for reason in (
        "minimum raise is to 8",
        "minimum bet is 8",
        "pot-limit maximum is 30",
        "cannot raise to 1000000000000: seat 5 has only 400 in total",
        "cannot bet to 900: seat 5 has only 400 in total",
        "cannot check facing a bet of 4; call 4, raise or fold",
        "there is already a bet of 4 in this round; raise instead",
        "cannot go all-in for 500: pot-limit maximum is 30",
        "cannot go all-in: your stack only covers a call; call 4 or fold",
        "cannot raise: every other player is all-in or covered, so there is nobody to raise against",
        "it is seat 5's turn, not seat 3's",
        "seat 5 must post the big blind first",
    ):
        worded = engine_refusal(reason, seats=NAMED_SEATS, chips=False)
        assert not re.search(r"\d", re.sub(r"€[\d,]+\.\d\d", "", worded)), worded  # amounts in euros only
        assert "seat" not in worded.lower(), worded
        assert worded[0].isupper(), worded
        assert worded.endswith("."), worded


def test_the_refusal_is_translated_into_estonian(nl4_hand: Any) -> None:
    with translation.override("et"):
        message = engine_refusal("minimum raise is to 8", seats={}, chips=False)
    assert "0,08\u00a0€" in message  # the site's Estonian money format
    assert not message.startswith("The smallest raise")
