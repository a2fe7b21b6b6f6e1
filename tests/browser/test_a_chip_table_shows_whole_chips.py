"""At a tournament table (snapshot ``table.currency`` "CHIPS") every amount on the table page is a whole number of chips
with thousands separators and no euro sign; cash tables keep euros. The page formats all amounts through one
function, so a snapshot saying CHIPS switches stacks, bets, the pot and the amount box together."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import wait_live
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def dealt(site: Any) -> Table:
    table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)
    return table


def test_amounts_are_whole_chips_when_the_table_plays_for_chips(dealt: Table, pages: Pages) -> None:
    page = pages.new()
    page.goto(f"/games/tables/{dealt.pk}/")
    wait_live(page)
    page.wait_for_selector("#pot-total")
    assert "€" in str(page.locator("#pot-total").text_content())
    # The page draws a snapshot at once; the table is read in the same turn of the page's loop, before a frame from
    # the server (e.g. the answer to the page's own snapshot request after the hand's first events) can redraw it.
    shown = page.evaluate(
        """() => {
        const app = window.tableApp;
        const copy = JSON.parse(JSON.stringify(app.state.snapshot));
        copy.table.currency = "CHIPS";
        copy.seats.forEach(seat => { if (seat.occupied) { seat.stack = 12500; } });
        copy.hand.pot_total = 1500;
        app.onMessage({type: "snapshot", snapshot: copy, sequence: app.state.sequence});
        return {
            stacks: Array.from(document.querySelectorAll("#seats .seat:not(.empty) .stack"), node => node.textContent),
            pot: document.getElementById("pot-total").textContent,
            seats: document.getElementById("seats").textContent,
        };
    }"""
    )
    stacks = shown["stacks"]
    assert stacks == ["12,500", "12,500"]
    pot = str(shown["pot"])
    assert "1,500" in pot
    assert "€" not in pot
    assert "€" not in str(shown["seats"])
