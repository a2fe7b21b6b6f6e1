"""HEX-31: the multiplier audit read from the games drawn, per product version and buy-in (GEN-08: every draw is a
:class:`~tournaments.hexapro.models.HexaProGame` row).

The games are counted per (version, buy-in, multiplier) in one grouped query, and audited with the tables they were
drawn with (:func:`tournaments.rules.hexapro_audit.product_audits`): games per multiplier against the expected
frequency with the chi-square p-value, and the realised rake equivalent, 1 − Σ prize pools / Σ seats' buy-ins,
against the stated 6.853 %. Every drawn game counts, also one cancelled later: the audit is of the draw.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from tournaments.hexapro.models import HexaProGame, HexaProProductVersion
from tournaments.hexapro.products import product_from_version
from tournaments.rules.hexapro import HexaProProduct
from tournaments.rules.hexapro_audit import MultiplierAudit, product_audits


@dataclass(frozen=True)
class VersionAudit:
    """The audit of the games of one product version: one :class:`MultiplierAudit` per buy-in, then all together."""

    version: HexaProProductVersion
    product: HexaProProduct
    audits: tuple[MultiplierAudit, ...]


def games_counted() -> dict[int, dict[int, dict[int, int]]]:
    """``{version id: {buy-in cents: {multiplier tenths: games}}}`` of every game drawn (one query)."""
    counted: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    rows = (
        HexaProGame.objects.values_list("version_id", "buy_in_cents", "multiplier_tenths")
        .annotate(games=Count("pk"))
        .order_by()
    )
    for version_id, buy_in, multiplier, games in rows:
        counted[version_id][int(buy_in)][multiplier] = games
    return counted


def multiplier_audits() -> list[VersionAudit]:
    """HEX-31 for every product version games were drawn with (code order, newest version first)."""
    counted = games_counted()
    versions = HexaProProductVersion.objects.filter(pk__in=list(counted)).order_by("code", "-effective_from")
    audits = []
    for version in versions:
        product = product_from_version(version)
        games = {buy_in: dict(by_multiplier) for buy_in, by_multiplier in counted[version.pk].items()}
        audits.append(VersionAudit(version, product, product_audits(product, games)))
    return audits
