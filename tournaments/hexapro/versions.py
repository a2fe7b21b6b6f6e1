"""Changing a HexaPro product's tables (HEX-06/HEX-22 draw weights, payouts, stacks, levels, buy-ins and fee
components): a new version in force from a later time, never an edit of the tables games were played with.

* :func:`hexapro_version_schedule` copies a version into a new one in force from a future moment (audited); staff then
  change the copy's rows in the back office until it takes effect.
* :func:`version_editable` says whether a version may still change: it starts in the future and no game uses it.
* :func:`version_check` is the rule check every saved change passes (the pure product of ``tournaments.rules.hexapro``
  built from the rows: weights, payout percentages, stacks, buy-ins, blinds); a change that fails it is not saved.

Administrators alone do this in the admin (the draw's odds and the house's return are at stake); support staff and
compliance reviewers read the versions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.hexapro.models import (
    HexaProBlindLevel,
    HexaProBuyIn,
    HexaProGame,
    HexaProMultiplier,
    HexaProProductVersion,
)
from tournaments.hexapro.products import product_from_version
from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import HexaProProduct, expected_multiplier, percent_text, rake_equivalent
from tournaments.services.errors import NotAllowedNow
from tournaments.services.staff import staff_reason
from wallet.services.audit import audit_record, audit_target


def version_editable(version: HexaProProductVersion, now: datetime | None = None) -> bool:
    """A version may change while it is not yet in force and no game was drawn with it."""
    moment = now or timezone.now()
    return (
        version.pk is not None
        and version.effective_from > moment
        and not HexaProGame.objects.filter(version=version).exists()
    )


def product_figures(product: HexaProProduct) -> str:
    """A product's expected multiplier and rake equivalent (HEX-08, HEX-24), e.g. ``2.79441, 6.853 %``."""
    return f"{float(expected_multiplier(product)):.5f}, {percent_text(rake_equivalent(product))}"


def version_check(version: HexaProProductVersion) -> str:
    """The version's :func:`product_figures` when its rows form a valid product; :class:`NotAllowedNow` with the
    rule's reason otherwise."""
    try:
        product = product_from_version(version)
    except (RuleError, TypeError, ValueError) as error:
        raise NotAllowedNow(f"The tables of {version} are not a valid HexaPro product: {error}.") from error
    return product_figures(product)


@transaction.atomic(durable=True)
def hexapro_version_schedule(
    source: HexaProProductVersion | int,
    *,
    effective_from: datetime,
    actor: Any,
    reason: str,
    now: datetime | None = None,
) -> HexaProProductVersion:
    """A copy of ``source`` (its settings and every row) in force from ``effective_from``, which must be later than
    now and not the start of another version of the product. Audited. Refused (:class:`NotAllowedNow`, nothing
    created) otherwise."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    original = HexaProProductVersion.objects.filter(pk=getattr(source, "pk", source)).first()
    if original is None:
        raise NotAllowedNow(f"There is no HexaPro product version {getattr(source, 'pk', source)}.")
    if effective_from <= moment:
        raise NotAllowedNow(
            "A new version takes effect later than now: the games being formed keep the tables in force."
        )
    if HexaProProductVersion.objects.filter(code=original.code, effective_from=effective_from).exists():
        raise NotAllowedNow(f"{original.name} already has a version from {effective_from:%Y-%m-%d %H:%M} UTC.")
    copy = HexaProProductVersion.objects.create(
        code=original.code,
        name=original.name,
        effective_from=effective_from,
        seats=original.seats,
        maximum_games_per_registration=original.maximum_games_per_registration,
        decision_seconds=original.decision_seconds,
        reconnect_grace_seconds=original.reconnect_grace_seconds,
        stated_rake_equivalent_percent=original.stated_rake_equivalent_percent,
        created_at=moment,
    )
    HexaProBuyIn.objects.bulk_create(
        HexaProBuyIn(version=copy, buy_in_cents=row.buy_in_cents, fee_component_cents=row.fee_component_cents)
        for row in original.buy_ins.all()
    )
    HexaProMultiplier.objects.bulk_create(
        HexaProMultiplier(
            version=copy,
            multiplier_tenths=row.multiplier_tenths,
            weight=row.weight,
            payout_percentages=list(row.payout_percentages),
            starting_stack=row.starting_stack,
            level_seconds=row.level_seconds,
            timebank_first_hand_seconds=row.timebank_first_hand_seconds,
            timebank_replenish_seconds=row.timebank_replenish_seconds,
            timebank_replenish_every_hands=row.timebank_replenish_every_hands,
            timebank_cap_seconds=row.timebank_cap_seconds,
        )
        for row in original.multipliers.all()
    )
    HexaProBlindLevel.objects.bulk_create(
        HexaProBlindLevel(
            version=copy, number=row.number, small_blind=row.small_blind, big_blind=row.big_blind, ante=row.ante
        )
        for row in original.blind_levels.all()
    )
    audit_record(
        action="hexapro_version_scheduled",
        actor=actor,
        reason=text,
        target=audit_target(copy),
        details={"version": copy.pk, "copied_from": original.pk, "effective_from": effective_from.isoformat()},
    )
    return copy


def version_changed_record(version: HexaProProductVersion, *, actor: Any, changes: list[str], figures: str) -> None:
    """Audit a change staff saved to a version not yet in force (inside the admin page's transaction) with the
    ``figures`` :func:`version_check` accepted it with."""
    audit_record(
        action="hexapro_version_changed",
        actor=actor,
        target=audit_target(version),
        details={
            "version": version.pk,
            "changes": changes,
            "figures": f"expected multiplier, rake equivalent: {figures}",
        },
    )
