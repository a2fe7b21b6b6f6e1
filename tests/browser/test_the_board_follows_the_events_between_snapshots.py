"""The drawn hand follows its events at once: a card dealt, a bet, the stacks, whose turn it is. The snapshot the page
asks for after each batch of events arrives later (it is read from the database), and a player whose turn comes with a
new card must not see that turn on a board that lacks the card, nor the new card beside stacks from before the last
call (LOB-04 table controls; docs/protocol.md "Sequence numbers")."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import board, log_in, seat_stacks, wait_live, wait_until
from tests.browser.setup import (
    check_or_call,
    hand_in_play,
    heads_up_table,
    in_thread,
    player,
    running_hand,
    seat,
    seat_to_act,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def play_to_the_flop(table: Table, users: dict[int, Any]) -> tuple[list[str], int]:
    """Check or call until the flop is dealt; return the board and the pot total."""
    hand = running_hand(table)
    while True:
        acting = seat_to_act(table, hand.pk)
        view = hand_in_play(table)
        assert acting is not None, "the hand ended before the flop"
        assert view is not None, "the hand ended before the flop"
        assert view["id"] == hand.pk, "the hand ended before the flop"
        if view["street"] == "flop":
            return list(view["board"]), int(view["pot_total"])
        check_or_call(table, users[acting])


def test_the_flop_the_pot_and_the_stacks_are_drawn_from_the_events_before_any_snapshot_arrives(
    site: Any, pages: Pages
) -> None:
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1000, number=1)
    seat(bob, table, 1000, number=4)
    running_hand(table)
    page = pages.new()
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    wait_until(page, "document.querySelectorAll('#my-cards [data-card]').length === 2")
    assert board(page) == []

    # From now on every snapshot is held back on its way to the page: only the events reach it.
    page.evaluate(
        "() => { const handlers = window.tableApp.socket.handlers; const deliver = handlers.onMessage;"
        " window.heldBack = []; handlers.onMessage = message => message.type === 'snapshot'"
        " ? window.heldBack.push(message) : deliver(message); }"
    )
    flop, pot_total = in_thread(lambda: play_to_the_flop(table, {1: alice, 4: bob}))
    assert pot_total == 20  # both blinds completed: €0.10 each

    wait_until(
        page,
        "expected => [...document.querySelectorAll('#community-cards [data-card]')].map(c => c.dataset.card)"
        ".join() === expected.join()",
        arg=flop,
    )
    assert int(page.locator("#pot-total").get_attribute("data-cents")) == pot_total
    wait_until(page, "window.heldBack.length > 0")  # the page did ask for snapshots; none reached it
    assert board(page) == flop
    # The blinds and the call moved chips from the stacks to the pot; the round's bets went to the pot with the flop.
    assert seat_stacks(page) == {"alice": 990, "bob": 990}
    assert page.locator("#seats .seat-bet").count() == 0
    hand = running_hand(table)
    acting_name = {1: "alice", 4: "bob"}[hand.acting_seat]
    wait_until(
        page,
        "name => document.querySelector('#seats .seat.to-act .name')?.textContent.replace(' (you)', '') === name",
        arg=acting_name,
    )
    pages.screenshot(page, "flop-drawn-from-events")
