"""The session reminder (responsible gaming) at a table is a banner that blocks nothing: it shows while the player's
clock runs, covers none of the action buttons, and the player acts while reading it — on a laptop (1366 × 768) and on
a phone (390 × 844). Away from a table it stays a modal dialog. Screenshots in test-artifacts/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from games.models import Table
from poker_site.responsible_gaming.services import SESSION_START_KEY
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, log_in, my_turn, sent_actions, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


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


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop-1366x768", "phone-390x844"])
def test_the_player_acts_while_the_session_reminder_shows_at_the_table(
    site: Any, pages: Pages, screen: dict[str, int]
) -> None:
    table: Table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    acting = running_hand(table).acting_seat
    page = pages.new(**screen)
    log_in(page, "alice" if acting == 1 else "bob")
    logged_in_two_hours_ago(page)
    frames = FrameRecorder(page)
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    my_turn(page)
    wait_until(page, "document.getElementById('session-reminder').open")
    assert page.evaluate("document.querySelector('#session-reminder:modal') === null"), "the reminder is modal"
    assert "You have been logged in for 2 h" in page.locator("#session-reminder").text_content()
    assert uncovered(page, "#action-buttons [data-act]:not([hidden])"), "the reminder covers an action button"
    pages.screenshot(page, "reminder-and-turn")

    page.locator('#action-buttons [data-act]:not([hidden]):not([aria-disabled="true"])').first.click(timeout=5_000)
    wait_until(page, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length === 0")
    assert sent_actions(frames), "the action was not sent"
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
