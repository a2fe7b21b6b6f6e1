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
from tests.tournaments.browser.support import REBUY_LEVELS, rebuy_confirmed, rebuy_tournament_for_two
from tournaments.models import Tournament, TournamentEntry, TournamentPurchase, TournamentStatus
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


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
        structure=REBUY_LEVELS,
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

    rebuys = rebuy_tournament_for_two("Browser Re-buys")
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
    rebuy_confirmed(alice)
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
