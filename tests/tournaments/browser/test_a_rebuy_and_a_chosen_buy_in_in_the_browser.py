"""Re-buys and multi-buy-in in the browser, on the live site with its Celery worker and beat (TRN-38, TRN-39): a player
chooses a €25 buy-in on a multi-buy-in tournament's page and starts with 25,000 chips; at a re-buy tournament's table,
a player below the threshold (1,000 chips; she started with 500) presses "Re-buy" and confirms, pays €10 + €1 and gets
1,000 chips (at once, or when their hand ends); pressing it again with the stack above the threshold is refused in words
and takes no money."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import header_balance, log_in, register_confirmed, wait_until
from tests.browser.setup import player, start_the_scheduled_tournament_now
from tournaments.models import Tournament, TournamentEntry, TournamentPurchase, TournamentStatus
from tournaments.rules.levels import structure_from_rows
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LEVELS = structure_from_rows("browser re-buys", 1_000, [(10, 20, 0), (20, 40, 0), (40, 80, 0)], 120)


def test_a_player_re_buys_at_the_table_and_another_chooses_the_buy_in(site: Any, pages: Pages) -> None:
    multi = tournament_create(
        name="Browser Multi-Buy-In",
        starts_at=timezone.now() + timedelta(hours=1),
        buy_in=900,
        fee=100,
        starting_stack=10_000,
        buy_in_minimum=500,
        buy_in_maximum=5_000,
        buy_in_step=500,
        structure=LEVELS,
    )
    player("carol", cash_cents=5_000)
    carol = pages.new()
    log_in(carol, "carol")
    carol.goto(f"/tournaments/{multi.pk}/")
    carol.locator("#buy-in-choice").select_option("2500")
    register_confirmed(carol)
    assert "You are registered." in carol.locator(".messages").text_content()
    assert header_balance(carol) == 5_000 - 2_500
    assert TournamentEntry.objects.get(tournament=multi, user__username="carol").starting_chips == 25_000

    rebuys = tournament_create(
        name="Browser Re-buys",
        starts_at=timezone.now() + timedelta(minutes=10),  # brought forward once both are registered
        table_size=2,
        buy_in=1_000,
        fee=100,
        unregistration_closes_minutes=0,
        structure=LEVELS,
        # Below the re-buy threshold with room to spare: the hands dealt before the click (players acted for, blinds
        # won and lost; on a slow machine the first is over by then) never lift the stack above it.
        starting_stack=500,
        rebuy_levels=2,
        rebuy_maximum=2,
        rebuy_stack_threshold=1_000,
        rebuy_buy_in=1_000,
        rebuy_fee=100,
        rebuy_chips=1_000,
        pause_between_hands_milliseconds=1_000,
    )
    browsers = {}
    for name in ("alice", "bob"):
        player(name, cash_cents=5_000)
        page = pages.new()
        log_in(page, name)
        page.goto(f"/tournaments/{rebuys.pk}/")
        register_confirmed(page)
        browsers[name] = page
    start_the_scheduled_tournament_now(rebuys)
    alice = browsers["alice"]
    alice.wait_for_url("**/games/tables/*/", timeout=90_000)
    wait_until(alice, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
    assert Tournament.objects.get(pk=rebuys.pk).status == TournamentStatus.RUNNING
    alice.reload()
    alice.locator("#rebuy").click()
    wait_until(alice, "document.getElementById('purchase-confirm').open")  # it says what it takes first
    with alice.expect_navigation(wait_until="domcontentloaded"):
        alice.locator("#purchase-confirm-yes").click()
    assert "Paid:" in alice.locator(".messages").text_content()
    assert "/games/tables/" in alice.url
    purchase = TournamentPurchase.objects.get(entry__user__username="alice")
    assert (purchase.prize_contribution, purchase.fee, purchase.chips) == (1_000, 100, 1_000)
    for _ in range(60):  # queued while a hand was in play: added when it ends (nobody acts: the clock folds)
        purchase.refresh_from_db()
        if purchase.status == "added":
            break
        time.sleep(1)
    assert purchase.status == "added"
    assert header_balance(alice) == 5_000 - 1_100 - 1_100
    # Above the threshold now: the re-buy is no longer offered (TRN-39; the bar keeps the buttons live).
    wait_until(alice, "document.querySelector('[data-purchase=rebuy]').hidden === true")
    assert TournamentPurchase.objects.filter(entry__user__username="alice").count() == 1
    assert header_balance(alice) == 5_000 - 1_100 - 1_100
    pages.screenshot(alice, "rebuy")
