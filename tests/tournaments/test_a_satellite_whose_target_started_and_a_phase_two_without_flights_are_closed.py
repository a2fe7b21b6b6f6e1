"""A satellite that has not started is closed once its target has started and takes no more players: nobody can
register for it and its registrations are refunded in full (TRN-37: its seats could not be delivered; TRN-11 covers a
satellite that had already begun). A Phase 2 all of whose flights were cancelled is cancelled at once and says why
(TRN-45), instead of waiting for its start time. (Issue 28: "A satellite whose target has started is closed; a
Phase 2 whose flights were cancelled says so.")"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournaments.phases_support import PHASE_TWO_START, flight, phase_two
from tests.tournaments.support import START, cash, fresh, player, register_players, scheduled
from tests.tournaments.tickets_support import satellite_into
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import (
    RegistrationClosed,
    tournament_advance,
    tournament_cancel,
    tournament_register,
    tournaments_advance_all,
)
from tournaments.services.running import FLIGHTS_CANCELLED_REASON, SATELLITE_TARGET_CLOSED_REASON

pytestmark = pytest.mark.django_db

TARGET_START = START + timedelta(minutes=30)


def test_a_satellite_whose_target_started_with_registration_closed_refuses_players_and_refunds_them_trn_37() -> None:
    target = scheduled(TARGET_START, late_registration_levels=0)
    register_players(target, 2)
    satellite = satellite_into(target, seats=3)
    early = register_players(satellite, 2)
    tournament_advance(target.pk, now=TARGET_START)  # the target starts; the beat has not seen the satellite yet
    assert fresh(target).status == TournamentStatus.RUNNING

    late = player(cash=100_000)
    with pytest.raises(RegistrationClosed, match="has started and takes no more players"):
        tournament_register(late, satellite, now=TARGET_START + timedelta(seconds=1))
    assert cash(late) == 100_000
    assert not TournamentEntry.objects.filter(tournament=satellite, user=late).exists()

    tournaments_advance_all(now=TARGET_START + timedelta(seconds=2))
    closed = fresh(satellite)
    assert closed.status == TournamentStatus.CANCELLED
    assert closed.cancelled_reason == SATELLITE_TARGET_CLOSED_REASON
    assert [cash(user) for user in early] == [100_000, 100_000]  # buy-in and fee back
    assert set(TournamentEntry.objects.filter(tournament=satellite).values_list("status", flat=True)) == {
        EntryStatus.REFUNDED
    }


def test_a_satellite_stays_open_while_its_running_target_still_takes_late_registrations_trn_11() -> None:
    target = scheduled(TARGET_START, late_registration_levels=2)
    register_players(target, 2)
    satellite = satellite_into(target, seats=3)
    register_players(satellite, 1)
    tournaments_advance_all(now=TARGET_START)
    assert fresh(target).status == TournamentStatus.RUNNING
    tournaments_advance_all(now=TARGET_START + timedelta(seconds=30))
    assert fresh(satellite).status == TournamentStatus.REGISTERING
    tournament_register(player(cash=100_000), satellite, now=TARGET_START + timedelta(seconds=31))
    assert fresh(satellite).entrants == 2


def test_a_satellite_whose_target_was_cancelled_is_closed_before_its_start() -> None:
    target = scheduled(TARGET_START)
    satellite = satellite_into(target, seats=3)
    (early,) = register_players(satellite, 1)
    tournament_cancel(target, actor=staff("support"), reason="moved to next week")
    tournaments_advance_all(now=START + timedelta(minutes=1))
    assert fresh(satellite).status == TournamentStatus.CANCELLED
    assert cash(early) == 100_000


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def test_a_phase_two_whose_flights_were_all_cancelled_is_cancelled_at_once_and_says_why_trn_45(client: Client) -> None:
    target = phase_two()
    flights = [flight(target, START + timedelta(minutes=30)), flight(target, START + timedelta(minutes=60))]
    tournament_cancel(flights[0], actor=staff("first"), reason="server maintenance")
    tournaments_advance_all(now=START + timedelta(minutes=1))
    assert fresh(target).status == TournamentStatus.REGISTERING  # flight B can still feed it

    tournament_cancel(flights[1], actor=staff("second"), reason="server maintenance")
    tournaments_advance_all(now=START + timedelta(minutes=2))
    cancelled = fresh(target)
    assert START + timedelta(minutes=2) < PHASE_TWO_START  # well before its own start
    assert cancelled.status == TournamentStatus.CANCELLED
    assert cancelled.cancelled_reason == FLIGHTS_CANCELLED_REASON
    page = client.get(f"/tournaments/{target.pk}/").content.decode()
    assert "every Phase 1 flight of this tournament was cancelled" in page
