"""A username belongs to one account whatever its case: players log in with it and see it at the tables, so "Pat"
beside "pat" would be another person passing for them. The sign-up form compared without case, but the database
compared in exact case, so two sign-ups at once as "pat" and "Pat" both passed the form and were both saved. The
database now holds it (a unique index on the lower-cased username); the sign-up that loses the race gets the form back
with "A user with that username already exists.", and nothing of it is saved."""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, transaction

from poker_site.accounts.forms import SignUpForm
from poker_site.accounts.models import USERNAME_UNIQUE_CONSTRAINT, User
from tests.accounts.support import PASSWORD, player
from tests.accounts.test_an_e_mail_address_belongs_to_one_account_in_the_database import sign_up
from tests.waiting import GENEROUS_SECONDS
from tests.wallet.concurrency import run_simultaneously

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

TAKEN = "A user with that username already exists."


def test_the_database_refuses_a_second_account_with_the_same_username_in_another_case() -> None:
    player("pat")

    with pytest.raises(IntegrityError, match=USERNAME_UNIQUE_CONSTRAINT), transaction.atomic():
        User.objects.create_user("PAT", "impostor@players.example", PASSWORD)

    assert list(User.objects.values_list("username", flat=True)) == ["pat"]


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_sign_ups_with_the_same_username_in_another_case_leave_one_account_and_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    both_checked = threading.Barrier(2)
    save = SignUpForm.save

    def save_once_both_forms_are_checked(form: SignUpForm, commit: bool = True) -> User:
        both_checked.wait(timeout=GENEROUS_SECONDS)  # each form has checked that no account has the name in any case
        return save(form, commit)

    monkeypatch.setattr(SignUpForm, "save", save_once_both_forms_are_checked)

    answers = run_simultaneously(
        [lambda: sign_up("pat", "pat@players.example"), lambda: sign_up("Pat", "patricia@players.example")]
    )

    for answer in answers:
        assert not isinstance(answer, BaseException), answer
    assert sorted(answer.status_code for answer in answers) == [302, 400]
    (refused,) = [answer for answer in answers if answer.status_code == 400]
    assert refused.context["form"].errors == {"username": [TAKEN]}
    (account,) = User.objects.filter(username__iexact="pat")
    loser = ({"pat@players.example", "patricia@players.example"} - {account.email}).pop()
    assert not User.objects.filter(email=loser).exists()
