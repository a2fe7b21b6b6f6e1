"""TRN-45: a Phase 1 flight plays its final level and deals no hand once that level is over (the hands in play finish
first), then ends;
every player still holding chips is registered in Phase 2 with their stack, the flight's entries say they are
through, its tables close and nobody in the flight gets a prize."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Hand, Seat, Table, TableStatus
from tests.tournaments.phases_support import FLIGHT_STEP, check_or_call, flight, phase_two
from tests.tournaments.support import START, fresh, play, register_players
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_a_flight_plays_its_final_level_and_its_survivors_are_registered_in_phase_two_with_their_stacks_trn_45() -> (
    None
):
    target = phase_two()
    first = flight(target, START + timedelta(minutes=30), final_level=2)
    register_players(first, 12)
    stacks_at_the_end: dict[int, int] = {}  # the stacks as the flight's last step began

    def remember_stacks(current: Tournament, now: object) -> None:
        if current.status == TournamentStatus.RUNNING:
            stacks_at_the_end.clear()
            stacks_at_the_end.update(
                Seat.objects.filter(table__tournament_link__tournament=current, user__isnull=False).values_list(
                    "user_id", "chips"
                )
            )

    assert first.starts_at is not None
    play(first, start=first.starts_at, step=FLIGHT_STEP, policy=check_or_call, after_step=remember_stacks)
    ended = fresh(first)
    assert ended.status == TournamentStatus.FINISHED
    # The final level, 2, is played; it is over 10 minutes after the start: no hand of the flight was dealt at level 3.
    hands = Hand.objects.filter(table__tournament_link__tournament=first)
    assert hands.filter(level_number=2).exists()
    assert max(hand.level_number for hand in hands) == 2
    assert ended.finished_at is not None
    assert ended.finished_at >= first.starts_at + timedelta(minutes=10)
    assert not Table.objects.filter(tournament_link__tournament=first, status=TableStatus.OPEN).exists()

    flight_entries = {entry.user_id: entry for entry in TournamentEntry.objects.filter(tournament=first)}
    survivors = {
        user: entry.carried_chips for user, entry in flight_entries.items() if entry.status == EntryStatus.QUALIFIED
    }
    assert len(survivors) >= 2
    assert all(chips and chips > 0 for chips in survivors.values())
    # The players still holding chips at the flight's last hand are exactly those through to Phase 2.
    assert set(survivors) <= {user for user, chips in stacks_at_the_end.items() if chips > 0}
    knocked_out = [entry for entry in flight_entries.values() if entry.status != EntryStatus.QUALIFIED]
    assert all(entry.status == EntryStatus.FINISHED and entry.place for entry in knocked_out)
    assert sorted(entry.place for entry in knocked_out) == list(range(len(survivors) + 1, 13))
    assert all(entry.prize == 0 for entry in flight_entries.values())
    carried = {
        entry.user_id: entry
        for entry in TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED)
    }
    assert {user: entry.carried_chips for user, entry in carried.items()} == survivors
    assert all(entry.carried_from_id == flight_entries[user].pk for user, entry in carried.items())
    assert all(entry.prize_contribution == 0 and entry.fee == 0 for entry in carried.values())
    assert fresh(target).entrants == len(survivors)
    assert sum(survivors.values()) == 12 * first.starting_stack  # every chip of the flight is carried
    assert not Seat.objects.filter(table__tournament_link__tournament=first, user__isnull=False).exists()
    assert AuditEntry.objects.filter(action="tournament.flight_ended", target=f"tournaments.tournament:{first.pk}")
