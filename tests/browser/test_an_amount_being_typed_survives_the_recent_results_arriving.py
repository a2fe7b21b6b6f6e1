"""The amount a player types into the bet box stays there until they act, whatever arrives meanwhile.

After a page (re)load the table reads back its recent results once (a ``resync`` over the last events). Those events
include the actions already taken in the hand being played; they once counted as new decisions, so a read-back that
arrived while the player was typing reset the box to the minimum, and the Raise button sent the minimum. Here the
read-back's answer is held at the socket until the player has typed, then let through: the amount sent is the
amount the player chose and saw."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import HandStatus, Seat
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, log_in, my_turn, wait_until, wait_until_stored
from tests.browser.setup import (
    act_until_seat_acts,
    check_or_call,
    hand_events,
    heads_up_table,
    player,
    running_hand,
    seat,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


class HeldReadBack:
    """Routes a page's table socket through the test and holds the answer to the page's first ``resync`` request
    (the recent results read back after the first snapshot) until ``release``."""

    def __init__(self, page: Any) -> None:
        self.request_id: Any = None
        self.held: list[str] = []
        self.released = False
        self.route: Any = None
        page.route_web_socket("**/ws/tables/**", self._connect)

    def _connect(self, route: Any) -> None:
        self.route = route
        server = route.connect_to_server()
        route.on_message(lambda message: self._from_page(server, message))
        server.on_message(lambda message: self._from_server(route, message))

    def _from_page(self, server: Any, message: Any) -> None:
        if self.request_id is None and isinstance(message, str):
            frame = json.loads(message)
            if frame.get("type") == "resync":
                self.request_id = frame.get("request_id")
        server.send(message)

    def _from_server(self, route: Any, message: Any) -> None:
        answer = not self.released and isinstance(message, str) and self.request_id is not None
        if answer and json.loads(message).get("request_id") == self.request_id:
            self.held.append(message)
            return
        route.send(message)

    def release(self) -> None:
        self.released = True
        for message in self.held:
            self.route.send(message)


def test_the_typed_amount_is_kept_when_the_read_back_results_arrive_during_the_turn(site: Any, pages: Pages) -> None:
    table = heads_up_table()
    alice = player("alice")
    bob = player("bob")
    seat(alice, table, 1_000, number=1)
    seat(bob, table, 1_000, number=4)
    users = {1: alice, 4: bob}
    mine = Seat.objects.get(table=table, user=alice).number
    # Play until it is alice's turn with at least one action already taken in the hand (so the read-back carries it).
    hand = act_until_seat_acts(table, users, mine)
    if not hand_events(table, hand.pk, "action_taken"):
        check_or_call(table, alice)
        hand = act_until_seat_acts(table, users, mine)
    assert hand.status == HandStatus.RUNNING
    assert hand_events(table, hand.pk, "action_taken")
    assert running_hand(table).pk == hand.pk

    page = pages.new(width=1366, height=768)
    log_in(page, "alice")
    read_back = HeldReadBack(page)
    frames = FrameRecorder(page)
    page.goto(f"{site.url}/games/tables/{table.pk}/")
    my_turn(page)
    # The routed frames reach these handlers while Playwright waits, so the test waits for the request to pass.
    wait_until_stored(page, lambda: read_back.request_id, what="the page asks for its recent results")
    assert not page.evaluate("document.getElementById('table-app').hasAttribute('data-results-read')")

    kind = "raise" if page.locator('#action-buttons [data-act="raise"]:not([hidden])').count() else "bet"
    page.locator("#bet-amount").fill("0,40")
    button = f"document.querySelector('#action-buttons [data-act={kind}]')"
    wait_until(page, f"{button}.getAttribute('data-amount') === '40'")

    read_back.release()
    wait_until(page, "document.getElementById('table-app').getAttribute('data-results-read') === 'true'")
    assert page.locator("#bet-amount").input_value() == "0,40"
    assert page.locator(f"#action-buttons [data-act={kind}]").get_attribute("data-amount") == "40"

    page.locator(f'#action-buttons [data-act="{kind}"]').click()
    wait_until(page, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length === 0")
    sent = [frame for frame in frames.sent if frame.get("type") == "act" and frame.get("action") == kind]
    assert [frame["amount"] for frame in sent] == [40]
