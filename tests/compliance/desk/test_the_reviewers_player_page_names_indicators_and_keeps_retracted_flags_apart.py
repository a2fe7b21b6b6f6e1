"""QA report H, item 13 (FRD-19): the reviewer's page of a player showed raw indicator codes (``net_flow``) and mixed
retracted flags with open ones. It names each flag's indicator by its title, as the queue does, and lists retracted
flags (their evidence no longer holds) apart."""

from __future__ import annotations

import re
from typing import Any

import pytest

from compliance.models import FlagStatus
from tests.compliance.desk.support import player
from tests.compliance.desk.test_a_flag_is_taken_into_a_case_or_dismissed import flag_of
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def listed(page: str, list_id: str) -> list[int]:
    found = re.search(rf'<ul id="{list_id}"[^>]*>(.*?)</ul>', page, re.S)
    return [int(number) for number in re.findall(r'data-flag-id="(\d+)"', found.group(1))] if found else []


def test_the_player_page_names_indicators_and_keeps_retracted_flags_apart(reviewer: Any) -> None:
    alice, bob = player("alice"), player("bob")
    dumping = flag_of("chip_dumping", [alice, bob], 5.0)
    flow = flag_of("net_flow", [alice, bob], 4.0)
    flow.status = FlagStatus.RETRACTED
    flow.save(update_fields=["status"])

    page = logged_in(reviewer).get(f"/compliance/players/{alice.pk}/").content.decode()

    assert listed(page, "player-flags") == [dumping.pk]
    assert listed(page, "player-retracted-flags") == [flow.pk]
    assert "Chip dumping" in page
    assert "Net flow between two accounts, luck removed" in page
    assert "chip_dumping" not in page
    assert "net_flow" not in page
