"""A screen name passes for whoever else goes by it at the tables: another account's screen name in any case ("ALICE"
beside "alice") or another account's username (a player calling themselves "Support" beside the account "support").
The admin refuses both on the field and saves nothing; a player's own username, in any case, is theirs to go by, and
clearing a screen name (the player goes by their username) is always allowed. The other way round, an account may not
be given, or renamed to, a username another account goes by as its screen name."""

from __future__ import annotations

import pytest
from django.test import Client

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from tests.accounts.support import PASSWORD, player
from tests.accounts.test_a_players_e_mail_changes_only_when_a_second_staff_member_approves import (
    change_page,
    the_form_as_posted,
)
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

SCREEN_NAME_TAKEN = "Another player already goes by this name."
USERNAME_AT_THE_TABLES = "Another player already goes by this name at the tables."
ADD_PAGE = "/admin/accounts/user/add/"


@pytest.fixture
def administrator() -> Client:
    return logged_in(staff_member(ADMINISTRATORS, "the-admin"))


def going_by(username: str, screen_name: str) -> User:
    account = player(username)
    account.screen_name = screen_name
    account.save(update_fields=["screen_name"])
    return account


def screen_name_of(account: User) -> str | None:
    account.refresh_from_db()
    return account.screen_name


@pytest.mark.parametrize("screen_name", ["ALICE", "Alice"])
def test_a_screen_name_another_account_goes_by_in_another_case_is_refused_on_the_field(
    administrator: Client, screen_name: str
) -> None:
    going_by("pat", "alice")
    olga = player("olga")

    answer = administrator.post(change_page(olga), the_form_as_posted(administrator, olga, screen_name=screen_name))

    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {"screen_name": [SCREEN_NAME_TAKEN]}
    assert screen_name_of(olga) is None


@pytest.mark.parametrize("screen_name", ["support", "Support", "SUPPORT"])
def test_a_screen_name_that_is_another_accounts_username_is_refused_on_the_field(
    administrator: Client, screen_name: str
) -> None:
    player("support")
    olga = player("olga")

    answer = administrator.post(change_page(olga), the_form_as_posted(administrator, olga, screen_name=screen_name))

    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {"screen_name": [SCREEN_NAME_TAKEN]}
    assert screen_name_of(olga) is None


@pytest.mark.parametrize("screen_name", ["olga", "Olga", "OLGA"])
def test_a_player_may_go_by_their_own_username_in_any_case(administrator: Client, screen_name: str) -> None:
    olga = player("olga")

    answer = administrator.post(change_page(olga), the_form_as_posted(administrator, olga, screen_name=screen_name))

    assert answer.status_code == 302
    assert screen_name_of(olga) == screen_name


def test_clearing_a_screen_name_leaves_none_and_the_player_goes_by_their_username(administrator: Client) -> None:
    going_by("pat", "")
    olga = going_by("olga", "Ace")

    answer = administrator.post(change_page(olga), the_form_as_posted(administrator, olga, screen_name=""))

    assert answer.status_code == 302
    assert screen_name_of(olga) is None
    assert User.objects.get(pk=olga.pk).table_name == "olga"


def test_renaming_an_account_to_a_username_another_goes_by_at_the_tables_is_refused_on_the_field(
    administrator: Client,
) -> None:
    going_by("pat", "Ace")
    olga = player("olga")

    answer = administrator.post(change_page(olga), the_form_as_posted(administrator, olga, username="ACE"))

    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {"username": [USERNAME_AT_THE_TABLES]}
    olga.refresh_from_db()
    assert olga.username == "olga"


def test_adding_an_account_with_a_username_another_goes_by_at_the_tables_is_refused_on_the_field(
    administrator: Client,
) -> None:
    going_by("pat", "Ace")

    answer = administrator.post(
        ADD_PAGE, {"username": "ace", "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {"username": [USERNAME_AT_THE_TABLES]}
    assert not User.objects.filter(username__iexact="ace").exists()
