"""player_cash_accounts reads several players' cash accounts in one query (a hand's auto top-ups use it)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext

from poker_site.accounts.models import User
from wallet.models import Account, AccountKind
from wallet.services import player_cash_account, player_cash_accounts


def test_the_accounts_of_players_who_have_them_come_back_by_user_id_in_one_query(
    make_player: Callable[..., User],
) -> None:
    players = [make_player(f"p{number}", 1_000 * number) for number in range(1, 4)]

    with CaptureQueriesContext(connection) as captured:
        accounts = player_cash_accounts(players)

    assert len(captured.captured_queries) == 1
    assert {user_id: account.pk for user_id, account in accounts.items()} == {
        player.pk: player_cash_account(player).pk for player in players
    }
    assert [accounts[player.pk].balance for player in players] == [1_000, 2_000, 3_000]


def test_a_player_without_a_cash_account_gets_one_as_player_cash_account_would_give(
    make_player: Callable[..., User],
) -> None:
    funded = make_player("funded", 500)
    newcomer = User.objects.create_user(username="newcomer", password="x")
    assert not Account.objects.filter(kind=AccountKind.PLAYER_CASH, owner=newcomer).exists()

    accounts = player_cash_accounts([funded, newcomer])

    assert accounts[newcomer.pk] == player_cash_account(newcomer)
    assert accounts[newcomer.pk].balance == 0
    assert accounts[funded.pk].balance == 500


def test_no_players_need_no_query(db: None) -> None:
    with CaptureQueriesContext(connection) as captured:
        assert player_cash_accounts([]) == {}

    assert captured.captured_queries == []
