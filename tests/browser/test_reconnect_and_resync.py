"""A dropped connection restores the table from a snapshot; a gap in the event sequence asks the server to resync; a
snapshot ahead of the events the page applied fetches those events first (docs/protocol.md "Sequence numbers"; CASH-22
is the server's side of a disconnection)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.models import Table
from games.services import seat_take
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import (
    FrameRecorder,
    board,
    log_in,
    my_turn,
    seat_stacks,
    wait_live,
    wait_until,
    wait_until_stored,
)
from tests.browser.setup import (
    act_until_seat_acts,
    check_or_call_down,
    hand_in_play,
    heads_up_table,
    in_thread,
    player,
    running_hand,
    seat,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

HOLD_BACK_ONCE_SETTLED = """() => {
  const app = window.tableApp, state = app.state;
  if (window.heldBack) { return true; }
  const settled = state.historyLoaded && !state.freshConnection && !state.catchUp && !state.resyncing
    && Object.keys(app.socket.pending).length === 0;
  if (!settled) { return false; }
  const handlers = app.socket.handlers, deliver = handlers.onMessage;
  state.resyncing = true;
  window.heldBack = [];
  handlers.onMessage = message => ['events', 'snapshot', 'your_turn'].includes(message.type)
    ? window.heldBack.push(message) : deliver(message);
  window.deliverHeldBack = () => { handlers.onMessage = deliver; state.resyncing = false; };
  return true;
}"""
"""Hold back every message that carries the table's state (events, including answers to the page's own requests;
snapshots; turns), and pause the page's periodic check for missed events, once the page has settled: the socket's
first snapshot applied and every request the page made answered (the read-back of the last hands' results above
all). Checked and installed in one turn of the page's event loop, so no request is in flight when the hold starts.

