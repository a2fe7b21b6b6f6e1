"""The Ultimate Texas Hold'em table page fits a phone (390 × 844): nothing makes the page wider than the screen (the
status bar, the felt, the bet spots, the history and result tables), and the keyboard help of the cash table is not
involved here (UTH-35 history and controls on small screens)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.uth.models import UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return UthTable.objects.create(
        name="Phone UTH",
        ante_minimum=500,
        ante_maximum=10_000,
        trips_minimum=100,
        trips_maximum=2_500,
        chip_values=[100, 500, 2_500, 10_000],
        betting_seconds=12,
        decision_seconds=20,
        result_seconds=30,
        next_round_at=timezone.now(),
    )


def test_the_page_is_no_wider_than_a_phone(uth_table: UthTable, pages: Pages) -> None:
    player("alice", cash_cents=10_000)
    page = pages.new(**PHONE)
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    page.locator("#uth-help summary").click()  # the limits and paytables too
    pages.screenshot(page, "uth-phone")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page scrolls sideways"
