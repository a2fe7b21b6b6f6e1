"""TRN-11 / AMB-54: a satellite that ends while its target is running in late registration seats its winners at
once; if the target's late registration closed while the satellite was being played, they are seated all the same
(their buy-in joins the prize pool); a satellite that began after the target's registration closed gives a ticket for
the target's series (a target of no series closes its satellites instead: see
test_a_satellite_whose_target_started_and_a_phase_two_without_flights_are_closed.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.support import START, fresh, register_players, scheduled
from tests.tournaments.tickets_support import assert_the_ledger_reconciles, satellite_into, satellite_played, series
from tournaments.models import EntryStatus, TicketStatus, TournamentEntry, TournamentStatus, TournamentTicket
from tournaments.services import tournaments_advance_all
from wallet.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def running_target(late_levels: int, **fields: object) -> object:
    target = scheduled(START, buy_in=1_000, fee=100, late_registration_levels=late_levels, **fields)
    register_players(target, 2, now=START - timedelta(minutes=10))
    tournaments_advance_all(now=START)
    assert fresh(target).status == TournamentStatus.RUNNING
    return target


def test_winners_of_a_satellite_ending_in_late_registration_are_seated_trn_11() -> None:
    target = running_target(late_levels=4)
    satellite = satellite_into(target, seats=3)
    (winner, *_), _ended = satellite_played(satellite, start=START + timedelta(seconds=30))
    entry = TournamentEntry.objects.get(tournament=target, user=winner)
    assert entry.status == EntryStatus.PLAYING
    assert entry.table_id is not None
    assert entry.paid_with_ticket is not None
    assert fresh(target).players_remaining == 3
    assert fresh(target).registration_closed_at is None
    assert_the_ledger_reconciles()


def test_winners_are_seated_even_if_late_registration_closed_meanwhile_amb_54() -> None:
    target = running_target(late_levels=1)  # late registration ends with level 1, at 12:05
    satellite = satellite_into(target, seats=3)
    register_players(satellite, 3, now=START + timedelta(minutes=1))  # the satellite starts during late registration
    tournaments_advance_all(now=START + timedelta(minutes=6))  # the target's registration closes meanwhile
    closed = fresh(target)
    assert closed.registration_closed_at is not None
    pool_before = closed.prize_pool
    from tests.tournaments.support import play

    ended = play(satellite, start=START + timedelta(minutes=6))
    tournaments_advance_all(now=ended)
    winner = TournamentEntry.objects.get(tournament=satellite, place=1).user
    entry = TournamentEntry.objects.get(tournament=target, user=winner)
    assert entry.status == EntryStatus.PLAYING
    after = fresh(target)
    assert after.prize_pool == pool_before + 1_000
    assert sum(after.prizes) == after.prize_pool
    assert after.entrants == 3
    pool = Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{target.pk}")
    assert pool.balance == after.prize_pool
    assert_the_ledger_reconciles()


def test_a_satellite_begun_after_the_targets_registration_closed_gives_a_ticket_for_its_series() -> None:
    target = running_target(late_levels=1, series=series())
    tournaments_advance_all(now=START + timedelta(minutes=6))
    assert fresh(target).registration_closed_at is not None
    satellite = satellite_into(target, seats=3)
    (winner, *_), _ended = satellite_played(satellite, start=START + timedelta(minutes=7))
    assert not TournamentEntry.objects.filter(tournament=target, user=winner).exists()
    ticket = TournamentTicket.objects.get(user=winner)
    assert (ticket.status, ticket.tournament_id, ticket.series_id) == (TicketStatus.AVAILABLE, None, target.series_id)
    assert_the_ledger_reconciles()
