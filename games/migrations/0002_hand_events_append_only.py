"""The database refuses UPDATE and DELETE on hand events, whatever code runs (architecture rule 4, GEN-07)."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_handevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_handevent is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_handevent_append_only
    BEFORE UPDATE OR DELETE ON games_handevent
    FOR EACH ROW EXECUTE FUNCTION games_handevent_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_handevent_append_only ON games_handevent;
DROP FUNCTION IF EXISTS games_handevent_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunSQL(CREATE, DROP)]
