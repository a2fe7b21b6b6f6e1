"""The session reminder (responsible gaming) at a table is a banner that blocks nothing: it shows while the player's
clock runs, covers none of the action buttons, and the player acts while reading it — one player on a laptop
(1366 × 768) and the other on a phone (390 × 844), each in turn in the same hand. Away from a table it stays a modal
dialog. Screenshots in test-artifacts/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from games.models import Table
from poker_site.responsible_gaming.services import SESSION_START_KEY
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import LAPTOP, PHONE, FrameRecorder, log_in, my_turn, sent_actions, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def logged_in_two_hours_ago(page: Any) -> None:
    """The player's session started two hours ago: the reminder (every 60 minutes by default) is due."""
    key = next(cookie["value"] for cookie in page.context.cookies() if cookie["name"] == "sessionid")
    session = SessionStore(session_key=key)
    session[SESSION_START_KEY] = (timezone.now() - timedelta(hours=2)).isoformat()
    session.save()


def uncovered(page: Any, selector: str) -> bool:
    """Nothing lies over the middle of any visible element matching ``selector``."""
    return bool(
        page.evaluate(
            """selector => [...document.querySelectorAll(selector)].filter(e => e.offsetParent !== null).every(e => {
                const box = e.getBoundingClientRect();
                const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
                return top !== null && e.contains(top);
            })""",
            selector,
        )
    )


def test_each_player_acts_while_the_session_reminder_shows_at_the_table_on_a_laptop_and_on_a_phone(
    site: Any, pages: Pages
) -> None:
    table: Table = heads_up_table()
    names = {1: "alice", 4: "bob"}
    for number, name in names.items():
        seat(player(name), table, 1000, number=number)
    first = running_hand(table).acting_seat
    assert first is not None
    # The first to act has a laptop, the other a phone: each acts in turn while the reminder shows.
    order = [first, *(number for number in names if number != first)]
    turns = []
    for number, screen, label in zip(order, (LAPTOP, PHONE), ("laptop", "phone"), strict=True):
        page = pages.new(**screen)
        log_in(page, names[number])
        logged_in_two_hours_ago(page)
        frames = FrameRecorder(page)
        page.goto(f"/games/tables/{table.pk}/")
        wait_live(page)
        turns.append((page, frames, label))
    for page, frames, label in turns:
        my_turn(page)
        wait_until(page, "document.getElementById('session-reminder').open")
        assert page.evaluate("document.querySelector('#session-reminder:modal') === null"), "the reminder is modal"
        assert "You have been logged in for 2 h" in page.locator("#session-reminder").text_content()
        assert uncovered(page, "#action-buttons [data-act]:not([hidden])"), f"the reminder covers a button ({label})"
        pages.screenshot(page, f"reminder-and-turn-{label}")

        # Check or call (a fold would end the hand before the other player's turn); the server's answer moves the
        # table on (after a check the same player may act first on the flop, so the buttons may come back).
        sequence = int(page.locator("#table-app").get_attribute("data-sequence"))
        page.locator(
            '#action-buttons [data-act=check]:not([hidden]):not([aria-disabled="true"]), '
            '#action-buttons [data-act=call]:not([hidden]):not([aria-disabled="true"])'
        ).first.click(timeout=5_000)
        wait_until(page, f"Number(document.getElementById('table-app').dataset.sequence) > {sequence}")
        assert sent_actions(frames), f"the action was not sent ({label})"
        page.locator("#session-reminder-continue").click()
        wait_until(page, "!document.getElementById('session-reminder').open")


def test_away_from_a_table_the_session_reminder_is_a_modal_dialog(site: Any, pages: Pages) -> None:
    player("alice")
    page = pages.new(**LAPTOP)
    log_in(page, "alice")
    logged_in_two_hours_ago(page)
    page.goto("/wallet/")
    wait_until(page, "document.getElementById('session-reminder').open")
    assert page.evaluate("document.querySelector('#session-reminder:modal') !== null")
