"""The demo bots' money comes from the demo bankroll through the ledger, and only demo bots get it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.bots.demo_life import demo_bots_ensure
from wallet.errors import InvalidTransfer
from wallet.models import AccountKind
from wallet.services.accounts import balance_of, player_cash_account, system_account
from wallet.services.demo_bankroll import demo_bot_fund

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def demo_bots_on(settings: Any) -> None:
    settings.DEMO_BOTS = True


def test_a_demo_bot_is_topped_up_to_the_target_in_one_transfer_and_the_bankroll_pays() -> None:
    bot = demo_bots_ensure(1)[0]

    transfer = demo_bot_fund(bot, 5_000)

    assert transfer is not None
    assert balance_of(player_cash_account(bot)) == 5_000
    assert balance_of(system_account(AccountKind.DEMO_BANKROLL)) == -5_000
    assert sorted(leg.amount for leg in transfer.legs.all()) == [-5_000, 5_000]


def test_a_bot_with_enough_money_is_not_funded_and_a_later_shortfall_is_a_new_transfer() -> None:
    bot = demo_bots_ensure(1)[0]
    first = demo_bot_fund(bot, 5_000)

    assert demo_bot_fund(bot, 5_000) is None
    assert demo_bot_fund(bot, 4_000) is None
    second = demo_bot_fund(bot, 7_500)

    assert first is not None
    assert second is not None
    assert second.pk != first.pk
    assert balance_of(player_cash_account(bot)) == 7_500


def test_a_person_is_never_funded_even_with_a_demo_bot_name() -> None:
    person = get_user_model().objects.create_user("demobot777", password="a long password 123")

    with pytest.raises(InvalidTransfer, match="not a demo bot"):
        demo_bot_fund(person, 5_000)

    assert balance_of(player_cash_account(person)) == 0


def test_demo_bot_accounts_pass_over_a_name_a_person_took() -> None:
    get_user_model().objects.create_user("demobot002", password="a long password 123")

    bots = demo_bots_ensure(3)

    assert [bot.username for bot in bots] == ["demobot001", "demobot003"]
    assert not any(bot.has_usable_password() for bot in bots)


def test_nothing_is_funded_while_demo_bots_are_off(settings: Any) -> None:
    bot = demo_bots_ensure(1)[0]
    settings.DEMO_BOTS = False

    with pytest.raises(InvalidTransfer, match="Demo bots are off"):
        demo_bot_fund(bot, 5_000)


@pytest.mark.parametrize("target", [0, -100, 2.5, "100", True])
def test_a_target_that_is_not_a_positive_whole_number_of_cents_is_refused(target: object) -> None:
    bot = demo_bots_ensure(1)[0]

    with pytest.raises(InvalidTransfer):
        demo_bot_fund(bot, target)  # type: ignore[arg-type]
