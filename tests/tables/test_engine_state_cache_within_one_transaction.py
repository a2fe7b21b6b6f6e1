"""Within one transaction (here the test's own, which never commits) a hand's change reuses the engine state the
previous change of that transaction left, and a state left or taken by a change whose savepoint was rolled back is
never served, even when the rows say what the state says (architecture rule 4: the event log in the database stays the
source of truth; games.runtime.engine_state)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db import transaction

from games.models import Hand, Table
from games.runtime import engine_state as engine_state_module
from games.runtime import hands as hands_module
from games.runtime.engine_state import hand_engine_state_to_change
from tests.tables.support import call_or_check, current_hand, same_state_as_a_replay

pytestmark = pytest.mark.django_db  # one transaction, rolled back at the end: nothing is ever committed


def pending_entry(hand: Hand) -> Any:
    """The state this transaction left for ``hand`` (not yet committed), or None."""
    kept = engine_state_module._pending.get(transaction.get_connection())
    pending = kept.get(hand.pk) if kept is not None else None
    return pending.entry if pending is not None else None


def crash_after_the_state_is_remembered(patch: pytest.MonkeyPatch) -> None:
    """The next hand service appends its events and remembers its state, then fails: its savepoint rolls back."""
    commit_events = hands_module.HandContext.commit_events

    def commit_then_crash(self: Any, published: Any = ()) -> None:
        commit_events(self, published)
        raise RuntimeError("the database went away after the events were written")

    patch.setattr(hands_module.HandContext, "commit_events", commit_then_crash)


def test_each_action_reuses_the_state_the_previous_action_of_the_transaction_left(
    four_players_dealt_in: Table, replays: list[int]
) -> None:
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    for _ in range(5):
        call_or_check(four_players_dealt_in)
        hand.refresh_from_db()
        if hand.status != "running":
            break
        entry = pending_entry(hand)
        assert entry is not None
        assert same_state_as_a_replay(entry.state, hand)
    assert replays == []  # hand_start left the state; every action found it, none committed


def test_a_state_left_by_a_rolled_back_action_is_never_served_even_when_the_rows_match_it(
    four_players_dealt_in: Table, replays: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    call_or_check(four_players_dealt_in)
    with monkeypatch.context() as patch:
        crash_after_the_state_is_remembered(patch)
        with pytest.raises(RuntimeError):
            call_or_check(four_players_dealt_in)
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    rolled_back = pending_entry(hand)
    assert rolled_back is not None  # remembered before the crash; its commit callback went with the savepoint
    assert rolled_back.table_sequence > Table.objects.get(pk=four_players_dealt_in.pk).last_sequence
    replays.clear()

    # Rows that say exactly what the rolled-back state says (another change could have brought them there).
    table = Table.objects.get(pk=four_players_dealt_in.pk)
    table.last_sequence = rolled_back.table_sequence
    forged = copy.copy(hand)
    forged.version = rolled_back.hand_version
    state = hand_engine_state_to_change(forged, table)

    assert state is not rolled_back.state
    assert replays == [hand.pk]


def test_a_state_taken_by_an_action_that_was_rolled_back_is_not_served_again(
    four_players_dealt_in: Table, replays: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    call_or_check(four_players_dealt_in)
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    left = pending_entry(hand)
    assert left is not None
    with monkeypatch.context() as patch:
        crash_after_the_state_is_remembered(patch)
        with pytest.raises(RuntimeError):  # takes the state ``left``, applies its action to it, then rolls back
            call_or_check(four_players_dealt_in)
    hand.refresh_from_db()
    table = Table.objects.get(pk=four_players_dealt_in.pk)
    assert (table.last_sequence, hand.version) == (left.table_sequence, left.hand_version)  # the rows match ``left``
    assert not same_state_as_a_replay(left.state, hand)  # but the state holds the rolled-back action
    assert replays == []

    call_or_check(four_players_dealt_in)

    assert replays == [hand.pk]
    hand.refresh_from_db()
    if hand.status == "running":
        entry = pending_entry(hand)
        assert entry is not None
        assert same_state_as_a_replay(entry.state, hand)


def test_at_the_commit_a_state_taken_by_a_rolled_back_action_is_not_stored(
    four_players_dealt_in: Table,
    replays: list[int],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # runs what a commit of these changes would run
        call_or_check(four_players_dealt_in)
        with monkeypatch.context() as patch:
            crash_after_the_state_is_remembered(patch)
            with pytest.raises(RuntimeError):
                call_or_check(four_players_dealt_in)  # takes the first action's state, changes it, rolls back
    hand = current_hand(four_players_dealt_in)
    assert hand is not None
    assert hand.pk not in engine_state_module._entries  # the changed state was not kept for the next transaction

    call_or_check(four_players_dealt_in)

    assert replays == [hand.pk]
