"""In headless Chromium against the live site (UTH-35, QA G finding 8): a row of the table page's Game history is
readable: the cards are labelled (your cards, dealer, board) with the suit symbols the table uses, not letter codes;
the outcome is said in words (the settlement's result row, e.g. "Dealer does not qualify, you win"); and each bet
(ANTE, BLIND, PLAY) says what it staked and what it returned. The provable-fairness Verify stays in the row."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.uth.models import UthHand, UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table, wait_for_betting_time

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return a_uth_table("History UTH", chip_values=[500, 2_500], betting_seconds=10)


def faces(cards: list[str]) -> str:
    return " ".join(("10" if card[0] == "T" else card[0]) + SUITS[card[1]] for card in cards)


def test_a_history_row_labels_the_cards_and_says_the_outcome_and_each_bets_stake_and_return(
    uth_table: UthTable, pages: Pages
) -> None:
    alice = player("alice", cash_cents=10_000)
    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()
    wait_for_betting_time(page, 5)
    page.get_by_role("button", name="Ante: place the selected chip").click()
    play = page.locator("[data-decision=play_4x]")
    play.wait_for(state="visible", timeout=30_000)
    play.click()
    page.locator("#uth-history .uth-verify").first.wait_for(timeout=60_000)

    hand = UthHand.objects.select_related("round").get(player=alice)
    deck = [str(card) for card in hand.round.deck_cards]
    row = re.sub(r"\s+", " ", str(page.locator("#uth-history tr").first.text_content()))
    assert f"Your cards: {faces(deck[0:2])}" in row, row
    assert f"Dealer: {faces(deck[2:4])}" in row, row
    assert f"Board: {faces(deck[4:9])}" in row, row
    assert deck[0] not in row.split()  # no letter codes
    outcome = {
        "dealer_not_qualified_player_wins": "Dealer does not qualify, you win",
        "dealer_not_qualified_player_loses": "Dealer does not qualify, you lose",
        "dealer_not_qualified_tie": "Dealer does not qualify, tie",
        "dealer_qualifies_player_wins": "Dealer qualifies, you win",
        "dealer_qualifies_player_loses": "Dealer qualifies, you lose",
        "dealer_qualifies_tie": "Dealer qualifies, tie",
    }[hand.result_row]
    assert outcome in row, row
    for spot, stake, returned in (
        ("ANTE", 500, hand.ante_return),
        ("BLIND", 500, hand.blind_return),
        ("PLAY", 2_000, hand.play_return),
    ):
        line = f"{spot}: staked €{stake / 100:,.2f}, returned €{int(returned or 0) / 100:,.2f}"
        assert line in row, (line, row)
    assert page.locator("#uth-history tr").first.get_by_role("button", name="Verify").count() == 1
