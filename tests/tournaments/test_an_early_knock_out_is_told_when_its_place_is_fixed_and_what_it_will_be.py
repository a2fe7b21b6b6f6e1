"""A player knocked out before the places can be given — while late registration (TRN-08, AMB-28) or the re-buy
period and add-on (TRN-39) are open, since every late entry finishes above them and the prize structure is final only
when registration closes (TRN-06; seed 002 #31) — is told what their place waits for, at the end of which level and
when, and the place as far as it is known: the place if nobody else enters, and the worst it can become (a maximum of
entrants bounds it); once nobody can enter any more the place is exact. When the places are given, the result shows
the place (QA finding: "Your place is being decided" until late registration closed, nothing more). The prizes are
unchanged: each is paid when its place is given (TRN-27)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.rebuys_support import rebuy_tournament
from tests.tournaments.support import (
    START,
    fresh,
    one_shove_a_hand,
    play,
    player,
    register_players,
    scheduled,
)
from tournaments.models import EntryStatus, Tournament, TournamentEntry
from tournaments.services import tournament_register, tournaments_advance_all
from tournaments.table_bar import tournament_bar

pytestmark = pytest.mark.django_db

STARTS = START + timedelta(minutes=30)
LEVEL = timedelta(minutes=5)


def first_knock_out(tournament: Tournament, starts: datetime = STARTS) -> tuple[TournamentEntry, datetime]:
    """Play from the start until the first player is knocked out (one knock-out a hand at most); that entry and the
    simulated time."""
    moment = play(
        tournament,
        start=starts,
        policy=one_shove_a_hand,
        until=lambda current: TournamentEntry.objects.filter(tournament=current, status=EntryStatus.BUSTED).exists(),
    )
    return TournamentEntry.objects.get(tournament=tournament, status=EntryStatus.BUSTED), moment


def test_an_early_knock_out_reads_that_late_registration_fixes_the_place_and_the_place_if_nobody_else_enters() -> None:
    tournament = scheduled(starts_at=STARTS, late_registration_levels=2)
    register_players(tournament, 4)
    out, moment = first_knock_out(tournament)
    assert moment < STARTS + 2 * LEVEL  # still in late registration

    pending = tournament_bar(fresh(tournament), out.user_id, now=moment)["viewer"]["place_pending"]

    assert pending["given"] == "late_registration"
    assert pending["level"] == 2
    assert pending["at"] == (STARTS + 2 * LEVEL).isoformat()  # no break: the end of level 2
    assert pending["may_come_earlier"] is True  # AMB-28: once the players left reach the paid places
    assert pending["place"] == 4  # the first of four out, if nobody else enters
    assert pending["worst_place"] is None  # no maximum of entrants: no bound


def test_each_late_registration_moves_the_place_one_down_and_a_maximum_of_entrants_bounds_it() -> None:
    tournament = scheduled(starts_at=STARTS, late_registration_levels=2, maximum_entrants=7)
    register_players(tournament, 4)
    out, moment = first_knock_out(tournament)
    tournament_register(player(), tournament, now=moment)

    pending = tournament_bar(fresh(tournament), out.user_id, now=moment)["viewer"]["place_pending"]

    assert pending["place"] == 5  # the late registrant finishes above
    assert pending["worst_place"] == 7  # two more entries possible at most


def test_when_late_registration_closes_the_place_is_given_and_shown() -> None:
    tournament = scheduled(starts_at=STARTS, late_registration_levels=2)
    register_players(tournament, 4)
    out, moment = first_knock_out(tournament)
    tournament_register(player(), tournament, now=moment)
    tournaments_advance_all(now=STARTS + 2 * LEVEL + timedelta(seconds=1))

    viewer = tournament_bar(fresh(tournament), out.user_id)["viewer"]

    assert (viewer["status"], viewer["place"], viewer["place_pending"]) == (EntryStatus.FINISHED, 5, None)


def test_in_a_rebuy_tournament_the_place_waits_for_the_rebuy_period_and_is_exact_without_late_registration() -> None:
    tournament = rebuy_tournament(starts_at=STARTS)  # re-buys during levels 1 and 2, no late registration
    register_players(tournament, 4)
    out, moment = first_knock_out(tournament)

    pending = tournament_bar(fresh(tournament), out.user_id, now=moment)["viewer"]["place_pending"]

    assert pending["given"] == "purchases"
    assert (pending["level"], pending["after_break"]) == (2, False)
    assert pending["at"] == (STARTS + 2 * LEVEL).isoformat()
    assert pending["may_come_earlier"] is False
    assert pending["place"] == pending["worst_place"] == 4  # nobody can enter any more: the place is known


def test_the_tournament_page_tells_the_knocked_out_player_what_the_place_waits_for(client: Client) -> None:
    starts = timezone.now().replace(microsecond=0)  # the page reads the clock now: four levels of late registration
    tournament = scheduled(starts_at=starts, late_registration_levels=4)
    register_players(tournament, 4, now=starts - LEVEL)
    out, _moment = first_knock_out(tournament, starts)
    client.force_login(out.user)

    detail = client.get(f"/api/tournaments/{tournament.pk}/").json()
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()

    assert detail["viewer"]["place_pending"]["given"] == "late_registration"
    assert 'id="place-pending" data-given="late_registration"' in page
    assert "Your place will be fixed when late registration closes: at the end of level 4" in page
    assert "It will be place 4 if nobody else registers or re-enters" in page
