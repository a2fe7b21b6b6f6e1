"""Provably fair hands, checked by the player (docs/fairness.md "Verifying a hand", steps 1 and 2; QA report G, finding
2; ENG-28 hand history, GEN-07): the table page shows the hand's deck commitment when it arrives, before the first card,
and keeps it in the browser with the client seed the page itself made and sent. The replayer's "Verify this hand" then
checks the revealed server seed against *that* commitment ("the commitment you saw at the table") and that the page's
own seed is among the seeds mixed into the deck. A kept commitment that differs from the revealed one is refused, and
a browser that kept nothing says so ("no commitment kept in this browser") instead of claiming more than it checked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import Hand
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import check_or_call_down, heads_up_table, in_thread, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

SEEDS_ACKNOWLEDGED = """(tableId) => {
    const seeds = JSON.parse(window.localStorage.getItem('poker.fairness.seeds.' + tableId) || '[]');
    return seeds.length > 0 && seeds[seeds.length - 1].acknowledged;
}"""


def verify_in_the_replayer(page: Any, hand_id: int) -> tuple[str, str]:
    page.goto(f"/games/hands/{hand_id}/")
    page.get_by_role("button", name="Verify this hand").click()
    wait_until(page, "document.getElementById('fairness-result').hasAttribute('data-verified')")
    result = page.locator("#fairness-result")
    return str(result.get_attribute("data-verified")), str(result.text_content())


def test_the_replayer_verifies_the_hand_against_the_commitment_and_seed_kept_at_the_table(
    site: Any, pages: Pages
) -> None:
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1000, number=1)
    page = pages.new(width=1366, height=768)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
    # The page made a client seed and the server took it, before anyone could deal a hand.
    page.wait_for_function(SEEDS_ACKNOWLEDGED, arg=table.pk)
    sent = json.loads(page.evaluate(f"window.localStorage.getItem('poker.fairness.seeds.{table.pk}')"))[-1]["seed"]

    in_thread(lambda: seat(bob, table, 1000, number=4))  # two players: the table deals
    wait_until(page, "!document.getElementById('deck-commitment').hidden")
    box = page.locator("#deck-commitment")
    hand_id = int(str(box.get_attribute("data-hand-id")))
    shown = str(box.get_attribute("data-commitment"))
    assert len(shown) == 64
    assert shown[:12] in str(page.locator("#deck-commitment summary").text_content())  # short on the table ...
    page.locator("#deck-commitment summary").click()
    assert page.locator("#deck-commitment [data-part=commitment]").text_content() == shown  # ... in full on demand
    assert sent in str(page.locator("#deck-commitment [data-part=seed]").text_content())
    kept = json.loads(page.evaluate(f"window.localStorage.getItem('poker.fairness.hand.{hand_id}')"))
    assert (kept["commitment"], kept["seat"], kept["my_seeds"]) == (shown, 1, [sent])
    pages.screenshot(page, "table-shows-the-commitment")

    hand = in_thread(lambda: check_or_call_down(table, {1: alice, 4: bob}))
    assert hand.pk == hand_id
    hand = Hand.objects.get(pk=hand_id)
    assert hand.deck_commitment == shown  # the commitment shown before the first card is the hand's
    assert hand.client_seeds["1"] == sent  # and the seed the page made is the one mixed into the deck

    verified, text = verify_in_the_replayer(page, hand_id)
    assert verified == "true", text
    assert "the commitment you saw at the table matches the revealed server seed" in text
    assert "your client seed is among the seeds mixed into the deck" in text
    assert page.locator("#fairness-kept").get_attribute("data-kept") == "true"
    assert shown in str(page.locator("#fairness-kept").text_content())
    pages.screenshot(page, "replayer-verifies-against-the-kept-commitment")

    # A revealed seed that does not match what the player saw at the table is refused, whatever the server says now.
    altered = dict(kept, commitment=("0" if shown[0] != "0" else "1") + shown[1:])
    page.evaluate(
        "([key, value]) => window.localStorage.setItem(key, value)",
        [f"poker.fairness.hand.{hand_id}", json.dumps(altered)],
    )
    verified, text = verify_in_the_replayer(page, hand_id)
    assert verified == "false"
    assert "The commitment you saw at the table" in text

    # The page's own seed missing from the deck is refused too.
    page.evaluate(
        "([key, value]) => window.localStorage.setItem(key, value)",
        [f"poker.fairness.hand.{hand_id}", json.dumps(dict(kept, my_seeds=["ab" * 32]))],
    )
    verified, text = verify_in_the_replayer(page, hand_id)
    assert verified == "false"
    assert "is not among the seeds mixed into the deck" in text

    # A browser that kept nothing says so.
    page.evaluate(f"window.localStorage.removeItem('poker.fairness.hand.{hand_id}')")
    verified, text = verify_in_the_replayer(page, hand_id)
    assert verified == "true"
    assert "no commitment kept in this browser" in text
    assert page.locator("#fairness-kept").get_attribute("data-kept") == "false"
