"""The hand log and "Last hands" name the players of each hand as they were dealt in (GEN-07, ENG-28: the hand's
actions are there to be read): a player who has left since is still named — never "Seat N" — and never the player
who took the seat afterwards (QA report F, finding 7). The page reads the names from the hand's ``hand_started``
event, not from the seats as they are now."""

from __future__ import annotations

from typing import Any

import pytest

from games.services import seat_leave
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import check_or_call_down, heads_up_table, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LOG = "document.getElementById('action-log').innerText"
RESULTS = "document.getElementById('results').innerText"


def test_a_hand_read_back_names_the_player_who_left_not_the_new_occupant_of_the_seat(site: Any, pages: Pages) -> None:
    table = heads_up_table()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    finished = check_or_call_down(table, users)
    seat_leave(users[1], table)  # between hands: at once
    seat(player("carol"), table, 1000, number=1)  # the next player in alice's seat

    page = pages.new(width=1366, height=800)
    log_in(page, "bob")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    wait_until(page, "document.getElementById('table-app').getAttribute('data-results-read') === 'true'")
    wait_until(page, f"{RESULTS}.includes('Hand #{finished.number}')")
    log, results = str(page.evaluate(LOG)), str(page.evaluate(RESULTS))
    # The finished hand and alice leaving, up to carol sitting down (a next hand may have been dealt since: carol is
    # in that one).
    before = log.split("carol sits down")[0]
    assert "alice posts the" in before, log
    assert "bob posts the" in before, log
    assert "alice leaves the table" in before, log
    assert "carol" not in before, log
    assert "Seat 1" not in log, log
    line = next(line for line in results.splitlines() if line.startswith(f"Hand #{finished.number}:"))
    assert "alice" in line or "bob" in line, line
    assert "carol" not in line, line
    assert "Seat 1" not in line, line
