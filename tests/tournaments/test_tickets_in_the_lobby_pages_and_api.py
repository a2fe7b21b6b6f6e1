"""Tickets and satellites on the players' pages and the API (TRN-37, TRN-10, AMB-54): "Your tickets" in the lobby, a
satellite's target and seats on its page, registering with a ticket by the page's button and by the API's ``ticket``
parameter, and the refusals in words with nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.support import cash, player, register_players, scheduled
from tests.tournaments.tickets_support import assert_the_ledger_reconciles, satellite_into, series, ticket_for
from tournaments.models import TicketStatus, TournamentEntry, TournamentTicket

pytestmark = pytest.mark.django_db


def logged_in(client: Client) -> object:
    user = player()
    client.force_login(user)
    return user


def test_the_lobby_shows_your_tickets_trn_37(client: Client) -> None:
    user = logged_in(client)
    ticket_for(user, series_row=series("Sunday Major"), now=timezone.now())
    page = client.get(reverse("tournaments:index")).content.decode()
    assert 'id="your-tickets"' in page
    assert "€11.00" in page
    assert "any Sunday Major tournament of this buy-in" in page
    rows = client.get("/api/tournaments/tickets/").json()
    assert [(row["value"], row["series"], row["status"]) for row in rows] == [(1_100, "Sunday Major", "available")]


def test_a_satellite_page_shows_its_target_and_the_seats_so_far_trn_37(client: Client) -> None:
    target = scheduled(timezone.now() + timedelta(days=1), buy_in=1_000, fee=100)
    satellite = satellite_into(target, seats=6, buy_in=500, fee=50)
    register_players(satellite, 5, now=timezone.now())  # €25.00 so far: two €11.00 seats
    page = client.get(reverse("tournaments:detail", args=[satellite.pk])).content.decode()
    assert 'id="satellite-target"' in page
    assert "2 seats worth €11.00 each" in page
    detail = client.get(f"/api/tournaments/{satellite.pk}/").json()
    assert detail["satellite"] == {
        "target_id": target.pk,
        "target_name": target.name,
        "seat_value": 1_100,
        "seats": 2,
        "provisional": True,
    }
    target_page = client.get(reverse("tournaments:detail", args=[target.pk])).content.decode()
    assert 'id="satellites-into"' in target_page
    lobby = client.get(reverse("tournaments:index")).content.decode()
    assert 'data-testid="satellite"' in lobby
    rows = {row["id"]: row["satellite"] for row in client.get("/api/tournaments/").json()}
    assert (rows[satellite.pk], rows[target.pk]) == (True, False)


def test_registering_with_a_ticket_by_the_pages_button_and_getting_it_back_trn_10(client: Client) -> None:
    user = logged_in(client)
    target = scheduled(timezone.now() + timedelta(days=1), buy_in=1_000, fee=100)
    ticket = ticket_for(user, tournament=target, now=timezone.now())
    url = reverse("tournaments:registration", args=[target.pk])
    page = client.get(reverse("tournaments:detail", args=[target.pk])).content.decode()
    assert f'data-ticket-id="{ticket.pk}"' in page
    answer = client.post(url, {"action": "register", "ticket": str(ticket.pk)}, follow=True).content.decode()
    assert "You are registered with your ticket." in answer
    assert cash(user) == 100_000
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.USED
    client.post(url, {"action": "unregister"}, follow=True)
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.RETURNED
    assert_the_ledger_reconciles()


@pytest.mark.parametrize("bad", ["abc", "-1", "1" * 20])
def test_a_bad_ticket_field_on_the_page_is_refused_and_changes_nothing(client: Client, bad: str) -> None:
    user = logged_in(client)
    target = scheduled(timezone.now() + timedelta(days=1), buy_in=1_000, fee=100)
    answer = client.post(
        reverse("tournaments:registration", args=[target.pk]), {"action": "register", "ticket": bad}, follow=True
    )
    assert "Choose one of your tickets." in answer.content.decode()
    assert not TournamentEntry.objects.filter(tournament=target).exists()
    assert cash(user) == 100_000


def test_the_api_registers_with_a_ticket_and_refuses_someone_elses_in_words(client: Client) -> None:
    user = logged_in(client)
    target = scheduled(timezone.now() + timedelta(days=1), buy_in=1_000, fee=100)
    other = player()
    theirs = ticket_for(other, tournament=target, now=timezone.now())
    url = f"/api/tournaments/{target.pk}/registration/"
    refused = client.post(url, {"ticket": theirs.pk}, content_type="application/json")
    assert refused.status_code == 409
    assert refused.json() == {"code": "ticket_refused", "message": f"Ticket {theirs.pk} is not yours."}
    assert not TournamentEntry.objects.filter(tournament=target).exists()
    for bad in ({"ticket": "x"}, {"ticket": 0}, {"ticket": -5}, {"ticket": 1, "user": 2}):
        assert client.post(url, bad, content_type="application/json").status_code == 400
    mine = ticket_for(user, tournament=target, now=timezone.now())
    accepted = client.post(url, {"ticket": mine.pk}, content_type="application/json")
    assert accepted.status_code == 200
    assert accepted.json()["registered"] is True
    assert cash(user) == 100_000
    assert TournamentEntry.objects.get(tournament=target, user=user).paid_with_ticket_id == mine.pk
    assert_the_ledger_reconciles()
