"""What the read side returns to each viewer: the snapshot and the events since a sequence (architecture rule 4,
GEN-07). A player's hole cards never reach another viewer before showdown; the deck order reaches nobody."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import Hand
from games.runtime.engine_state import hand_engine_state
from games.services import table_events_since, table_snapshot
from tests.tables.support import act, acting_user, check_or_call_down, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand_in_play() -> tuple[Any, list[Any], Hand]:
    table = open_table("omaha", "PL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    return table, users, deal(table)


def hole_cards_by_user(hand: Hand) -> dict[int, list[str]]:
    state = hand_engine_state(hand)
    return {
        data["user"]: [str(card) for card in state.hole_cards(int(seat))] for seat, data in hand.participants.items()
    }


def test_each_player_sees_their_own_hole_cards_and_nobody_elses(hand_in_play: tuple[Any, list[Any], Hand]) -> None:
    table, users, hand = hand_in_play
    cards = hole_cards_by_user(hand)
    deck = hand.deck
    for viewer in [*users, None]:
        snapshot = table_snapshot(table, viewer)
        events = table_events_since(table, 0, viewer)
        text = json.dumps([snapshot, events])
        for owner, owned in cards.items():
            visible = viewer is not None and viewer.pk == owner
            for card in owned:
                assert (f'"{card}"' in text) is visible, (viewer, owner, card)
        if viewer is not None:
            assert snapshot["viewer"]["hole_cards"] == cards[viewer.pk]
        assert all("cards" not in event for event in events if event["type"] == "deck_recorded")
        assert json.dumps(deck[10:]) not in text


def test_other_players_get_a_redacted_copy_of_each_private_event(hand_in_play: tuple[Any, list[Any], Hand]) -> None:
    table, users, _hand = hand_in_play
    mine = table_events_since(table, 0, users[0])
    theirs = table_events_since(table, 0, users[1])
    spectator = table_events_since(table, 0, None)
    assert [event["sequence"] for event in mine] == [event["sequence"] for event in theirs]
    assert [event["sequence"] for event in spectator] == [event["sequence"] for event in mine]
    redacted = [event for event in theirs if event["type"] == "hole_cards_dealt" and "cards" not in event]
    assert len(redacted) == 2
    assert all(event["card_count"] == 4 for event in redacted)


def test_events_since_returns_only_what_is_newer(hand_in_play: tuple[Any, list[Any], Hand]) -> None:
    table, users, _hand = hand_in_play
    last = table_snapshot(table, users[0])["last_sequence"]
    assert table_events_since(table, last, users[0]) == []
    act(table, "fold")
    newer = table_events_since(table, last, users[0])
    assert newer
    assert newer[0]["sequence"] == last + 1
    assert len(table_events_since(table, 0, users[0], limit=3)) == 3


def test_the_snapshot_shows_the_table_and_the_legal_actions_of_the_player_to_act(
    hand_in_play: tuple[Any, list[Any], Hand],
) -> None:
    table, users, hand = hand_in_play
    to_act = acting_user(table)
    snapshot = table_snapshot(table, to_act)
    assert snapshot["table"]["stake"] == "PL10"
    assert (snapshot["table"]["small_blind"], snapshot["table"]["big_blind"]) == (5, 10)
    assert snapshot["hand"]["id"] == hand.pk
    assert snapshot["hand"]["pot_total"] == 15
    assert snapshot["hand"]["board"] == []
    assert snapshot["hand"]["acting_seat"] == snapshot["viewer"]["seat"]
    assert snapshot["hand"]["action_deadline"] is not None
    legal = snapshot["viewer"]["legal_actions"]
    assert legal["raise_range"] == [20, 35]  # ENG-17: pot-limit maximum raise to 0.35 at 0.05/0.10
    assert "fold" in legal["kinds"]
    occupied = [seat for seat in snapshot["seats"] if seat["occupied"]]
    assert sum(seat["stack"] + seat["contributed"] for seat in occupied) == 3000
    for other in users:
        if other != to_act:
            assert table_snapshot(table, other)["viewer"]["legal_actions"] is None
    assert table_snapshot(table, None)["viewer"]["seat"] is None


def test_cards_shown_at_showdown_become_public(hand_in_play: tuple[Any, list[Any], Hand]) -> None:
    table, _users, hand = hand_in_play
    cards = hole_cards_by_user(hand)
    check_or_call_down(table)
    spectator = table_events_since(table, 0, None)
    shown = {event["seat"]: event["cards"] for event in spectator if event["type"] == "hand_shown"}
    assert sorted(map(sorted, shown.values())) == sorted(map(sorted, cards.values()))
