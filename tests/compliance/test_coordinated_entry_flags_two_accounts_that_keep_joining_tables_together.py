"""FRD-11, FRD-01, FRD-19: coordinated table entry — two accounts that keep joining the same running tables within
seconds of each other are flagged; players who join when they like, the first players of a table that opens, and
reconnects are not."""

from __future__ import annotations

import random

from compliance.detection.coordinated_entry import CoordinatedEntry, poisson_upper_tail
from compliance.detection.detector import Detector
from compliance.detection.flags import Flag
from compliance.detection.records import ConnectionRecord

HOUR = 3600.0
START = 1_772_452_800.0


def room(seed: int, tables: int = 6, players: int = 40, joins: int = 400) -> list[ConnectionRecord]:
    """Tables that open with six players at once and run all day; ``joins`` players sit down at random moments."""
    rng = random.Random(seed)
    records = []
    for table in range(tables):
        for seat in range(6):
            records.append(ConnectionRecord(f"opener{table}-{seat}", f"table:{table}", START + seat * 2.0))
    for _ in range(joins):
        at = START + rng.uniform(600, 12 * HOUR)
        records.append(ConnectionRecord(f"regular{rng.randrange(players)}", f"table:{rng.randrange(tables)}", at))
    return records


def coordinated(pair: tuple[str, str], tables: list[int], gap: float = 6.0) -> list[ConnectionRecord]:
    records = []
    for number, table in enumerate(tables):
        at = START + HOUR + number * 1.5 * HOUR
        records.append(ConnectionRecord(pair[0], f"table:{table}", at))
        records.append(ConnectionRecord(pair[1], f"table:{table}", at + gap))
    return records


def entry_flags(records: list[ConnectionRecord]) -> list[Flag]:
    detector = Detector()
    for record in sorted(records, key=lambda record: record.at):
        detector.feed_connection(record)
    return [flag for flag in detector.flags() if flag.indicator == "coordinated_entry"]


def test_two_accounts_joining_four_running_tables_seconds_apart_are_flagged() -> None:
    flags = entry_flags(room(1) + coordinated(("mia", "noa"), [0, 2, 3, 5]))
    assert [flag.players for flag in flags] == [("mia", "noa")]
    flag = flags[0]
    assert flag.score >= flag.threshold == 6.0
    assert flag.evidence["entries_together"] == 4
    assert flag.evidence["expected_by_chance"] < 0.05
    assert sorted(flag.evidence["tables"]) == ["table:0", "table:2", "table:3", "table:5"]
    assert flag.severity == min(100.0, 10 * flag.score)
    assert "FRD-11" in flag.requirements


def test_players_who_join_when_they_like_are_not_flagged() -> None:
    """400 joins of 40 regulars over twelve hours at six tables: some land seconds apart by chance, never enough."""
    for seed in range(5):
        assert entry_flags(room(seed)) == []


def test_a_tables_opening_players_and_reconnects_are_not_entries_together() -> None:
    """The pair always sits down when a table opens, and reconnects together minutes later: not counted."""
    records = []
    for table in range(6):
        opened = START + table * 2 * HOUR
        records.append(ConnectionRecord("mia", f"table:{table}", opened))
        records.append(ConnectionRecord("noa", f"table:{table}", opened + 3.0))
        records.append(ConnectionRecord("mia", f"table:{table}", opened + 600.0))
        records.append(ConnectionRecord("noa", f"table:{table}", opened + 603.0))
    assert entry_flags(records) == []


def test_tournaments_are_not_judged_and_the_state_round_trips() -> None:
    records = room(1) + coordinated(("mia", "noa"), [0, 2, 3, 5])
    indicator = CoordinatedEntry()
    for record in sorted(records, key=lambda record: record.at):
        indicator.feed_connection(record)
    indicator.feed_connection(ConnectionRecord("mia", "tournament:9", START + 20 * HOUR))
    restored = CoordinatedEntry()
    restored.load_state(indicator.state())
    assert [flag.players for flag in restored.flags()] == [("mia", "noa")]
    assert "tournament:9" not in indicator.state()["places"]


def test_the_poisson_tail_is_exact_at_both_ends() -> None:
    assert poisson_upper_tail(2.0, 0) == 1.0
    assert abs(poisson_upper_tail(2.0, 1) - (1 - 2.718281828459045**-2)) < 1e-12
    assert 0 < poisson_upper_tail(0.001, 4) < 1e-13
