"""A case's actions are its record of decisions (FRD-18): the database refuses UPDATE and DELETE of them, as it does
for the ledger and the audit log (wallet migration 0002). TRUNCATE is left to the table owner (the test runner uses
it to empty tables between tests)."""

from django.db import migrations

TABLE = "compliance_caseaction"

FORWARD = f"""
CREATE FUNCTION compliance_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'case actions are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION compliance_refuse_change();
"""

REVERSE = f"""
DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE};
DROP FUNCTION IF EXISTS compliance_refuse_change();
"""


class Migration(migrations.Migration):
    dependencies = [("compliance", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, REVERSE)]
