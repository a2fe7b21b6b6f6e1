"""The hand history lists the player's hands with their results, and the replayer steps through one hand: stacks,
bets, pot and board at every step, ending with the ledger's result (GEN-07, ENG-28)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Hand, HandPlayer, Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in
from tests.browser.setup import check_or_call_down, heads_up_table, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def finished_hand(site: Any) -> tuple[Table, Hand]:
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1000, number=1)
    seat(bob, table, 1000, number=4)
    return table, check_or_call_down(table, {1: alice, 4: bob})


def test_a_player_replays_a_finished_hand_step_by_step(finished_hand: tuple[Table, Hand], pages: Pages) -> None:
    _table, hand = finished_hand
    mine = HandPlayer.objects.get(hand=hand, user__username="alice")
    page = pages.new()
    log_in(page, "alice")
    page.get_by_role("link", name="Hand history").click()
    row = page.locator(f"#hand-list tr[data-hand-id='{hand.pk}']")
    assert row.count() == 1
    assert row.locator("td.money").nth(0).get_attribute("data-cents") == str(hand.pot_total)
    assert row.locator("td.money").nth(1).get_attribute("data-cents") == str(mine.net)
    pages.screenshot(page, "hand-history")

    row.get_by_role("link", name="Replay").click()
    page.wait_for_selector("#replay-steps li")
    steps = page.locator("#replay-steps li").count()
    assert steps >= 8  # start, two blinds, at least four actions, three streets, showdown, result
    assert page.locator("#replay-previous").is_disabled()
    seen_boards = set()
    for _ in range(steps - 1):
        page.locator("#replay-next").click()
        seen_boards.add(page.locator("#replay-board [data-card]").count())
    assert seen_boards >= {0, 3, 4, 5}
    assert page.locator("#replay-next").is_disabled()
    assert page.locator("#replay-result").is_visible()
    result = page.locator(f"#replay-result-table tr[data-seat='{mine.seat_number}'] td").nth(4)
    assert result.get_attribute("data-cents") == str(mine.net)
    pages.screenshot(page, "replayer-result")
    # Back to the start, then the arrow keys step through it too.
    page.locator("#replay-first").click()
    assert page.locator("#replay-position").text_content() == f"Step 1 of {steps}"
    page.locator("#replay-play").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#replay-position").text_content() == f"Step 3 of {steps}"
    assert page.locator("#replay-pot").get_attribute("data-cents") == "15"  # both blinds posted


def test_another_players_hand_is_not_found(finished_hand: tuple[Table, Hand], pages: Pages) -> None:
    _table, hand = finished_hand
    player("carol")
    page = pages.new()
    log_in(page, "carol")
    response = page.goto(f"/games/hands/{hand.pk}/")
    assert response is not None
    assert response.status == 404
