"""FRD-19 (issue 31: detection keeps up with 200 settled hands a second): the costs of a detection batch that grow with
the history — reading and writing the accumulators, computing every flag — are not paid for every few hundred hands.
A batch reads on while feeding is cheap next to reading the accumulators, and costly flags are computed on a cadence
(ten times their last cost), by the next run once due even when nothing new came; cheap ones at every batch as before.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from compliance.models import ConnectionKind, DetectorState, Flag
from compliance.services import connection_record, detection_advance, flags_recompute
from compliance.services import detection as detection_service
from games.models import Table
from tests.compliance.desk.support import player, with_a_third
from tests.tables.support import check_or_call_down, deal, open_table, seat_players

pytestmark = pytest.mark.django_db

SHARED_ADDRESS = "198.51.100.7"


def later() -> Any:
    return timezone.now() + timedelta(minutes=1)


def hand_at(table: Table, users: list[Any], seed: int = 1) -> Any:
    if not table.seats.filter(user__isnull=False).exists():
        seat_players(table, with_a_third(users), 1_000)
    deal(table, seed=seed)
    return check_or_call_down(table)


def two_accounts_share_an_address_at(table: Table) -> tuple[Any, Any]:
    alice, bob = player("alice"), player("bob")
    for user in (alice, bob):
        connection_record(user.pk, ConnectionKind.TABLE_SOCKET, place=f"table:{table.pk}", ip=SHARED_ADDRESS)
    return alice, bob


def flags_last_took(seconds: float, ago: timedelta) -> None:
    DetectorState.objects.filter(name="site").update(flags_seconds=seconds, flags_computed_at=timezone.now() - ago)


def test_cheap_flags_are_computed_at_every_batch_that_fed_something() -> None:
    table = open_table()
    alice, bob = two_accounts_share_an_address_at(table)
    hand_at(table, [alice, bob])

    batch = detection_advance(now=later())

    assert batch.flags_computed
    assert Flag.objects.filter(indicator="shared_connection").exists()
    row = DetectorState.objects.get()
    assert not row.flags_behind
    assert row.flags_computed_at is not None
    assert 0 < row.flags_seconds < detection_service.FLAGS_ALWAYS_UNDER_SECONDS


def test_costly_flags_wait_for_their_cadence_while_the_accumulators_and_cursors_move_on() -> None:
    table = open_table()
    first = hand_at(table, [player("carol"), player("dave")])
    detection_advance(now=later())
    flags_last_took(30.0, ago=timedelta(seconds=60))  # due again 300 s after that computation
    alice, bob = two_accounts_share_an_address_at(open_table())
    hand_at(Table.objects.exclude(pk=table.pk).get(), [alice, bob])

    batch = detection_advance(now=later())

    assert (batch.hands, batch.connections, batch.flags_computed) == (1, 2, False)
    assert not Flag.objects.filter(indicator="shared_connection").exists()
    row = DetectorState.objects.get()
    assert row.flags_behind
    assert row.hands_cursor > first.pk
    assert row.state["hands"] == 2


def test_the_next_run_computes_flags_left_behind_once_due_even_with_nothing_new() -> None:
    hand_at(open_table(), [player("carol"), player("dave")])
    detection_advance(now=later())
    flags_last_took(30.0, ago=timedelta(seconds=60))
    alice, bob = two_accounts_share_an_address_at(table := open_table())
    hand_at(table, [alice, bob])
    assert not detection_advance(now=later()).flags_computed

    flags_last_took(30.0, ago=timedelta(seconds=299))
    not_yet = detection_advance(now=later())
    assert (not_yet.hands, not_yet.flags_computed) == (0, False)
    assert not Flag.objects.filter(indicator="shared_connection").exists()

    flags_last_took(30.0, ago=timedelta(seconds=301))
    due = detection_advance(now=later())

    assert (due.hands, due.flags_computed, due.flags_raised) == (0, True, 1)
    assert Flag.objects.filter(indicator="shared_connection").exists()
    row = DetectorState.objects.get()
    assert not row.flags_behind
    assert row.flags_seconds < 30.0
    assert timezone.now() - row.flags_computed_at < timedelta(seconds=30)


def test_a_run_with_nothing_to_read_and_no_flags_due_does_not_read_the_accumulators(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = open_table()
    hand_at(table, [player("alice"), player("bob")])
    detection_advance(now=later())

    def unreadable(*arguments: Any) -> Any:
        raise AssertionError("the accumulators were read")

    monkeypatch.setattr(detection_service, "_detector", unreadable)
    assert detection_advance(now=later()) == detection_service.DetectionBatch(0, 0, 0, 0, False)


def test_a_batch_reads_on_while_feeding_is_cheap_next_to_reading_the_accumulators(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = open_table()
    for seed in (1, 2, 3):
        hand_at(table, [player(f"p{seed}"), player(f"q{seed}")] if seed == 1 else [], seed=seed)

    monkeypatch.setattr(detection_service, "FEED_TO_LOAD_RATIO", 0.0)
    one_read = detection_advance(hands_per_batch=1, now=later())
    assert (one_read.hands, one_read.more) == (1, True)

    monkeypatch.setattr(detection_service, "FEED_TO_LOAD_RATIO", 1e9)
    reads_on = detection_advance(hands_per_batch=1, now=later())
    assert (reads_on.hands, reads_on.more) == (2, False)
    assert DetectorState.objects.get().state["hands"] == 3


def test_a_batch_stops_reading_at_its_time_limit_whatever_the_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    table = open_table()
    for seed in (1, 2, 3):
        hand_at(table, [player("alice"), player("bob")] if seed == 1 else [], seed=seed)
    monkeypatch.setattr(detection_service, "FEED_TO_LOAD_RATIO", 1e9)
    monkeypatch.setattr(detection_service, "MOST_BATCH_SECONDS", 0.0)

    batch = detection_advance(hands_per_batch=1, now=later())

    assert (batch.hands, batch.more) == (1, True)


def test_recomputing_after_a_threshold_change_notes_the_computation() -> None:
    table = open_table()
    alice, bob = two_accounts_share_an_address_at(table)
    hand_at(table, [alice, bob])
    detection_advance(now=later())
    flags_last_took(30.0, ago=timedelta(seconds=60))
    DetectorState.objects.filter(name="site").update(flags_behind=True)

    flags_recompute()

    row = DetectorState.objects.get()
    assert not row.flags_behind
    assert row.flags_seconds < 30.0
    assert timezone.now() - row.flags_computed_at < timedelta(seconds=30)
