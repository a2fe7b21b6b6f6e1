"""The Ultimate Texas Hold'em table page fits a phone (390 × 844): nothing makes the page wider than the screen (the
status bar, the felt, the bet spots, the history and result tables), and the keyboard help of the cash table is not
involved here (UTH-35 history and controls on small screens)."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.models import UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return a_uth_table("Phone UTH", chip_values=[100, 500, 2_500, 10_000])


def test_the_page_is_no_wider_than_a_phone(uth_table: UthTable, pages: Pages) -> None:
    player("alice", cash_cents=10_000)
    page = pages.new(**PHONE)
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    page.locator("#uth-help summary").click()  # the limits and paytables too
    pages.screenshot(page, "uth-phone")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page scrolls sideways"
