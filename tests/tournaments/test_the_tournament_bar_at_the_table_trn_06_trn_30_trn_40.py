"""The tournament bar at a tournament table (``/api/tournaments/<id>/bar/``): the level with its end and the next
level's blinds and ante, the break, players left of the entrants, the average stack, the player's rank and the next
pay jump (TRN-06, TRN-30); and the result a knocked-out player reads: place, prize, whether they may re-enter
(TRN-40). A finished tournament has no players left to count ("0 of 3 players left" is never shown)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client

from games.models import Seat
from tests.tournaments.support import START, register_players, scheduled
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus
from tournaments.services import tournament_advance
from tournaments.table_bar import next_pay_jump, tournament_bar

pytestmark = pytest.mark.django_db


def test_the_next_pay_jump_is_the_next_place_that_pays_more() -> None:
    prizes = (5_000, 3_000, 2_000, 1_000, 1_000)
    assert next_pay_jump(prizes, 9) == {"players_left": 5, "prize": 1_000}  # the bubble: the money at 5 left
    assert next_pay_jump(prizes, 5) == {"players_left": 3, "prize": 2_000}  # 5th and 4th pay the same
    assert next_pay_jump(prizes, 4) == {"players_left": 3, "prize": 2_000}
    assert next_pay_jump(prizes, 2) == {"players_left": 1, "prize": 5_000}
    assert next_pay_jump(prizes, 1) is None
    assert next_pay_jump((), 6) is None


def test_the_bar_shows_the_level_the_next_blinds_players_average_stack_and_the_viewers_rank() -> None:
    tournament = scheduled(START, table_size=4)
    users = register_players(tournament, 4, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(2))
    leader = users[0]
    Seat.objects.filter(user=leader).update(chips=1_600)
    Seat.objects.filter(user=users[1]).update(chips=400)

    bar = tournament_bar(Tournament.objects.get(pk=tournament.pk), leader.pk, now=START + timedelta(seconds=60))
    assert (bar["level"], bar["small_blind"], bar["big_blind"], bar["ante"]) == (1, 10, 20, 0)
    assert bar["level_ends_at"] == (START + timedelta(seconds=300)).isoformat()
    assert bar["next_level"] == {"small_blind": 20, "big_blind": 40, "ante": 0}
    assert (bar["players_remaining"], bar["entrants"]) == (4, 4)
    assert bar["average_stack"] == 1_000  # 4,000 chips among four players
    assert bar["viewer"]["chips"] == 1_600
    assert bar["viewer"]["rank"] == 1
    assert bar["viewer"]["out"] is False
    spectator = tournament_bar(Tournament.objects.get(pk=tournament.pk), None, now=START + timedelta(seconds=60))
    assert spectator["viewer"] is None


def test_a_knocked_out_player_reads_their_place_and_prize_and_a_finished_tournament_counts_no_players() -> None:
    tournament = scheduled(START, table_size=4)
    users = register_players(tournament, 3, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(2))
    TournamentEntry.objects.filter(tournament=tournament, user=users[2]).update(
        status=EntryStatus.FINISHED, place=3, prize=0, table=None
    )
    TournamentEntry.objects.filter(tournament=tournament, user=users[0]).update(
        status=EntryStatus.FINISHED, place=1, prize=3_000, table=None
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)

    finished = Tournament.objects.get(pk=tournament.pk)
    third = tournament_bar(finished, users[2].pk)
    assert third["players_remaining"] == 0
    assert third["next_pay_jump"] is None
    assert third["viewer"]["out"] is True
    assert (third["viewer"]["place"], third["viewer"]["prize"], third["viewer"]["re_entry"]) == (3, 0, False)
    assert tournament_bar(finished, users[0].pk)["viewer"]["place"] == 1


def test_a_tournament_that_ends_while_the_bar_is_read_is_shown_finished_not_running_with_no_players() -> None:
    """The tournament row was read before the last hand's end committed and the entries after it: the bar reports
    the tournament finished, never "running, 0 of 3 players left" (a race seen in the browser test of the bar)."""
    tournament = scheduled(START, table_size=4)
    users = register_players(tournament, 3, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(2))
    read_before_the_end = Tournament.objects.get(pk=tournament.pk)
    assert read_before_the_end.status == TournamentStatus.RUNNING
    TournamentEntry.objects.filter(tournament=tournament).update(status=EntryStatus.FINISHED, table=None)
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)

    bar = tournament_bar(read_before_the_end, users[1].pk)
    assert bar["status"] == TournamentStatus.FINISHED
    assert bar["players_remaining"] == 0


def test_the_bar_is_served_to_anyone_and_a_missing_tournament_is_404(client: Client) -> None:
    tournament = scheduled(START, table_size=4)
    response = client.get(f"/api/tournaments/{tournament.pk}/bar/")
    assert response.status_code == 200
    assert response.json()["level"] is None  # not started
    assert client.get("/api/tournaments/999999/bar/").status_code == 404
