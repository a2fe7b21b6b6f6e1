"""The catalog's worked examples for cancelled tournaments, to the cent (CXL-02, CXL-04, CXL-06, CXL-07, CXL-09)."""

from __future__ import annotations

from fractions import Fraction

from tests.tournaments.cancellation_builders import cxl07_final_table, entries, entry, hexapro_at_25x, still_in
from tournaments.rules.cancellation import (
    CancellationState,
    TicketRecredit,
    TournamentAtCancellation,
    cancel,
)


def test_cxl02_two_ten_plus_one_entries_are_refunded_22_euros_and_a_ticket_is_recredited() -> None:
    """CXL-02: a player with two €10 + €1 entries is refunded €22.00; a ticket registrant gets the ticket back."""
    tournament = TournamentAtCancellation(
        purchases=(
            entry("anna", 1000, 100, number=1),
            entry("anna", 1000, 100, number=2),
            entry("bert", 1000, 100, ticket=True),
        ),
        started=False,
    )
    calculation = cancel(tournament)
    assert calculation.state is CancellationState.BEFORE_START
    anna, bert = calculation.compensations
    assert (anna.player, anna.money_cents, anna.tickets_recredited) == ("anna", 2200, ())
    assert (anna.buy_in_refund_cents, anna.fee_refund_cents) == (2000, 200)
    assert (bert.player, bert.money_cents) == ("bert", 0)
    assert bert.tickets_recredited == (TicketRecredit("bert-entry-1", 1100),)


def test_cxl04_pot_of_1000_euros_over_stacks_40_30_20_10_thousand() -> None:
    """CXL-04: first half €125.00 each, second half €200/€150/€100/€50 → €325/€275/€225/€175, plus the fee refund."""
    tournament = TournamentAtCancellation(
        purchases=entries(10, 10_000, 1_000),  # ten €100 + €10 entries: pot €1,000
        started=True,
        remaining=still_in(40_000, 30_000, 20_000, 10_000),
        prizes=(50_000, 30_000, 20_000),
    )
    calculation = cancel(tournament)
    assert calculation.state is CancellationState.STARTED_NOT_IN_THE_MONEY
    remaining = calculation.compensations[:4]
    assert [share.equal_share for share in remaining] == [Fraction(12_500)] * 4
    assert [share.chip_share for share in remaining] == [20_000, 15_000, 10_000, 5_000]
    assert [share.pool_share_cents for share in remaining] == [32_500, 27_500, 22_500, 17_500]
    assert [share.fee_refund_cents for share in remaining] == [1_000] * 4
    assert [share.money_cents for share in remaining] == [33_500, 28_500, 23_500, 18_500]


def test_cxl06_twelve_left_each_gets_the_twelfth_prize_and_the_rest_by_chips() -> None:
    """CXL-06: unpaid prizes for places 1–12 total €5,000, the 12th is €100 → €100 each (€1,200) and €3,800 by chips."""
    unpaid = [1400, 900, 600, 450, 350, 300, 250, 200, 150, 150, 150, 100]
    prizes = tuple(euros * 100 for euros in [*unpaid, 100, 100, 100])  # places 13–15 were paid at elimination
    stacks = [60_000, 50_000, 45_000, 40_000, 35_000, 30_000, 30_000, 25_000, 20_000, 20_000, 15_000, 10_000]
    tournament = TournamentAtCancellation(
        purchases=entries(53, 10_000, 1_000),  # 53 × €100 = €5,300 prize pool
        started=True,
        remaining=still_in(*stacks),
        prizes=prizes,
    )
    calculation = cancel(tournament)
    assert calculation.state is CancellationState.IN_THE_MONEY
    remaining = calculation.compensations[:12]
    assert [share.lowest_remaining_prize_cents for share in remaining] == [10_000] * 12
    chip_euros = [600, 500, 450, 400, 350, 300, 300, 250, 200, 200, 150, 100]  # €3,800 × stack / 380,000
    assert [share.chip_share for share in remaining] == [euros * 100 for euros in chip_euros]
    assert [share.pool_share_cents for share in remaining] == [(euros + 100) * 100 for euros in chip_euros]
    assert sum(share.pool_share_cents for share in remaining) == 500_000
    assert calculation.money_held.prizes_already_paid_cents == 30_000


def test_cxl07_final_table_stacks_5000_3000_2000_are_paid_by_icm_chop() -> None:
    """CXL-07: unpaid prizes €50/€30/€20 → €38.39 / €32.75 / €28.86 (sum €100.00), plus the €1 fee refunds."""
    calculation = cancel(cxl07_final_table())
    assert calculation.state is CancellationState.FINAL_TABLE
    remaining = calculation.compensations[:3]
    assert [share.icm_share for share in remaining] == [Fraction(26_875, 7), Fraction(3_275), Fraction(20_200, 7)]
    assert [share.pool_share_cents for share in remaining] == [3_839, 3_275, 2_886]
    assert [share.money_cents for share in remaining] == [3_939, 3_375, 2_986]
    assert "CXL-11" in calculation.rules


def test_cxl09_hexapro_ten_euros_at_25x_with_700_500_300_chips() -> None:
    """CXL-09: €0.69 fee + €25.00 each; €175 by ICM with 80/12/8 → €75.25 / €58.63 / €41.12 (leftover cent to the
    larger stack); totals €100.94 / €84.32 / €66.81."""
    game = hexapro_at_25x(700, 500, 300)
    calculation = cancel(game)
    assert calculation.state is CancellationState.HEXAPRO
    assert [share.fee_refund_cents for share in calculation.compensations] == [69, 69, 69]
    assert [share.equal_share for share in calculation.compensations] == [Fraction(2_500)] * 3
    assert [share.icm_share for share in calculation.compensations] == [
        Fraction(7_525),
        Fraction(11_725, 2),
        Fraction(8_225, 2),
    ]
    assert [share.money_cents for share in calculation.compensations] == [10_094, 8_432, 6_681]
    assert calculation.paid_in_money_cents == 25_207
