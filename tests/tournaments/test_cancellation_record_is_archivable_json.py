"""CXL-01: the calculation is archived as JSON: the inputs, the state and rules applied, each player's parts and the
totals, so support and compliance can check it later; exact fractions are kept as "numerator/denominator"."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

from tests.tournaments.cancellation_builders import cxl07_final_table, entry, hexapro_at_25x
from tournaments.rules.cancellation import (
    PurchaseKind,
    cancel,
)


def test_cxl01_a_final_table_record_carries_inputs_rule_parts_and_totals() -> None:
    tournament = cxl07_final_table()
    tournament = dataclasses.replace(
        tournament,
        purchases=(*tournament.purchases[:9], entry("p1", 1_000, 100, kind=PurchaseKind.RE_BUY)),
    )
    record = json.loads(json.dumps(cancel(tournament).to_json()))
    assert record["state"] == "final-table"
    assert record["rules"] == ["CXL-07", "CXL-11", "AMB-17"]
    assert record["input"]["prizes"] == [5_000, 3_000, 2_000]
    assert record["input"]["purchases"][-1] == {
        "reference": "p1-re-buy-1",
        "player": "p1",
        "kind": "re-buy",
        "prize_contribution_cents": 1_000,
        "fee_cents": 100,
        "bounty_cents": 0,
        "paid_with": "money",
    }
    assert record["icm"] == {
        "method": "exact",
        "equities": ["26875/7", "3275/1", "20200/7"],
        "standard_errors": None,
        "samples": None,
        "seed": None,
    }
    first = record["compensations"][0]
    assert first["player"] == "p1"
    assert first["fee_refund_cents"] == 200
    assert first["icm_share"] == "26875/7"
    assert first["pool_share_exact"] == "26875/7"
    assert first["pool_share_cents"] == 3_839
    assert first["money_cents"] == 4_039
    assert [line["eliminated"] for line in record["compensations"]] == [False] * 3 + [True] * 6
    assert record["kept_by_house"] == [
        {"reason": "fees of eliminated players: only remaining players are refunded", "cents": 600}
    ]
    assert record["money_held"]["total_cents"] == 11_000
    assert record["totals"] == {
        "paid_in_money_cents": 10_400,
        "tickets_recredited_cents": 0,
        "kept_by_house_cents": 600,
        "money_held_cents": 11_000,
    }


def test_cxl09_a_hexapro_record_shows_the_already_paid_third_prize_and_the_rescaled_chop() -> None:
    """AMB-16: with the third prize (8 %) paid, 10 % of the unpaid €230 each and the €184 rest by 80/12 rescaled."""
    game = hexapro_at_25x(900, 600)
    calculation = cancel(game)
    assert calculation.money_held.prizes_already_paid_cents == 2_000
    anna, bert, cleo = calculation.compensations
    assert anna.equal_share == bert.equal_share == Fraction(2_300)
    # prizes €160 and €24 (80/92 and 12/92 of €184); anna first with 900/1500 = 3/5
    assert anna.icm_share == Fraction(3, 5) * 16_000 + Fraction(2, 5) * 2_400
    assert anna.pool_share_cents + bert.pool_share_cents == 23_000
    assert cleo.eliminated
    assert calculation.to_json()["kept_by_house"] == [
        {"reason": "fee components of eliminated players: only remaining players are refunded (CXL-09)", "cents": 69}
    ]
