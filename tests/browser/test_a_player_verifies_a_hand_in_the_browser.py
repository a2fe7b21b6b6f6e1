"""Provably fair hands (issue 29): "Verify this hand" in the replayer recomputes the commitment and the deck in the
browser (Web Crypto, no server call) and agrees with ``manage.py verify_hand`` on the same hands: both say verified
for the hand as dealt, both refuse it once its server seed is altered after the commitment."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Hand, Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in
from tests.browser.setup import check_or_call_down, heads_up_table, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def finished_hand(site: Any) -> tuple[Table, Hand]:
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1000, number=1)
    seat(bob, table, 1000, number=4)
    return table, check_or_call_down(table, {1: alice, 4: bob})  # dealt by the ticker: the production deal


def command_says(hand_id: int) -> str:
    output = io.StringIO()
    try:
        call_command("verify_hand", str(hand_id), stdout=output)
    except CommandError:
        return "not verified: " + output.getvalue()
    return output.getvalue()


def browser_says(page: Any, hand_id: int) -> tuple[str, str]:
    page.goto(f"/games/hands/{hand_id}/")
    page.get_by_role("button", name="Verify this hand").click()
    result = page.locator("#fairness-result")
    page.wait_for_function("() => document.getElementById('fairness-result').hasAttribute('data-verified')")
    return str(result.get_attribute("data-verified")), str(result.text_content())


def test_the_browser_and_the_command_agree_on_an_honest_and_an_altered_hand(
    finished_hand: tuple[Table, Hand], pages: Pages
) -> None:
    _table, hand = finished_hand
    assert hand.deck_commitment
    page = pages.new()
    log_in(page, "alice")
    page.goto("/games/hands/")
    page.get_by_role("link", name=f"Verify hand #{hand.number}").click()  # the history's link verifies at once
    page.wait_for_function("() => document.getElementById('fairness-result').hasAttribute('data-verified')")
    assert page.locator("#fairness-result").get_attribute("data-verified") == "true"

    verified, text = browser_says(page, hand.pk)
    assert (verified, text.startswith("Verified")) == ("true", True)
    assert command_says(hand.pk).endswith("verified (commitment " + hand.deck_commitment + ")\n")
    # The browser derives the whole deck the server stored.
    deck = page.evaluate(
        """() => {
            const fairness = JSON.parse(document.getElementById('replay-data').textContent).hand.fairness;
            return window.Fairness.deck(window.Fairness.fromHex(fairness.server_seed), fairness.domain,
                                        fairness.client_seeds);
        }"""
    )
    assert deck == hand.deck
    pages.screenshot(page, "hand-verified")

    altered = ("0" if hand.server_seed[0] != "0" else "1") + hand.server_seed[1:]
    Hand.objects.filter(pk=hand.pk).update(server_seed=altered)
    verified, text = browser_says(page, hand.pk)
    assert verified == "false"
    assert "does not match the revealed server seed" in text
    assert command_says(hand.pk).startswith("not verified: ")
    pages.screenshot(page, "hand-not-verified")
