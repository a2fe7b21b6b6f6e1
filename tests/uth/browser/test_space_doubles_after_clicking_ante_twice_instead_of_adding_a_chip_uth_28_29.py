"""In headless Chromium against the live site: SPACEBAR is the table's REPEAT, and pressing it again DOUBLE, whatever
has the focus on the table (UTH-28, UTH-29; QA G finding 5). After the player clicks ANTE twice with the €5 chip
(Ante €10, the ANTE button focused), Space doubles the bets (Ante €20) instead of "pressing" the focused ANTE again
(a third chip, Ante €15); after a REPEAT clicked with the mouse, Space doubles instead of repeating again. A Space
typed in the chat stays a space in the text and changes no bet."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.models import UthHand, UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table, wait_for_betting_time

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return a_uth_table("Space UTH", chip_values=[500, 2_500], betting_seconds=14, decision_seconds=3, result_seconds=3)


def ante_is(page: Any, text: str) -> None:
    wait_until(page, f"document.querySelector('[data-amount=ante]').textContent === {text!r}")


def test_space_doubles_after_clicking_ante_twice_and_after_a_clicked_repeat(uth_table: UthTable, pages: Pages) -> None:
    alice = player("alice", cash_cents=50_000)
    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()
    wait_for_betting_time(page, 9, timeout=60_000)

    ante = page.get_by_role("button", name="Ante: place the selected chip")
    page.get_by_label("€5.00").check()
    ante.click()
    ante_is(page, "€5.00")
    ante.click()
    ante_is(page, "€10.00")
    assert page.evaluate("document.activeElement.id") == "uth-spot-ante"
    page.keyboard.press("Space")
    ante_is(page, "€20.00")  # DOUBLE, not a third €5 chip (€15.00)
    assert page.locator("#uth-total-bet").text_content() == "€40.00"

    # Typing in the chat: the Space is the text's, not the table's.
    chat = page.locator("#chat-input")
    chat.click()
    chat.press_sequentially("good luck")
    assert chat.input_value() == "good luck"
    assert page.locator("[data-amount=ante]").text_content() == "€20.00"

    # The next round: REPEAT clicked with the mouse, then Space doubles (it does not ask for REPEAT again).
    first = UthHand.objects.filter(player=alice, ante=2_000).values_list("round_id", flat=True).first()
    assert first is not None
    wait_until(page, "document.querySelector('[data-amount=ante]').textContent === '€0.00'", timeout=90_000)
    wait_for_betting_time(page, 7, timeout=60_000)
    repeat = page.get_by_role("button", name="REPEAT")
    wait_until(page, "!document.getElementById('uth-repeat').disabled")
    repeat.click()
    ante_is(page, "€20.00")
    page.keyboard.press("Space")
    ante_is(page, "€40.00")
    assert page.locator("#uth-error").is_hidden(), page.locator("#uth-error").text_content()
