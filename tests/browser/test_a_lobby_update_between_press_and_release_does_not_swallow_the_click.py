"""A live lobby update that arrives while a player presses "Play this stake" (LOB-01, CASH-04) does not swallow the
click. The lobby redraws its rows on every update, and a busy room updates it several times a second; a redraw between
the press and the release replaced the pressed button, the browser then fired no click, and the buy-in dialog never
opened (seen in a whole-suite run under load: the player's click did nothing). The redraw now waits for the release."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Stake
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.waiting import eventually

pytestmark = [pytest.mark.browser, requires_chromium]

A_LOBBY_UPDATE_ARRIVES = """async () => {
    // The rows as the server has them, each with three more players waiting, through the lobby socket's own handler
    // (what a ``lobby_update`` frame from the server does).
    const answer = await fetch(document.getElementById("cash-lobby").getAttribute("data-lobby-api"));
    const rows = await answer.json();
    window.lobbySocket.handlers.onMessage({
        type: "lobby_update", tables: rows.map((row) => ({ ...row, waiting: (row.waiting || 0) + 3 })), removed: [],
    });
}"""


def test_a_lobby_update_between_press_and_release_still_opens_the_buy_in_dialog(site: Any, pages: Pages) -> None:
    table = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    player("bob")
    page = pages.new()
    log_in(page, "bob")
    page.goto("/")
    wait_until(page, "Boolean(window.lobbySocket && window.lobbySocket.isOpen())")
    button = page.locator(f"#lobby-table-{table.pk} [data-action=play-stake]")
    button.wait_for(state="visible")  # the rows are drawn once the lobby's first answer has arrived
    # A redraw (the lobby's socket snapshot after its first answer) can replace the button while it is measured, and
    # the measurement of a detached button is None: measure again until one stays put.
    box = eventually(button.bounding_box, what="the Play this stake button to stay in the rows while measured")

    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate(A_LOBBY_UPDATE_ARRIVES)
    page.mouse.up()

    page.locator("#buy-in-amount").wait_for(state="visible", timeout=10_000)
    # The update held back during the press is drawn once the click has been handled.
    wait_until(page, f"document.querySelector('#lobby-table-{table.pk} .waiting').textContent === '3'", timeout=10_000)
