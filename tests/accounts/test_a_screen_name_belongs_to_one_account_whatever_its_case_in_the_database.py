"""A screen name is what the other players read at the tables, so it belongs to one account whatever its case: the
database refuses a second account going by "ALICE" beside "alice" (a unique index on the lower-cased screen name), as
it refused only "alice" twice before. Accounts without a screen name (they go by their username) are many. (An empty
one is no screen name either, but Django's exact-case uniqueness, which stays, lets one account have it.)"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from poker_site.accounts.models import User, violates_screen_name_uniqueness
from tests.accounts.support import player

pytestmark = pytest.mark.django_db


def named(username: str, screen_name: str | None) -> User:
    account = player(username)
    account.screen_name = screen_name
    account.save(update_fields=["screen_name"])
    return account


@pytest.mark.parametrize("second", ["Ace", "ACE", "ace"])
def test_the_database_refuses_a_screen_name_another_account_goes_by_in_any_case(second: str) -> None:
    named("pat", "Ace")

    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        named("olga", second)

    assert violates_screen_name_uniqueness(refused.value)
    assert list(User.objects.exclude(screen_name=None).values_list("screen_name", flat=True)) == ["Ace"]


def test_accounts_without_a_screen_name_are_many() -> None:
    named("pat", None)
    named("olga", None)
    named("sven", None)
    named("ida", "")  # an empty screen name (the forms save none) is nobody's either

    assert User.objects.count() == 4
