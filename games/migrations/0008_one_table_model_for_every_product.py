"""The table model serves every product (cash games and tournaments): ``CashTable`` becomes ``Table``."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0007_tables_of_every_kind"), ("tournaments", "0003_cancellations")]

    operations = [
        migrations.RenameModel("CashTable", "Table"),
        migrations.AlterModelOptions(
            name="table",
            options={
                "ordering": ("stake", "name"),
                "permissions": [("close_table", "Can close a cash table (every player is cashed out)")],
                "verbose_name": "table",
            },
        ),
    ]
