"""The lobby's buy-in dialog ("Play this stake") is the table page's "Seat me" dialog with the player's own limits for
the stake (LOB-05): a Banzai player back within 30 minutes with more than 10 BB is offered Resume with the stack they
left with or Reset to 10 BB (CASH-30, CASH-31) and sits down with either; a player back at the Omaha table they left
sees their ratholing range, not the table's (CASH-11). Before, the lobby offered only the table's "exactly €1.00" and
refused €1.08 unsent while the server refused €1.00: the player could not sit from the lobby (QA report F, findings
1 and 2)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Seat, Stake
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until, wait_until_stored
from tests.browser.setup import player, seat
from tests.tables.support import left_table_earlier

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def play_this_stake(page: Any, table_id: int) -> None:
    page.goto("/")
    page.locator(f"#lobby-table-{table_id} [data-action=play-stake]").click()
    page.wait_for_selector("#buy-in-dialog[open]")


def bob_back_at_banzai_with_a_big_stack(pages: Pages) -> tuple[Any, Any, Stake]:
    """Bob left a Banzai NL1 table (10 BB = €1.00) ten minutes ago with €1.08 and plays the stake again from the
    lobby, whose dialog then offers Resume and Reset (CASH-30, CASH-31)."""
    stake = Stake.objects.get(game_type__code="banzai", label="NL1")
    left, table = table_open(stake), table_open(stake)
    seat(player("gina"), table, 100, number=1)
    bob = player("bob", cash_cents=5000)
    left_table_earlier(bob, left, 108, timezone.now() - timedelta(minutes=10))
    page = pages.new()
    log_in(page, "bob")
    play_this_stake(page, table.pk)
    page.wait_for_selector("#buy-in-banzai:not([hidden])")
    return page, bob, stake


def banzai_session_of(page: Any, user: Any, stake: Stake) -> Any:
    """The table session of ``user``'s seat at ``stake``, once stored."""
    return wait_until_stored(
        page,
        lambda: Seat.objects.select_related("session").filter(user=user, table__stake=stake).first(),
        what=f"{user.username}'s Banzai seat",
    ).session


def test_cash_30_cash_31_a_banzai_player_back_with_a_big_stack_resumes_from_the_lobby(site: Any, pages: Pages) -> None:
    page, bob, stake = bob_back_at_banzai_with_a_big_stack(pages)

    choice = str(page.locator("#buy-in-banzai").text_content())
    assert "Resume with €1.08" in choice
    assert "Reset to €1.00 (5 resets left today)" in choice
    assert page.locator("#buy-in-amount").input_value() == "1.08"
    assert "exactly €1.08" in str(page.locator("#buy-in-limits").text_content())
    page.locator("#buy-in-banzai-reset-choice").check()
    assert page.locator("#buy-in-amount").input_value() == "1.00"
    page.locator("input[name=banzai_choice][value=resume]").check()
    assert page.locator("#buy-in-amount").input_value() == "1.08"
    pages.screenshot(page, "lobby-buy-in-banzai-resume")
    page.locator("#buy-in-confirm").click()

    session = banzai_session_of(page, bob, stake)
    assert (session.initial_buy_in, session.buy_in_kind) == (108, "banzai_resume")


def test_cash_31_a_banzai_player_back_with_a_big_stack_resets_from_the_lobby(site: Any, pages: Pages) -> None:
    page, bob, stake = bob_back_at_banzai_with_a_big_stack(pages)
    page.locator("#buy-in-banzai-reset-choice").check()
    page.locator("#buy-in-confirm").click()

    session = banzai_session_of(page, bob, stake)
    assert (session.initial_buy_in, session.buy_in_kind) == (100, "banzai_reset")


def test_lob_05_cash_11_the_lobby_dialog_shows_the_ratholing_range_of_the_table_the_player_left(
    site: Any, pages: Pages
) -> None:
    table = table_open(Stake.objects.get(game_type__code="omaha", label="PL10"))
    seat(player("erin"), table, 600, number=1)
    carol = player("carol", cash_cents=3000)
    left_table_earlier(carol, table, 1011, timezone.now() - timedelta(minutes=10))
    page = pages.new()
    log_in(page, "carol")

    play_this_stake(page, table.pk)

    wait_until(page, "document.getElementById('buy-in-limits').textContent.includes('You left this table with')")
    text = str(page.locator("#buy-in-limits").text_content())
    assert "between €10.00 and €10.11" in text
    assert "€5.00" not in text
    page.locator("[data-buy-in='min']").click()
    assert page.locator("#buy-in-amount").input_value() == "10.00"
    pages.screenshot(page, "lobby-buy-in-ratholing-range")
