"""Issue 30: migration ``accounts`` 0003 makes an e-mail address belong to one account (a unique index on the
lower-cased address). On a database that already held addresses shared by several accounts it failed with
PostgreSQL's raw IntegrityError on building the index, naming one address at best. It now refuses before, with every
shared address and the ids of the accounts holding it, says how to settle them (an administrator gives the other
accounts another address on their admin pages; ``manage.py email_duplicates_list`` lists them), guesses nothing and
changes nothing; once they are settled it migrates. The command lists the same and exits non-zero while any remain.

Each test migrates ``accounts`` back before 0003 inside its own transaction (PostgreSQL's schema changes are
transactional), which the test's rollback undoes."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from poker_site.accounts.email_duplicates import EmailDuplicates
from poker_site.accounts.models import EMAIL_UNIQUE_CONSTRAINT, User
from tests.accounts.support import PASSWORD

pytestmark = pytest.mark.django_db

BEFORE = ("accounts", "0002_responsible_gaming")
UNIQUE_ADDRESSES = ("accounts", "0003_email_unique_without_case")


def migrate_to(target: tuple[str, str]) -> None:
    MigrationExecutor(connection).migrate([target])


def the_index_exists() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", [EMAIL_UNIQUE_CONSTRAINT])
        return cursor.fetchone() is not None


@pytest.fixture
def before_unique_addresses() -> None:
    """The database as it was before 0003: no unique index on the addresses."""
    migrate_to(BEFORE)
    assert not the_index_exists()


@pytest.fixture
def shared_addresses(before_unique_addresses: None) -> dict[str, User]:
    """Two addresses each held by two accounts (one of them in another case), beside accounts that are fine."""
    return {
        name: User.objects.create_user(name, email, PASSWORD)
        for name, email in (
            ("pat", "pat@players.example"),
            ("patricia", "PAT@Players.Example"),
            ("olga", "olga@players.example"),
            ("olga2", "olga@players.example"),
            ("sven", "sven@players.example"),
            ("first_without", ""),
            ("second_without", ""),
        )
    }


def test_the_migration_refuses_naming_every_shared_address_and_its_accounts_and_changes_nothing(
    shared_addresses: dict[str, User],
) -> None:
    with pytest.raises(EmailDuplicates) as refused:
        migrate_to(UNIQUE_ADDRESSES)

    message = str(refused.value)
    pat, patricia = shared_addresses["pat"], shared_addresses["patricia"]
    olga, olga2 = shared_addresses["olga"], shared_addresses["olga2"]
    assert f"olga@players.example: account {olga.pk} (olga), account {olga2.pk} (olga2)" in message
    assert f"pat@players.example: account {pat.pk} (pat), account {patricia.pk} (patricia)" in message
    assert "2 addresses belong to more than one" in message
    assert "sven" not in message
    assert "/admin/accounts/user/<id>/change/" in message
    assert "manage.py email_duplicates_list" in message
    assert not the_index_exists()
    assert {user.username: user.email for user in User.objects.filter(pk__in=[pat.pk, patricia.pk])} == {
        "pat": "pat@players.example",
        "patricia": "PAT@players.example",  # Django lower-cases the domain
    }


def test_once_each_address_is_settled_the_migration_builds_the_index(shared_addresses: dict[str, User]) -> None:
    User.objects.filter(username="patricia").update(email="patricia@players.example")
    User.objects.filter(username="olga2").update(email="")

    migrate_to(UNIQUE_ADDRESSES)

    assert the_index_exists()


def test_the_command_lists_the_shared_addresses_and_fails_while_any_remain(shared_addresses: dict[str, User]) -> None:
    printed = StringIO()

    with pytest.raises(CommandError, match="2 e-mail address"):
        call_command("email_duplicates_list", stdout=printed)

    pat, patricia = shared_addresses["pat"], shared_addresses["patricia"]
    olga, olga2 = shared_addresses["olga"], shared_addresses["olga2"]
    assert printed.getvalue().splitlines() == [
        f"olga@players.example: account {olga.pk} (olga), account {olga2.pk} (olga2)",
        f"pat@players.example: account {pat.pk} (pat), account {patricia.pk} (patricia)",
    ]


def test_the_command_says_so_when_every_address_belongs_to_one_account() -> None:
    User.objects.create_user("pat", "pat@players.example", PASSWORD)
    printed = StringIO()

    call_command("email_duplicates_list", stdout=printed)

    assert printed.getvalue() == "No e-mail address belongs to more than one account.\n"
