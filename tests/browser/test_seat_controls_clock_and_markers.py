"""The table shows whose turn it is with a running clock and the timebank (TB-01..04), the dealer button and blinds
where the hand put them (ENG-05), and the seat controls change the player's seat and settings: sit out (CASH-16),
sit out next big blind (CASH-19), auto top-up (CASH-15)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Hand, PlayerTableSettings, Seat, SeatStatus, Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until, wait_until_stored
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def dealt_table(site: Any) -> Table:
    table = heads_up_table(decision_seconds=60)
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)
    return table


def clock_seconds(page: Any, seat_number: int) -> int:
    text = str(page.locator(f"[data-clock-text='{seat_number}']").text_content())
    match = re.match(r"(\d+) s", text)
    assert match, text
    return int(match.group(1))


def test_the_turn_clock_timebank_and_markers_are_shown(dealt_table: Table, pages: Pages) -> None:
    hand: Hand = running_hand(dealt_table)
    watcher = pages.new()
    watcher.goto(f"/games/tables/{dealt_table.pk}/")
    wait_live(watcher)
    acting = hand.acting_seat
    assert acting is not None
    watcher.wait_for_selector(f".seat.to-act[data-seat='{acting}'] [data-clock-text]")
    first = clock_seconds(watcher, acting)
    assert 50 <= first <= 60
    assert "timebank 15 s" in str(watcher.locator(f"[data-clock-text='{acting}']").text_content())
    # The clock runs down: wait for its text to show fewer seconds than it first did (at least one tick later).
    wait_until(
        watcher,
        "([seat, first]) => parseInt(document.querySelector(`[data-clock-text='${seat}']`).textContent, 10) < first",
        arg=[acting, first],
    )
    assert clock_seconds(watcher, acting) < first
    config = hand.config
    assert watcher.locator(f".seat[data-seat='{config['button']}'] .marker.dealer").count() == 1
    assert watcher.locator(f".seat[data-seat='{config['small_blind_seat']}'] .marker.small-blind").count() == 1
    assert watcher.locator(f".seat[data-seat='{config['big_blind_seat']}'] .marker.big-blind").count() == 1

    player_page = pages.new()
    log_in(player_page, "alice" if acting == 1 else "bob")
    player_page.goto(f"/games/tables/{dealt_table.pk}/")
    wait_live(player_page)
    player_page.wait_for_selector("#my-clock:not([hidden])")
    assert str(player_page.locator("#my-clock-text").text_content()).startswith("Time left:")
    pages.screenshot(player_page, "my-turn-clock")


def test_the_seat_controls_change_the_seat_and_the_settings(dealt_table: Table, pages: Pages) -> None:
    hand = running_hand(dealt_table)
    # Alice is the one not to act, so her toggles apply from the next hand.
    name = "alice" if hand.acting_seat == 4 else "bob"
    number = 1 if name == "alice" else 4
    page = pages.new()
    log_in(page, name)
    page.goto(f"/games/tables/{dealt_table.pk}/")
    wait_live(page)

    page.get_by_label("Auto top-up to my initial buy-in").check()
    page.wait_for_selector(".notice-ok")
    assert PlayerTableSettings.objects.get(user__username=name).auto_top_up is True

    page.get_by_label("Sit out next big blind").check()
    wait_until(page, "document.getElementById('toggle-sit-out-next-big-blind').checked")
    wait_until_stored(
        page,
        lambda: Seat.objects.get(table=dealt_table, number=number).sit_out_next_big_blind,
        what="sit out next big blind was not stored",
    )
    assert Seat.objects.get(table=dealt_table, number=number).sit_out_next_big_blind is True

    page.get_by_label("Sit out", exact=True).check()
    wait_until(
        page,
        "document.querySelector('#sit-out-info').textContent.length > 0"
        " || document.getElementById('toggle-sit-out').checked",
    )

    def sat_out() -> bool:
        row = Seat.objects.get(table=dealt_table, number=number)
        return row.status == SeatStatus.SITTING_OUT or row.sit_out_after_hand

    wait_until_stored(page, sat_out, what="sitting out was not stored")
    seat_row = Seat.objects.get(table=dealt_table, number=number)
    assert seat_row.status == SeatStatus.SITTING_OUT or seat_row.sit_out_after_hand
    pages.screenshot(page, "seat-controls")

    # The toggles read back from the server after a reload.
    page.reload()
    wait_live(page)
    assert page.get_by_label("Auto top-up to my initial buy-in").is_checked()
    assert page.get_by_label("Sit out next big blind").is_checked()
