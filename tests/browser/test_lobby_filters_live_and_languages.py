"""The lobby (LOB-01): cash tables filtered by game and stake, updated live without a reload, tabs for tournaments,
HexaPro and Ultimate Texas Hold'em; the header switches the site between English and Estonian (GEN-09)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Stake, Table
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import in_thread, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def stake(game: str, label: str) -> Stake:
    return Stake.objects.get(game_type__code=game, label=label)


@pytest.fixture
def tables(site: Any) -> dict[str, Table]:
    opened = {
        "holdem NL10": table_open(stake("holdem", "NL10")),
        "holdem NL4": table_open(stake("holdem", "NL4")),
        "omaha PL10": table_open(stake("omaha", "PL10")),
    }
    seat(player("alice"), opened["holdem NL10"], 700)
    return opened


def row_ids(page: Any) -> set[int]:
    ids = page.locator("#cash-table-rows tr").evaluate_all("rows => rows.map(row => row.dataset.tableId)")
    return {int(value) for value in ids}


def test_cash_tables_filter_by_game_and_stake_and_update_live(tables: dict[str, Table], pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    wait_until(page, "document.querySelectorAll('#cash-table-rows tr').length === 3")
    nl10 = tables["holdem NL10"]
    row = page.locator(f"#lobby-table-{nl10.pk}")
    assert row.locator(".seats-taken").text_content() == "1 / 6"
    assert row.locator("td.money").nth(0).text_content() == "€0.05 / €0.10"
    assert row.locator("td.money").nth(1).text_content() == "€5.00 – €10.00"
    pages.screenshot(page, "all-tables")

    page.locator("#filter-game").select_option("omaha")
    assert row_ids(page) == {tables["omaha PL10"].pk}
    # Every Omaha stake on offer is a choice, open table or not (the queue opens one), cheapest first.
    choices = page.locator("#filter-stake option").all_text_contents()[1:]
    assert choices[:2] == ["PL4 (€0.02 / €0.04)", "PL10 (€0.05 / €0.10)"]
    assert len(choices) == Stake.objects.filter(game_type__code="omaha").count()
    page.locator("#filter-game").select_option("holdem")
    page.locator("#filter-stake").select_option("NL4")
    assert row_ids(page) == {tables["holdem NL4"].pk}
    # The filter is in the address, so a reload or a shared link keeps it.
    page.reload()
    wait_until(page, "document.querySelectorAll('#cash-table-rows tr').length === 1")
    assert page.locator("#filter-stake").input_value() == "NL4"
    page.locator("#filter-game").select_option("")
    page.locator("#filter-seats").select_option("free")
    assert len(row_ids(page)) == 3

    # A table opened and a player sitting down elsewhere reach the page without a reload.
    new_table = in_thread(lambda: table_open(stake("holdem", "NL10")))
    page.wait_for_selector(f"#lobby-table-{new_table.pk}", timeout=15_000)
    in_thread(lambda: seat(player("bob"), new_table, 1000))
    wait_until(
        page,
        f"document.querySelector('#lobby-table-{new_table.pk} .seats-taken')?.dataset.players === '1'",
        timeout=15_000,
    )
    pages.screenshot(page, "after-live-updates")


def test_the_other_tabs_show_what_exists(tables: dict[str, Table], pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.get_by_role("tab", name="Tournaments").click()
    assert "No tournaments scheduled" in str(page.locator("#panel-tournaments").text_content())
    page.get_by_role("tab", name="HexaPro").click()
    assert page.locator("#panel-hexapro").is_visible()
    page.keyboard.press("ArrowRight")
    assert page.locator("#panel-uth").is_visible()
    assert page.evaluate("document.activeElement.id") == "tab-uth"
    pages.screenshot(page, "uth-tab")


def test_the_language_switch_turns_the_site_estonian(tables: dict[str, Table], pages: Pages) -> None:
    page = pages.new()
    log_in(page, "alice")
    page.locator("#language-select").select_option("et")
    wait_until(page, "document.documentElement.lang === 'et'")
    page.wait_for_selector("#cash-table-rows tr")
    assert page.get_by_role("tab", name="Rahamängud").is_visible()
    wait_until(page, "document.getElementById('lobby-status').textContent === 'Otse'")  # live, once its socket opens
    assert page.locator(f"#lobby-table-{tables['holdem NL4'].pk} a.button").text_content() == "Vaata"
    assert page.locator(f"#lobby-table-{tables['holdem NL10'].pk} a.button").text_content() == "Ava"  # alice's own
    assert page.locator("#header-balance").text_content() == "43,00\u00a0€"
    pages.screenshot(page, "lobby-estonian")
    with page.expect_navigation(wait_until="domcontentloaded"):  # the rules page, not the lobby still shown
        page.get_by_role("link", name="Reeglid").first.click()
    assert "Reeglite versioon 2.7" in str(page.locator("main").text_content())
    page.locator("#language-select").select_option("en")
    wait_until(page, "document.documentElement.lang === 'en'")
    assert "Rules version 2.7" in str(page.locator("main").text_content())


def test_a_player_waits_in_the_queue_and_is_taken_to_the_table_when_seated(
    tables: dict[str, Table], pages: Pages
) -> None:
    """CASH-04/05: "seat me" at a stake with no table to join queues the player; when enough players wait, a table
    opens and the waiting page goes to it by itself."""
    from games.services import table_join_queue

    others = [player("carol"), player("dave")]
    page = pages.new()
    log_in(page, "alice")
    page.goto("/?game=omaha&stake=PL4")
    page.locator("#play-stake").click()
    page.locator("#buy-in-amount").fill("4")
    page.locator("#buy-in-confirm").click()
    page.wait_for_selector("#queue-status:not([hidden])")
    assert "waiting list" in str(page.locator("#queue-text").text_content())
    pages.screenshot(page, "waiting-list")
    omaha_pl4 = stake("omaha", "PL4")
    for other in others:
        in_thread(lambda other=other: table_join_queue(other, omaha_pl4, 400))
    page.wait_for_url("**/games/tables/*/", timeout=60_000)
    wait_live(page)
    page.wait_for_selector("#seat-controls:not([hidden])")
