"""The stored HexaPro products read as the pure :class:`~tournaments.rules.hexapro.HexaProProduct` (catalog §0.3:
numeric parameters are data).

:func:`version_in_force` is the version of a product code in force at a moment (latest ``effective_from`` not after
it); :func:`product_from_version` builds the pure product from a version's rows (the rules' constructors check them,
so tables staff saved that the rules refuse raise :class:`~tournaments.rules.common.RuleError`);
:func:`products_in_force` gives every product code's version in force.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from tournaments.hexapro.models import (
    HexaProBlindLevel,
    HexaProBuyIn,
    HexaProMultiplier,
    HexaProProductVersion,
)
from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import BuyInLevel, HexaProProduct, MultiplierRow
from tournaments.rules.timebank import TimebankRule

CATALOG_DEFAULTS_IN_FORCE_FROM = datetime(2000, 1, 1, tzinfo=UTC)
"""When the catalog's default products are in force (the data migration seeds them from then): early enough for every
game, also one played at a simulated past time."""


class ProductNotOffered(RuleError):
    """No version of the product code is in force."""


def version_in_force(code: str, now: datetime | None = None) -> HexaProProductVersion:
    """The version of ``code`` in force at ``now``; :class:`ProductNotOffered` when there is none."""
    moment = now or timezone.now()
    version = (
        HexaProProductVersion.objects.filter(code=code, effective_from__lte=moment).order_by("-effective_from").first()
    )
    if version is None:
        raise ProductNotOffered(f"There is no HexaPro product {code!r}.")
    return version


def product_from_version(version: HexaProProductVersion) -> HexaProProduct:
    """The pure product of ``version``'s rows (three queries)."""
    return HexaProProduct(
        code=version.code,
        name=version.name,
        buy_ins=tuple(
            BuyInLevel(int(row.buy_in_cents), int(row.fee_component_cents))
            for row in version.buy_ins.order_by("buy_in_cents")
        ),
        multipliers=tuple(
            MultiplierRow(
                multiplier_tenths=row.multiplier_tenths,
                weight=row.weight,
                payout_percentages=tuple(int(share) for share in row.payout_percentages),
                starting_stack=row.starting_stack,
                level_seconds=row.level_seconds,
                timebank=TimebankRule(
                    row.timebank_first_hand_seconds,
                    row.timebank_replenish_seconds,
                    row.timebank_replenish_every_hands,
                    row.timebank_cap_seconds,
                ),
            )
            for row in version.multipliers.order_by("-multiplier_tenths")
        ),
        blind_rows=tuple((row.small_blind, row.big_blind, row.ante) for row in version.blind_levels.order_by("number")),
        stated_rake_equivalent_percent=Decimal(version.stated_rake_equivalent_percent),
        seats=version.seats,
        maximum_games_per_registration=version.maximum_games_per_registration,
        decision_seconds=version.decision_seconds,
        reconnect_grace_seconds=version.reconnect_grace_seconds,
    )


def versions_in_force(now: datetime | None = None) -> list[HexaProProductVersion]:
    """Every product code's version in force at ``now``, in code order."""
    moment = now or timezone.now()
    codes = (
        HexaProProductVersion.objects.filter(effective_from__lte=moment)
        .order_by("code")
        .values_list("code", flat=True)
        .distinct()
    )
    return [version_in_force(code, moment) for code in codes]


def products_in_force(now: datetime | None = None) -> tuple[HexaProProduct, ...]:
    """The pure products in force at ``now`` (HexaPro before HexaPro Extreme: code order)."""
    return tuple(product_from_version(version) for version in versions_in_force(now))


def product_versions_create(
    products: Iterable[HexaProProduct], effective_from: datetime, *, models: dict[str, Any] | None = None
) -> int:
    """Store each of ``products`` as a version in force from ``effective_from`` with its rows, unless that code has a
    version from that moment already; returns how many were created. ``models`` are the four model classes by name
    (``HexaProProductVersion``, ``HexaProBuyIn``, ``HexaProMultiplier``, ``HexaProBlindLevel``), for the data
    migration's historical models; by default the current ones."""
    rows = models or {
        "HexaProProductVersion": HexaProProductVersion,
        "HexaProBuyIn": HexaProBuyIn,
        "HexaProMultiplier": HexaProMultiplier,
        "HexaProBlindLevel": HexaProBlindLevel,
    }
    version_model, buy_in_model = rows["HexaProProductVersion"], rows["HexaProBuyIn"]
    multiplier_model, level_model = rows["HexaProMultiplier"], rows["HexaProBlindLevel"]
    created_count = 0
    for product in products:
        version, created = version_model.objects.get_or_create(
            code=product.code,
            effective_from=effective_from,
            defaults={
                "name": product.name,
                "seats": product.seats,
                "maximum_games_per_registration": product.maximum_games_per_registration,
                "decision_seconds": product.decision_seconds,
                "reconnect_grace_seconds": product.reconnect_grace_seconds,
                "stated_rake_equivalent_percent": product.stated_rake_equivalent_percent,
                "created_at": effective_from,
            },
        )
        if not created:
            continue
        created_count += 1
        buy_in_model.objects.bulk_create(
            buy_in_model(
                version=version, buy_in_cents=level.buy_in_cents, fee_component_cents=level.fee_component_cents
            )
            for level in product.buy_ins
        )
        multiplier_model.objects.bulk_create(
            multiplier_model(
                version=version,
                multiplier_tenths=row.multiplier_tenths,
                weight=row.weight,
                payout_percentages=list(row.payout_percentages),
                starting_stack=row.starting_stack,
                level_seconds=row.level_seconds,
                timebank_first_hand_seconds=row.timebank.first_hand_seconds,
                timebank_replenish_seconds=row.timebank.replenish_seconds,
                timebank_replenish_every_hands=row.timebank.replenish_every_hands,
                timebank_cap_seconds=row.timebank.cap_seconds,
            )
            for row in product.multipliers
        )
        level_model.objects.bulk_create(
            level_model(version=version, number=number, small_blind=small, big_blind=big, ante=ante)
            for number, (small, big, ante) in enumerate(product.blind_rows, start=1)
        )
    return created_count


def hexapro_products_seed() -> int:
    """The catalog's default products (``DEFAULT_PRODUCTS``) in force from :data:`CATALOG_DEFAULTS_IN_FORCE_FROM`,
    as the data migration stores them, unless stored already (tests that flush the database call it)."""
    from tournaments.rules.hexapro import DEFAULT_PRODUCTS

    return product_versions_create(DEFAULT_PRODUCTS, CATALOG_DEFAULTS_IN_FORCE_FROM)
