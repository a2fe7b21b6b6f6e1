"""TRN-04, LOB-05: after the start, the first hand is dealt only once the players have had their time to reach their
tables (``FIRST_DEAL_DELAY``, the countdown the player socket shows): a coordination in between (the beat runs every
few seconds) does not deal it early."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games.models import Table
from tests.tournaments.support import START, register_players, scheduled
from tournaments.services import tournament_advance
from tournaments.services.running import FIRST_DEAL_DELAY

pytestmark = pytest.mark.django_db


def test_a_coordination_right_after_the_start_keeps_the_first_deal_time() -> None:
    tournament = scheduled(START, table_size=4)
    register_players(tournament, 4, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(1))
    tournament_advance(tournament.pk, now=START + timedelta(seconds=2), randomness=random.Random(1))
    deals = set(Table.objects.filter(tournament_link__tournament=tournament).values_list("next_hand_at", flat=True))
    assert deals == {START + FIRST_DEAL_DELAY}
