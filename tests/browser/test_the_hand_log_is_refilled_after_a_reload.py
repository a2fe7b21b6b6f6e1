"""A reload does not empty the table's hand log (GEN-07: the hand's actions are there to be read, ENG-28): the page
refills it from the table's recent events (the same catch-up request that fills "Last hands"), with the lines of the
hand in play and of the hand before it. The events are the viewer's own view: another player's hole cards that no
showdown showed never appear (docs/protocol.md, privacy rules)."""

from __future__ import annotations

from typing import Any

import pytest

from games.runtime.views import table_snapshot
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import (
    check_or_call,
    check_or_call_down,
    heads_up_table,
    in_thread,
    player,
    running_hand,
    seat,
    seat_to_act,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LOG = "document.getElementById('action-log').innerText"


def test_the_hand_log_comes_back_after_a_reload_without_hidden_cards(site: Any, pages: Pages) -> None:
    table = heads_up_table(pause_milliseconds=1_500)
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    first = check_or_call_down(table, users)  # a whole hand before the page opens
    second = running_hand(table)
    assert second.pk != first.pk
    bob_cards = table_snapshot(table, users[4])["viewer"]["hole_cards"]
    alice_cards = table_snapshot(table, users[1])["viewer"]["hole_cards"]
    assert bob_cards
    assert alice_cards

    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    wait_until(page, "document.getElementById('table-app').getAttribute('data-results-read') === 'true'")
    # One line logged live before the reload: the other player acts (or alice does, if it is her turn).
    acting = in_thread(lambda: seat_to_act(table, second.pk))
    assert acting is not None
    in_thread(lambda: check_or_call(table, users[acting]))
    acted = f"{users[acting].table_name} c"  # "... checks" or "... calls ..."
    wait_until(page, f"{LOG}.includes({acted!r})")

    page.reload()
    wait_live(page)
    wait_until(page, "document.getElementById('table-app').getAttribute('data-results-read') === 'true'")
    log = str(page.evaluate(LOG))
    assert log.count("A new hand starts.") == 2, log  # the hand in play and the one before it
    assert acted in log, log
    assert "posts the small blind" in log, log
    assert "posts the big blind" in log, log
    mine = str(page.evaluate("cards => Cards.list(cards)", alice_cards))
    assert f"You are dealt {mine}" in log, log
    # Bob's cards of the hand in play were shown to nobody: they are not in alice's log.
    hidden = str(page.evaluate("cards => Cards.list(cards)", bob_cards))
    lines_of_this_hand = log.split("A new hand starts.")[-1]
    assert hidden not in lines_of_this_hand, log
    for card in bob_cards:
        assert str(page.evaluate("card => Cards.text(card)", card)) not in lines_of_this_hand, log
