"""The player's action bar — the legal actions, the amount and the bet-size shortcuts — is on screen without the
player scrolling on a laptop (1366 × 800) and on a phone (390 × 844) when the turn comes, with the player's own seat
and cards in view above it (issue 28); the keyboard-shortcut help is not shown on a phone. Requirement: LOB-04 (table
controls)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, my_turn, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def dealt(site: Any) -> Table:
    table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)
    return table


def fully_in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """selector => [...document.querySelectorAll(selector)].filter(e => e.offsetParent !== null).every(e => {
                const box = e.getBoundingClientRect();
                return box.top >= 0 && box.bottom <= window.innerHeight
                    && box.left >= 0 && box.right <= window.innerWidth;
            })""",
            selector,
        )
    )


def my_cards_uncovered(page: Any) -> bool:
    """Nothing lies over the middle of the player's own cards."""
    return bool(
        page.evaluate(
            """() => [...document.querySelectorAll('#my-cards [data-card]')].every(card => {
                const box = card.getBoundingClientRect();
                const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
                return top !== null && card.contains(top);
            })"""
        )
    )


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop-1366x800", "phone-390x844"])
def test_the_actions_and_bet_shortcuts_are_on_screen_when_the_turn_comes(
    dealt: Table, pages: Pages, screen: dict[str, int]
) -> None:
    acting = running_hand(dealt).acting_seat
    page = pages.new(**screen)
    log_in(page, "alice" if acting == 1 else "bob")
    page.goto(f"/games/tables/{dealt.pk}/")
    wait_live(page)
    my_turn(page)
    wait_until(page, "document.querySelectorAll('#my-cards [data-card]').length === 2")
    # The player scrolls nothing: the page brings their own seat above the sticky action bar by itself when the turn
    # comes (on a phone the site's header leaves no room for both otherwise), so the seat, its cards and every control
    # are in view together.
    assert fully_in_view(page, "#seats .seat.me"), "the player's own seat is not fully in view"
    assert fully_in_view(page, "#action-buttons [data-act]:not([hidden])")
    assert fully_in_view(page, "#bet-amount")
    if screen is LAPTOP:
        assert fully_in_view(page, "#bet-control [data-preset]:not([hidden])")
    assert my_cards_uncovered(page), "the action bar hides the player's cards"
    if screen is PHONE:
        assert not page.locator(".keyboard-help").is_visible()
    page.screenshot(path=str(pages.screenshot(page, "turn").with_name(f"{pages.test_name}-viewport.png")))
