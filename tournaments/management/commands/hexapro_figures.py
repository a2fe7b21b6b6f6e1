"""``manage.py hexapro_figures [--product CODE] [--draws N [--seed S]] [--json] [--defaults]``: the HexaPro figures,
computed from the product tables through the rule functions, nothing typed in (HEX-06..HEX-09, HEX-21..HEX-25, FEE-06,
HEX-31).

The tables are the stored ones: each product's version in force now, read from the database
(:func:`tournaments.hexapro.products.products_in_force`) — what the games are played with. ``--defaults`` prints the
catalog's defaults instead (``tournaments.rules.hexapro.DEFAULT_PRODUCTS``, what the data migration seeded), and then
needs no database (``poker_site.embedded`` starts no server for it).

Per product: the expected multiplier and the rake equivalent next to the published one (6.853 % for both products,
HEX-08, HEX-24); per multiplier its probability, payout percentages, starting stack, level time and timebank row; per
buy-in the fee component and every prize pool with its payout split in whole cents. With ``--draws N`` it simulates N
draws through the production draw function (:func:`tournaments.rules.hexapro.draw_multiplier`) per product — from
``random.Random(S)`` with ``--seed S``, else from the CSPRNG production uses — and prints the observed and expected
counts, the chi-square test against the stated probabilities and the realised rake equivalent of the draws.
``--json`` prints one JSON object instead. Bad arguments: a message on stderr and exit status 2.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from typing import Any, Final

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.uth.money import format_cents
from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import (
    DEFAULT_PRODUCTS,
    PRODUCTION_RANDOM_SOURCE,
    HexaProProduct,
    IntegerSource,
    MultiplierRow,
    draw_multiplier,
    expected_multiplier,
    payout_split_cents,
    percent_text,
    prize_pool_cents,
    product_by_code,
    rake_equivalent,
    stated_rake_equivalent,
)
from tournaments.rules.hexapro_audit import MultiplierAudit, multiplier_audit

BAD_INPUT_STATUS: Final[int] = 2
MAXIMUM_DRAWS: Final[int] = 10_000_000
ORDINALS: Final[tuple[str, ...]] = ("1st", "2nd", "3rd")


def stored_products() -> tuple[HexaProProduct, ...]:
    """The product tables in force, read from the database (the back office's rows)."""
    from tournaments.hexapro.products import products_in_force

    return products_in_force()


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def decimal_text(value: Fraction, places: int = 6) -> str:
    """``value`` rounded half up to ``places`` decimals, trailing zeros dropped (2.79441, 1.5, 3)."""
    scaled = (value * 10**places * 2 + 1) // 2
    units, decimals = divmod(scaled, 10**places)
    return f"{units}.{decimals:0{places}d}".rstrip("0").rstrip(".")


def timebank_text(row: MultiplierRow) -> str:
    rule = row.timebank
    return (
        f"{rule.first_hand_seconds} s, +{rule.replenish_seconds} s every {rule.replenish_every_hands}th hand, "
        f"cap {rule.cap_seconds} s"
    )


def simulate(product: HexaProProduct, draws: int, source: IntegerSource) -> Counter[int]:
    """Games per multiplier (tenths) of ``draws`` draws through the production draw function."""
    return Counter(draw_multiplier(product, source).row.multiplier_tenths for _ in range(draws))


def product_record(product: HexaProProduct, simulation: MultiplierAudit | None, seed: int | None) -> dict[str, Any]:
    """The JSON object of one product (see the module docstring)."""
    rake = rake_equivalent(product)
    stated = stated_rake_equivalent(product)
    record: dict[str, Any] = {
        "code": product.code,
        "name": product.name,
        "seats": product.seats,
        "total_weight": product.total_weight,
        "expected_multiplier": fraction_text(expected_multiplier(product)),
        "expected_multiplier_decimal": decimal_text(expected_multiplier(product)),
        "rake_equivalent": fraction_text(rake),
        "rake_equivalent_percent": percent_text(rake),
        "stated_rake_equivalent_percent": percent_text(stated),
        "rake_equivalent_matches_statement": rake == stated,
        "multipliers": [
            {
                "multiplier": row.label,
                "multiplier_tenths": row.multiplier_tenths,
                "weight": row.weight,
                "probability": fraction_text(Fraction(row.weight, product.total_weight)),
                "payout_percentages": list(row.payout_percentages),
                "starting_stack": row.starting_stack,
                "level_seconds": row.level_seconds,
                "timebank": {
                    "first_hand_seconds": row.timebank.first_hand_seconds,
                    "replenish_seconds": row.timebank.replenish_seconds,
                    "replenish_every_hands": row.timebank.replenish_every_hands,
                    "cap_seconds": row.timebank.cap_seconds,
                },
            }
            for row in product.multipliers
        ],
        "buy_ins": [
            {
                "buy_in_cents": level.buy_in_cents,
                "fee_component_cents": level.fee_component_cents,
                "prize_pools": [
                    {
                        "multiplier": row.label,
                        "prize_pool_cents": prize_pool_cents(product, level.buy_in_cents, row.multiplier_tenths),
                        "payout_cents": list(payout_split_cents(product, level.buy_in_cents, row.multiplier_tenths)),
                    }
                    for row in product.multipliers
                ],
            }
            for level in product.buy_ins
        ],
    }
    if simulation is not None:
        record["simulation"] = simulation_record(product, simulation, seed)
    return record


def simulation_record(product: HexaProProduct, audit: MultiplierAudit, seed: int | None) -> dict[str, Any]:
    test = audit.test
    return {
        "draws": audit.games,
        "seed": seed,
        "random_source": "random.Random(seed)" if seed is not None else "secrets.SystemRandom (production)",
        "counts": [
            {
                "multiplier": row.label,
                "observed": count.games,
                "expected": decimal_text(count.expected_games, 2),
            }
            for row, count in zip(product.multipliers, audit.rows, strict=True)
        ],
        "chi_square": None
        if test is None
        else {
            "statistic": decimal_text(test.statistic, 4),
            "degrees_of_freedom": test.degrees_of_freedom,
            "p_value": test.p_value,
            "groups": [[product.multipliers[index].label for index in group] for group in test.groups],
        },
        "realised_rake_equivalent_percent": None
        if audit.realised_rake_equivalent is None
        else percent_text(audit.realised_rake_equivalent),
    }


class Command(BaseCommand):
    help = (
        "Print each HexaPro product's expected multiplier, rake equivalent, prize pools and payout splits, computed "
        "from its tables; with --draws, simulate draws and test them against the stated probabilities."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--product", help="only this product (hexapro, hexapro_extreme)")
        parser.add_argument("--draws", type=int, help=f"simulate this many draws per product (1..{MAXIMUM_DRAWS:,})")
        parser.add_argument("--seed", type=int, help="seed a random.Random for a reproducible simulation")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--defaults",
            action="store_true",
            help="the catalog's default tables instead of the stored ones (no database)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        draws: int | None = options["draws"]
        seed: int | None = options["seed"]
        if draws is not None and not 1 <= draws <= MAXIMUM_DRAWS:
            raise CommandError(f"--draws must be from 1 to {MAXIMUM_DRAWS:,}, not {draws}", returncode=BAD_INPUT_STATUS)
        if seed is not None and draws is None:
            raise CommandError("--seed only seeds a simulation: give --draws too", returncode=BAD_INPUT_STATUS)
        try:
            products = DEFAULT_PRODUCTS if options["defaults"] else stored_products()
        except RuleError as error:
            raise CommandError(f"the stored tables are refused by the rules: {error}") from error
        if options["product"] is not None:
            try:
                products = (product_by_code(products, options["product"]),)
            except RuleError as error:
                raise CommandError(str(error), returncode=BAD_INPUT_STATUS) from error
        simulations: list[MultiplierAudit | None] = []
        for product in products:
            if draws is None:
                simulations.append(None)
                continue
            source: IntegerSource = random.Random(seed) if seed is not None else PRODUCTION_RANDOM_SOURCE
            counts = simulate(product, draws, source)
            # The draws are not tied to a buy-in: they are audited as games at the smallest one.
            simulations.append(multiplier_audit(product, {product.buy_ins[0].buy_in_cents: counts}))
        if options["json"]:
            records = [
                product_record(product, simulation, seed)
                for product, simulation in zip(products, simulations, strict=True)
            ]
            self.stdout.write(json.dumps({"products": records}, indent=2))
            return
        for index, (product, simulation) in enumerate(zip(products, simulations, strict=True)):
            if index:
                self.stdout.write("")
            self._write_product(product)
            if simulation is not None:
                self._write_simulation(product, simulation, seed)

    def _write_product(self, product: HexaProProduct) -> None:
        write = self.stdout.write
        expected = expected_multiplier(product)
        rake = rake_equivalent(product)
        stated = stated_rake_equivalent(product)
        verdict = "matches" if rake == stated else "DIFFERS"
        write(f"{product.name} ({product.code}): {product.seats} seats, weights out of {product.total_weight:,}")
        write(f"  expected multiplier {decimal_text(expected)} ({fraction_text(expected)})")
        write(f"  rake equivalent {percent_text(rake)}; stated {percent_text(stated)}: {verdict}")
        write("  multiplier  probability          payout %     stack  level   timebank")
        for row in product.multipliers:
            chance = f"{row.weight:,} in {product.total_weight:,}"
            payout = "/".join(str(share) for share in row.payout_percentages)
            write(
                f"  {row.label:<10}  {chance:<19}  {payout:<11}  {row.starting_stack:>5}  "
                f"{row.level_seconds // 60} min  {timebank_text(row)}"
            )
        for level in product.buy_ins:
            write(
                f"  {format_cents(level.buy_in_cents)} buy-in, fee component {format_cents(level.fee_component_cents)}:"
            )
            for row in product.multipliers:
                pool = prize_pool_cents(product, level.buy_in_cents, row.multiplier_tenths)
                split = payout_split_cents(product, level.buy_in_cents, row.multiplier_tenths)
                places = ", ".join(
                    f"{ordinal} {format_cents(prize)}" for ordinal, prize in zip(ORDINALS, split, strict=False)
                )
                write(f"    {row.label:<6} pool {format_cents(pool):>12} → {places}")

    def _write_simulation(self, product: HexaProProduct, audit: MultiplierAudit, seed: int | None) -> None:
        write = self.stdout.write
        source = f"random.Random({seed})" if seed is not None else "secrets.SystemRandom (production)"
        write(f"  simulation: {audit.games:,} draws through draw_multiplier from {source}")
        write("    multiplier     observed      expected")
        for row, count in zip(product.multipliers, audit.rows, strict=True):
            write(f"    {row.label:<10} {count.games:>12,} {float(count.expected_games):>13,.2f}")
        test = audit.test
        if test is None:
            write("    chi-square: too few draws for a test")
        else:
            pooled = [
                "+".join(product.multipliers[index].label for index in group) for group in test.groups if len(group) > 1
            ]
            pooling = f"; pooled {', '.join(pooled)}" if pooled else ""
            write(
                f"    chi-square {float(test.statistic):.4f} with {test.degrees_of_freedom} degrees of freedom"
                f"{pooling}; p-value {test.p_value:.4f}"
            )
        if audit.realised_rake_equivalent is not None:
            write(
                f"    realised rake equivalent {percent_text(audit.realised_rake_equivalent)} "
                f"(stated {percent_text(audit.stated_rake_equivalent)})"
            )
