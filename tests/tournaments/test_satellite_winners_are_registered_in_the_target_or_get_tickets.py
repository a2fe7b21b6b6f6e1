"""Satellites (TRN-37, TRN-10, AMB-54): the best places win seats in the target — registered at once with a ticket
when the target takes registrations, otherwise a ticket to use later — the rest of the pool is cash; tiered
satellites; the money moves through the ledger and it reconciles."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.support import START, cash, fresh, play, register_players, scheduled, sit_and_go
from tests.tournaments.tickets_support import (
    assert_the_ledger_reconciles,
    satellite_into,
    satellite_played,
    series,
    staff_member,
)
from tournaments.models import EntryStatus, TicketStatus, TournamentEntry, TournamentStatus, TournamentTicket
from tournaments.services import tournament_cancel, tournament_register, tournament_unregister, tournaments_advance_all
from wallet.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def test_the_winner_is_registered_in_the_target_with_a_ticket_and_the_next_place_gets_the_cash_trn_37() -> None:
    target = scheduled(START + timedelta(days=1), buy_in=1_000, fee=100)
    satellite = satellite_into(target, seats=3, buy_in=500, fee=50)  # pool €15.00: one €11.00 seat, €4.00 cash
    players, _ended = satellite_played(satellite)
    assert fresh(satellite).satellite_seats == 1
    winner, second, third = players
    ticket = TournamentTicket.objects.get(user=winner)
    assert (ticket.value, ticket.tournament_id, ticket.status) == (1_100, target.pk, TicketStatus.USED)
    entry = TournamentEntry.objects.get(tournament=target, user=winner)
    assert (entry.status, entry.paid_with_ticket_id, entry.prize_contribution, entry.fee) == (
        EntryStatus.REGISTERED,
        ticket.pk,
        1_000,
        100,
    )
    assert fresh(target).entrants == 1
    assert cash(winner) == 100_000 - 550  # the seat is not cash
    assert cash(second) == 100_000 - 550 + 400
    assert cash(third) == 100_000 - 550
    pool = Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{satellite.pk}")
    assert pool.balance == 0
    target_pool = Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{target.pk}")
    assert target_pool.balance == 1_000
    assert [event.action for event in ticket.events.order_by("pk")] == ["issued", "used"]
    assert_the_ledger_reconciles()


def test_a_winner_who_unregisters_gets_the_ticket_instead_of_the_seat_trn_10_amb_54() -> None:
    target = scheduled(START + timedelta(days=1), buy_in=1_000, fee=100)
    satellite = satellite_into(target, seats=3, buy_in=500, fee=50)
    (winner, *_), ended = satellite_played(satellite)
    tournament_unregister(winner, target, now=ended)
    ticket = TournamentTicket.objects.get(user=winner)
    assert ticket.status == TicketStatus.RETURNED
    assert Account.objects.get(reference=f"ticket:{ticket.pk}").balance == 1_100  # target's buy-in + fee (AMB-54)
    assert cash(winner) == 100_000 - 550  # no cash for the seat
    tournament_register(winner, target, now=ended, ticket=ticket.pk)  # and may take the seat again
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.USED
    assert_the_ledger_reconciles()


def test_a_target_not_yet_open_leaves_the_winner_a_ticket_for_its_series() -> None:
    sunday = series()
    target = scheduled(START + timedelta(days=1), buy_in=1_000, fee=100, series=sunday)
    target.status = TournamentStatus.ANNOUNCED
    target.registration_opens_at = START + timedelta(days=3)  # far after the satellite
    target.save(update_fields=["status", "registration_opens_at"])
    satellite = satellite_into(target, seats=3)
    (winner, *_), _ended = satellite_played(satellite)
    ticket = TournamentTicket.objects.get(user=winner)
    assert (ticket.status, ticket.series_id, ticket.tournament_id, ticket.value) == (
        TicketStatus.AVAILABLE,
        sunday.pk,
        None,
        1_100,
    )
    assert not TournamentEntry.objects.filter(tournament=target).exists()
    # Another tournament of the series at the same buy-in level takes it.
    next_sunday = scheduled(START + timedelta(days=8), buy_in=1_000, fee=100, series=sunday)
    entry = tournament_register(winner, next_sunday, now=START, ticket=ticket.pk)
    assert entry.paid_with_ticket_id == ticket.pk
    assert_the_ledger_reconciles()


def test_a_winner_already_registered_in_the_target_keeps_the_ticket() -> None:
    target = scheduled(START + timedelta(days=1), buy_in=1_000, fee=100)
    satellite = satellite_into(target, seats=2, buy_in=1_000, fee=100)  # pool €20.00: one seat, €9.00 cash
    users = register_players(satellite, 1)
    for user in users:
        tournament_register(user, target, now=START)  # registered with cash beforehand
    others = register_players(satellite, 1)
    ended = play(satellite)
    tournaments_advance_all(now=ended)
    winner = TournamentEntry.objects.get(tournament=satellite, place=1).user
    ticket = TournamentTicket.objects.get(user=winner)
    expected = TicketStatus.AVAILABLE if winner in users else TicketStatus.USED
    assert ticket.status == expected
    assert TournamentEntry.objects.filter(tournament=target, user=winner, status=EntryStatus.REGISTERED).count() == 1
    assert len(users + others) == 2
    assert_the_ledger_reconciles()


def test_a_tiered_satellite_wins_a_seat_in_a_satellite_that_wins_a_seat_in_the_target_trn_37() -> None:
    target = scheduled(START + timedelta(days=1), buy_in=2_000, fee=200)  # €22.00
    second_tier = satellite_into(target, seats=2, buy_in=1_000, fee=100)  # €11.00: pool €20.00 < a seat: cash
    second_tier.seats_to_start = 3
    second_tier.table_size = 3
    second_tier.minimum_entrants = 3
    second_tier.save(update_fields=["seats_to_start", "table_size", "minimum_entrants"])
    first_tier = satellite_into(second_tier, seats=3, buy_in=500, fee=50)  # pool €15.00: one €11.00 seat + €4.00
    (first_tier_winner, *_), ended = satellite_played(first_tier)
    entry = TournamentEntry.objects.get(tournament=second_tier, user=first_tier_winner)
    assert entry.paid_with_ticket is not None
    assert entry.paid_with_ticket.won_in.tournament_id == first_tier.pk
    register_players(second_tier, 2, now=ended)  # the second tier fills and starts: pool €30.00 → one €22.00 seat

    done = play(second_tier, start=ended)
    tournaments_advance_all(now=done)
    second_tier_winner = TournamentEntry.objects.get(tournament=second_tier, place=1).user
    assert TournamentEntry.objects.get(tournament=target, user=second_tier_winner).paid_with_ticket is not None
    assert fresh(second_tier).satellite_seats == 1
    assert TournamentEntry.objects.get(tournament=second_tier, place=2).prize == 800
    assert_the_ledger_reconciles()


def test_the_cancellation_of_the_target_before_its_start_returns_the_satellite_ticket_cxl_02() -> None:

    target = scheduled(START + timedelta(days=1), buy_in=1_000, fee=100)
    satellite = satellite_into(target, seats=3)
    (winner, *_), _ended = satellite_played(satellite)
    tournament_cancel(target, actor=staff_member(), reason="no room", now=START + timedelta(hours=2))
    ticket = TournamentTicket.objects.get(user=winner)
    assert ticket.status == TicketStatus.RETURNED
    assert TournamentEntry.objects.get(tournament=target, user=winner).status == EntryStatus.REFUNDED
    assert_the_ledger_reconciles()


def test_a_sit_and_go_satellite_target_is_filled_by_its_winner() -> None:
    target = sit_and_go(seats=2, buy_in=1_000, fee=100)
    satellite = satellite_into(target, seats=3, buy_in=500, fee=50)
    (winner, *_), _ended = satellite_played(satellite)
    assert TournamentEntry.objects.get(tournament=target, user=winner).status == EntryStatus.REGISTERED
    assert_the_ledger_reconciles()
