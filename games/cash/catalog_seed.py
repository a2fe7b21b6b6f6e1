"""The catalog's cash-game data (CASH-01..03, CASH-10, TB-02, RAKE-02, RAKE-06) and an idempotent seeding step.

Kept free of model imports so the data migration can run it with historical models and ``games.cash.catalog``
with the real ones. Rows are seeded with :data:`SEEDED_EFFECTIVE_FROM` (the v2.7 rules date), so they are in force
from the start; staff change a parameter by adding a row with a later effective time, never by editing history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from games.engine.rake import RAKE_TABLE, RakeRow

SEEDED_EFFECTIVE_FROM: Final[datetime] = datetime(2023, 7, 30, tzinfo=UTC)
"""Poker Rules v2.7 (seed 002) is dated 30-07-2023."""


@dataclass(frozen=True)
class GameTypeSeed:
    code: str
    name: str
    variant: str
    rake_game: str
    rake_table_type: str
    buy_in_rule: str
    seats: int
    display_order: int
    max_tables_per_stake: int | None = None


GAME_TYPES: Final[tuple[GameTypeSeed, ...]] = (
    GameTypeSeed("holdem", "Texas Hold'em", "NT", "holdem", "regular", "ratholing", 6, 1),
    GameTypeSeed("omaha", "Omaha", "PO", "omaha", "regular", "ratholing", 6, 2),
    # AMB-40: Banzai is offered as Hold'em only; CASH-28/AMB-60: at most 4 tables per stake.
    GameTypeSeed("banzai", "Banzai", "NT", "holdem", "banzai", "banzai", 5, 3, max_tables_per_stake=4),
    GameTypeSeed("deepstack", "Texas Deepstack", "NT", "holdem", "deepstack", "no_ratholing", 6, 4),
    GameTypeSeed("shortstack", "Omaha Shortstack", "PO", "omaha", "shortstack", "no_ratholing", 6, 5),
)
"""CASH-01 table types."""


def stake_label_euros(label: str) -> int:
    """The euros in a stake label: "NL100" -> 100 (AMB-64: NLx/PLx = maximum buy-in of €x)."""
    return int(label[2:])


def buy_in_range_in_big_blinds(game: GameTypeSeed, row: RakeRow) -> tuple[int, int]:
    """(minimum, maximum) buy-in in big blinds for a stake (CASH-10, CASH-26, AMB-30, AMB-64).

    The maximum is the stake label in euros (100 BB for every regular row, 10 BB for Banzai, 1000 BB Deepstack,
    20 BB Shortstack). Regular tables have a 50 BB minimum, Banzai exactly 10 BB, Deepstack/Shortstack half the maximum.
    """
    label_cents = stake_label_euros(row.stake) * 100
    if label_cents % row.big_blind:
        raise ValueError(f"{row.stake}: €{label_cents // 100} is not a whole number of {row.big_blind}-cent blinds")
    maximum = label_cents // row.big_blind
    if game.buy_in_rule == "banzai":
        return maximum, maximum
    if game.buy_in_rule == "no_ratholing":
        return maximum // 2, maximum
    return 50, maximum


def stake_rows(game: GameTypeSeed) -> list[RakeRow]:
    """The RAKE-02 rows offered for a game type (CASH-02: the stakes are exactly the rake table rows)."""
    return [row for row in RAKE_TABLE if row.game == game.rake_game and row.table_type == game.rake_table_type]


def seed_catalog(game_type_model: Any, game_rules_model: Any, stake_model: Any, stake_terms_model: Any) -> int:
    """Create whatever part of the catalogue is missing; return how many rows were created.

    Idempotent: an existing game type, rules row, stake or stake with terms is left as staff configured it. What
    exists is read in four queries first, so a catalogue that is complete (every call but the first) costs those four
    instead of two queries a game type and a stake (52; the test suite seeds before many tests, issue 26).
    """
    codes = [game.code for game in GAME_TYPES]
    game_types = {game_type.code: game_type for game_type in game_type_model.objects.filter(code__in=codes)}
    with_rules = set(
        game_rules_model.objects.filter(game_type__code__in=codes).values_list("game_type_id", flat=True).distinct()
    )
    stakes = {
        (stake.game_type_id, stake.label): stake for stake in stake_model.objects.filter(game_type__code__in=codes)
    }
    with_terms = set(
        stake_terms_model.objects.filter(stake__game_type__code__in=codes).values_list("stake_id", flat=True).distinct()
    )
    created = 0
    for game in GAME_TYPES:
        game_type = game_types.get(game.code)
        if game_type is None:
            game_type, was_created = game_type_model.objects.get_or_create(
                code=game.code,
                defaults={
                    "name": game.name,
                    "variant": game.variant,
                    "rake_table_type": game.rake_table_type,
                    "buy_in_rule": game.buy_in_rule,
                    "display_order": game.display_order,
                },
            )
            created += was_created
        if game_type.pk not in with_rules and not game_rules_model.objects.filter(game_type=game_type).exists():
            game_rules_model.objects.create(
                game_type=game_type,
                effective_from=SEEDED_EFFECTIVE_FROM,
                max_tables_per_stake=game.max_tables_per_stake,
            )
            created += 1
        for order, row in enumerate(stake_rows(game), start=1):
            stake = stakes.get((game_type.pk, row.stake))
            if stake is None:
                stake, was_created = stake_model.objects.get_or_create(
                    game_type=game_type, label=row.stake, defaults={"display_order": order}
                )
                created += was_created
            if stake.pk in with_terms or stake_terms_model.objects.filter(stake=stake).exists():
                continue
            minimum, maximum = buy_in_range_in_big_blinds(game, row)
            stake_terms_model.objects.create(
                stake=stake,
                effective_from=SEEDED_EFFECTIVE_FROM,
                small_blind=row.small_blind,
                big_blind=row.big_blind,
                min_buy_in_big_blinds=minimum,
                max_buy_in_big_blinds=maximum,
                seats=game.seats,
                rake_rate_basis_points=row.rate_basis_points,
                rake_cap=row.cap,
                rake_small_hand_cap=row.small_hand_cap,
                enabled=row.enabled,
                note=row.note,
            )
            created += 1
    return created
