"""The Bet / Raise button names the amount it would send only while that amount is allowed (ENG-15 minimum bet or
raise, ENG-17 pot limit, ENG-19 all-in: the server's bet / raise range). An amount typed below the minimum or above
the stack is marked invalid, the button shows no amount, and the line under the box says what is allowed; the slider
never leaves the range."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import wait_until
from tests.browser.setup import alice_to_act_heads_up

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

BUTTON = "#action-buttons [data-act=raise]:not([hidden]), #action-buttons [data-act=bet]:not([hidden])"


def test_an_amount_outside_the_range_is_marked_and_never_on_the_button(site: Any, pages: Pages) -> None:
    page = pages.new(width=1366, height=800)
    alice_to_act_heads_up(page)
    button = page.locator(BUTTON).first
    slider = page.locator("#bet-slider")
    minimum, maximum = int(str(slider.get_attribute("min"))), int(str(slider.get_attribute("max")))
    assert 0 < minimum < maximum <= 1000

    def shows(typed: str) -> tuple[str, str, str, str, str]:
        page.locator("#bet-amount").fill(typed)
        return (
            str(button.text_content()).strip(),
            str(button.get_attribute("data-amount")),
            str(page.locator("#bet-amount").get_attribute("aria-invalid")),
            str(page.locator("#bet-limits").text_content()),
            str(page.locator("#bet-limits").get_attribute("class") or ""),
        )

    # Below the minimum (one cent): no amount on the button, the box is invalid, the limits say why.
    text, amount, invalid, limits, classes = shows("0.01")
    assert "€" not in text, text
    assert "0.01" not in text, text
    assert amount == ""
    assert invalid == "true"
    assert "error" in classes.split()
    assert "€0.01" in limits, limits
    assert f"€{minimum / 100:.2f}" in limits, limits
    # Above the stack: the same, and the slider stays at its maximum.
    text, amount, invalid, limits, classes = shows("99")
    assert "€" not in text, text
    assert "99" not in text, text
    assert amount == ""
    assert invalid == "true"
    assert f"€{maximum / 100:.2f}" in limits, limits
    assert int(str(slider.evaluate("element => element.value"))) <= maximum
    # Text that is no amount at all: no amount either, and the allowed range is given.
    text, amount, invalid, limits, _ = shows("abc")
    assert "€" not in text
    assert amount == ""
    assert invalid == "true"
    assert f"€{minimum / 100:.2f}" in limits, limits
    assert f"€{maximum / 100:.2f}" in limits, limits
    # A legal amount is named on the button again, and the limits line is plain.
    text, amount, invalid, limits, classes = shows(f"{minimum / 100:.2f}")
    assert text.endswith(f"€{minimum / 100:.2f}"), text
    assert amount == str(minimum)
    assert invalid == "false"
    assert "error" not in classes.split()
    # The slider's every position is a legal amount named on the button.
    slider.evaluate("element => { element.value = element.max; element.dispatchEvent(new Event('input')); }")
    wait_until(page, "document.querySelector('#bet-amount').getAttribute('aria-invalid') === 'false'")
    chosen = int(str(button.get_attribute("data-amount")))
    assert minimum <= chosen <= maximum
    assert str(button.text_content()).strip().endswith(f"€{chosen / 100:.2f}")
