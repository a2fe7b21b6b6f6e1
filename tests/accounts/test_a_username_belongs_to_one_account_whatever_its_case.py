"""A username belongs to one account whatever its case: players log in with it and see it at the tables, so "Pat"
beside "pat" would be another person passing for them. The sign-up form compared without case, but the database
compared in exact case, so two sign-ups at once as "pat" and "Pat" both passed the form and were both saved. The
database now holds it (a unique index on the lower-cased username); the sign-up that loses the race gets the form back
with "A user with that username already exists.", and nothing of it is saved."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from poker_site.accounts.models import USERNAME_UNIQUE_CONSTRAINT, User
from tests.accounts.support import PASSWORD, no_server_error, player, two_sign_ups_at_once

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
    answers = two_sign_ups_at_once(monkeypatch, ("pat", "pat@players.example"), ("Pat", "patricia@players.example"))

    no_server_error(answers)
    assert sorted(answer.status_code for answer in answers) == [302, 400]
    (refused,) = [answer for answer in answers if answer.status_code == 400]
    assert refused.context["form"].errors == {"username": [TAKEN]}
    (account,) = User.objects.filter(username__iexact="pat")
    loser = ({"pat@players.example", "patricia@players.example"} - {account.email}).pop()
    assert not User.objects.filter(email=loser).exists()
