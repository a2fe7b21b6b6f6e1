"""The lobby's APIs answer a self-excluded player's attempt to queue for a stake or register for a tournament with
the refusal (code ``self_excluded`` and the end date) and change nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import SeatingRequest
from poker_site.responsible_gaming.services import self_exclusion_start
from tests.tables.support import player, stake
from tests.tournaments.support import scheduled
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of_excluded() -> tuple[Client, object]:
    user = player(cash=50_000)
    self_exclusion_start(user, "7d", confirmed=True)
    client = Client()
    client.force_login(user)
    return client, user


def test_queueing_for_a_stake_is_refused(client_of_excluded: tuple[Client, object]) -> None:
    client, user = client_of_excluded
    response = client.post(
        reverse("games-api:stake-queue", args=[stake("holdem", "NL10").pk]),
        json.dumps({"buy_in": 1_000}),
        content_type="application/json",
    )
    assert response.status_code >= 400
    body = json.dumps(response.json())
    assert "self_excluded" in body
    assert "You cannot join a table: you have excluded yourself until" in body
    assert not SeatingRequest.objects.filter(user=user).exists()


def test_registering_for_a_tournament_is_refused(client_of_excluded: tuple[Client, object]) -> None:
    client, user = client_of_excluded
    tournament = scheduled(starts_at=timezone.now() + timedelta(hours=2))
    response = client.post(reverse("tournaments-api:registration", args=[tournament.pk]))
    assert response.status_code == 409
    assert response.json()["code"] == "self_excluded"
    assert response.json()["message"].startswith("You cannot register for tournaments: you have excluded yourself")
    assert not TournamentEntry.objects.filter(user=user).exists()
