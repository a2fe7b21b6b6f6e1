"""The in-process engine state a hand service reuses is the one replaying the log gives, and a stale one is never used
(architecture rule 4: the event log in the database stays the source of truth)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Hand
from games.runtime import engine_state as engine_state_module
from games.runtime import hands as hands_module
from games.services import ActionRefused, hand_act, seat_sit_out
from tests.tables.support import START, acting_user, call_or_check, current_hand, same_state_as_a_replay

pytestmark = pytest.mark.django_db(transaction=True)  # the cache is filled after commit


def cached_state(hand: Hand) -> Any:
    entry = engine_state_module._entries.get(hand.pk)
    return entry.state if entry is not None else None


def test_actions_reuse_the_state_left_by_the_last_commit_and_it_equals_the_replayed_log(
    four_players_dealt_in: Any, replays: list[int]
) -> None:
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    for _ in range(5):
        call_or_check(four_players_dealt_in)
        hand.refresh_from_db()
        if hand.status != "running":
            break
        cached = cached_state(hand)
        assert cached is not None
        assert same_state_as_a_replay(cached, hand)
    assert replays == []  # hand_start left the state; every action found it


def test_an_event_appended_meanwhile_makes_the_cached_state_miss_and_the_log_is_replayed(
    four_players_dealt_in: Any, replays: list[int]
) -> None:
    call_or_check(four_players_dealt_in)
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    waiting = next(seat for seat in hand.participants if int(seat) != hand.acting_seat)
    user = get_user_model().objects.get(pk=hand.participants[waiting]["user"])
    seat_sit_out(user, four_players_dealt_in, now=START)  # appends to the table's log (sits out after the hand)

    call_or_check(four_players_dealt_in)

    assert replays == [hand.pk]
    hand.refresh_from_db()
    assert same_state_as_a_replay(cached_state(hand), hand)


def test_a_state_another_process_left_behind_is_not_used(four_players_dealt_in: Any, replays: list[int]) -> None:
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    stale = engine_state_module._entries[hand.pk]
    call_or_check(four_players_dealt_in)  # "another process" acts: this process's entry is from before that action
    engine_state_module._entries[hand.pk] = stale

    call_or_check(four_players_dealt_in)

    assert replays == [hand.pk]
    hand.refresh_from_db()
    assert same_state_as_a_replay(cached_state(hand), hand)


def test_a_rolled_back_action_leaves_no_state_behind(
    four_players_dealt_in: Any, replays: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    user = acting_user(four_players_dealt_in)

    def crash(self: Any) -> None:
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patch:
        patch.setattr(hands_module.HandContext, "commit_events", crash)
        with pytest.raises(RuntimeError):
            hand_act(four_players_dealt_in, user, "call", now=START)
    assert cached_state(hand) is None

    hand_act(four_players_dealt_in, user, "call", now=START)

    assert replays == [hand.pk]
    hand.refresh_from_db()
    assert same_state_as_a_replay(cached_state(hand), hand)


def test_an_action_rolled_back_after_its_state_was_remembered_leaves_no_state_behind(
    four_players_dealt_in: Any, replays: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    user = acting_user(four_players_dealt_in)
    commit_events = hands_module.HandContext.commit_events

    def commit_then_crash(self: Any, published: Any = ()) -> None:
        commit_events(self, published)
        raise RuntimeError("the commit failed")

    with monkeypatch.context() as patch:
        patch.setattr(hands_module.HandContext, "commit_events", commit_then_crash)
        with pytest.raises(RuntimeError):
            hand_act(four_players_dealt_in, user, "call", now=START)
    assert cached_state(hand) is None

    hand_act(four_players_dealt_in, user, "call", now=START)

    assert replays == [hand.pk]
    hand.refresh_from_db()
    assert same_state_as_a_replay(cached_state(hand), hand)


def test_a_refused_action_does_not_spoil_the_next_one(four_players_dealt_in: Any, replays: list[int]) -> None:
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    with pytest.raises(ActionRefused):
        hand_act(four_players_dealt_in, acting_user(four_players_dealt_in), "raise_to", 1, now=START)

    call_or_check(four_players_dealt_in)

    hand.refresh_from_db()
    assert same_state_as_a_replay(cached_state(hand), hand)
