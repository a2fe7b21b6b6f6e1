"""The lobby's "Your tickets", a satellite's page and the register-with-ticket button in Estonian carry no English
sentence (TRN-37, LOB-02, LOB-03), by the measure of the other tournament pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.support import player, register_players, scheduled
from tests.tournaments.test_tournament_pages_speak_estonian import english_lines
from tests.tournaments.tickets_support import satellite_into, series, ticket_for
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_tickets_and_satellite_pages_are_estonian() -> None:
    target = scheduled(timezone.now() + timedelta(days=1), buy_in=1_000, fee=100, series=series("Pühapäev"))
    satellite = satellite_into(target, seats=6)
    Tournament.objects.filter(pk=satellite.pk).update(name="Sit & Go")
    register_players(satellite, 3, now=timezone.now())
    user = player()
    ticket_for(user, series_row=series("Pühapäev"), now=timezone.now())
    client = Client(HTTP_ACCEPT_LANGUAGE="et")
    client.cookies["django_language"] = "et"
    client.force_login(user)
    lobby = client.get(reverse("tournaments:index")).content.decode()
    satellite_page = client.get(reverse("tournaments:detail", args=[satellite.pk])).content.decode()
    target_page = client.get(reverse("tournaments:detail", args=[target.pk])).content.decode()
    assert "Sinu piletid" in lobby
    assert "Satelliit turniirile" in satellite_page
    assert "Registreeru piletiga" in target_page
    assert english_lines(lobby) == []
    assert english_lines(satellite_page) == []
    assert english_lines(target_page) == []
