"""The header balance is live on every page: a deposit made in one tab shows at once in the header of the player's
other tab (the lobby), without reloading it, through the player socket (``/ws/player/``). Screenshot in
test-artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, deposit, header_balance, log_in, wait_until
from tests.browser.setup import player

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_a_deposit_in_one_tab_updates_the_header_of_the_other_without_a_reload(site: Any, pages: Pages) -> None:
    player("alice", cash_cents=5_000)
    lobby = pages.new(width=1366, height=768)
    log_in(lobby, "alice")
    lobby.goto("/")
    frames = FrameRecorder(lobby)
    lobby.reload()
    wait_until(lobby, "window.Poker.playerSocket && window.Poker.playerSocket.state === 'live'")
    lobby.evaluate("window.notReloaded = true")
    assert header_balance(lobby) == 5_000

    cashier = lobby.context.new_page()
    deposit(cashier, "25,50")  # a decimal comma, as Estonians write it
    wait_until(lobby, "document.getElementById('header-balance').getAttribute('data-cents') === '7550'")
    assert lobby.evaluate("window.notReloaded === true")
    assert lobby.locator("#header-balance").text_content().strip() == "€75.50"
    assert {"type": "notice", "kind": "balance", "cents": 7_550} in frames.frames
    pages.screenshot(lobby, "lobby-after-a-deposit-elsewhere")
