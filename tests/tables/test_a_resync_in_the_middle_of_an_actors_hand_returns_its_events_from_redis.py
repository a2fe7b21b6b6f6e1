"""Issue 27, step 4: while a table actor holds a hand in memory, nothing of it is written to PostgreSQL, yet any
process answers a resync or a snapshot with the hand as it stands — the durable rows followed by the hand's events
from its log in Redis — with each viewer's privacy (architecture rule 4): a spectator sees no hole card, a player
sees their own."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import HandEvent
from games.runtime.views import table_events_since, table_snapshot
from tests.tables.held_hands import held_hand
from tests.tables.support import fresh

pytestmark = pytest.mark.django_db


def test_a_resync_and_a_snapshot_mid_hand_show_the_events_the_actor_holds_in_memory() -> None:
    held = held_hand(players=3)
    durable_last = fresh(held.table).last_sequence
    durable_rows = HandEvent.objects.filter(table=held.table).count()
    while held.actor.live is not None and held.actor.live.state.street.label == "preflop":
        held.move()  # everyone calls and the big blind checks: the flop is dealt, in memory only
    assert held.actor.live is not None
    assert HandEvent.objects.filter(table=held.table).count() == durable_rows
    logged = held.logged()
    assert logged == list(range(durable_last + 1, durable_last + 1 + len(logged)))

    # A resync from the last durable event returns the logged events, numbered as they were published.
    tail = table_events_since(held.table, durable_last, None)
    assert [event["sequence"] for event in tail] == logged
    assert "street_dealt" in [event["type"] for event in tail]
    assert tail[-1]["type"] == "turn"
    assert tail[-1]["seat"] == held.actor.live.hand.acting_seat

    # From the start: the durable rows and then the log, one contiguous stream; a limit takes the oldest.
    everything = table_events_since(held.table, 0, None)
    assert [event["sequence"] for event in everything] == list(range(1, logged[-1] + 1))
    assert [event["sequence"] for event in table_events_since(held.table, 0, None, limit=len(everything) - 2)] == list(
        range(1, logged[-1] - 1)
    )

    # Privacy: the spectator's view has no hole card; each player sees their own cards and no one else's.
    assert all("cards" not in event for event in everything if event["type"] == "hole_cards_dealt")
    owner = held.users[0]
    own_seat = next(number for number, user in held.by_seat.items() if user.pk == owner.pk)
    for event in table_events_since(held.table, 0, owner):
        if event["type"] == "hole_cards_dealt":
            assert ("cards" in event) == (event["seat"] == own_seat)

    # The snapshot any web process makes: the hand after the flop, its last sequence the last logged event.
    live = held.actor.live
    spectator = table_snapshot(held.table, None)
    assert spectator["last_sequence"] == logged[-1]
    assert spectator["hand"]["street"] == "flop"
    assert spectator["hand"]["board"] == [str(card) for card in live.state.board]
    assert spectator["hand"]["acting_seat"] == live.hand.acting_seat
    assert spectator["hand"]["action_deadline"] == live.hand.action_deadline.isoformat()
    assert spectator["viewer"]["hole_cards"] == []
    assert all(seat["stack"] == live.state.stacks[seat["number"]] for seat in spectator["seats"] if seat.get("in_hand"))
    mine: dict[str, Any] = table_snapshot(held.table, owner)
    assert mine["viewer"]["hole_cards"] == [str(card) for card in live.state.hole_cards(own_seat)]
    if live.hand.acting_seat == own_seat:
        assert mine["viewer"]["legal_actions"] is not None
    acting_user = held.by_seat[live.hand.acting_seat]
    assert table_snapshot(held.table, acting_user)["viewer"]["legal_actions"] == live.state.legal_actions().to_dict()


def test_a_snapshot_after_a_durable_line_numbered_above_the_log_still_shows_every_logged_action() -> None:
    """A durable write during the held hand (a chat line here; a top-up request, a seat change) is numbered above the
    hand log, so the table's last durable sequence passes logged events that are still only in Redis. The snapshot
    must keep those: it replayed the hand without them (found by the browser tests on table actors: "event 7 differs:
    logged ActionTaken(sequence=9 ...)" for a top-up asked for after a raise) and failed for everyone until the hand
    ended."""
    from games.chat.services import chat_message_post

    held = held_hand(players=3)
    held.move()  # the first action: logged in Redis only
    line = chat_message_post(held.users[0], held.table, "nice hand")
    assert line > held.logged()[-1]  # numbered above the log
    held.move()  # and one more action after the line
    live = held.actor.live
    assert live is not None

    spectator = table_snapshot(held.table, None)
    assert spectator["last_sequence"] == max(line, held.logged()[-1])
    assert spectator["hand"]["pot_total"] == live.state.pot_total
    assert spectator["hand"]["acting_seat"] == live.hand.acting_seat
    acting_user = held.by_seat[live.hand.acting_seat]
    assert table_snapshot(held.table, acting_user)["viewer"]["legal_actions"] == live.state.legal_actions().to_dict()
    everything = table_events_since(held.table, 0, None)
    assert [event["sequence"] for event in everything] == list(range(1, spectator["last_sequence"] + 1))
