"""FRD-19, FRD-03, TRN-34: the detection service reads a batch of stored hands together (their events in one query,
their players in one, each table once) and gets exactly what reading them one hand at a time gives: the same hand
records — cash and tournament hands, decision times from the clock (timeouts without one), results after rake — the
same refusals (cancelled and running hands), and from ``detection_advance`` the same accumulators and flags."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from compliance.detection.records import HandRecord, RecordError
from compliance.hand_records import hand_record, hand_records_read
from compliance.models import ConnectionKind, DetectorState, Flag
from compliance.services import connection_record, detection_advance
from compliance.services import detection as detection_service
from games.engine.simulation import choose_random_action
from games.models import Hand, HandStatus, Table
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act, hand_cancel, hand_start, hand_timeout
from tests.tables.support import START, deal, open_table, player, seat_players
from tests.tournaments.support import open_tables, play, register_players, sit_and_go

pytestmark = pytest.mark.django_db

SHARED_ADDRESS = "198.51.100.9"


@pytest.fixture(autouse=True)
def quiet_tournaments(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournament's services do not publish or queue tasks here (the tables' realtime is quiet already)."""
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)


def play_randomly(table: Table, hands: int, rng: random.Random, moment: Any) -> Any:
    """Up to ``hands`` hands at ``table`` (fewer when it can deal no more), random legal actions 1 to 5 s apart, one
    decision in twenty left to time out (the timebank, then the server acts). Returns the time reached."""
    for _ in range(hands):
        moment += timedelta(seconds=5)
        started = hand_start(table, now=moment, shuffler=random.Random(rng.randrange(10**6)))
        if started is None:
            break
        hand = started
        while hand.status == HandStatus.RUNNING:
            if rng.random() < 0.05:
                while hand.status == HandStatus.RUNNING and hand.action_deadline is not None:
                    acting = hand.acting_seat
                    moment = hand.action_deadline
                    hand_timeout(hand.pk, now=moment)
                    hand = Hand.objects.get(pk=hand.pk)
                    if hand.acting_seat != acting:
                        break
                continue
            legal = hand_engine_state(hand).legal_actions()
            assert legal is not None
            action = choose_random_action(legal, rng)
            amount = getattr(action, "amount", None)
            moment += timedelta(seconds=rng.uniform(1, 5))
            user = table.seats.get(number=hand.acting_seat).user
            hand_act(table, user, action.kind, amount, now=moment)
            hand = Hand.objects.get(pk=hand.pk)
    return moment


def stored_hands() -> list[Hand]:
    """Finished cash hands at two tables (players shared between them, two from one address), a finished tournament
    hand, then at a third table a cancelled hand and one still running; all of them, in id order."""
    rng = random.Random(31)
    users = [player(f"p{number}") for number in range(8)]
    first, second = open_table(), open_table()
    seat_players(first, users[:5], 1_000)
    seat_players(second, users[3:], 1_000)
    for user, table in ((users[3], first), (users[4], first), (users[3], second), (users[4], second)):
        connection_record(user.pk, ConnectionKind.TABLE_SOCKET, place=f"table:{table.pk}", ip=SHARED_ADDRESS)
    moment = play_randomly(first, 6, rng, START)
    moment = play_randomly(second, 6, rng, moment)
    assert Hand.objects.filter(table=second, status=HandStatus.FINISHED).exists()
    third = open_table()
    seat_players(third, [player("q1"), player("q2"), player("q3")], 1_000, now=moment)
    cancelled = deal(third, seed=5, now=moment + timedelta(seconds=5))
    assert hand_cancel(cancelled.pk, now=moment + timedelta(seconds=6))
    tournament = sit_and_go(seats=2)
    register_players(tournament, 2)
    (tournament_table,) = open_tables(tournament)
    play(tournament, until=lambda _: Hand.objects.filter(table=tournament_table, status=HandStatus.FINISHED).exists())
    deal(third, seed=9, now=moment + timedelta(seconds=15))  # still running
    return list(Hand.objects.order_by("pk"))


def one_at_a_time(hands: list[Hand]) -> dict[int, HandRecord | RecordError]:
    """The straightforward path: :func:`hand_record` for each hand, its own queries."""
    records: dict[int, HandRecord | RecordError] = {}
    for hand in hands:
        try:
            records[hand.pk] = hand_record(Hand.objects.get(pk=hand.pk))
        except RecordError as error:
            records[hand.pk] = error
    return records


def test_hands_read_together_give_the_records_and_refusals_of_one_hand_at_a_time() -> None:
    hands = stored_hands()
    statuses = {hand.status for hand in hands}
    assert statuses == {HandStatus.FINISHED, HandStatus.CANCELLED, HandStatus.RUNNING}
    expected = one_at_a_time(hands)
    finished = [record for record in expected.values() if isinstance(record, HandRecord)]
    assert any(action.decision_ms is None and action.timeout for record in finished for action in record.actions)
    assert any(record.rake for record in finished)
    assert len({record.table_id for record in finished}) == 3  # two cash tables and the tournament's

    batch = list(Hand.objects.filter(pk__in=[hand.pk for hand in hands]).select_related("table", "game_rules"))
    with CaptureQueriesContext(connection) as queries:
        records = hand_records_read(batch)

    assert records.keys() == expected.keys()
    for hand_id, record in expected.items():
        if isinstance(record, RecordError):
            assert isinstance(records[hand_id], RecordError)
            assert str(records[hand_id]) == str(record)
        else:
            assert records[hand_id] == record
    # The events in one query, the players in one, the tournament table's link once (not four queries a hand).
    assert len(queries) == 3, [query["sql"] for query in queries]


def advance_until_caught_up(hands_per_batch: int) -> tuple[dict[str, Any], list[tuple[Any, ...]], int]:
    """From fresh accumulators and no flags: the stored accumulators, the flags and the hands fed."""
    Flag.objects.all().delete()
    DetectorState.objects.all().delete()
    later = timezone.now() + timedelta(minutes=1)
    fed = 0
    while True:
        batch = detection_advance(hands_per_batch=hands_per_batch, now=later)
        fed += batch.hands
        if not batch.more:
            break
    again = detection_advance(hands_per_batch=hands_per_batch, now=later)
    assert (again.hands, again.connections, again.counters) == (0, 0, 0)  # nothing is scanned twice
    state = DetectorState.objects.get(name="site")
    flags = sorted(
        Flag.objects.values_list("indicator", "player_keys", "score", "severity", "threshold", "hands", "status")
    )
    assert state.hands_fed == fed
    return state.state, flags, fed


def test_detection_advance_stores_the_accumulators_and_flags_of_the_hands_read_one_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hands = stored_hands()
    finished = sum(hand.status == HandStatus.FINISHED for hand in hands)

    with monkeypatch.context() as patched:
        patched.setattr(detection_service, "hand_records_read", one_at_a_time)
        expected_state, expected_flags, expected_fed = advance_until_caught_up(hands_per_batch=4)
    state, flags, fed = advance_until_caught_up(hands_per_batch=4)

    assert expected_fed == fed == finished
    assert state == expected_state
    assert flags == expected_flags
    assert any(flag[0] == "shared_connection" for flag in flags)
