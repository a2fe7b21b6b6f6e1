"""The multiplier draw (HEX-05, HEX-06, HEX-22, GEN-08): one ticket from ``randrange(sum of weights)`` of an injected
source; every ticket maps to exactly one multiplier so the probabilities are exactly the stored weights; seeded
simulations agree with them by a chi-square test; production uses the CSPRNG; a broken source is refused."""

from __future__ import annotations

import random
import secrets
from collections import Counter

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import (
    HEXAPRO,
    HEXAPRO_EXTREME,
    PRODUCTION_RANDOM_SOURCE,
    HexaProProduct,
    draw_multiplier,
    multiplier_for_ticket,
)
from tournaments.rules.hexapro_audit import multiplier_audit

SIMULATED_DRAWS = 200_000


@pytest.mark.parametrize("product", [HEXAPRO, HEXAPRO_EXTREME])
def test_hex_06_hex_22_the_tickets_fall_on_each_multiplier_exactly_as_often_as_its_weight(
    product: HexaProProduct,
) -> None:
    """Enumerating all 100,000 tickets gives the catalog's "n in 100,000" exactly (no floats, no rounding)."""
    counts = Counter(multiplier_for_ticket(product, ticket).multiplier_tenths for ticket in range(product.total_weight))
    assert counts == {row.multiplier_tenths: row.weight for row in product.multipliers}


def test_hex_06_the_rows_are_walked_largest_multiplier_first() -> None:
    assert multiplier_for_ticket(HEXAPRO, 0).label == "1000x"
    assert [multiplier_for_ticket(HEXAPRO, ticket).label for ticket in (1, 5, 6, 105, 106)] == [
        "100x",
        "100x",
        "25x",
        "25x",
        "10x",
    ]
    assert multiplier_for_ticket(HEXAPRO, 99_999).label == "1.5x"
    with pytest.raises(RuleError):
        multiplier_for_ticket(HEXAPRO, 100_000)


class FixedTickets:
    """A random source that hands out the given tickets and records what it was asked."""

    def __init__(self, *tickets: object) -> None:
        self.tickets = list(tickets)
        self.asked: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.asked.append(start)
        return self.tickets.pop(0)  # type: ignore[return-value]


def test_hex_05_the_draw_asks_the_source_for_one_ticket_below_the_total_weight_and_keeps_it() -> None:
    source = FixedTickets(6)
    draw = draw_multiplier(HEXAPRO, source)
    assert source.asked == [100_000]
    assert (draw.row.label, draw.ticket, draw.total_weight) == ("25x", 6, 100_000)


@pytest.mark.parametrize("bad", [-1, 100_000, 2.5, "7", None])
def test_a_source_giving_a_ticket_outside_the_range_is_refused(bad: object) -> None:
    with pytest.raises(RuleError):
        draw_multiplier(HEXAPRO, FixedTickets(bad))


def test_gen_08_production_draws_from_the_cryptographically_secure_system_random() -> None:
    assert isinstance(PRODUCTION_RANDOM_SOURCE, secrets.SystemRandom)
    draw = draw_multiplier(HEXAPRO, PRODUCTION_RANDOM_SOURCE)
    assert draw.row in HEXAPRO.multipliers


def test_a_seeded_source_gives_a_reproducible_draw() -> None:
    first = [draw_multiplier(HEXAPRO, random.Random(42)).ticket for _ in range(3)]
    assert len(set(first)) == 1
    sequence = random.Random(42)
    assert [draw_multiplier(HEXAPRO, sequence).ticket for _ in range(3)] != first


@pytest.mark.parametrize(("product", "seed"), [(HEXAPRO, 2024), (HEXAPRO_EXTREME, 2025)])
def test_hex_06_hex_22_seeded_draws_agree_with_the_stated_probabilities_by_a_chi_square_test(
    product: HexaProProduct, seed: int
) -> None:
    """200,000 draws: every multiplier expecting at least 5 is tested on its own (1000x, expecting 2, is pooled with
    the next rarest). The bound p > 0.001 fails a correct draw one time in a thousand seeds; these seeds are fixed."""
    source = random.Random(seed)
    counts = Counter(draw_multiplier(product, source).row.multiplier_tenths for _ in range(SIMULATED_DRAWS))
    audit = multiplier_audit(product, {product.buy_ins[0].buy_in_cents: counts})
    assert audit.games == SIMULATED_DRAWS
    assert audit.test is not None
    assert audit.test.degrees_of_freedom == 5
    assert audit.test.p_value > 0.001


def test_a_draw_that_ignored_the_weights_fails_the_chi_square_test() -> None:
    """The same test does catch a wrong draw: uniform over the seven multipliers."""
    source = random.Random(7)
    rows = HEXAPRO.multipliers
    counts = Counter(rows[source.randrange(len(rows))].multiplier_tenths for _ in range(10_000))
    audit = multiplier_audit(HEXAPRO, {100: counts})
    assert audit.test is not None
    assert audit.test.p_value < 1e-12
