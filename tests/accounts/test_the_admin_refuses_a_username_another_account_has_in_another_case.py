"""A username belongs to one account whatever its case. The admin's add form compared without case (Django's), but
its change form compared in exact case: an account could be renamed "PAT" beside "pat". Renaming to a name another
account has in any case is now refused on the field with the add form's words, and nothing is saved; an account may
still change the case of its own name."""

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

TAKEN = "A user with that username already exists."
ADD_PAGE = "/admin/accounts/user/add/"


@pytest.fixture
def administrator() -> Client:
    return logged_in(staff_member(ADMINISTRATORS, "the-admin"))


def test_renaming_an_account_to_a_username_another_has_in_another_case_is_refused_on_the_field(
    administrator: Client,
) -> None:
    player("pat")
    olga = player("olga")

    answer = administrator.post(change_page(olga), the_form_as_posted(administrator, olga, username="PAT"))

    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {"username": [TAKEN]}
    olga.refresh_from_db()
    assert olga.username == "olga"


def test_an_account_may_change_the_case_of_its_own_username(administrator: Client) -> None:
    pat = player("pat")

    answer = administrator.post(change_page(pat), the_form_as_posted(administrator, pat, username="Pat"))

    assert answer.status_code == 302
    pat.refresh_from_db()
    assert pat.username == "Pat"


def test_adding_an_account_with_a_username_another_has_in_another_case_is_refused_on_the_field(
    administrator: Client,
) -> None:
    player("pat")

    answer = administrator.post(
        ADD_PAGE, {"username": "Pat", "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {"username": [TAKEN]}
    assert list(User.objects.values_list("username", flat=True).order_by("username")) == ["pat", "the-admin"]
