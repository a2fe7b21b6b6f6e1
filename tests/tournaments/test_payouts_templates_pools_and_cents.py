"""TRN-06 payout templates by entrant range and table size (provisional until registration closes), TRN-07 the
guarantee and its overlay, and the cent rule that pays exactly the prize pool."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.rules.common import RuleError
from tournaments.rules.payouts import (
    DEFAULT_PAYOUT_TEMPLATES,
    PayoutTemplate,
    PrizePool,
    check_template_set,
    payout_table,
    prize_amounts,
    select_template,
)


def test_trn_06_the_template_is_chosen_by_the_number_of_entrants() -> None:
    assert select_template(DEFAULT_PAYOUT_TEMPLATES, 2, 2).basis_points == (10_000,)  # heads-up: winner takes all
    assert select_template(DEFAULT_PAYOUT_TEMPLATES, 5, 5).basis_points == (6_500, 3_500)  # 5-handed Sit & Go
    assert select_template(DEFAULT_PAYOUT_TEMPLATES, 18, 9).basis_points == (5_000, 3_000, 2_000)
    assert select_template(DEFAULT_PAYOUT_TEMPLATES, 1_000, 9).paid_places == 126


def test_trn_06_a_template_for_the_exact_table_size_wins_over_one_for_any_size() -> None:
    six_max = PayoutTemplate(7, 20, (6_000, 4_000), seats_per_table=6)
    templates = [*DEFAULT_PAYOUT_TEMPLATES, six_max]
    assert select_template(templates, 12, 6) is six_max
    assert select_template(templates, 12, 9).basis_points == (5_000, 3_000, 2_000)


def test_trn_06_the_default_templates_cover_every_field_without_overlap_paying_about_15_percent() -> None:
    check_template_set(DEFAULT_PAYOUT_TEMPLATES)
    for entrants in [*range(2, 2_001), 5_000, 9_999, 10_000, 10_001, 50_000]:
        template = select_template(DEFAULT_PAYOUT_TEMPLATES, entrants, 9)
        if 20 < entrants <= 10_001:  # beyond, the open-ended default keeps registration possible
            assert 0.10 <= template.paid_places / entrants <= 0.20, entrants
    for template in DEFAULT_PAYOUT_TEMPLATES:
        # A buy-in is 10,000 / entrants basis points: the last paid place wins at least 1.2 buy-ins.
        assert template.basis_points[-1] * template.minimum_entrants >= 12_000


def test_trn_06_the_structure_is_provisional_until_registration_closes() -> None:
    pool = PrizePool(contributions_cents=90_000)
    open_table = payout_table(
        DEFAULT_PAYOUT_TEMPLATES, entrants=10, seats_per_table=9, pool=pool, registration_closed=False
    )
    assert open_table.provisional
    assert open_table.prizes_cents == (45_000, 27_000, 18_000)
    closed = payout_table(DEFAULT_PAYOUT_TEMPLATES, entrants=10, seats_per_table=9, pool=pool, registration_closed=True)
    assert not closed.provisional
    assert closed.paid_places == 3


def test_trn_07_a_guarantee_raises_the_pool_and_the_operator_pays_the_overlay() -> None:
    short = PrizePool(contributions_cents=80_000, guarantee_cents=100_000)
    assert (short.total_cents, short.overlay_cents) == (100_000, 20_000)
    beaten = PrizePool(contributions_cents=120_000, guarantee_cents=100_000)
    assert (beaten.total_cents, beaten.overlay_cents) == (120_000, 0)


def test_the_cents_left_by_rounding_down_go_to_the_best_places_one_each() -> None:
    assert prize_amounts(10_001, (5_000, 3_000, 2_000)) == (5_001, 3_000, 2_000)
    assert prize_amounts(10_002, (3_334, 3_333, 3_333)) == (3_335, 3_334, 3_333)
    assert prize_amounts(0, (6_500, 3_500)) == (0, 0)


@settings(max_examples=200, deadline=None)
@given(pool=st.integers(0, 10**10), template=st.sampled_from(DEFAULT_PAYOUT_TEMPLATES))
def test_the_prizes_add_up_to_exactly_the_pool_and_never_rise_from_one_place_to_the_next(
    pool: int, template: PayoutTemplate
) -> None:
    prizes = prize_amounts(pool, template.basis_points)
    assert sum(prizes) == pool
    assert all(later <= earlier for earlier, later in itertools.pairwise(prizes))


@pytest.mark.parametrize(
    "arguments",
    [
        (2, 4, (9_999,)),  # does not add up to 100 %
        (2, 4, (4_000, 6_000)),  # a place above pays less
        (2, 4, (10_000, 0)),  # an unpaid "paid" place
        (2, 4, (5_000, 3_000, 2_000)),  # three places for two entrants
        (10, 5, (10_000,)),  # maximum below minimum
    ],
)
def test_an_impossible_template_is_refused(arguments: tuple[int, int, tuple[int, ...]]) -> None:
    with pytest.raises(RuleError):
        PayoutTemplate(*arguments)


def test_overlapping_or_missing_templates_are_refused() -> None:
    with pytest.raises(RuleError):
        check_template_set([PayoutTemplate(2, 10, (10_000,)), PayoutTemplate(10, 20, (10_000,))])
    check_template_set([PayoutTemplate(2, 10, (10_000,)), PayoutTemplate(2, 10, (10_000,), seats_per_table=6)])
    with pytest.raises(RuleError):
        select_template([PayoutTemplate(2, 10, (10_000,))], 11, 9)
    with pytest.raises(RuleError):
        select_template([PayoutTemplate(2, 10, (10_000,)), PayoutTemplate(5, 12, (10_000,))], 7, 9)
