"""PostgreSQL triggers that make the ledger append-only and accounts' identity immutable.

* wallet_transfer, wallet_leg, wallet_auditentry: every UPDATE and DELETE is refused.
* wallet_account: DELETE is refused; UPDATE may change only ``balance`` (kind, currency, owner, reference,
  may_go_negative and created_at are fixed at creation). The CHECK constraints refuse a negative balance.

TRUNCATE is left alone: it needs table ownership, and the test runner uses it to empty tables between tests.
"""

from django.db import migrations

APPEND_ONLY_TABLES = ("wallet_transfer", "wallet_leg", "wallet_auditentry")

FORWARD = """
CREATE FUNCTION wallet_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the wallet ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE FUNCTION wallet_account_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'wallet accounts are permanent: DELETE of account % refused', OLD.id
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.id IS DISTINCT FROM OLD.id
       OR NEW.kind IS DISTINCT FROM OLD.kind
       OR NEW.currency IS DISTINCT FROM OLD.currency
       OR NEW.owner_id IS DISTINCT FROM OLD.owner_id
       OR NEW.reference IS DISTINCT FROM OLD.reference
       OR NEW.may_go_negative IS DISTINCT FROM OLD.may_go_negative
       OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'wallet account % may change only its balance', OLD.id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER wallet_account_guard BEFORE UPDATE OR DELETE ON wallet_account
    FOR EACH ROW EXECUTE FUNCTION wallet_account_guard();
""" + "".join(
    f"""
CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change();
"""
    for table in APPEND_ONLY_TABLES
)

REVERSE = "".join(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};\n" for table in APPEND_ONLY_TABLES) + """
DROP TRIGGER IF EXISTS wallet_account_guard ON wallet_account;
DROP FUNCTION IF EXISTS wallet_account_guard();
DROP FUNCTION IF EXISTS wallet_refuse_change();
"""


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, REVERSE)]
