"""Issue 27: every socket opened at a table reads the table and a snapshot for its viewer; a Sit & Go's game formed
opens a dozen at once. The model queries of that read are compiled once per process (poker_site.core.compiled_sql):
after the first socket, a cash table's read builds no SQL with the ORM's compiler (its cost was more than
PostgreSQL's answer), and the snapshot reads what it read before: the seats in order, with their occupants and
stacks, the stake, the hand in play."""

from __future__ import annotations

import pytest

from games.runtime import readside
from tests.compilations import compilations_counted
from tests.tables.support import deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_a_warm_process_reads_a_cash_tables_snapshot_without_compiling_sql(monkeypatch: pytest.MonkeyPatch) -> None:
    table = open_table("holdem", "NL10")
    users = [player(), player(), player()]
    seat_players(table, users, 1_000)
    deal(table)
    readside.snapshot(readside.table_by_id(table.pk), users[0])  # the process's first socket compiles
    compiled = compilations_counted(monkeypatch)

    found = readside.table_by_id(table.pk)
    snapshot = readside.snapshot(found, users[1])

    assert compiled == []
    assert found is not None
    assert found.stake.game_type_id == table.stake.game_type_id
    assert [seat["number"] for seat in snapshot["seats"]] == sorted(seat["number"] for seat in snapshot["seats"])
    occupied = [seat for seat in snapshot["seats"] if seat["occupied"]]
    assert sorted(seat["user_id"] for seat in occupied) == sorted(user.pk for user in users)
    assert sum(seat["stack"] + seat.get("contributed", 0) for seat in occupied) == 3 * 1_000
    assert snapshot["hand"] is not None
    assert len(snapshot["viewer"]["hole_cards"]) == 2
    assert readside.table_by_id(table.pk + 1_000_000) is None


def test_a_warm_process_reads_a_waiting_tables_snapshot_and_the_tables_it_offers_without_compiling_sql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cash table waiting for players offers the other open tables of its stake (issue 28) in every snapshot."""
    table, other = open_table("holdem", "NL10"), open_table("holdem", "NL10")
    seat_players(table, [player()], 1_000)
    seat_players(other, [player(), player()], 1_000)
    readside.snapshot(readside.table_by_id(table.pk), None)  # the process's first socket compiles
    compiled = compilations_counted(monkeypatch)

    snapshot = readside.snapshot(readside.table_by_id(table.pk), None)

    assert compiled == []
    assert snapshot["waiting"]["reason"] == "players"
    offered = snapshot["waiting"]["other_tables"]
    assert [row["id"] for row in offered] == [other.pk]
    assert (offered[0]["players"], offered[0]["seats"]) == (2, other.seat_count)
