"""In headless Chromium against the live site (daphne + the real ticker): a player takes a seat, sees a refused bet
explained in plain words, bets Ante and Trips with the chip selector, raises PLAY 4x, and reads the result and the
game history; a visitor watches the same round (UTH-05, UTH-10, UTH-24..UTH-26, UTH-31, UTH-35)."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.models import HandStatus, UthHand, UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table, wait_for_betting_time
from wallet.services import ledger_reconcile, player_cash_account

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    """Ante €5–€100 with a €1 chip too (it adds to an opened Ante, but cannot open one); 12 s to bet."""
    return a_uth_table("Browser UTH")


def test_a_player_bets_raises_and_reads_the_result_while_a_visitor_watches(uth_table: UthTable, pages: Pages) -> None:
    alice = player("alice", cash_cents=10_000)
    page = pages.new(width=1366, height=800)  # a common laptop screen: the decisions must be in sight there
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    visitor = pages.new()
    visitor.goto(f"/uth/{uth_table.pk}/")

    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()
    wait_for_betting_time(page, 8)

    # The €1 chip cannot open the Ante at this table: the refusal is shown in words.
    page.get_by_label("€1.00").check()
    page.get_by_role("button", name="Ante: place the selected chip").click()
    error = page.get_by_role("alert").filter(has_text="minimum")
    error.wait_for()
    assert "The minimum Ante at this table is €5.00; choose a larger chip." in str(error.text_content())

    page.keyboard.press("2")  # shortcut: the second chip, €5
    page.get_by_role("button", name="Ante: place the selected chip").click()
    wait_until(page, "document.getElementById('uth-total-bet').textContent === '€10.00'")
    assert page.locator("[data-amount=blind]").text_content() == "€5.00"
    page.get_by_label("€1.00").check()
    page.get_by_role("button", name="Trips side bet: place the selected chip").click()
    wait_until(page, "document.getElementById('uth-total-bet').textContent === '€11.00'")
    assert page.locator("#uth-balance").text_content() == "€89.00"
    pages.screenshot(page, "bets-placed")

    play = page.locator("[data-decision=play_4x]")
    play.wait_for(state="visible", timeout=30_000)
    assert play.text_content() == "PLAY 4x (€20.00)"
    box = play.bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= 800, "PLAY 4x is below the fold"
    assert visitor.locator("#uth-player-cards .uth-card").count() == 2
    assert visitor.locator("#uth-dealer-cards .uth-card.back").count() == 2  # face down until the result
    play.click()
    wait_until(page, "document.getElementById('uth-last-decision').textContent === 'PLAY 4x'")

    page.locator("#uth-result table").wait_for(timeout=30_000)
    result = str(page.locator("#uth-result p").text_content())
    assert any(words in result for words in ("you win", "you lose", "your bets are returned")), result
    assert visitor.locator("#uth-dealer-cards .uth-card:not(.back)").count() == 2
    page.locator("#uth-history tr td[title]").first.wait_for()
    # The header balance follows the round without a reload.
    balance = int(player_cash_account(alice).balance)
    wait_until(page, f"document.getElementById('header-balance').dataset.cents === '{balance}'")
    assert "GMT" in str(page.locator("#uth-game-number").text_content())
    pages.screenshot(page, "result")

    hand = UthHand.objects.get(player=alice)
    assert (hand.status, hand.ante, hand.trips, hand.play) == (HandStatus.SETTLED, 500, 100, 2_000)
    assert ledger_reconcile() == []


def test_every_control_on_the_table_page_has_an_accessible_name(uth_table: UthTable, pages: Pages) -> None:
    player("bob")
    page = pages.new()
    log_in(page, "bob")
    page.goto(f"/uth/{uth_table.pk}/")
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('#uth button, #uth input, #uth select, #uth [role=img]')]
              .filter((element) => !element.hidden)
              .filter((element) => {
                  const labelled = element.getAttribute('aria-label') || element.getAttribute('aria-labelledby');
                  const text = (element.textContent || '').trim();
                  const label = element.labels && element.labels.length;
                  return !(labelled || text || label);
              })
              .map((element) => element.outerHTML.slice(0, 80))"""
    )
    assert unnamed == []
