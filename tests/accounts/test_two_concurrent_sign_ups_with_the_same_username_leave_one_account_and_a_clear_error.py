"""Two sign-ups with the same username at once both pass the form's check (no account has it yet); the database's
unique constraint on the username takes one and refuses the other. The refused one answered a server error (the
IntegrityError); it now gets the form back with the form's own answer, "A user with that username already exists.",
and nothing of it is saved. The same was done for e-mail addresses
(test_an_e_mail_address_belongs_to_one_account_in_the_database.py)."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.accounts.support import no_server_error, two_sign_ups_at_once

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_cache")]

TAKEN = "A user with that username already exists."


def test_two_concurrent_sign_ups_with_the_same_username_leave_one_account_and_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = two_sign_ups_at_once(monkeypatch, ("pat", "pat@players.example"), ("pat", "patricia@players.example"))

    no_server_error(answers)
    assert sorted(answer.status_code for answer in answers) == [302, 400]
    (refused,) = [answer for answer in answers if answer.status_code == 400]
    assert TAKEN in refused.content.decode()
    assert refused.context["form"].errors == {"username": [TAKEN]}
    (account,) = User.objects.filter(username="pat")
    loser = ({"pat@players.example", "patricia@players.example"} - {account.email}).pop()
    assert not User.objects.filter(email=loser).exists()
