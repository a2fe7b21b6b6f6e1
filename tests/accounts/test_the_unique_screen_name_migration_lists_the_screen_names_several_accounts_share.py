"""Migration ``accounts`` 0005 makes a screen name belong to one account whatever its case (a unique index on the
lower-cased screen name, empty ones apart). On a database that already held screen names several accounts share in
different cases ("ALICE" and "alice") PostgreSQL would refuse to build the index with a raw IntegrityError. The
migration refuses before, with every shared screen name and the ids of the accounts going by it, says how to settle
them, guesses nothing and changes nothing; once they are settled it migrates. ``manage.py screen_name_duplicates_list``
lists the same, and the accounts whose screen name is another account's username, and exits non-zero while any remain.

Each test migrates ``accounts`` back before 0005 inside its own transaction, which the test's rollback undoes."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from poker_site.accounts.models import SCREEN_NAME_UNIQUE_CONSTRAINT, User
from poker_site.accounts.screen_name_duplicates import ScreenNameDuplicates
from tests.accounts.support import player

pytestmark = pytest.mark.django_db

BEFORE = ("accounts", "0004_username_unique_without_case")
UNIQUE_SCREEN_NAMES = ("accounts", "0005_screen_name_unique_without_case")


def migrate_to(target: tuple[str, str]) -> None:
    MigrationExecutor(connection).migrate([target])


def the_index_exists() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", [SCREEN_NAME_UNIQUE_CONSTRAINT])
        return cursor.fetchone() is not None


def going_by(username: str, screen_name: str | None) -> User:
    account = player(username)
    User.objects.filter(pk=account.pk).update(screen_name=screen_name)
    return account


@pytest.fixture
def shared_screen_names() -> dict[str, User]:
    """Before 0005: two screen names each gone by in several cases, accounts without one, a fine one, and a screen name
    that is another account's username."""
    migrate_to(BEFORE)
    assert not the_index_exists()
    return {
        "pat": going_by("pat", "ace"),
        "olga": going_by("olga", "Ace"),
        "sven": going_by("sven", "ACE"),
        "ida": going_by("ida", "Bo"),
        "max": going_by("max", "bo"),
        "eva": going_by("eva", "Eve"),
        "tom": going_by("tom", None),
        "una": going_by("una", None),
        "kai": going_by("kai", ""),
        "ola": going_by("ola", "PAT"),
    }


def test_the_migration_refuses_naming_every_shared_screen_name_and_its_accounts_and_changes_nothing(
    shared_screen_names: dict[str, User],
) -> None:
    with pytest.raises(ScreenNameDuplicates) as refused:
        migrate_to(UNIQUE_SCREEN_NAMES)

    message = str(refused.value)
    pat, olga, sven = shared_screen_names["pat"], shared_screen_names["olga"], shared_screen_names["sven"]
    ida, max_ = shared_screen_names["ida"], shared_screen_names["max"]
    assert f"ace: account {pat.pk} (ace), account {olga.pk} (Ace), account {sven.pk} (ACE)" in message
    assert f"bo: account {ida.pk} (Bo), account {max_.pk} (bo)" in message
    assert "2 screen names belong to more than one" in message
    assert "Eve" not in message
    assert "/admin/accounts/user/<id>/change/" in message
    assert "manage.py screen_name_duplicates_list" in message
    assert not the_index_exists()
    assert User.objects.filter(screen_name__iexact="ace").count() == 3


def test_once_each_screen_name_is_settled_the_migration_builds_the_index(
    shared_screen_names: dict[str, User],
) -> None:
    User.objects.filter(screen_name__in=["Ace", "bo"]).update(screen_name=None)
    User.objects.filter(screen_name="ACE").update(screen_name="Ace of spades")

    migrate_to(UNIQUE_SCREEN_NAMES)

    assert the_index_exists()


def test_the_command_lists_the_shared_screen_names_and_those_of_other_usernames(
    shared_screen_names: dict[str, User],
) -> None:
    printed = StringIO()

    with pytest.raises(CommandError, match="2 screen name"):
        call_command("screen_name_duplicates_list", stdout=printed)

    pat, olga, sven = shared_screen_names["pat"], shared_screen_names["olga"], shared_screen_names["sven"]
    ida, max_, ola = shared_screen_names["ida"], shared_screen_names["max"], shared_screen_names["ola"]
    assert printed.getvalue().splitlines() == [
        f"ace: account {pat.pk} (ace), account {olga.pk} (Ace), account {sven.pk} (ACE)",
        f"bo: account {ida.pk} (Bo), account {max_.pk} (bo)",
        f"account {ola.pk} goes by PAT, the username of account {pat.pk} (pat)",
    ]


def test_the_command_says_so_when_no_screen_name_passes_one_account_for_another() -> None:
    going_by("pat", "Ace")
    going_by("olga", "Olga")
    going_by("sven", None)
    printed = StringIO()

    call_command("screen_name_duplicates_list", stdout=printed)

    assert printed.getvalue() == "No screen name passes one account for another.\n"
