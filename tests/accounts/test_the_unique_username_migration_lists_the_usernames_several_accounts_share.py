"""Migration ``accounts`` 0004 makes a username belong to one account whatever its case (a unique index on the
lower-cased username). On a database that already held names shared by several accounts in different cases ("Pat" and
"pat": two sign-ups at once, or the admin, which compared in exact case) PostgreSQL would refuse to build the index
with a raw IntegrityError naming one name at best. The migration refuses before, with every shared name and the ids of
the accounts holding it, says how to settle them (an administrator gives the other accounts another username on their
admin pages; ``manage.py username_duplicates_list`` lists them), guesses nothing and changes nothing; once they are
settled it migrates. The command lists the same and exits non-zero while any remain.

Each test migrates ``accounts`` back before 0004 inside its own transaction (PostgreSQL's schema changes are
transactional), which the test's rollback undoes."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from poker_site.accounts.models import USERNAME_UNIQUE_CONSTRAINT, User
from poker_site.accounts.username_duplicates import UsernameDuplicates
from tests.accounts.support import PASSWORD

pytestmark = pytest.mark.django_db

BEFORE = ("accounts", "0003_email_unique_without_case")
UNIQUE_USERNAMES = ("accounts", "0004_username_unique_without_case")


def migrate_to(target: tuple[str, str]) -> None:
    MigrationExecutor(connection).migrate([target])


def the_index_exists() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", [USERNAME_UNIQUE_CONSTRAINT])
        return cursor.fetchone() is not None


@pytest.fixture
def before_unique_usernames() -> None:
    """The database as it was before 0004: usernames unique in exact case only."""
    migrate_to(BEFORE)
    assert not the_index_exists()


@pytest.fixture
def shared_usernames(before_unique_usernames: None) -> dict[str, User]:
    """Two names each held by several accounts in different cases, beside an account that is fine."""
    return {
        name: User.objects.create_user(name, f"{name.lower()}-{number}@players.example", PASSWORD)
        for number, name in enumerate(("pat", "Pat", "PAT", "Olga", "olga", "sven"))
    }


def test_the_migration_refuses_naming_every_shared_username_and_its_accounts_and_changes_nothing(
    shared_usernames: dict[str, User],
) -> None:
    with pytest.raises(UsernameDuplicates) as refused:
        migrate_to(UNIQUE_USERNAMES)

    message = str(refused.value)
    pat, pat_capitalised, pat_shouted = shared_usernames["pat"], shared_usernames["Pat"], shared_usernames["PAT"]
    olga_capitalised, olga = shared_usernames["Olga"], shared_usernames["olga"]
    assert f"olga: account {olga_capitalised.pk} (Olga), account {olga.pk} (olga)" in message
    assert f"pat: account {pat.pk} (pat), account {pat_capitalised.pk} (Pat), account {pat_shouted.pk} (PAT)" in message
    assert "2 usernames belong to more than one" in message
    assert "sven" not in message
    assert "/admin/accounts/user/<id>/change/" in message
    assert "manage.py username_duplicates_list" in message
    assert not the_index_exists()
    assert sorted(User.objects.values_list("username", flat=True)) == ["Olga", "PAT", "Pat", "olga", "pat", "sven"]


def test_once_each_username_is_settled_the_migration_builds_the_index(shared_usernames: dict[str, User]) -> None:
    User.objects.filter(username="Pat").update(username="patricia")
    User.objects.filter(username="PAT").update(username="patrick")
    User.objects.filter(username="Olga").update(username="olga2")

    migrate_to(UNIQUE_USERNAMES)

    assert the_index_exists()


def test_the_command_lists_the_shared_usernames_and_fails_while_any_remain(shared_usernames: dict[str, User]) -> None:
    printed = StringIO()

    with pytest.raises(CommandError, match="2 username"):
        call_command("username_duplicates_list", stdout=printed)

    pat, pat_capitalised, pat_shouted = shared_usernames["pat"], shared_usernames["Pat"], shared_usernames["PAT"]
    olga_capitalised, olga = shared_usernames["Olga"], shared_usernames["olga"]
    assert printed.getvalue().splitlines() == [
        f"olga: account {olga_capitalised.pk} (Olga), account {olga.pk} (olga)",
        f"pat: account {pat.pk} (pat), account {pat_capitalised.pk} (Pat), account {pat_shouted.pk} (PAT)",
    ]


def test_the_command_says_so_when_every_username_belongs_to_one_account() -> None:
    User.objects.create_user("pat", "pat@players.example", PASSWORD)
    User.objects.create_user("patricia", "patricia@players.example", PASSWORD)
    printed = StringIO()

    call_command("username_duplicates_list", stdout=printed)

    assert printed.getvalue() == "No username belongs to more than one account.\n"
