"""A definition's re-buy, add-on and re-entry settings are checked with the definition (TRN-39, TRN-40): re-buys need a
price, chips, a maximum and a threshold and exist only in scheduled tournaments; an add-on is measured from a re-buy
period (at the break: scheduled breaks are needed); re-entry happens within late registration."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from tests.tournaments.rebuys_support import REBUY_SETTINGS, rebuy_tournament
from tests.tournaments.support import scheduled, sit_and_go

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def refused(tournament: Any, field: str, words: str) -> None:
    with pytest.raises(ValidationError) as raised:
        tournament.full_clean()
    assert words in " ".join(raised.value.message_dict.get(field, [])), raised.value.message_dict


def test_a_valid_rebuy_definition_passes_trn_39() -> None:
    rebuy_tournament(add_on_allowed=True, add_on_buy_in=1_000, add_on_chips=1_500).full_clean()


def test_rebuys_need_their_threshold_maximum_chips_and_price_trn_39() -> None:
    refused(rebuy_tournament(rebuy_stack_threshold=0), "rebuy_levels", "threshold")
    refused(rebuy_tournament(rebuy_maximum=0), "rebuy_levels", "maximum re-buys")
    refused(rebuy_tournament(rebuy_chips=0), "rebuy_levels", "re-buy chips")
    refused(rebuy_tournament(rebuy_buy_in=0, rebuy_fee=0), "rebuy_levels", "has a price")


def test_only_scheduled_tournaments_have_rebuys_trn_39() -> None:
    refused(sit_and_go(**REBUY_SETTINGS), "rebuy_levels", "Only scheduled tournaments")


def test_an_add_on_needs_a_rebuy_period_and_at_the_break_scheduled_breaks_trn_39() -> None:
    refused(scheduled(add_on_allowed=True, add_on_buy_in=1_000, add_on_chips=1_500), "add_on_allowed", "re-buy period")
    refused(
        rebuy_tournament(add_on_allowed=True, add_on_buy_in=1_000, add_on_chips=1_500, add_on_timing="break"),
        "add_on_timing",
        "scheduled breaks",
    )


def test_re_entry_needs_late_registration_trn_40() -> None:
    refused(scheduled(re_entries_maximum=1), "re_entries_maximum", "late registration")
    scheduled(re_entries_maximum=1, late_registration_levels=2).full_clean()
