"""LOB-02, LOB-03 in the browser (1366 × 768): the tournament lobby shows start times in the player's own words (not
ISO strings), filters by type and sorts by buy-in, and lists the player's own tournaments; registering asks to
confirm the buy-in, bounty and fee first (cancelling takes nothing), and the Sit & Go shows the prize it pays when
full. Screenshots in test-artifacts/."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import header_balance, log_in
from tests.browser.setup import player
from tournaments.models import TournamentEntry, TournamentKind
from tournaments.rules.levels import structure_from_rows
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LEVELS = structure_from_rows("lobby", 1_000, [(10, 20, 0), (20, 40, 0)], 300)


def visible_names(page: Any) -> list[str]:
    return [
        str(name)
        for name in page.eval_on_selector_all(
            "#scheduled-tournaments tbody tr:not([hidden]), #sit-and-go-tournaments tbody tr:not([hidden])",
            "rows => rows.map(row => row.getAttribute('data-name'))",
        )
    ]


def test_the_lobby_filters_sorts_shows_local_times_and_registering_asks_first(site: Any, pages: Pages) -> None:
    starts = timezone.now() + timedelta(hours=3)
    bounty = tournament_create(
        name="Knockout Sunday",
        starts_at=starts,
        table_size=6,
        buy_in=2_000,
        fee=200,
        bounty_kind="regular",
        bounty=1_000,
        structure=LEVELS,
    )
    tournament_create(name="Cheap Daily", starts_at=starts, table_size=6, buy_in=300, fee=30, structure=LEVELS)
    tournament_create(
        name="Turbo Sit & Go",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=3,
        table_size=3,
        buy_in=1_000,
        fee=100,
        structure=LEVELS,
    )
    player("alice", cash_cents=10_000)
    page = pages.new(width=1366, height=768)
    log_in(page, "alice")
    page.goto("/tournaments/")
    shown = page.locator(f'tr[data-tournament-id="{bounty.pk}"] time').text_content()
    assert not re.search(r"\d{4}-\d{2}-\d{2}T|\+00:00", shown), f"an ISO string: {shown}"
    assert page.locator('[data-testid="prize-when-full"]').text_content() == "€30.00"
    page.select_option('#tournament-filters select[name="sort"]', "buy_in")
    assert visible_names(page) == ["Cheap Daily", "Knockout Sunday", "Turbo Sit & Go"]
    page.select_option('#tournament-filters select[name="type"]', "bounty")
    assert visible_names(page) == ["Knockout Sunday"]
    assert "type=bounty" in page.url
    pages.screenshot(page, "filtered")
    page.select_option('#tournament-filters select[name="type"]', "hexapro")
    assert visible_names(page) == []
    assert page.locator("#hexapro-offer").is_visible()

    page.goto(f"/tournaments/{bounty.pk}/")
    page.locator("#register").click()
    text = page.locator('[data-testid="register-confirm-text"]').text_content()
    assert text == "Buy-in €20.00 + bounty €10.00 + fee €2.00 = €32.00 will be taken from your balance."
    pages.screenshot(page, "confirm")
    page.locator("#register-confirm-no").click()
    assert not TournamentEntry.objects.filter(tournament=bounty).exists()
    page.locator("#register").click()
    with page.expect_navigation():
        page.locator("#register-confirm-yes").click()
    assert TournamentEntry.objects.filter(tournament=bounty, user__username="alice").exists()
    assert header_balance(page) == 10_000 - 3_200
    page.goto("/tournaments/")
    assert page.locator("#my-tournaments").get_by_text("Knockout Sunday").is_visible()
