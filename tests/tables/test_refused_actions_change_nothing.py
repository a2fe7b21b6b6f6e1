"""Out-of-turn, foreign and illegal actions get a clear error and change nothing (guide: bad input of any kind)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Hand, HandEvent, Seat
from games.services import ActionRefused, NotSeated, NotYourTurn, hand_act
from tests.tables.support import (
    START,
    acting_user,
    current_hand,
    deal,
    fold_to_the_end,
    money_in_table_accounts,
    open_table,
    player,
    seat_players,
)

pytestmark = pytest.mark.django_db


def footprint(table: Any) -> tuple[Any, ...]:
    hand = current_hand(table)
    return (
        HandEvent.objects.filter(table=table).count(),
        hand.version if hand else None,
        hand.acting_seat if hand else None,
        hand.action_deadline if hand else None,
        money_in_table_accounts(),
        tuple(Seat.objects.filter(table=table).order_by("number").values_list("version", "timebank_milliseconds")),
    )


@pytest.fixture
def table_in_play() -> Any:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1000)
    deal(table)
    return table


def test_acting_out_of_turn_is_refused(table_in_play: Any) -> None:
    before = footprint(table_in_play)
    waiting = next(
        seat.user for seat in Seat.objects.filter(table=table_in_play) if seat.user != acting_user(table_in_play)
    )
    with pytest.raises(NotYourTurn, match="not your turn"):
        hand_act(table_in_play, waiting, "fold", now=START)
    assert footprint(table_in_play) == before


def test_a_player_without_a_seat_here_cannot_act(table_in_play: Any) -> None:
    other_table = open_table("holdem", "NL10")
    outsider = player()
    seat_players(other_table, [outsider], 1000)
    before = footprint(table_in_play)
    with pytest.raises(NotSeated):
        hand_act(table_in_play, outsider, "fold", now=START)
    assert footprint(table_in_play) == before


def test_a_new_player_not_dealt_in_cannot_act(table_in_play: Any) -> None:
    newcomer = player()
    from games.services import seat_take

    seat_take(newcomer, table_in_play, 1000, seat_number=5, now=START)
    before = footprint(table_in_play)
    with pytest.raises(NotYourTurn, match="not dealt into"):
        hand_act(table_in_play, newcomer, "call", now=START)
    assert footprint(table_in_play) == before


@pytest.mark.parametrize(
    ("action", "amount", "reason"),
    [
        ("raise_to", 15, "The smallest raise is to €0.20"),  # in money, not cents (QA report F, finding 5)
        ("raise_to", 5000, "you have only €10.00 in total"),
        ("bet", 30, "already a bet"),  # preflop the big blind is the bet: raise, not bet
        ("check", None, "cannot check facing a bet"),
        ("raise_to", -20, "positive"),
        ("raise_to", 0, "positive"),
        ("raise_to", 10**30, "too large"),
        ("raise_to", "40", "whole number"),
        ("raise_to", 40.0, "whole number"),
        ("raise_to", True, "whole number"),
        ("raise_to", None, "needs an amount"),
        ("fold", 10, "takes no amount"),
        ("post_blind", None, "Unknown action"),
        ("timeout", None, "Unknown action"),
        ("shove", None, "Unknown action"),
        (None, None, "Unknown action"),
        (["fold"], None, "Unknown action"),
    ],
)
def test_illegal_actions_and_amounts_are_refused_with_the_reason(
    table_in_play: Any, action: Any, amount: Any, reason: str
) -> None:
    before = footprint(table_in_play)
    with pytest.raises(ActionRefused, match=reason):
        hand_act(table_in_play, acting_user(table_in_play), action, amount, now=START)
    assert footprint(table_in_play) == before


def test_an_action_meant_for_a_hand_that_is_over_is_refused(table_in_play: Any) -> None:
    old = current_hand(table_in_play)
    assert old is not None
    fold_to_the_end(table_in_play)
    deal(table_in_play)
    before = footprint(table_in_play)
    with pytest.raises(NotYourTurn, match="over"):
        hand_act(table_in_play, acting_user(table_in_play), "fold", hand_id=old.pk, now=START)
    assert footprint(table_in_play) == before


def test_a_socket_action_naming_a_hand_that_is_over_is_refused_and_changes_nothing(table_in_play: Any) -> None:
    """The ``act`` frame's ``hand_id`` reaches the service: a delayed action for the last hand does not land on the
    player's turn in this one."""
    from games.runtime import commands
    from games.runtime.protocol import TABLE_MESSAGES, parse_client_message

    old = current_hand(table_in_play)
    assert old is not None
    fold_to_the_end(table_in_play)
    deal(table_in_play)
    before = footprint(table_in_play)
    frame = parse_client_message(f'{{"type": "act", "action": "fold", "hand_id": {old.pk}}}', TABLE_MESSAGES)
    with pytest.raises(commands.CommandRefused) as refused:
        commands.execute(acting_user(table_in_play), table_in_play, frame)
    assert refused.value.code == "not_your_turn"
    assert footprint(table_in_play) == before


def test_acting_when_no_hand_is_in_play_is_refused() -> None:
    table = open_table("holdem", "NL10")
    user = player()
    seat_players(table, [user], 1000)
    with pytest.raises(NotYourTurn, match="No hand"):
        hand_act(table, user, "check", now=START)
    assert not Hand.objects.filter(table=table).exists()


def test_a_legal_action_after_refusals_still_works(table_in_play: Any) -> None:
    user = acting_user(table_in_play)
    with pytest.raises(ActionRefused):
        hand_act(table_in_play, user, "raise_to", 15, now=START)
    hand_act(table_in_play, user, "raise_to", 20, now=START)
    hand = current_hand(table_in_play)
    assert hand is not None
    assert HandEvent.objects.filter(hand=hand, kind="action_taken").count() == 1
