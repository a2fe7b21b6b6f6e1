"""Seed the HexaPro and HexaPro Extreme products from the catalog's defaults (``tournaments.rules.hexapro``), in force
from 2000-01-01 so that every game, also one played at a simulated past time, finds them (the same rows as
``tournaments.hexapro.products.hexapro_products_seed``)."""

from datetime import UTC, datetime

from django.db import migrations

SEEDED_FROM = datetime(2000, 1, 1, tzinfo=UTC)


def seed(apps, schema_editor):
    from tournaments.hexapro.products import product_versions_create
    from tournaments.rules.hexapro import DEFAULT_PRODUCTS

    names = ("HexaProProductVersion", "HexaProBuyIn", "HexaProMultiplier", "HexaProBlindLevel")
    product_versions_create(
        DEFAULT_PRODUCTS, SEEDED_FROM, models={name: apps.get_model("tournaments", name) for name in names}
    )


def unseed(apps, schema_editor):
    apps.get_model("tournaments", "HexaProProductVersion").objects.filter(effective_from=SEEDED_FROM).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_hexapro")]

    operations = [migrations.RunPython(seed, unseed)]
