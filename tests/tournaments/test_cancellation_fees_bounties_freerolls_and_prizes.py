"""Fee refunds with re-buys and add-ons (CXL-03), the freeroll exception (CXL-05), non-monetary prizes (CXL-08) and
bounties (CXL-10) in a cancelled tournament; eliminated players get nothing further (AMB-34)."""

from __future__ import annotations

from fractions import Fraction

from tests.tournaments.cancellation_builders import entries, entry, still_in
from tournaments.rules.cancellation import (
    HouseKeeps,
    PurchaseKind,
    RemainingPlayer,
    TournamentAtCancellation,
    cancel,
)


def test_cxl03_a_remaining_player_gets_back_every_fee_including_rebuys_and_add_ons_also_for_a_ticket_entry() -> None:
    tournament = TournamentAtCancellation(
        purchases=(
            entry("anna", 1_000, 100, ticket=True),
            entry("anna", 1_000, 100, kind=PurchaseKind.RE_BUY),
            entry("anna", 2_000, 150, kind=PurchaseKind.ADD_ON),
            entry("bert", 1_000, 100),
            entry("cleo", 1_000, 100),
            entry("cleo", 1_000, 100, kind=PurchaseKind.RE_ENTRY),
        ),
        started=True,
        remaining=(RemainingPlayer("anna", 3_000, 1), RemainingPlayer("bert", 1_000, 2)),
    )
    calculation = cancel(tournament)
    anna, bert, cleo = calculation.compensations
    assert (anna.fee_refund_cents, bert.fee_refund_cents) == (350, 100)
    assert (cleo.player, cleo.eliminated, cleo.money_cents) == ("cleo", True, 0)
    # The pot is every prize contribution, eliminated players' included: €70 → €35 equally, €35 by chips.
    assert anna.pool_share_exact == Fraction(1_750) + Fraction(2_625)
    assert (anna.pool_share_cents, bert.pool_share_cents) == (4_375, 2_625)
    assert calculation.kept_by_house == (
        HouseKeeps("fees of eliminated players: only remaining players are refunded", 200),
    )


def test_cxl04_overlay_is_not_part_of_the_player_supplied_pot_and_stays_with_the_house() -> None:
    """AMB-34: a guarantee's overlay is operator money; before the money only the players' contributions are shared."""
    tournament = TournamentAtCancellation(
        purchases=entries(4, 1_000, 100),
        started=True,
        remaining=still_in(400, 300, 200, 100),
        prizes=(6_000, 4_000),  # €100 guaranteed: €40 contributed + €60 overlay
        added_money_cents=6_000,
    )
    calculation = cancel(tournament)
    assert [share.pool_share_cents for share in calculation.compensations] == [1_300, 1_100, 900, 700]
    assert HouseKeeps("added money is not part of the player-supplied pot (AMB-34)", 6_000) in calculation.kept_by_house


def test_cxl05_a_cancelled_freeroll_shares_the_added_prize_pool_like_a_player_supplied_pot() -> None:
    tournament = TournamentAtCancellation(
        purchases=entries(50, 0, 0),
        started=True,
        remaining=still_in(3_000, 1_000, 1_000, 1_000, 2_000),
        prizes=(5_000, 3_000, 2_000),
        added_money_cents=10_000,
        freeroll=True,
    )
    calculation = cancel(tournament)
    assert "CXL-05" in calculation.rules
    remaining = calculation.compensations[:5]
    assert [share.equal_share for share in remaining] == [Fraction(1_000)] * 5
    assert [share.pool_share_cents for share in remaining] == [2_875, 1_625, 1_625, 1_625, 2_250]
    assert calculation.kept_by_house == ()


def test_cxl08_a_non_monetary_prize_is_paid_as_its_cash_value() -> None:
    tournament = TournamentAtCancellation(
        purchases=entries(20, 1_000, 100),
        started=True,
        remaining=still_in(9_000, 6_000, 5_000),
        prizes=(10_000, 6_000, 4_000),
        non_monetary_places=frozenset({1}),  # a €100 seat in a bigger event
        at_final_table=True,
    )
    calculation = cancel(tournament)
    assert "CXL-08" in calculation.rules
    assert sum(share.pool_share_cents for share in calculation.compensations) == 20_000


def test_cxl10_each_remaining_player_gets_their_own_current_bounty_and_won_bounties_stay_won() -> None:
    tournament = TournamentAtCancellation(
        purchases=tuple(entry(f"p{number}", 800, 100, bounty=200) for number in range(1, 6)),
        started=True,
        remaining=(RemainingPlayer("p1", 4_000, 1, bounty_cents=300), RemainingPlayer("p2", 1_000, 2, 200)),
        bounties_paid_cents=500,  # three knock-outs paid €5 (progressive: half paid, half added to the winner's bounty)
    )
    calculation = cancel(tournament)
    assert "CXL-10" in calculation.rules
    first, second = calculation.compensations[:2]
    assert (first.bounty_cents, second.bounty_cents) == (300, 200)
    assert calculation.money_held.bounties_cents - calculation.money_held.bounties_already_paid_cents == 500
