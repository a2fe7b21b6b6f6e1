"""UTH-33 in the browser: two players seated at an Ultimate Texas Hold'em table chat with each other, a visitor reads
along without an input, and one player mutes the other on their own screen; typing in the chat does not trigger the
table's shortcut keys (digits choose chips, Backspace undoes a bet)."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.models import UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return a_uth_table("Chatty UTH", ante_minimum=100, betting_seconds=15, result_seconds=10)


def seated_page(pages: Pages, table: UthTable, username: str) -> Any:
    page = pages.new()
    log_in(page, username)
    page.goto(f"/uth/{table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()
    page.locator("#chat-form").wait_for()
    return page


def has_line(page: Any, text: str) -> None:
    wait_until(
        page,
        "text => Array.from(document.querySelectorAll('#chat-lines .chat-text'))"
        ".some(item => item.textContent === text)",
        arg=text,
    )


def shown(page: Any) -> list[str]:
    return list(
        page.evaluate(
            "Array.from(document.querySelectorAll('#chat-lines li:not([hidden]) .chat-text'))"
            ".map(item => item.textContent)"
        )
    )


def test_players_chat_a_visitor_reads_and_a_mute_hides_a_player(uth_table: UthTable, pages: Pages) -> None:
    player("alice", cash_cents=10_000)
    player("bob", cash_cents=10_000)
    alice = seated_page(pages, uth_table, "alice")
    bob = seated_page(pages, uth_table, "bob")
    visitor = pages.new()
    visitor.goto(f"/uth/{uth_table.pk}/")
    wait_until(visitor, "document.getElementById('uth-connection').textContent === 'Connected'")

    alice.locator("#chat-input").fill("")
    alice.locator("#chat-input").press_sequentially("2 <b>good luck</b>")
    alice.locator("#chat-input").press("Backspace")
    alice.locator("#chat-input").press("Enter")
    for page in (alice, bob, visitor):
        has_line(page, "2 <b>good luck</b")
    assert alice.locator("#uth-error").is_hidden()  # no shortcut ran while typing
    assert visitor.locator("#chat-form").is_hidden()
    assert visitor.locator("#chat-read-only").is_visible()

    bob.locator("#chat-lines [data-chat-mute]").first.click()
    alice.locator("#chat-input").fill("still there?")
    alice.locator("#chat-input").press("Enter")
    has_line(bob, "still there?")
    has_line(visitor, "still there?")
    assert shown(bob) == []
    assert shown(visitor) == ["2 <b>good luck</b", "still there?"]
    pages.screenshot(bob, "alice-muted")
