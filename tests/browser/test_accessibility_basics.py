"""Accessibility basics: every control on every page has an accessible name (as Chromium computes it for screen
readers), and the live table can be played with the keyboard alone (LOB-04)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Hand, HandStatus, Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, visible_actions, wait_live, wait_until
from tests.browser.setup import (
    check_or_call_down,
    hand_events,
    heads_up_table,
    player,
    running_hand,
    seat,
    seat_to_act,
    wait_until_ended,
)
from tests.waiting import eventually

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

CONTROL_ROLES = {
    "button",
    "link",
    "textbox",
    "combobox",
    "checkbox",
    "slider",
    "spinbutton",
    "radio",
    "switch",
    "searchbox",
    "listbox",
    "menuitem",
    "tab",
    "dialog",
}


def unnamed_controls(page: Any) -> list[str]:
    """Controls in the page's accessibility tree (what a screen reader gets) that have no name."""
    session = page.context.new_cdp_session(page)
    try:
        tree = session.send("Accessibility.getFullAXTree")
    finally:
        session.detach()
    missing = []
    for node in tree["nodes"]:
        if node.get("ignored"):
            continue
        role = node.get("role", {}).get("value")
        name = str(node.get("name", {}).get("value", "")).strip()
        if role in CONTROL_ROLES and not name:
            description = session_node_description(page, node)
            missing.append(f"{role}: {description}")
    return missing


def session_node_description(page: Any, node: dict[str, Any]) -> str:
    backend = node.get("backendDOMNodeId")
    if backend is None:
        return "(no DOM node)"
    session = page.context.new_cdp_session(page)
    try:
        described = session.send("DOM.describeNode", {"backendNodeId": backend})
    finally:
        session.detach()
    element = described.get("node", {})
    return f"<{element.get('localName')} {element.get('attributes')}>"


def assert_every_control_named(page: Any, path: str) -> None:
    missing = unnamed_controls(page)
    assert not missing, f"{path}: controls without an accessible name: {missing}"
    # The scan can fail: a control without a name added to this very page is reported.
    page.evaluate(
        "() => { const probe = document.createElement('input'); probe.id = 'a11y-probe';"
        " (document.querySelector('dialog[open]') || document.body).appendChild(probe); }"
    )
    assert any("a11y-probe" in entry for entry in unnamed_controls(page)), f"{path}: the scan saw no controls"
    page.evaluate("() => document.getElementById('a11y-probe').remove()")


@pytest.fixture
def played_table(site: Any) -> tuple[Table, Hand]:
    """Alice and Bob at a heads-up table: one hand played to the end, the next one dealt."""
    table = heads_up_table(pause_milliseconds=500)
    alice, bob = player("alice"), player("bob")
    player("carol")
    seat(alice, table, 1000, number=1)
    seat(bob, table, 1000, number=4)
    finished = check_or_call_down(table, {1: alice, 4: bob})
    running_hand(table)
    return table, finished


def test_every_control_on_every_page_has_an_accessible_name(played_table: tuple[Table, Hand], pages: Pages) -> None:
    table, finished = played_table
    visitor = pages.new()
    for path in ("/", "/accounts/log-in/", "/accounts/sign-up/", "/rules/cash-games/", f"/games/tables/{table.pk}/"):
        visitor.goto(path)
        visitor.wait_for_load_state("networkidle")
        assert_every_control_named(visitor, path)

    acting = running_hand(table).acting_seat
    name = "alice" if acting == 1 else "bob"
    page = pages.new()
    log_in(page, name)
    for path in ("/", "/wallet/", "/games/hands/", f"/games/hands/{finished.pk}/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert_every_control_named(page, path)
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    wait_until(page, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length > 0")
    assert_every_control_named(page, "table, the player's turn")
    page.locator("#top-up-button").click()
    assert_every_control_named(page, "table, top-up dialog")
    page.keyboard.press("Escape")

    newcomer = pages.new()
    log_in(newcomer, "carol")
    newcomer.goto(f"/games/tables/{table.pk}/")
    wait_live(newcomer)
    newcomer.locator("#seat-me").click()
    newcomer.wait_for_selector("#buy-in-dialog[open]")
    assert_every_control_named(newcomer, "table, buy-in dialog")
    pages.screenshot(newcomer, "buy-in-dialog")


@pytest.fixture
def dealt_table(site: Any) -> Table:
    """Alice (seat 1) and Bob (seat 4) at a heads-up table with the first hand dealt."""
    table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)
    return table


def test_the_table_is_playable_with_the_keyboard_alone(dealt_table: Table, pages: Pages) -> None:
    table = dealt_table
    hand = running_hand(table)
    players = {1: pages.new(), 4: pages.new()}
    log_in(players[1], "alice")
    log_in(players[4], "bob")
    for page in players.values():
        page.goto(f"/games/tables/{table.pk}/")
        wait_live(page)

    # The player to act raises: R moves to the amount, typing and Enter raise to €0.30.
    first = players[running_hand(table).acting_seat or 0]
    wait_until(first, "document.activeElement && document.activeElement.dataset.act !== undefined")
    assert "raise" in visible_actions(first)
    first.keyboard.press("r")
    assert first.evaluate("document.activeElement.id") == "bet-amount"
    first.keyboard.press("Control+A")
    first.keyboard.type("0.30")
    first.keyboard.press("Enter")
    wait_until(first, "!document.querySelector('#action-buttons [data-act]:not([hidden])')")
    # The buttons hide on the press, before the table's answer.
    raise_event = eventually(lambda: hand_events(table, hand.pk, "action_taken"), what="the action pressed taken")[0]
    assert raise_event["resolved"] == "raise"
    assert raise_event["total_bet"] == 30

    # Then both check or call with C until the hand ends; Tab reaches the buttons too.
    for _ in range(20):
        acting = seat_to_act(table, hand.pk)
        if acting is None:
            break
        page = players[acting]
        wait_until(page, "document.querySelector('#action-buttons [data-act]:not([hidden]):not([aria-disabled=true])')")
        sequence = int(page.locator("#table-app").get_attribute("data-sequence"))
        page.keyboard.press("c")
        wait_until(page, f"Number(document.getElementById('table-app').dataset.sequence) > {sequence}")
        page.wait_for_timeout(200)
    hand = wait_until_ended(hand)
    assert hand.status == HandStatus.FINISHED
    assert hand.pot_total == 60
    pages.screenshot(players[1], "keyboard-hand-finished")


def test_tab_reaches_the_action_buttons(dealt_table: Table, pages: Pages) -> None:
    table = dealt_table
    acting = running_hand(table).acting_seat
    page = pages.new()
    log_in(page, "alice" if acting == 1 else "bob")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    wait_until(page, "document.querySelector('#action-buttons [data-act]:not([hidden])')")
    page.evaluate("document.activeElement.blur()")
    reached = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        act = page.evaluate("document.activeElement && document.activeElement.dataset.act")
        if act:
            reached.add(act)
        if len(reached) >= 2:
            break
    assert len(reached) >= 2, reached
