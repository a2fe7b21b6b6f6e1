"""Seed the HexaPro and HexaPro Extreme products from the catalog's defaults (``tournaments.rules.hexapro``), in force
from 2000-01-01 so that every game, also one played at a simulated past time, finds them."""

from datetime import UTC, datetime

from django.db import migrations

SEEDED_FROM = datetime(2000, 1, 1, tzinfo=UTC)


def seed(apps, schema_editor):
    from tournaments.rules.hexapro import DEFAULT_PRODUCTS

    version_model = apps.get_model("tournaments", "HexaProProductVersion")
    buy_in_model = apps.get_model("tournaments", "HexaProBuyIn")
    multiplier_model = apps.get_model("tournaments", "HexaProMultiplier")
    level_model = apps.get_model("tournaments", "HexaProBlindLevel")
    for product in DEFAULT_PRODUCTS:
        version, created = version_model.objects.get_or_create(
            code=product.code,
            effective_from=SEEDED_FROM,
            defaults={
                "name": product.name,
                "seats": product.seats,
                "maximum_games_per_registration": product.maximum_games_per_registration,
                "decision_seconds": product.decision_seconds,
                "reconnect_grace_seconds": product.reconnect_grace_seconds,
                "stated_rake_equivalent_percent": product.stated_rake_equivalent_percent,
                "created_at": SEEDED_FROM,
            },
        )
        if not created:
            continue
        buy_in_model.objects.bulk_create(
            buy_in_model(version=version, buy_in_cents=level.buy_in_cents, fee_component_cents=level.fee_component_cents)
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


def unseed(apps, schema_editor):
    apps.get_model("tournaments", "HexaProProductVersion").objects.filter(effective_from=SEEDED_FROM).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_hexapro")]

    operations = [migrations.RunPython(seed, unseed)]
