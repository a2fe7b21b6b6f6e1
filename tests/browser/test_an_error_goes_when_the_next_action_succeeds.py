"""A refused action's message does not outlive the player's next successful action (LOB-04 table controls, plain-words
errors): an amount outside the raise range is explained beside the buttons, and the call that follows clears it at
once, instead of leaving it on screen until the player's next turn."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import wait_until
from tests.browser.setup import alice_to_act_heads_up

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

ERRORS = (
    "document.querySelectorAll('#action-notices .notice[data-kind=error], #table-notices .notice[data-kind=error]')"
)


def test_an_action_error_is_cleared_when_the_next_action_succeeds(site: Any, pages: Pages) -> None:
    page = pages.new(width=1366, height=800)
    alice_to_act_heads_up(page)

    page.fill("#bet-amount", "99")  # far above alice's €10.00
    page.locator("#bet-amount").press("Enter")
    wait_until(page, f"{ERRORS}.length === 1")
    assert "between" in str(page.locator("#action-notices").text_content())

    page.locator("[data-act=call]:not([hidden]), [data-act=check]:not([hidden])").first.click()
    wait_until(page, f"{ERRORS}.length === 0")
