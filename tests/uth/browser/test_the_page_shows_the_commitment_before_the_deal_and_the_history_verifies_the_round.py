"""In headless Chromium against the live site: the UTH table page shows the round's deck commitment during the
betting time, before any card (short, in full on demand), and keeps it in the browser under the game number; after
the round, the Game history's Verify recomputes the commitment and the deck from the revealed seed in the browser and
says it is verified and that it is the commitment shown before the deal (issue 29, docs/fairness.md "Verifying a UTH
round", UTH-34, UTH-35, QA G finding 1)."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.models import UthRound, UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table, wait_for_betting_time

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return a_uth_table("Fair UTH", chip_values=[500, 2_500])


def test_the_commitment_is_shown_before_the_deal_and_verify_says_verified(uth_table: UthTable, pages: Pages) -> None:
    player("alice", cash_cents=10_000)
    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()
    wait_for_betting_time(page, 7)
    game_number = str(page.locator("#uth-game-id").text_content())
    round_ = UthRound.objects.get(game_number=game_number)
    assert page.locator("#uth-player-cards .uth-card").count() == 0  # no card yet
    assert page.locator("#uth-commitment-short").text_content() == round_.deck_commitment[:12] + "…"
    page.locator("#uth-fairness summary").click()  # the full commitment on demand
    assert page.locator("#uth-commitment-full").text_content() == round_.deck_commitment
    noted = page.evaluate("JSON.parse(localStorage.getItem('uth-commitments'))")
    assert noted[game_number]["commitment"] == round_.deck_commitment
    assert noted[game_number]["before_deal"] is True

    page.get_by_role("button", name="Ante: place the selected chip").click()
    wait_until(page, "document.getElementById('uth-total-bet').textContent === '€10.00'")
    play = page.locator("[data-decision=play_4x]")
    play.wait_for(state="visible", timeout=40_000)
    final_number = str(page.locator("#uth-game-id").text_content())  # the same unless the betting time restarted
    play.click()
    page.locator("#uth-history .uth-verify").first.wait_for(timeout=60_000)
    row = page.locator("#uth-history tr").first
    assert final_number in str(row.locator("td[title]").get_attribute("title"))
    row.locator(".uth-verify").click()
    wait_until(page, "document.querySelector('#uth-history .uth-verify-result').dataset.verified !== undefined")
    result = row.locator(".uth-verify-result")
    assert result.get_attribute("data-verified") == "true", result.text_content()
    assert "It is the commitment this page showed before the deal." in str(result.text_content())
    pages.screenshot(page, "uth-verified")
