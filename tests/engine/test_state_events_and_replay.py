"""The event log (GEN-07, ENG-28): numbered, JSON-serialisable, private hole cards, exact replay, determinism."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.actions import Call, Check, Fold, RaiseTo
from games.engine.cards import FULL_DECK
from games.engine.config import HandConfig, Variant
from games.engine.events import (
    AUDIT,
    PUBLIC,
    SEAT,
    DeckRecorded,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    event_from_dict,
    event_to_dict,
    event_view,
    is_visible_to,
)
from games.engine.simulation import play_random_hand
from games.engine.state import HandState, ReplayMismatch, replay
from tests.engine.hand_helpers import config


def six_max(variant: Variant = Variant.NO_LIMIT_HOLDEM) -> HandConfig:
    return config(
        {seat: 1000 + 37 * seat for seat in range(1, 7)},
        button=6,
        small_blind_seat=1,
        big_blind_seat=2,
        blinds=(5, 10),
        ante=1,
        variant=variant,
    )


def test_events_are_numbered_from_one_without_gaps_and_the_hand_starts_with_its_configuration_and_deck() -> None:
    state = play_random_hand(six_max(), random.Random(5))
    events = state.events
    assert [event.sequence for event in events] == list(range(1, len(events) + 1))
    assert isinstance(events[0], HandStarted)
    assert events[0].config == six_max()
    assert isinstance(events[1], DeckRecorded)
    assert events[1].cards == state.deck
    assert isinstance(events[-1], HandEnded)
    assert dict(events[-1].stacks) == state.stacks


@pytest.mark.parametrize("variant", list(Variant))
def test_every_event_survives_a_json_round_trip(variant: Variant) -> None:
    for seed in range(20):
        state = play_random_hand(six_max(variant), random.Random(seed))
        for event in state.events:
            text = json.dumps(event_to_dict(event))
            assert event_from_dict(json.loads(text)) == event


def test_replaying_the_log_rebuilds_the_same_state() -> None:
    for seed in range(30):
        state = play_random_hand(six_max(), random.Random(seed))
        stored = [event_from_dict(json.loads(json.dumps(event_to_dict(event)))) for event in state.events]
        rebuilt = replay(six_max(), stored)
        assert rebuilt.events == state.events
        assert rebuilt.stacks == state.stacks
        assert rebuilt.result == state.result


def test_a_hand_in_progress_replays_to_the_same_point() -> None:
    hand_config = six_max()
    state = HandState.create(hand_config, shuffler=random.Random(1))
    state.apply(RaiseTo(3, 30))
    state.apply(Call(4))
    rebuilt = replay(None, state.events)
    assert rebuilt.actor == state.actor == 5
    assert rebuilt.legal_actions() == state.legal_actions()


def test_an_altered_log_does_not_replay() -> None:
    state = HandState.create(six_max(), shuffler=random.Random(1))
    state.apply(Fold(3))
    events = list(state.events)
    events[1] = DeckRecorded(2, tuple(reversed(FULL_DECK)))
    with pytest.raises(ReplayMismatch):
        replay(None, events)
    with pytest.raises(ReplayMismatch):
        replay(None, (*state.events[:-1], HandEnded(len(state.events), (), "preflop", False)))
    with pytest.raises(ReplayMismatch):
        replay(None, state.events[2:])


def test_determinism_same_configuration_deck_and_actions_give_the_same_events() -> None:
    first = play_random_hand(six_max(), random.Random(99))
    second = play_random_hand(six_max(), random.Random(99))
    assert first.events == second.events


def test_hole_cards_reach_their_owner_only_and_the_deck_reaches_nobody() -> None:
    state = HandState.create(six_max(), shuffler=random.Random(3))
    hole_events = [event for event in state.events if isinstance(event, HoleCardsDealt)]
    assert {event.audience for event in hole_events} == {SEAT}
    deal_to_three = next(event for event in hole_events if event.seat == 3)
    assert is_visible_to(deal_to_three, 3)
    assert not is_visible_to(deal_to_three, 4)
    assert not is_visible_to(deal_to_three, None)
    assert event_view(deal_to_three, 3)["cards"] == [str(card) for card in state.hole_cards(3)]
    redacted = event_view(deal_to_three, 4)
    assert redacted == {
        "type": "hole_cards_dealt",
        "audience": SEAT,
        "sequence": deal_to_three.sequence,
        "seat": 3,
        "card_count": 2,
    }
    deck_event = state.events[1]
    assert deck_event.audience == AUDIT
    assert not is_visible_to(deck_event, 1)
    assert "cards" not in event_view(deck_event, 1)
    assert state.events[0].audience == PUBLIC


def test_apply_returns_exactly_the_new_events() -> None:
    state = HandState.create(six_max(), shuffler=random.Random(3))
    before = len(state.events)
    new = state.apply(Call(3))
    assert state.events[before:] == new
    assert state.events_since(before) == new


def test_result_is_unavailable_until_the_hand_is_over() -> None:
    state = HandState.create(six_max(), shuffler=random.Random(3))
    with pytest.raises(ValueError, match="not over"):
        state.result  # noqa: B018
    for seat in (3, 4, 5, 6, 1):
        state.apply(Fold(seat))
    assert state.result.final_stacks == tuple(state.stacks.items())
    assert state.result.to_dict()["street_reached"] == "preflop"


def test_check_is_recorded_with_the_submitted_action() -> None:
    state = HandState.create(six_max(), shuffler=random.Random(3))
    for seat in (3, 4, 5, 6, 1):
        state.apply(Call(seat))
    (taken, *_) = state.apply(Check(2))
    assert event_to_dict(taken)["action"] == {"type": "check", "seat": 2}
