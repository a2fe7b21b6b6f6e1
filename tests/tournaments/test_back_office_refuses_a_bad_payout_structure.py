"""TRN-06 / LOB-07: payout templates keyed by entrant ranges are proposed in the back office (issue 30: a second
staff member approves them), and a structure that is not a valid template set is refused with the reason and nothing
proposed: shares that do not add up to 10,000 basis points, a place paying more than the one above it, more paid
places than the smallest field, ranges that overlap, or a gap between ranges (a tournament with that many entrants
would have no payouts)."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.accounts.roles import SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_propose
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import PAYOUT_STRUCTURES, client_of
from tournaments.models import PayoutRange, PayoutStructure
from tournaments.services.catalog import payout_structure_standard
from tournaments.services.definition import DefinitionRefused, PayoutRangeRow, payout_ranges_check

pytestmark = pytest.mark.django_db

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
def test_a_proposal_of_a_bad_structure_is_refused_and_nothing_is_proposed(
    ranges: list[tuple[int, int | None, Any]], reason: str
) -> None:
    """Issue 30: structures change by proposal (``tournaments.payout_changes``); a bad one is refused at once."""
    rows = [{"minimum_entrants": low, "maximum_entrants": high, "shares": shares} for low, high, shares in ranges]
    with pytest.raises(RuleChangeRefused, match=reason):
        rule_change_propose(
            staff_member(SUPPORT_STAFF),
            "payout_structure",
            "tournaments.payoutstructure:new",
            {"name": "House special", "ranges": rows},
            "promotion",
        )
    assert not RuleChangeProposal.objects.exists()
    assert not PayoutStructure.objects.filter(name="House special").exists()
    assert not PayoutRange.objects.exists()


def test_a_bad_change_to_a_structure_in_use_is_refused_and_its_ranges_stay() -> None:
    structure = payout_structure_standard()
    before = list(
        structure.ranges.order_by("pk").values_list("minimum_entrants", "maximum_entrants", "shares_basis_points")
    )
    support = client_of(SUPPORT_STAFF)
    page = support.get(f"{PAYOUT_STRUCTURES}{structure.pk}/propose/")
    lines = page.context["form"].initial["ranges"].splitlines()
    lines[0] = lines[0].split(":")[0] + ": 9000 2000"

    response = support.post(
        f"{PAYOUT_STRUCTURES}{structure.pk}/propose/", {"ranges": "\n".join(lines), "reason": "more to the winner"}
    )

    assert "add up to 11000 basis points" in response.content.decode()
    assert not RuleChangeProposal.objects.exists()
    after = list(
        structure.ranges.order_by("pk").values_list("minimum_entrants", "maximum_entrants", "shares_basis_points")
    )
    assert after == before
