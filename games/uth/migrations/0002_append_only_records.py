"""PostgreSQL triggers that make the UTH bet record and public event log append-only (game recall, GEN-07).

Every UPDATE and DELETE on uth_uthbetrecord and uth_uthevent is refused. TRUNCATE is left alone (the test runner
empties tables with it).
"""

from django.db import migrations

APPEND_ONLY_TABLES = ("uth_uthbetrecord", "uth_uthevent")

FORWARD = """
CREATE FUNCTION uth_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the UTH game record is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$;
""" + "".join(
    f"""
CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION uth_refuse_change();
"""
    for table in APPEND_ONLY_TABLES
)

REVERSE = "".join(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};\n" for table in APPEND_ONLY_TABLES) + """
DROP FUNCTION IF EXISTS uth_refuse_change();
"""


class Migration(migrations.Migration):
    dependencies = [("uth", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, REVERSE)]
