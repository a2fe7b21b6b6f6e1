"""TRN-06 / LOB-07: payout templates keyed by entrant ranges are edited in the back office, and a structure that is
not a valid template set is refused with the reason and nothing saved: shares that do not add up to 10,000 basis
points, a place paying more than the one above it, more paid places than the smallest field, ranges that overlap,
or a gap between ranges (a tournament with that many entrants would have no payouts)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import PAYOUT_STRUCTURES, client_of, form_errors, submit
from tournaments.models import PayoutRange, PayoutStructure
from tournaments.services.catalog import payout_structure_standard
from tournaments.services.definition import DefinitionRefused, PayoutRangeRow, payout_ranges_check

pytestmark = pytest.mark.django_db

ADD = PAYOUT_STRUCTURES + "add/"


def range_fields(*ranges: tuple[int, int | None, Any]) -> dict[str, str]:
    """The entrant ranges staff add on the page: (from, to or None, shares)."""
    data = {"ranges-TOTAL_FORMS": str(len(ranges)), "ranges-INITIAL_FORMS": "0"}
    for index, (low, high, shares) in enumerate(ranges):
        data |= {
            f"ranges-{index}-minimum_entrants": str(low),
            f"ranges-{index}-maximum_entrants": "" if high is None else str(high),
            f"ranges-{index}-table_size": "",
            f"ranges-{index}-shares_basis_points": json.dumps(shares),
        }
    return data


BAD_STRUCTURES = [
    pytest.param([(2, None, [6000, 3999])], "add up to 9999 basis points, not 10,000", id="shares-not-10000"),
    pytest.param([(2, None, [3000, 7000])], "cannot pay more than the place above it", id="increasing"),
    pytest.param([(2, None, [5000, 3000, 2000])], "3 paid places for as few as 2 entrants", id="too-many-places"),
    pytest.param([(2, None, [50.5, 49.5])], "whole basis points", id="not-whole"),
    pytest.param([(2, 10, [10000]), (8, None, [7000, 3000])], "overlap at 8 entrants", id="overlap"),
    pytest.param([(2, 5, [10000]), (8, None, [7000, 3000])], "No range holds 6–7 entrants", id="gap"),
    pytest.param([], "at least one entrant range", id="no-ranges"),
]


@pytest.mark.parametrize(("ranges", "reason"), BAD_STRUCTURES)
def test_the_rule_refuses_a_bad_template_set(ranges: list[tuple[int, int | None, Any]], reason: str) -> None:
    with pytest.raises(DefinitionRefused, match=reason):
        payout_ranges_check([PayoutRangeRow(low, high, None, shares) for low, high, shares in ranges])


@pytest.mark.parametrize(("ranges", "reason"), BAD_STRUCTURES)
def test_the_admin_refuses_a_bad_structure_and_saves_nothing(
    ranges: list[tuple[int, int | None, Any]], reason: str
) -> None:
    support = client_of(SUPPORT_STAFF)

    response = submit(support, ADD, "payoutstructure_form", name="House special", **range_fields(*ranges))

    assert reason in form_errors(response)
    assert not PayoutStructure.objects.filter(name="House special").exists()
    assert not PayoutRange.objects.exists()


def test_a_valid_structure_is_saved_with_its_ranges() -> None:
    support = client_of(SUPPORT_STAFF)

    response = submit(
        support,
        ADD,
        "payoutstructure_form",
        name="Two ranges",
        **range_fields((2, 5, [10000]), (6, None, [6500, 3500])),
    )

    assert response.status_code == 302, form_errors(response)
    structure = PayoutStructure.objects.get(name="Two ranges")
    assert list(structure.ranges.order_by("minimum_entrants").values_list("shares_basis_points", flat=True)) == [
        [10000],
        [6500, 3500],
    ]


def test_a_bad_change_to_a_structure_in_use_is_refused_and_its_ranges_stay() -> None:
    structure = payout_structure_standard()
    before = list(
        structure.ranges.order_by("pk").values_list("minimum_entrants", "maximum_entrants", "shares_basis_points")
    )
    support = client_of(SUPPORT_STAFF)

    response = submit(
        support,
        f"{PAYOUT_STRUCTURES}{structure.pk}/change/",
        "payoutstructure_form",
        **{"ranges-0-shares_basis_points": json.dumps([9000, 2000])},
    )

    assert "add up to 11000 basis points" in form_errors(response)
    after = list(
        structure.ranges.order_by("pk").values_list("minimum_entrants", "maximum_entrants", "shares_basis_points")
    )
    assert after == before
