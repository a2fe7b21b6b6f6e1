"""TRN-22 / AMB-33: players knocked out in the same hand with the same chips at its start have their order drawn at
random, and they are told so: the places drawn are recorded with each place given, and the player's result at the
table (the bar's result panel), the tournament's page and its API say the place came from a draw between tied
players (QA finding: the draw was silent). Places decided by the chips say nothing of a draw."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.support import fresh, play, register_players, shove_or_call, sit_and_go
from tournaments.models import Tournament, TournamentEntry, TournamentStatus
from tournaments.rules.eliminations import FinishingPlace, finishing_places
from tournaments.table_bar import tournament_bar

pytestmark = pytest.mark.django_db


def test_the_rule_marks_the_places_drawn_between_tied_stacks_and_only_those_trn_22() -> None:
    places = finishing_places({1: 500, 2: 500, 3: 2_000, 4: 300}, 20, random.Random(3))
    assert places[0] == FinishingPlace(3, 17)  # the biggest stack: its place by the chips
    assert {place.player for place in places[1:3]} == {1, 2}
    assert all(place.drawn_among == (18, 19) for place in places[1:3])
    assert places[3] == FinishingPlace(4, 20)  # the smallest: no draw
    assert finishing_places({7: 1_200, 8: 800}, 10, random.Random(1))[1].drawn_among is None


def three_way_all_in() -> Tournament:
    """A Sit & Go of three whose first hand every player goes all in with the same 1,000 chips: one wins them all,
    the two others are knocked out in that hand with equal stacks, so their places 2 and 3 are drawn (TRN-22)."""
    tournament = sit_and_go(seats=3, reopens=False)
    register_players(tournament, 3)
    play(tournament, policy=shove_or_call)
    tournament = fresh(tournament)
    assert tournament.status == TournamentStatus.FINISHED
    losers = list(TournamentEntry.objects.filter(tournament=tournament, place__gt=1).order_by("place"))
    assert len({entry.eliminated_in_hand_id for entry in losers}) == 1  # the same hand
    assert {entry.chips_at_hand_start for entry in losers} == {1_000}  # the same chips at its start
    return tournament


def test_the_places_drawn_are_recorded_with_the_places_given_and_the_winners_is_not() -> None:
    tournament = three_way_all_in()
    drawn = {
        entry.place: (entry.place_drawn_from, entry.place_drawn_to)
        for entry in TournamentEntry.objects.filter(tournament=tournament)
    }
    assert drawn == {1: (None, None), 2: (2, 3), 3: (2, 3)}


def test_the_players_result_at_the_table_says_the_place_was_drawn() -> None:
    tournament = three_way_all_in()
    second = TournamentEntry.objects.get(tournament=tournament, place=2)
    winner = TournamentEntry.objects.get(tournament=tournament, place=1)
    assert tournament_bar(tournament, second.user_id)["viewer"]["place_drawn"] == {"from": 2, "to": 3}
    assert tournament_bar(tournament, winner.user_id)["viewer"]["place_drawn"] is None


def test_the_tournament_page_and_api_say_which_places_were_drawn(client: Client) -> None:
    tournament = three_way_all_in()
    third = TournamentEntry.objects.select_related("user").get(tournament=tournament, place=3)
    client.force_login(third.user)
    detail = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["viewer"]["place_drawn"] == {"from": 2, "to": 3}
    assert [row["place_drawn"] for row in sorted(detail["entrants_list"], key=lambda row: row["place"])] == [
        None,
        {"from": 2, "to": 3},
        {"from": 2, "to": 3},
    ]
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'id="viewer-place-drawn"' in page
    assert "Places 2 to 3 were drawn at random between players who were tied on chips." in page
    assert page.count('class="place-drawn"') == 2  # the results list marks the two drawn places, not the winner's
