"""A registration the tournament cannot take is refused with its true reason, by the service, the page and the API,
and changes nothing (QA finding: registering for a cancelled tournament was refused as "closed"). Cancelled
(TRN-15, CXL-02), finished (TRN-21), not open yet, full (TRN-35), started without late registration, late
registration over at the end of its last level or early because the payouts began (TRN-08, AMB-28); unregistering
from a cancelled or finished tournament says so too (TRN-14)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.support import (
    START,
    cash,
    fresh,
    play,
    player,
    register_players,
    scheduled,
    sit_and_go,
)
from tournaments.models import Tournament, TournamentEntry, TournamentStatus
from tournaments.services import (
    RegistrationClosed,
    RegistrationNotOpen,
    TournamentCancelled,
    TournamentFinished,
    TournamentFull,
    tournament_register,
    tournament_unregister,
    tournaments_advance_all,
)
from tournaments.services.staff import tournament_cancel

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

STARTS = START + timedelta(minutes=30)


def refused_and_nothing_changed(tournament: Tournament, error: type[Exception], match: str, *, now: datetime) -> None:
    """A new player's registration at ``now`` is refused with ``error`` saying ``match``; no entry, no money moved,
    the tournament unchanged."""
    before = fresh(tournament)
    user = player(cash=100_000)
    with pytest.raises(error, match=match):
        tournament_register(user, before, now=now)
    after = fresh(tournament)
    assert (after.entrants, after.version) == (before.entrants, before.version)
    assert not TournamentEntry.objects.filter(tournament=tournament, user=user).exists()
    assert cash(user) == 100_000


def test_a_tournament_cancelled_for_too_few_players_says_it_was_cancelled_not_closed_trn_15() -> None:
    tournament = scheduled(starts_at=STARTS, minimum_entrants=5)
    register_players(tournament, 2)
    tournaments_advance_all(now=STARTS)
    assert fresh(tournament).status == TournamentStatus.CANCELLED
    refused_and_nothing_changed(tournament, TournamentCancelled, r"^Scheduled was cancelled", now=STARTS)


def test_a_tournament_cancelled_by_staff_before_its_start_says_it_was_cancelled() -> None:
    tournament = scheduled(starts_at=STARTS)
    staff = player()
    tournament_cancel(tournament, actor=staff, reason="The venue is closed.", now=START)
    refused_and_nothing_changed(tournament, TournamentCancelled, "was cancelled", now=START + timedelta(minutes=1))


def test_a_finished_tournament_says_it_has_finished() -> None:
    tournament = sit_and_go(seats=2)
    register_players(tournament, 2)
    play(tournament)
    assert fresh(tournament).status == TournamentStatus.FINISHED
    refused_and_nothing_changed(tournament, TournamentFinished, "has finished", now=START)


def test_an_announced_tournament_says_when_its_registration_opens() -> None:
    opens = START + timedelta(hours=2)
    tournament = scheduled(starts_at=START + timedelta(hours=3), registration_opens_at=opens)
    refused_and_nothing_changed(tournament, RegistrationNotOpen, f"opens at {opens:%Y-%m-%d %H:%M} UTC", now=START)


def test_a_full_sit_and_go_says_it_is_full_and_a_started_one_that_it_is_under_way_trn_35() -> None:
    tournament = sit_and_go(seats=3, reopens=False)
    register_players(tournament, 2)
    tournament.refresh_from_db()
    tournament.entrants = 3  # every seat taken by registrations still being paid: the capacity check answers
    tournament.save(update_fields=["entrants"])
    refused_and_nothing_changed(tournament, TournamentFull, "is full", now=START)
    started = sit_and_go(seats=2, reopens=False)
    register_players(started, 2)
    assert fresh(started).status == TournamentStatus.RUNNING
    refused_and_nothing_changed(
        started, RegistrationClosed, "a Sit & Go takes no players once it is under way", now=START
    )


def test_a_started_tournament_without_late_registration_says_so_trn_08() -> None:
    tournament = scheduled(starts_at=STARTS)
    register_players(tournament, 3)
    tournaments_advance_all(now=STARTS)
    refused_and_nothing_changed(
        tournament,
        RegistrationClosed,
        "closed when it started: it has no late registration",
        now=STARTS + timedelta(minutes=1),
    )


def test_late_registration_over_says_at_the_end_of_which_level_trn_08_amb_28() -> None:
    tournament = scheduled(starts_at=STARTS, late_registration_levels=2)
    register_players(tournament, 3)
    tournaments_advance_all(now=STARTS)
    after_level_two = STARTS + timedelta(minutes=10, seconds=1)  # 5-minute levels
    refused_and_nothing_changed(tournament, RegistrationClosed, "closed at the end of level 2", now=after_level_two)


def test_late_registration_closed_early_says_the_payouts_began_trn_08_amb_28() -> None:
    tournament = scheduled(starts_at=STARTS, late_registration_levels=4)
    register_players(tournament, 5)  # two places paid
    tournaments_advance_all(now=STARTS)
    # Three knock-outs later, as the coordinator records them: two players left, no more than the paid places.
    Tournament.objects.filter(pk=tournament.pk).update(players_remaining=2)
    moment = STARTS + timedelta(minutes=6)  # level 2 of 4: the levels alone would keep it open
    refused_and_nothing_changed(tournament, RegistrationClosed, "closed early: no more players are left", now=moment)


def test_unregistering_from_a_cancelled_tournament_says_it_was_cancelled_and_refunded() -> None:
    tournament = scheduled(starts_at=STARTS, minimum_entrants=5)
    (user,) = register_players(tournament, 1)
    tournaments_advance_all(now=STARTS)
    with pytest.raises(TournamentCancelled, match="was cancelled: every registration was refunded"):
        tournament_unregister(user, tournament, now=STARTS)
    assert cash(user) == 100_000


def test_unregistering_from_a_finished_tournament_says_it_has_finished() -> None:
    tournament = sit_and_go(seats=2, reopens=False)
    first, _second = register_players(tournament, 2)
    play(tournament)
    with pytest.raises(TournamentFinished, match="has finished"):
        tournament_unregister(first, tournament, now=START)


def test_the_api_and_the_page_give_a_cancelled_tournaments_refusal_with_its_own_code(client: Client) -> None:
    tournament = scheduled(starts_at=timezone.now() + timedelta(days=1))
    tournament_cancel(tournament, actor=player(), reason="Not enough interest.")
    user = player(cash=100_000)
    client.force_login(user)
    answer = client.post(f"/api/tournaments/{tournament.pk}/registration/", {}, content_type="application/json")
    assert answer.status_code == 409
    assert answer.json() == {
        "code": "tournament_cancelled",
        "message": "Scheduled was cancelled: it takes no registrations.",
    }
    page = client.post(reverse("tournaments:registration", args=[tournament.pk]), {"action": "register"}, follow=True)
    assert "Scheduled was cancelled: it takes no registrations." in page.content.decode()
    assert "is closed" not in page.content.decode()
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    assert cash(user) == 100_000
