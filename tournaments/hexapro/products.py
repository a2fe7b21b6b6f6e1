"""The stored HexaPro products read as the pure :class:`~tournaments.rules.hexapro.HexaProProduct` (catalog §0.3:
numeric parameters are data).

:func:`version_in_force` is the version of a product code in force at a moment (latest ``effective_from`` not after
it); :func:`product_from_version` builds the pure product from a version's rows (the rules' constructors check them,
so tables staff saved that the rules refuse raise :class:`~tournaments.rules.common.RuleError`);
:func:`products_in_force` gives every product code's version in force.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.utils import timezone

from tournaments.hexapro.models import HexaProProductVersion
from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import BuyInLevel, HexaProProduct, MultiplierRow
from tournaments.rules.timebank import TimebankRule


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
