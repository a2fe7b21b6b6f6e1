"""ENG-15 / ENG-17 / ENG-19: the bet box and the slider show the same amount while it is one the server would take. An
amount typed outside the bet / raise range, or text that is no amount, leaves the slider at the last valid amount
(never at its maximum because the box holds too much), and the line under the box says why the typed amount is refused
(QA report F, finding 9)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.setup import alice_to_act_heads_up

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_an_invalid_typed_amount_leaves_the_slider_at_the_last_valid_one(site: Any, pages: Pages) -> None:
    page = pages.new(width=1366, height=800)
    alice_to_act_heads_up(page)
    slider = page.locator("#bet-slider")
    minimum, maximum = int(str(slider.get_attribute("min"))), int(str(slider.get_attribute("max")))
    valid = minimum + 10
    assert valid < maximum

    def typed(text: str) -> tuple[int, str]:
        page.locator("#bet-amount").fill(text)
        return int(str(slider.evaluate("element => element.value"))), str(page.locator("#bet-limits").text_content())

    assert typed(f"{valid / 100:.2f}")[0] == valid
    value, limits = typed("99")  # above the stack
    assert value == valid
    assert "€99.00 is above the maximum" in limits, limits
    value, limits = typed("abc")
    assert value == valid
    assert "not an amount" in limits, limits
    value, limits = typed("0.01")  # below the minimum
    assert value == valid
    assert "€0.01 is below the minimum" in limits, limits
    # A valid amount moves it again, and the slider moves the box.
    assert typed(f"{minimum / 100:.2f}")[0] == minimum
