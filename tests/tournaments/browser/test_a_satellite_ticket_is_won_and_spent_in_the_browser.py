"""A satellite played in the browser, its ticket spent on the target (TRN-37, TRN-10, AMB-54), on the live site with
its Celery worker and beat: two players fill a Sit & Go satellite on its page (it shows its target and seat), play
all-in, the winner's seat becomes a ticket (the target does not take registrations yet) shown under "Your tickets" in
the lobby; when the target opens, the winner registers with the ticket's button, paying nothing in cash, and the
ledger reconciles."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import header_balance, log_in, register_confirmed, wait_until
from tests.browser.setup import player
from tests.tournaments.browser.test_a_tournament_is_played_in_the_browser import SHORT_LEVELS, act_when_it_is_my_turn
from tournaments.models import Tournament, TournamentEntry, TournamentKind, TournamentStatus, TournamentTicket
from tournaments.services.catalog import tournament_create
from tournaments.services.tickets import tickets_reconcile
from wallet.services import ledger_reconcile

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_a_player_wins_a_satellite_ticket_and_registers_for_the_target_with_it(site: Any, pages: Pages) -> None:
    target = tournament_create(
        name="Browser Main Event",
        starts_at=timezone.now() + timedelta(hours=2),
        buy_in=900,
        fee=100,
        structure=SHORT_LEVELS,
    )
    # Registration for the target opens only later: the satellite's seat is given as a ticket.
    Tournament.objects.filter(pk=target.pk).update(
        status=TournamentStatus.ANNOUNCED, registration_opens_at=timezone.now() + timedelta(days=1)
    )
    satellite = tournament_create(
        name="Browser Satellite",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=2,
        table_size=2,
        buy_in=500,
        fee=50,
        structure=SHORT_LEVELS,
        pause_between_hands_milliseconds=1_000,
        satellite_target=target,
    )
    users = {name: player(name, cash_cents=5_000) for name in ("sally", "tom")}
    browsers = {}
    for name in users:
        page = pages.new()
        log_in(page, name)
        page.goto(f"/tournaments/{satellite.pk}/")
        assert "Browser Main Event" in page.locator("#satellite-target").text_content()
        register_confirmed(page)
        assert "You are registered." in page.locator(".messages").text_content()
        browsers[name] = page
    # The last registration started the Sit & Go: that page already shows the table's link; the other follows.
    browsers["tom"].locator("#your-table").click()
    for page in browsers.values():
        page.wait_for_url("**/games/tables/*/", timeout=90_000)
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")

    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if Tournament.objects.get(pk=satellite.pk).status == TournamentStatus.FINISHED:
            break
        for page in browsers.values():
            if "/games/tables/" in page.url:
                act_when_it_is_my_turn(page)
        page.wait_for_timeout(300)
    assert Tournament.objects.get(pk=satellite.pk).status == TournamentStatus.FINISHED
    winner = TournamentEntry.objects.get(tournament=satellite, place=1).user
    for _ in range(60):  # the seat is given by the Celery worker
        if TournamentTicket.objects.filter(user=winner).exists():
            break
        time.sleep(0.5)
    ticket = TournamentTicket.objects.get(user=winner)
    assert ticket.value == 1_000

    page = browsers[winner.username]
    page.goto("/tournaments/")
    tickets = page.locator("#your-tickets")
    assert "€10.00" in tickets.text_content()
    assert "Browser Main Event" in tickets.text_content()
    balance = header_balance(page)
    pages.screenshot(page, "your-tickets")

    # The target opens for registration (its time came): the beat task opens it.
    Tournament.objects.filter(pk=target.pk).update(registration_opens_at=timezone.now())
    for _ in range(60):
        if Tournament.objects.get(pk=target.pk).status == TournamentStatus.REGISTERING:
            break
        time.sleep(0.5)
    page.goto(f"/tournaments/{target.pk}/")
    page.locator(f'.register-with-ticket[data-ticket-id="{ticket.pk}"]').click()
    assert "You are registered with your ticket." in page.locator(".messages").text_content()
    assert header_balance(page) == balance  # paid by the ticket, not in cash
    entry = TournamentEntry.objects.get(tournament=target, user=winner)
    assert entry.paid_with_ticket_id == ticket.pk
    pages.screenshot(page, "registered-with-ticket")
    assert ledger_reconcile() == []
    assert tickets_reconcile() == []
