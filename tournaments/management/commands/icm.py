"""``manage.py icm --stacks 5000 3000 2000 --prizes 5000 3000 2000``: an ICM chop anyone can check (CXL-11, AMB-17).

Prizes are in cents, first place first. Prints one JSON object: the method, each player's seat, stack, share and
whole cents after the cent rules (down to the cent, leftover cents by largest remainder, ties to the larger stack,
then the lower seat), and the total. By default:

* up to ``EXACT_STEP_LIMIT`` steps of the exact method (12 players paid every place, 18 players paid 4 places, 30
  paid 3), the exact method: each share as a fraction "numerator/denominator";
* beyond that, up to ``FIXED_POINT_TERM_LIMIT`` terms (every field of up to 20 players; bigger ones paying few
  places, such as 100 players paid 3), the fixed-point method: each share to six decimals (less than 2^-64 cents
  below the exact share) and the cents of the exact shares — exactly what the exact method would pay, in a fraction
  of a second for 18 players paid 9 places (when the bounds cannot decide a cent, the exact method runs, and the
  output says "exact");
* beyond both, the Monte-Carlo approximation: each estimate with its standard error, the samples and the seed, and
  ``"estimate"`` with the error bound and why it is not exact.

``--approximate`` asks for the approximation; ``--exact`` always computes the exact fractions, however long it takes.
Needs no database. Bad input: a message on stderr and exit status 2.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.rules.icm import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    ERROR_BOUND_IN_STANDARD_ERRORS,
    EXACT_STEP_LIMIT,
    FIXED_POINT_TERM_LIMIT,
    IcmChop,
    IcmMethod,
    exact_steps,
    fixed_point_terms,
    fraction_text,
    icm_chop,
)

BAD_INPUT_STATUS = 2
DECIMAL_PLACES = 6


class Command(BaseCommand):
    help = "Chop prizes (cents) among stacks by ICM (Malmuth–Harville) and print the shares as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--stacks", type=int, nargs="+", required=True, help="chip counts, one per player")
        parser.add_argument("--prizes", type=int, nargs="+", required=True, help="prizes in cents, first place first")
        parser.add_argument("--seats", type=int, nargs="+", help="seat numbers for the tie-break (default 1..n)")
        method = parser.add_mutually_exclusive_group()
        method.add_argument("--exact", action="store_true", help="exact rational ICM, however long it takes")
        method.add_argument("--approximate", action="store_true", help="Monte-Carlo estimate with standard errors")
        parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="finishing orders to sample")
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the sampler")

    def handle(self, *args: Any, **options: Any) -> None:
        method = IcmMethod.EXACT if options["exact"] else IcmMethod.MONTE_CARLO if options["approximate"] else None
        try:
            chop = icm_chop(
                options["stacks"],
                options["prizes"],
                options["seats"],
                method=method,
                samples=options["samples"],
                seed=options["seed"],
            )
        except ValueError as error:
            raise CommandError(str(error), returncode=BAD_INPUT_STATUS) from error
        record = chop_record(chop)
        players, places = len(chop.stacks), len(chop.prizes)
        if "estimate" in record:
            record["estimate"] += (
                " (asked for with --approximate)"
                if options["approximate"]
                else f" (the fixed-point method would compute {fixed_point_terms(players, places):,} terms, more than"
                f" the {FIXED_POINT_TERM_LIMIT:,} it takes, and the exact method {exact_steps(players, places):,}"
                f" steps, more than the {EXACT_STEP_LIMIT:,} it takes by default; --exact waits for it)"
            )
        self.stdout.write(json.dumps(record))


def chop_record(chop: IcmChop) -> dict[str, Any]:
    """The JSON object the command prints for ``chop``."""
    equities = chop.equities
    players: list[dict[str, Any]] = []
    for position, (stack, seat, numerator, cents) in enumerate(
        zip(chop.stacks, chop.seats, equities.numerators, chop.cents, strict=True)
    ):
        player: dict[str, Any] = {"seat": seat, "stack": stack}
        if equities.bounds is not None:
            player["share_decimal"] = decimal_text(numerator, equities.denominator)
        elif equities.standard_errors is None:
            player["share"] = fraction_text(equities.equities[position])
            player["share_decimal"] = decimal_text(numerator, equities.denominator)
        else:
            player["share_estimate"] = decimal_text(numerator, equities.denominator)
            player["standard_error_cents"] = round(equities.standard_errors[position], DECIMAL_PLACES)
        player["cents"] = cents
        players.append(player)
    record: dict[str, Any] = {"method": equities.method.value, "players": players, "total_cents": sum(chop.cents)}
    if equities.bounds is not None:
        record["precision"] = (
            "exact cents: each share is less than 2^-64 cents below the exact ICM share (a proven bound), which"
            " decides the cents: they are those of the exact shares"
        )
    if equities.standard_errors is not None:
        record["samples"] = equities.samples
        record["seed"] = equities.seed
        record["estimate"] = "Monte-Carlo estimate, not the exact ICM share"
        record["error_bound"] = (
            f"each estimate is unbiased; its error exceeds {ERROR_BOUND_IN_STANDARD_ERRORS} standard errors with"
            " probability about 6 in 100,000; places 1 and 2 are exact, the others sampled"
        )
    return record


def decimal_text(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` cents (not negative) with six decimals, rounded half up, for reading."""
    scaled = (numerator * 10**DECIMAL_PLACES * 2 + denominator) // (2 * denominator)
    units, decimals = divmod(scaled, 10**DECIMAL_PLACES)
    return f"{units}.{decimals:0{DECIMAL_PLACES}d}"
