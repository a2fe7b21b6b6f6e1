"""FRD-19, FRD-11, FRD-15, FRD-03: the desk's flags come from the indicators fed incrementally with what the site
stores — socket connections with their address and device, finished cash hands — past stored cursors: each row is
read once, history is never read again, a hand still in play holds the cursor until it ends, and the thresholds are
the rows staff tune. A settled hand queues the detection once it commits."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from compliance import tasks
from compliance.models import ConnectionKind, DetectorState, Flag, FlagStatus, IndicatorSetting
from compliance.services import connection_record, detection_advance, settings_ensure
from games.models import Table
from tests.compliance.desk.support import player, with_a_third
from tests.tables.support import check_or_call_down, deal, open_table, seat_players

pytestmark = pytest.mark.django_db

SHARED_ADDRESS = "198.51.100.7"


def later() -> Any:
    """A moment past the settling delay of the rows just written."""
    return timezone.now() + timedelta(minutes=1)


def connected(user: Any, table: Table, ip: str, device: str = "") -> None:
    connection_record(user.pk, ConnectionKind.TABLE_SOCKET, place=f"table:{table.pk}", ip=ip, device=device)


def hand_at(table: Table, users: list[Any], seed: int = 1) -> Any:
    if not table.seats.filter(user__isnull=False).exists():
        seat_players(table, with_a_third(users), 1_000)
    deal(table, seed=seed)
    return check_or_call_down(table)


def test_two_accounts_from_one_address_at_one_table_are_flagged_with_their_hands() -> None:
    alice, bob = player("alice"), player("bob")
    table = open_table()
    connected(alice, table, SHARED_ADDRESS, "phone-a")
    connected(bob, table, SHARED_ADDRESS, "phone-b")
    hand = hand_at(table, [alice, bob])

    batch = detection_advance(now=later())

    assert (batch.connections, batch.hands) == (2, 1)
    flag = Flag.objects.get(indicator="shared_connection")
    # A pair's key lists its players' keys in text order (user:100 before user:99), whatever order their ids came in.
    assert flag.player_keys == ",".join(sorted([f"user:{alice.pk}", f"user:{bob.pk}"]))
    assert set(flag.players.all()) == {alice, bob}
    assert flag.status == FlagStatus.OPEN
    assert flag.score >= flag.threshold
    assert flag.hands == [hand.pk]
    assert flag.evidence["shared_ips"] == {SHARED_ADDRESS: [f"table:{table.pk}"]}


def test_each_row_is_read_once_and_only_what_came_since_is_read_next() -> None:
    alice, bob = player("alice"), player("bob")
    table = open_table()
    connected(alice, table, SHARED_ADDRESS)
    connected(bob, table, SHARED_ADDRESS)
    hand_at(table, [alice, bob])
    detection_advance(now=later())

    again = detection_advance(now=later())
    assert (again.hands, again.connections, again.counters) == (0, 0, 0)

    second = hand_at(table, [alice, bob], seed=2)
    batch = detection_advance(now=later())
    assert (batch.hands, batch.connections) == (1, 0)
    state = DetectorState.objects.get()
    assert state.hands_cursor == second.pk
    assert state.hands_fed == 2
    assert Flag.objects.get(indicator="shared_connection").hands == [second.pk - 1, second.pk]


def test_a_hand_still_in_play_holds_the_cursor_until_it_ends() -> None:
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    slow_table, fast_table = open_table(), open_table()
    seat_players(slow_table, [alice, bob, carol], 1_000)
    slow = deal(slow_table)
    fast = hand_at(fast_table, [player("dave"), player("erin")])
    assert fast.pk > slow.pk

    held = detection_advance(now=later())
    assert held.hands == 0
    assert DetectorState.objects.get().hands_cursor < slow.pk

    check_or_call_down(slow_table)
    caught_up = detection_advance(now=later())
    assert caught_up.hands == 2
    assert DetectorState.objects.get().hands_cursor == fast.pk


def test_the_thresholds_are_the_rows_staff_tune() -> None:
    settings_ensure()
    setting = IndicatorSetting.objects.get(indicator="shared_connection", parameter="threshold")
    assert setting.value == 1.0
    assert setting.description
    setting.value = 5.0
    setting.save()
    alice, bob = player("alice"), player("bob")
    table = open_table()
    connected(alice, table, SHARED_ADDRESS)
    connected(bob, table, SHARED_ADDRESS)
    hand_at(table, [alice, bob])

    detection_advance(now=later())

    assert not Flag.objects.filter(indicator="shared_connection").exists()


def test_rows_younger_than_the_settling_delay_wait_for_the_next_batch() -> None:
    alice = player("alice")
    table = open_table()
    connected(alice, table, SHARED_ADDRESS)
    assert detection_advance().connections == 0
    assert detection_advance(now=later()).connections == 1


def test_a_settled_hand_queues_the_detection_after_it_commits(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(tasks.compliance_detect, "apply_async", lambda **options: queued.append(options))
    monkeypatch.setattr("poker_site.core.publish.first_in_window", lambda key, milliseconds: True)
    table = open_table()
    seat_players(table, [player("alice"), player("bob"), player("carol")], 1_000)
    deal(table)
    with django_capture_on_commit_callbacks(execute=True):
        check_or_call_down(table)
    assert queued == [{"countdown": tasks.QUEUE_WINDOW_MILLISECONDS / 1000}]


def test_the_task_runs_batches_until_nothing_is_left() -> None:
    alice, bob = player("alice"), player("bob")
    table = open_table()
    hand_at(table, [alice, bob])
    assert tasks.compliance_detect()["hands"] == 1
    assert tasks.compliance_detect()["hands"] == 0
