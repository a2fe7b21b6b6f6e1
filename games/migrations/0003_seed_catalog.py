"""Seed the cash-game catalogue: five game types, their rules rows and every RAKE-02 stake (idempotent)."""

from django.db import migrations


def seed(apps, schema_editor):
    from games.cash.catalog_seed import seed_catalog

    seed_catalog(
        apps.get_model("games", "GameType"),
        apps.get_model("games", "GameRules"),
        apps.get_model("games", "Stake"),
        apps.get_model("games", "StakeTerms"),
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0002_hand_events_append_only")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
