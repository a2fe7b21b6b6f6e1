"""The player's action bar — the legal actions, the amount and the bet-size shortcuts — is on screen without the
player scrolling on a laptop (1366 × 768) and on a phone (390 × 844) when the turn comes, with the player's own seat
and cards in view above it (issue 28); the keyboard-shortcut help is not shown on a phone. Requirement: LOB-04 (table
controls)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import LAPTOP, PHONE, log_in, my_turn, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


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


def test_the_actions_and_bet_shortcuts_are_on_screen_when_the_turn_comes_on_a_laptop_and_on_a_phone(
    dealt: Table, pages: Pages
) -> None:
    first = running_hand(dealt).acting_seat
    names = {1: "alice", 4: "bob"}
    order = [first, *(number for number in names if number != first)]
    # The first to act has a laptop, the other a phone; each page is read when its own turn comes.
    turns = []
    for number, screen in zip(order, (LAPTOP, PHONE), strict=True):
        page = pages.new(**screen)
        log_in(page, names[number])
        page.goto(f"/games/tables/{dealt.pk}/")
        wait_live(page)
        turns.append((page, screen))
    for page, screen in turns:
        label = "laptop" if screen is LAPTOP else "phone"
        my_turn(page)
        wait_until(page, "document.querySelectorAll('#my-cards [data-card]').length === 2")
        # The player scrolls nothing: the page brings their own seat above the sticky action bar by itself when the
        # turn comes (on a phone the site's header leaves no room for both otherwise), so the seat, its cards and
        # every control are in view together.
        assert fully_in_view(page, "#seats .seat.me"), f"the player's own seat is not fully in view ({label})"
        assert fully_in_view(page, "#action-buttons [data-act]:not([hidden])"), label
        assert fully_in_view(page, "#bet-amount"), label
        assert fully_in_view(page, "#bet-slider"), f"the bet slider is not in view ({label})"
        if screen is LAPTOP:
            assert fully_in_view(page, "#bet-control [data-preset]:not([hidden])")
        else:
            # On a phone the shortcuts scroll sideways in their own row (the page itself never does): the row is in
            # view and each shortcut scrolled into it is in view, and tapped it sets the amount.
            assert fully_in_view(page, "#bet-control .presets"), label
            assert every_preset_reachable(page), "a bet-size shortcut cannot be scrolled into view on the phone"
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            assert not page.locator(".keyboard-help").is_visible()
        assert my_cards_uncovered(page), f"the action bar hides the player's cards ({label})"
        page.screenshot(path=str(pages.screenshot(page, f"turn-{label}").with_name(f"{pages.test_name}-{label}.png")))
        if page is turns[0][0]:  # the laptop's player calls: the phone's turn comes
            page.locator("#action-buttons [data-act=call]:not([hidden])").click()
            wait_until(page, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length === 0")


def every_preset_reachable(page: Any) -> bool:
    return bool(
        page.evaluate(
            """() => [...document.querySelectorAll('#bet-control [data-preset]:not([hidden])')].every(preset => {
                preset.scrollIntoView({ block: 'nearest', inline: 'nearest' });
                const box = preset.getBoundingClientRect();
                const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
                return box.left >= 0 && box.right <= window.innerWidth && box.top >= 0
                    && box.bottom <= window.innerHeight && top !== null && preset.contains(top);
            })"""
        )
    )
