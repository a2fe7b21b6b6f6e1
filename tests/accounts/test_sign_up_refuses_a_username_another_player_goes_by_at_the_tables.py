"""A new username is a name the other players will read at the tables (an account without a screen name goes by its
username), so sign-up refuses one that another account already goes by as its screen name, in any case: "ace" beside
a player whose screen name is "Ace" would pass one for the other. The form says so on the username and nothing is
saved; a name nobody goes by is taken as before."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.accounts.support import player, sign_up

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

USERNAME_AT_THE_TABLES = "Another player already goes by this name at the tables."


@pytest.fixture(autouse=True)
def a_player_going_by_ace() -> None:
    pat = player("pat")
    pat.screen_name = "Ace"
    pat.save(update_fields=["screen_name"])


@pytest.mark.parametrize("username", ["Ace", "ace", "ACE"])
def test_a_username_another_player_goes_by_at_the_tables_is_refused_on_the_field(username: str) -> None:
    answer = sign_up(username, "newcomer@players.example")

    assert answer.status_code == 400
    assert answer.context["form"].errors == {"username": [USERNAME_AT_THE_TABLES]}
    assert not User.objects.filter(email="newcomer@players.example").exists()


def test_a_username_nobody_goes_by_is_taken() -> None:
    answer = sign_up("acer", "newcomer@players.example")

    assert answer.status_code == 302
    assert User.objects.get(email="newcomer@players.example").username == "acer"
