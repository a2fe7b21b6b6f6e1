"""The services tell ``games.runtime.realtime`` about committed events and lobby changes after commit, never on
failure."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import HandEvent
from games.services import BuyInRefused, hand_act, seat_take
from tests.tables.support import START, acting_user, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_a_seat_change_announces_its_events_and_the_lobby_row(
    announcements: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    table = open_table()
    user = player()
    announcements.clear()
    with django_capture_on_commit_callbacks(execute=True):
        seat_take(user, table, 1000, now=START)
    last = HandEvent.objects.filter(table=table).order_by("-sequence").first()
    assert last is not None
    assert ("events", table.pk, last.sequence, last.sequence) in announcements
    assert ("lobby", table.pk) in announcements


def test_an_action_announces_the_whole_range_it_appended(
    announcements: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    deal(table)
    before = HandEvent.objects.filter(table=table).order_by("-sequence").first()
    assert before is not None
    announcements.clear()
    with django_capture_on_commit_callbacks(execute=True):
        hand_act(table, acting_user(table), "call", now=START)
    after = HandEvent.objects.filter(table=table).order_by("-sequence").first()
    assert after is not None
    assert announcements[0] == ("events", table.pk, before.sequence + 1, after.sequence)


def test_a_refused_request_announces_nothing(
    announcements: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    table = open_table()
    announcements.clear()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(BuyInRefused):
        seat_take(player(), table, 1, now=START)
    assert announcements == []


def test_a_failing_announcement_does_not_undo_the_change(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from games.runtime import realtime

    def broken(*args: Any) -> None:
        raise RuntimeError("redis is down")

    monkeypatch.setattr(realtime, "table_events_committed", broken)
    table = open_table()
    user = player()
    with django_capture_on_commit_callbacks(execute=True):
        seat = seat_take(user, table, 1000, now=START)
    assert seat.user == user
