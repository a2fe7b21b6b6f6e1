"""CASH-08 / CASH-22: leaving the table during a hand folds the player's hand at their turn, even when checking is
free (the server's rule). The Leave button says so before the player confirms ("Leaving now folds your hand"), and a
player who cancels stays seated and in the hand, nothing sent."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, log_in, my_turn, wait_live
from tests.browser.setup import act_until_seat_acts, heads_up_table, in_thread, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_cash_08_leave_during_a_hand_warns_that_it_folds_and_cancelling_sends_nothing(site: Any, pages: Pages) -> None:
    table = heads_up_table()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    running_hand(table)
    page = pages.new(width=1366, height=800)
    recorder = FrameRecorder(page)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    in_thread(lambda: act_until_seat_acts(table, users, 1))
    my_turn(page)

    questions: list[str] = []

    def answer(dialog: Any) -> None:
        questions.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.locator("#leave-button").click()
    assert len(questions) == 1
    assert questions[0].startswith("Leaving now folds your hand")
    assert [frame for frame in recorder.sent if frame.get("type") == "leave"] == []
    assert Seat.objects.get(table=table, number=1).leave_after_hand is False
