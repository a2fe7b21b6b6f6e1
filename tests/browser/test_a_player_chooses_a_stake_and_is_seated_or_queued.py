"""The lobby's cash section lets the player choose a game and a stake, not a table (LOB-01, CASH-04): "Seat me" seats
them at the table the stake queue assigns — an empty table of the stake too, instead of "number 1 in the queue" next
to it (issue 22) — or queues them with the reason; the Waiting column counts them at once, the wait is still shown
after a reload, and the lobby marks the table they sit at."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat, SeatingRequest, Stake
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def choose_stake_and_ask(page: Any, game: str, stake: str, euros: str) -> None:
    page.goto("/")
    page.wait_for_selector("#cash-table-rows tr")
    page.locator("#filter-game").select_option(game)
    page.locator("#filter-stake").select_option(stake)
    page.locator("#play-stake").click()
    page.locator("#buy-in-amount").fill(euros)
    page.locator("#buy-in-confirm").click()


def test_lob_01_cash_04_a_player_who_chooses_a_stake_whose_table_is_empty_is_seated_there_and_the_lobby_marks_it(
    site: Any, pages: Pages
) -> None:
    empty = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    table_open(Stake.objects.get(game_type__code="holdem", label="NL4"))
    alice = player("alice")
    page = pages.new()
    log_in(page, "alice")

    choose_stake_and_ask(page, "holdem", "NL10", "10")

    page.wait_for_url(f"**/games/tables/{empty.pk}/")
    wait_live(page)
    wait_until(page, "document.querySelector('.seat.me') !== null")
    assert Seat.objects.get(user=alice).table_id == empty.pk
    assert not SeatingRequest.objects.filter(user=alice, status="waiting").exists()
    page.goto("/")
    page.wait_for_selector(f"#lobby-table-{empty.pk}[data-mine=true]")
    assert page.locator("#cash-table-rows tr[data-mine]").count() == 1
    pages.screenshot(page, "lobby-after-seat-me")


def test_cash_05_a_player_queued_at_a_full_stake_sees_why_the_waiting_figure_and_the_wait_again_after_a_reload(
    site: Any, pages: Pages
) -> None:
    full = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    for number in range(1, full.seat_count + 1):
        seat(player(f"sitter{number}"), full, 1000, number=number)
    erin = player("erin")
    watcher = pages.new()
    watcher.goto("/")
    watcher.wait_for_selector(f"#lobby-table-{full.pk}")
    page = pages.new()
    log_in(page, "erin")

    choose_stake_and_ask(page, "holdem", "NL10", "10")

    page.wait_for_selector("#queue-status:not([hidden])")
    text = str(page.locator("#queue-text").text_content())
    assert "number 1" in text
    assert "The only open Texas Hold'em NL10 table is full. A new table opens when 3 players wait" in text
    wait_until(
        watcher, f"document.querySelector('#lobby-table-{full.pk} .waiting')?.textContent === '1'", timeout=15_000
    )
    pages.screenshot(page, "queued-with-the-reason")

    page.reload()
    page.wait_for_selector("#queue-status:not([hidden])")
    assert "number 1" in str(page.locator("#queue-text").text_content())
    assert page.locator(f"#lobby-table-{full.pk} .waiting").text_content() == "1"

    page.locator("#queue-leave").click()
    page.wait_for_selector("#queue-status", state="hidden")
    wait_until(
        watcher, f"document.querySelector('#lobby-table-{full.pk} .waiting')?.textContent === '0'", timeout=15_000
    )
    assert SeatingRequest.objects.get(user=erin).status == "cancelled"
    assert not Seat.objects.filter(user=erin).exists()
