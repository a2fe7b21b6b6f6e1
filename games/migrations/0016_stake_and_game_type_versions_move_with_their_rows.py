"""A stake's ``terms_version`` and a game type's ``rules_version``: moved on by the database with every change to their
rows, so the table runtime can keep the rows in force in memory (issue 27: hand boundaries without catalog queries)."""

from django.db import migrations, models

# The versions move in the database, with the change and in its transaction, whoever makes it (the admin, an approved
# proposal, a data migration, plain SQL): a process keeps a stake's terms and a game type's rules for as long as the
# version it reads with them is the one it kept them under (games.models.catalog.terms_in_force / rules_in_force).
# Numbers come from one sequence, so a version is never given twice, and a save of a stake or game type that read an
# older version (the admin form) cannot move it back.
CREATE = """
CREATE SEQUENCE IF NOT EXISTS games_catalog_version;

CREATE OR REPLACE FUNCTION games_staketerms_version_move() RETURNS trigger AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE games_stake SET terms_version = nextval('games_catalog_version') WHERE id = OLD.stake_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        UPDATE games_stake SET terms_version = nextval('games_catalog_version') WHERE id = NEW.stake_id;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_staketerms_version_move
    AFTER INSERT OR UPDATE OR DELETE ON games_staketerms
    FOR EACH ROW EXECUTE FUNCTION games_staketerms_version_move();

CREATE OR REPLACE FUNCTION games_gamerules_version_move() RETURNS trigger AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE games_gametype SET rules_version = nextval('games_catalog_version') WHERE id = OLD.game_type_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        UPDATE games_gametype SET rules_version = nextval('games_catalog_version') WHERE id = NEW.game_type_id;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_gamerules_version_move
    AFTER INSERT OR UPDATE OR DELETE ON games_gamerules
    FOR EACH ROW EXECUTE FUNCTION games_gamerules_version_move();

CREATE OR REPLACE FUNCTION games_stake_terms_version_never_back() RETURNS trigger AS $$
BEGIN
    NEW.terms_version := GREATEST(NEW.terms_version, OLD.terms_version);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_stake_terms_version_never_back
    BEFORE UPDATE ON games_stake
    FOR EACH ROW EXECUTE FUNCTION games_stake_terms_version_never_back();

CREATE OR REPLACE FUNCTION games_gametype_rules_version_never_back() RETURNS trigger AS $$
BEGIN
    NEW.rules_version := GREATEST(NEW.rules_version, OLD.rules_version);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_gametype_rules_version_never_back
    BEFORE UPDATE ON games_gametype
    FOR EACH ROW EXECUTE FUNCTION games_gametype_rules_version_never_back();

UPDATE games_stake SET terms_version = nextval('games_catalog_version');
UPDATE games_gametype SET rules_version = nextval('games_catalog_version');
"""

DROP = """
DROP TRIGGER IF EXISTS games_staketerms_version_move ON games_staketerms;
DROP TRIGGER IF EXISTS games_gamerules_version_move ON games_gamerules;
DROP TRIGGER IF EXISTS games_stake_terms_version_never_back ON games_stake;
DROP TRIGGER IF EXISTS games_gametype_rules_version_never_back ON games_gametype;
DROP FUNCTION IF EXISTS games_staketerms_version_move();
DROP FUNCTION IF EXISTS games_gamerules_version_move();
DROP FUNCTION IF EXISTS games_stake_terms_version_never_back();
DROP FUNCTION IF EXISTS games_gametype_rules_version_never_back();
DROP SEQUENCE IF EXISTS games_catalog_version;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_merge_hand_log_and_owner_epoch"),
    ]

    operations = [
        migrations.AddField(
            model_name="gametype",
            name="rules_version",
            field=models.BigIntegerField(default=0, editable=False, verbose_name="rules version"),
        ),
        migrations.AddField(
            model_name="stake",
            name="terms_version",
            field=models.BigIntegerField(default=0, editable=False, verbose_name="terms version"),
        ),
        migrations.RunSQL(CREATE, DROP),
    ]
