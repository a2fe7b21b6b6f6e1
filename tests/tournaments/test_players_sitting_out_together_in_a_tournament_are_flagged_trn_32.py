"""TRN-32: one player may choose to sit out (TRN-19), but two or more sitting out at the same time, at the same or
different tables of a tournament, may have agreed to. Each time a pair is seen so is an episode in the audit trail
(the same overlap seen at the next hand counts once); from its second episode the pair is a ``sitting_out_together``
flag on the compliance desk, scored by its episodes. Only players who started sitting out within a minute of each
other count: in a big field, sit-outs for one's own reasons overlap all the time (docs/benchmarks.md)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from compliance.models import Flag, FlagStatus
from compliance.services.sitting_out import SITTING_OUT_TOGETHER, SITTING_OUT_TOGETHER_SEEN
from games.models import Seat, Table
from games.runtime.sitting_out import seat_sit_in, seat_sit_out
from games.services import hand_start
from tests.tournaments.rebuys_support import finish_hand_by_folding
from tests.tournaments.support import open_tables, register_players, scheduled
from tournaments.models import Tournament
from tournaments.services import tournaments_advance_all
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def two_tables() -> tuple[Tournament, Table, Table, datetime]:
    tournament = scheduled(table_size=3)
    register_players(tournament, 6)
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    table_a, table_b = open_tables(tournament)
    return tournament, table_a, table_b, tournament.starts_at + timedelta(seconds=10)


def player_at(table: Table, number: int) -> Any:
    return Seat.objects.get(table=table, number=number).user


def hand_played(tournament: Tournament, table: Table, now: datetime) -> None:
    tournaments_advance_all(now=now)
    assert hand_start(table, now=now) is not None
    finish_hand_by_folding(table.pk, now)


def test_trn_32_two_players_sitting_out_together_twice_at_different_tables_are_flagged() -> None:
    tournament, table_a, table_b, now = two_tables()
    first, second = player_at(table_a, 1), player_at(table_b, 2)
    seat_sit_out(first, table_a, now=now)
    hand_played(tournament, table_a, now)
    assert not Flag.objects.filter(indicator=SITTING_OUT_TOGETHER).exists()  # one player alone may sit out

    seat_sit_out(second, table_b, now=now + timedelta(seconds=1))
    hand_played(tournament, table_a, now + timedelta(seconds=5))
    hand_played(tournament, table_b, now + timedelta(seconds=5))  # the same overlap, seen again
    (episode,) = AuditEntry.objects.filter(action=SITTING_OUT_TOGETHER_SEEN)
    assert episode.details["players"] == sorted([first.pk, second.pk])
    assert episode.details["tournament"] == tournament.pk
    assert not Flag.objects.filter(indicator=SITTING_OUT_TOGETHER).exists()  # once may be chance

    # They sit in, and out together again later: the second episode raises the flag.
    later = now + timedelta(seconds=600)
    seat_sit_in(first, table_a, now=later)
    seat_sit_in(second, table_b, now=later)
    hand_played(tournament, table_b, later)
    seat_sit_out(first, table_a, now=later + timedelta(seconds=1))
    seat_sit_out(second, table_b, now=later + timedelta(seconds=2))
    hand_played(tournament, table_b, later + timedelta(seconds=5))
    hand_played(tournament, table_a, later + timedelta(seconds=5))
    (flag,) = Flag.objects.filter(indicator=SITTING_OUT_TOGETHER)
    assert flag.status == FlagStatus.OPEN
    assert set(flag.players.all()) == {first, second}
    assert (flag.score, flag.threshold) == (2, 2)
    assert flag.requirements == ["TRN-32", "FRD-19"]
    assert [row["tournament"] for row in flag.evidence["episodes"]] == [tournament.pk, tournament.pk]


def test_trn_32_players_who_started_sitting_out_far_apart_are_not_flagged() -> None:
    tournament, table_a, table_b, now = two_tables()
    seat_sit_out(player_at(table_a, 1), table_a, now=now)
    seat_sit_out(player_at(table_b, 2), table_b, now=now + timedelta(minutes=10))
    hand_played(tournament, table_b, now + timedelta(minutes=10))
    assert not AuditEntry.objects.filter(action=SITTING_OUT_TOGETHER_SEEN).exists()


def test_trn_32_a_player_disconnected_is_not_sitting_out_by_choice() -> None:
    tournament, table_a, table_b, now = two_tables()
    seat_sit_out(player_at(table_a, 1), table_a, now=now)
    Seat.objects.filter(table=table_b, number=2).update(
        status="sitting_out", sit_out_reason="disconnected", sit_out_since=now
    )
    hand_played(tournament, table_a, now)
    assert not AuditEntry.objects.filter(action=SITTING_OUT_TOGETHER_SEEN).exists()
