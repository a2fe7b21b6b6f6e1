"""Two administrators who add an account with the same username at once both pass the add form's check (no account
has the name yet); the database takes one and refuses the other, which answered a server error (the IntegrityError).
The refused one now gets its form back with the form's own error on the field, "A user with that username already
exists.", and nothing of it is saved. The same holds between an administrator renaming an account and another adding
one with that name in another case (the change form checks without case too)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client

from poker_site.accounts.admin import UserAdmin
from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from tests.accounts.support import PASSWORD, no_server_error, player
from tests.accounts.test_a_players_e_mail_changes_only_when_a_second_staff_member_approves import (
    change_page,
    the_form_as_posted,
)
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.waiting import GENEROUS_SECONDS
from tests.wallet.concurrency import run_simultaneously

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_cache")]

TAKEN = "A user with that username already exists."
ADD_PAGE = "/admin/accounts/user/add/"


@pytest.fixture
def both_forms_checked_before_either_saves(monkeypatch: pytest.MonkeyPatch) -> None:
    both_checked = threading.Barrier(2)
    save_model = UserAdmin.save_model

    def save_once_both_forms_are_checked(self: UserAdmin, request: Any, obj: Any, form: Any, change: bool) -> None:
        both_checked.wait(timeout=GENEROUS_SECONDS)  # each form has checked that no account has the name
        save_model(self, request, obj, form, change)

    monkeypatch.setattr(UserAdmin, "save_model", save_once_both_forms_are_checked)


def administrator(username: str) -> Client:
    return logged_in(staff_member(ADMINISTRATORS, username))


def add(client: Client, username: str) -> Any:
    return client.post(
        ADD_PAGE, {"username": username, "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD}
    )


def the_refused_form_and_the_other_saved(answers: list[Any]) -> Any:
    no_server_error(answers)
    assert sorted(answer.status_code for answer in answers) == [200, 302]
    (refused,) = [answer for answer in answers if answer.status_code == 200]
    return refused.context["adminform"].form


@pytest.mark.usefixtures("both_forms_checked_before_either_saves")
def test_two_administrators_adding_the_same_username_at_once_leave_one_account_and_the_forms_error() -> None:
    first, second = administrator("first-admin"), administrator("second-admin")

    answers = run_simultaneously([lambda: add(first, "pat"), lambda: add(second, "pat")])

    assert the_refused_form_and_the_other_saved(answers).errors == {"username": [TAKEN]}
    assert list(User.objects.filter(is_staff=False).values_list("username", flat=True)) == ["pat"]


@pytest.mark.usefixtures("both_forms_checked_before_either_saves")
def test_a_rename_and_an_addition_of_the_same_username_in_another_case_at_once_save_one_and_refuse_the_other() -> None:
    renaming, adding = administrator("first-admin"), administrator("second-admin")
    olga = player("olga")
    renamed = the_form_as_posted(renaming, olga, username="pat")

    answers = run_simultaneously([lambda: renaming.post(change_page(olga), renamed), lambda: add(adding, "Pat")])

    assert the_refused_form_and_the_other_saved(answers).errors == {"username": [TAKEN]}
    players = set(User.objects.filter(is_staff=False).values_list("username", flat=True))
    assert players in ({"pat"}, {"olga", "Pat"})  # olga renamed and Pat refused, or Pat added and the rename refused
