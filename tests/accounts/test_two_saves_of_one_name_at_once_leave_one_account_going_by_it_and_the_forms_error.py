"""Two saves that would make two accounts go by one name both pass their forms' checks when neither has saved yet.
Two administrators giving two accounts the screen name "Ace" and "ACE" at once: the database's index takes one and
refuses the other. A sign-up as "ace" while an administrator gives another account the screen name "Ace": no index
compares a username with a screen name, so both take the name's lock before their last check and the second sees the
first. Either way the refused one gets its form back with the form's error on the field (never a server error), and
nothing of it is saved."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client

from poker_site.accounts.admin import UserAdmin
from poker_site.accounts.forms import SignUpForm
from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from tests.accounts.support import no_server_error, player, sign_up
from tests.accounts.test_a_players_e_mail_changes_only_when_a_second_staff_member_approves import (
    change_page,
    the_form_as_posted,
)
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.waiting import GENEROUS_SECONDS
from tests.wallet.concurrency import run_simultaneously

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_cache")]

SCREEN_NAME_TAKEN = "Another player already goes by this name."
USERNAME_AT_THE_TABLES = "Another player already goes by this name at the tables."


@pytest.fixture
def both_checked() -> threading.Barrier:
    return threading.Barrier(2)


@pytest.fixture
def admin_saves_once_both_are_checked(monkeypatch: pytest.MonkeyPatch, both_checked: threading.Barrier) -> None:
    save_model = UserAdmin.save_model
    checked_here = threading.local()

    def save_once_both_are_checked(self: UserAdmin, request: Any, obj: Any, form: Any, change: bool) -> None:
        if not getattr(checked_here, "waited", False):  # the refused page's second try does not wait
            checked_here.waited = True
            both_checked.wait(timeout=GENEROUS_SECONDS)
        save_model(self, request, obj, form, change)

    monkeypatch.setattr(UserAdmin, "save_model", save_once_both_are_checked)


@pytest.fixture
def sign_up_saves_once_both_are_checked(monkeypatch: pytest.MonkeyPatch, both_checked: threading.Barrier) -> None:
    save = SignUpForm.save

    def save_once_both_are_checked(form: SignUpForm, commit: bool = True) -> User:
        both_checked.wait(timeout=GENEROUS_SECONDS)
        return save(form, commit)

    monkeypatch.setattr(SignUpForm, "save", save_once_both_are_checked)


def administrator(username: str) -> Client:
    return logged_in(staff_member(ADMINISTRATORS, username))


@pytest.mark.usefixtures("admin_saves_once_both_are_checked")
def test_two_administrators_giving_one_screen_name_in_two_cases_at_once_leave_one_and_the_forms_error() -> None:
    first, second = administrator("first-admin"), administrator("second-admin")
    pat, olga = player("pat"), player("olga")
    as_pat = the_form_as_posted(first, pat, screen_name="Ace")
    as_olga = the_form_as_posted(second, olga, screen_name="ACE")

    answers = run_simultaneously(
        [lambda: first.post(change_page(pat), as_pat), lambda: second.post(change_page(olga), as_olga)]
    )

    no_server_error(answers)
    assert sorted(answer.status_code for answer in answers) == [200, 302]
    (refused,) = [answer for answer in answers if answer.status_code == 200]
    assert refused.context["adminform"].form.errors == {"screen_name": [SCREEN_NAME_TAKEN]}
    assert User.objects.filter(screen_name__iexact="ace").count() == 1


@pytest.mark.usefixtures("admin_saves_once_both_are_checked", "sign_up_saves_once_both_are_checked")
def test_a_sign_up_and_a_screen_name_of_one_name_at_once_leave_one_and_the_forms_error() -> None:
    admin = administrator("the-admin")
    pat = player("pat")
    as_ace = the_form_as_posted(admin, pat, screen_name="Ace")

    answers = run_simultaneously(
        [lambda: admin.post(change_page(pat), as_ace), lambda: sign_up("ace", "newcomer@players.example")]
    )

    no_server_error(answers)
    screen_name_answer, sign_up_answer = answers
    if screen_name_answer.status_code == 302:  # the screen name was saved first: the sign-up is refused
        assert sign_up_answer.status_code == 400
        assert sign_up_answer.context["form"].errors == {"username": [USERNAME_AT_THE_TABLES]}
        assert not User.objects.filter(username__iexact="ace").exists()
    else:  # the sign-up was saved first: the screen name is refused
        assert (screen_name_answer.status_code, sign_up_answer.status_code) == (200, 302)
        assert screen_name_answer.context["adminform"].form.errors == {"screen_name": [SCREEN_NAME_TAKEN]}
        assert User.objects.get(pk=pat.pk).screen_name is None
