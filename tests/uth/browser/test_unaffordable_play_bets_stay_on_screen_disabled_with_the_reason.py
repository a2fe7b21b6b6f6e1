"""UTH-23 / AMB-39: a PLAY decision the player's balance cannot cover is shown disabled, never hidden, with the reason
in words ("Your balance €4.00 does not cover a 3× play of €15.00"); the decisions the rules still allow — CHECK before
the flop and on the flop (UTH-10, UTH-11), FOLD at the river (UTH-12) — stay enabled and work."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.models import UthHand, UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table, wait_for_betting_time

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return a_uth_table("Short-stacked UTH", decision_seconds=30)


def state_of(page: Any, decision: str) -> str:
    """'hidden', 'disabled' or 'enabled'."""
    return str(
        page.evaluate(
            "(name) => { const b = document.querySelector(`[data-decision=${name}]`);"
            " return b.hidden ? 'hidden' : b.disabled ? 'disabled' : 'enabled'; }",
            decision,
        )
    )


def test_uth_23_play_bets_the_balance_cannot_cover_are_disabled_with_the_reason_and_check_and_fold_still_work(
    uth_table: UthTable, pages: Pages
) -> None:
    alice = player("alice", cash_cents=1_400)  # €14: Ante €5 + Blind €5 leaves €4, below every PLAY
    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()
    wait_for_betting_time(page, 8)
    page.get_by_label("€5.00").check()
    page.get_by_role("button", name="Ante: place the selected chip").click()
    wait_until(page, "document.getElementById('uth-balance').textContent === '€4.00'")

    # Before the flop: PLAY 4x and 3x disabled (shown with their price), CHECK enabled.
    page.locator("[data-decision=check]").wait_for(state="visible", timeout=40_000)
    assert (state_of(page, "play_4x"), state_of(page, "play_3x"), state_of(page, "check")) == (
        "disabled",
        "disabled",
        "enabled",
    )
    assert page.locator("[data-decision=play_3x]").text_content() == "PLAY 3x (€15.00)"
    reason = page.locator("#uth-play-unaffordable")
    assert reason.is_visible()
    assert reason.text_content() == "Your balance €4.00 does not cover a 3× play of €15.00. You can still CHECK."
    assert page.locator("[data-decision=play_3x]").get_attribute("aria-describedby") == "uth-play-unaffordable"
    pages.screenshot(page, "uth-play-unaffordable-preflop")
    page.locator("[data-decision=check]").click()

    # The flop: PLAY 2x (€10) disabled, CHECK works.
    wait_until(page, "document.querySelector('[data-decision=play_2x]').hidden === false", timeout=40_000)
    assert (state_of(page, "play_2x"), state_of(page, "check"), state_of(page, "play_4x")) == (
        "disabled",
        "enabled",
        "hidden",
    )
    assert "does not cover a 2× play of €10.00" in str(reason.text_content())
    page.locator("[data-decision=check]").click()

    # The river: PLAY 1x (€5) disabled, FOLD works.
    wait_until(page, "document.querySelector('[data-decision=play_1x]').hidden === false", timeout=40_000)
    assert (state_of(page, "play_1x"), state_of(page, "fold")) == ("disabled", "enabled")
    assert reason.text_content() == "Your balance €4.00 does not cover a 1× play of €5.00. You can still FOLD."
    pages.screenshot(page, "uth-play-unaffordable-river")
    page.locator("[data-decision=fold]").click()
    wait_until(page, "document.getElementById('uth-play-unaffordable').hidden === true")

    hand = UthHand.objects.get(player=alice)
    assert hand.play == 0
    assert [item["label"] for item in hand.decisions] == ["CHECK", "CHECK", "FOLD"]
