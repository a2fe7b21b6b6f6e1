"""CASH-08 / CASH-22: leaving the table during a hand folds the player's hand at their turn, even when checking is
free (the server's rule). The Leave button says so before the player confirms ("Leaving now folds your hand"), and a
player who cancels stays seated and in the hand, nothing sent."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder
from tests.browser.setup import alice_to_act_heads_up

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_cash_08_leave_during_a_hand_warns_that_it_folds_and_cancelling_sends_nothing(site: Any, pages: Pages) -> None:
    page = pages.new(width=1366, height=800)
    recorder = FrameRecorder(page)
    table, _users = alice_to_act_heads_up(page)

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