Installed earlier, as right after the socket opened, an answer the server read only after the hand below had started
reached the page and moved it on (the read-back's ``resync since 0`` carries the hand's events, with a request id the
old hold let through; the socket's first snapshot likewise): ``data-sequence`` was then past the hand's start."""


@pytest.fixture
def table_with_alice(site: Any) -> tuple[Table, Any]:
    from games.models import Stake
    from games.services import table_open

    table = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    alice = player("alice")
    seat(alice, table, 1000, number=1)
    return table, player("bob")


def test_a_dropped_connection_comes_back_with_the_table_as_it_is_now(
    table_with_alice: tuple[Table, Any], pages: Pages
) -> None:
    table, bob = table_with_alice
    page = pages.new()
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    assert seat_stacks(page) == {"alice": 1000}

    # The network goes away: the page says so and keeps trying; meanwhile Bob sits down. The page's reconnection
    # attempts go to a socket address of the site that nothing serves (its handshake is refused; an address on another
    # port would be refused by the Content-Security-Policy before any attempt), and the browser goes offline only once
    # the socket has closed: Chromium's offline mode does not always stop a WebSocket to 127.0.0.1, and when it does,
    # it can hold up the closing handshake of the dropped socket for a long time.
    page.evaluate(
        "window.tableApp.socket.url = () => `ws://${location.host}/ws/not-a-socket/`; window.tableApp.socket.drop()"
    )
    page.wait_for_selector("#connection-banner", state="visible")
    page.context.set_offline(True)
    assert page.locator("#table-status").get_attribute("data-state") == "reconnecting"
    pages.screenshot(page, "connection-lost")
    in_thread(lambda: seat_take(bob, table, 800, seat_number=4))

    page.context.set_offline(False)
    page.evaluate("delete window.tableApp.socket.url; window.tableApp.socket.reconnectNow()")
    wait_live(page)
    page.wait_for_selector("#connection-banner", state="hidden")
    wait_until(page, "document.querySelectorAll('#seats .seat:not(.empty)').length === 2")
    assert seat_stacks(page) == {"alice": 1000, "bob": 800}
    pages.screenshot(page, "connection-restored")


def test_a_gap_in_the_sequence_numbers_asks_the_server_to_resync(
    table_with_alice: tuple[Table, Any], pages: Pages
) -> None:
    table, _bob = table_with_alice
    page = pages.new()
    recorder = FrameRecorder(page)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    sequence = int(page.locator("#table-app").get_attribute("data-sequence"))

    # An event three numbers ahead arrives (as if two frames were lost): nothing is applied out of order.
    page.evaluate(
        "sequence => window.tableApp.onMessage({type: 'events', table_id: window.tableApp.tableId,"
        " events: [{sequence: sequence + 3, type: 'seat_sat_out', seat: 1}]})",
        sequence,
    )
    # Waited for as long as the other page conditions (a minute): under two CPU hogs the page took over 5 s.
    resyncs = wait_until_stored(
        page,
        lambda: [frame for frame in recorder.sent if frame.get("type") == "resync" and frame.get("since") == sequence],
        what=f"a resync since {sequence} sent after the gap",
        timeout=60_000,
    )
    # The server's answer, waited for (a fixed half second failed once in a whole-suite run: the answer came later).
    answers = wait_until_stored(
        page,
        lambda: [frame for frame in recorder.frames if frame.get("request_id") == resyncs[0]["request_id"]],
        what="the server's answer to the resync",
        timeout=60_000,
    )
    assert answers[0]["type"] in {"events", "snapshot"}
    assert int(page.locator("#table-app").get_attribute("data-sequence")) == sequence


def test_a_hand_that_ends_while_its_events_are_on_the_way_is_shown_and_listed_when_a_snapshot_overtakes_them(
    site: Any, pages: Pages
) -> None:
    """The snapshot the page asks for after each batch of events is read from the database, so it can include a hand's
    end before that hand's events reach the page (the socket then sends only what is newer than the snapshot). The page
    must fetch the skipped events and apply them first: the finished hand stays on screen and is listed with its
    result, as if the events had come in order."""
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1000, number=1)
    seat(bob, table, 1000, number=4)
    running_hand(table)
    page = pages.new()
    recorder = FrameRecorder(page)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    wait_until(page, "document.querySelectorAll('#my-cards [data-card]').length === 2")

    # The page's stream of events falls behind (held back on the way), and the hand is played to its end meanwhile.
    # The page's own periodic check for missed events is paused meanwhile (it would catch up by another way).
    wait_until(page, HOLD_BACK_ONCE_SETTLED)
    sequence = int(page.locator("#table-app").get_attribute("data-sequence"))
    hand = in_thread(lambda: check_or_call_down(table, {1: alice, 4: bob}))
    wait_until(page, "window.heldBack.some(m => (m.events || []).some(e => e.type === 'hand_settled'))")
    assert int(page.locator("#table-app").get_attribute("data-sequence")) == sequence

    # A snapshot read after the hand's end overtakes its events; the held-back frames are then too late to matter.
    page.evaluate("() => { window.deliverHeldBack(); window.tableApp.socket.send({type: 'snapshot'}); }")
    wait_until(page, f"document.querySelector('#results li[data-hand-id=\"{hand.pk}\"]')?.textContent.includes('rake')")
    assert [frame for frame in recorder.sent if frame.get("type") == "resync" and frame.get("since") == sequence]
    won = page.locator(f"#results li[data-hand-id='{hand.pk}']").get_attribute("data-won")
    assert won not in (None, "{}")
    # The results list is filled from the fetched events; the reason the table waits comes with the snapshot, which
    # the page applies after them (on a busy machine, a moment later).
    wait_until(page, "document.querySelector('#hand-info').textContent === 'Hand over. The next hand starts shortly.'")
    assert len(board(page)) == 5
    hand.refresh_from_db()
    assert int(page.locator("#table-app").get_attribute("data-sequence")) >= hand.table.last_sequence
    pages.screenshot(page, "hand-over-after-a-snapshot-overtook-its-events")


def test_an_action_pressed_while_the_connection_comes_back_is_sent_once_it_is_open(site: Any, pages: Pages) -> None:
    """A press during a reconnection (a network blip, a reconnect after an unanswered ping) waits for the connection
    and is applied, instead of failing at once with "the server could not be reached"."""
    table = heads_up_table()
    alice = player("alice")
    bob = player("bob")
    seat(alice, table, 1_000, number=1)
    seat(bob, table, 1_000, number=4)
    page = pages.new()
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    hand = act_until_seat_acts(table, {1: alice, 4: bob}, 1)
    my_turn(page)

    # The connection drops and its first attempts to come back fail; the player presses in the meantime.
    page.evaluate(
        "window.tableApp.socket.url = () => `ws://${location.host}/ws/not-a-socket/`; window.tableApp.socket.drop()"
    )
    wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'reconnecting'")
    page.locator("#action-buttons [data-act]:not([hidden])").first.click()
    page.evaluate("delete window.tableApp.socket.url; window.tableApp.socket.reconnectNow()")
    wait_live(page)

    def alice_acted() -> bool:
        current = hand_in_play(table)
        return current is None or current["id"] != hand.pk or current["acting_seat"] != 1

    deadline = time.monotonic() + 30
    while not alice_acted():
        assert time.monotonic() < deadline, "the action pressed during the reconnection was never applied"
        time.sleep(0.1)
    assert "could not be reached" not in (page.locator("#action-notices").text_content() or "")
