"""A table page whose first socket handshake never completes (no answer, no failure: a request lost on the way, a
server that took the connection and never answered) does not stay "Connecting…": the page abandons the handshake after
its time limit and connects again (static/js/common.js, ``Poker.Socket``). A whole-suite run met such a handshake once
(issue 26): a watcher's page showed "Connecting…" for a minute with no request reaching the server."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import wait_live, wait_until
from tests.browser.setup import heads_up_table

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

STALL_THE_FIRST_TABLE_HANDSHAKE = """(() => {
  const Real = window.WebSocket;
  window.stalledHandshakes = [];
  function Stalled(url) {
    this.url = url;
    this.readyState = 0;
    this.closedAt = null;
    window.stalledHandshakes.push(this);
  }
  Stalled.prototype.send = function () { throw new Error("not open"); };
  Stalled.prototype.close = function () {
    if (this.readyState === 3) { return; }
    this.readyState = 3;
    this.closedAt = Date.now();
    const socket = this;
    setTimeout(function () {
      if (socket.onerror) { socket.onerror({ type: "error" }); }
      if (socket.onclose) { socket.onclose({ type: "close", code: 1006, reason: "", wasClean: false }); }
    }, 0);
  };
  function Routed(url, protocols) {
    if (window.stalledHandshakes.length === 0 && String(url).indexOf("/ws/tables/") !== -1) {
      return new Stalled(url);
    }
    return new Real(url, protocols);
  }
  Routed.CONNECTING = 0; Routed.OPEN = 1; Routed.CLOSING = 2; Routed.CLOSED = 3;
  window.WebSocket = Routed;
})();"""
"""Replaces the page's WebSocket before its scripts run: the first table socket is a handshake that never answers
(it only closes, as a failed connection does, when the page closes it); every later one is real."""

HANDSHAKE_TIMEOUT_SECONDS = 10  # Socket.prototype.handshakeTimeoutMs


@pytest.fixture
def table(site: Any) -> Table:
    return heads_up_table()


def test_a_table_page_whose_first_handshake_never_completes_connects_again_and_goes_live(
    table: Table, pages: Pages
) -> None:
    page = pages.new()
    page.add_init_script(STALL_THE_FIRST_TABLE_HANDSHAKE)
    opened = time.monotonic()
    page.goto(f"/games/tables/{table.pk}/")

    wait_until(page, "window.stalledHandshakes.length === 1")
    assert page.locator("#table-app").get_attribute("data-connection") == "connecting"
    wait_until(page, "window.stalledHandshakes[0].closedAt !== null", timeout=HANDSHAKE_TIMEOUT_SECONDS * 3 * 1000)
    abandoned_after = time.monotonic() - opened
    assert abandoned_after >= HANDSHAKE_TIMEOUT_SECONDS - 1  # not at once: a slow handshake has its time

    wait_live(page)
    assert page.evaluate("window.stalledHandshakes.length") == 1
    assert page.locator("#table-status").inner_text() == "Live"
    assert page.evaluate("window.stalledHandshakes[0].url").endswith(f"/ws/tables/{table.pk}/")
