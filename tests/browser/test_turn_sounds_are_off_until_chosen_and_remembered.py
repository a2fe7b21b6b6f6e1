"""Sounds for the player's turn and for the clock running low are off by default; the "Sounds" toggle turns them on and
the browser remembers the choice across reloads. Requirement: UTH-35 / LOB-04 (a sound control; sounds off unless
chosen)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, my_turn, wait_live
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def dealt(site: Any) -> Table:
    table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)
    return table


def test_the_turn_sound_plays_only_once_chosen_and_the_choice_is_kept(dealt: Table, pages: Pages) -> None:
    acting = running_hand(dealt).acting_seat
    page = pages.new()
    log_in(page, "alice" if acting == 1 else "bob")
    page.goto(f"/games/tables/{dealt.pk}/")
    wait_live(page)
    my_turn(page)
    assert not page.locator("#toggle-sound").is_checked()
    assert page.locator("#table-app").get_attribute("data-last-sound") is None  # the turn came in silence
    page.get_by_label("Sounds").check()
    page.reload()
    wait_live(page)
    my_turn(page)
    assert page.locator("#toggle-sound").is_checked()
    page.wait_for_selector("#table-app[data-last-sound=turn]")
