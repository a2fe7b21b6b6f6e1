"""A tournament table broken up for the closed-table socket tests (TRN-25, TRN-26): five players at two four-seat
tables, one of the smaller table's two disqualified, so the tournament's next step moves the other to the bigger table
and closes the smaller one."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from games.models import Table, TableStatus
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.support import START, register_players, scheduled
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.services import tournament_advance
from tournaments.services.staff import entry_disqualify


@dataclass(frozen=True)
class BrokenTable:
    broken: Table
    """Closed: its last player was moved away."""
    playing: Table
    """Where the moved player plays now, with three players."""
    moved: TournamentEntry
    disqualified: TournamentEntry
    """Sat at the broken table; plays at no table now."""
    staying: TournamentEntry
    """One of the players who sat at the playing table all along."""


def a_tournament_table_broken_up() -> BrokenTable:
    tournament = scheduled(START, table_size=4)
    register_players(tournament, 5, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(3))
    by_table: dict[int, list[TournamentEntry]] = {}
    for entry in TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING):
        by_table.setdefault(int(entry.table_id), []).append(entry)
    small, big = sorted(by_table, key=lambda table_id: len(by_table[table_id]))
    disqualified, moved = by_table[small]
    entry_disqualify(disqualified, actor=staff_member(SUPPORT_STAFF), reason="Collusion", forfeit_prize=False)
    # One player left at the small table, three at the big one, four seats each: the small table is broken.
    tournament_advance(tournament.pk, now=START + timedelta(seconds=2), randomness=random.Random(3))
    broken, playing = Table.objects.get(pk=small), Table.objects.get(pk=big)
    assert broken.status == TableStatus.CLOSED
    assert TournamentEntry.objects.get(pk=moved.pk).table_id == playing.pk
    return BrokenTable(broken, playing, moved, disqualified, by_table[big][0])
