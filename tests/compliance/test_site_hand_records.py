"""FRD-19, FRD-03: hand records from the site's stored hands — players, cards, results after rake and each decision's
time from the clock of the ``turn`` events (timebank included, timeouts without a time); counter records from table
sessions."""

from __future__ import annotations

import pytest

from compliance.detection.records import RecordError
from compliance.hand_records import counter_records, hand_record, key_id, user_key
from games.models import Hand, HandEvent, HandPlayer, TableSession
from games.runtime.engine_state import hand_engine_state
from games.services import hand_timeout
from tests.tables.conftest import catalogue, presence_unknown, quiet_realtime  # noqa: F401 (autouse fixtures)
from tests.tables.support import START, act, current_hand, deal, later, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def play_timed_hand() -> tuple[Hand, list[int | None]]:
    """Three players; preflop decisions of 3 s, 2.5 s and (into the timebank) 14.5 s; then everyone checks after
    1.5 s, except the last player on the river, who times out. Returns the hand and the expected times."""
    table = open_table()
    seat_players(table, [player("ann"), player("bea"), player("cid")], 1000)
    hand = deal(table, now=START)
    act(table, "call", now=later(3))
    act(table, "call", now=later(5.5))
    assert hand_timeout(hand.pk, now=later(5.5 + 10 + 1))  # the decision time ran out: the timebank runs
    act(table, "check", now=later(20))
    expected: list[int | None] = [3000, 2500, 14500]
    moment = 20.0
    while True:
        running = current_hand(table)
        assert running is not None
        state = hand_engine_state(running)
        if len(state.board) == 5 and sum(1 for event in state.events if event.kind == "action_taken") == 11:
            break
        moment += 1.5
        act(table, "check", now=later(moment))
        expected.append(1500)
    running.refresh_from_db()
    assert running.action_deadline is not None
    assert hand_timeout(running.pk, now=running.action_deadline)  # into the timebank
    running.refresh_from_db()
    assert running.action_deadline is not None
    assert hand_timeout(running.pk, now=running.action_deadline)  # the timebank ran out: checked for them
    expected.append(None)
    hand.refresh_from_db()
    return hand, expected


def test_a_played_hand_becomes_a_record_with_its_players_cards_results_and_decision_times() -> None:
    hand, expected_times = play_timed_hand()
    record = hand_record(hand)
    players = {row.seat_number: row for row in HandPlayer.objects.filter(hand=hand).select_related("user")}
    assert record.hand_id == f"hand:{hand.pk}"
    assert key_id(record.hand_id) == hand.pk
    assert record.table_id == f"table:{hand.table_id}"
    assert record.started_at == START.timestamp()
    assert record.big_blind == hand.stake_terms.big_blind
    assert {seat.seat: seat.player for seat in record.seats} == {
        number: user_key(row.user_id) for number, row in players.items()
    }
    dealt = {
        row.payload["seat"]: tuple(row.payload["cards"])
        for row in HandEvent.objects.filter(hand=hand, kind="hole_cards_dealt")
    }
    assert {seat.seat: tuple(map(str, seat.hole_cards)) for seat in record.seats} == dealt
    assert len(record.board) == 5
    assert record.showdown
    assert {seat.seat: seat.net for seat in record.seats} == {
        number: row.end_stack - row.start_stack
        for number, row in players.items()  # type: ignore[operator]
    }
    assert sum(seat.net for seat in record.seats) == -record.rake == -(hand.rake or 0)
    assert [action.decision_ms for action in record.actions] == expected_times
    assert record.actions[-1].timeout
    assert record.actions[-1].kind == "check"
    assert [action.street for action in record.actions] == ["preflop"] * 3 + ["flop"] * 3 + ["turn"] * 3 + ["river"] * 3


def test_a_running_hand_has_no_record_yet() -> None:
    table = open_table()
    seat_players(table, [player(), player(), player()], 1000)
    hand = deal(table)
    with pytest.raises(RecordError, match="not finished"):
        hand_record(hand)


def test_counted_ratholing_returns_and_banzai_resets_become_counter_records() -> None:
    sessions = [
        TableSession(user_id=5, table_id=3, buy_in_kind="rathole_return", started_at=START, initial_buy_in=2500),
        TableSession(user_id=6, table_id=4, buy_in_kind="banzai_reset", started_at=later(60), initial_buy_in=500),
        TableSession(user_id=7, table_id=4, buy_in_kind="normal", started_at=later(90), initial_buy_in=1000),
        TableSession(user_id=8, table_id=4, buy_in_kind="banzai_resume", started_at=later(90), initial_buy_in=1200),
    ]
    records = counter_records(sessions)
    assert [(record.player, record.kind, record.place, record.at, record.amount) for record in records] == [
        ("user:5", "ratholing", "table:3", START.timestamp(), 2500),
        ("user:6", "banzai_reset", "table:4", later(60).timestamp(), 500),
    ]
