"""player_cash_accounts_lock locks several players' cash accounts in one query, in primary-key order (a hand's auto
top-ups decide their amounts from these balances before the transfers move them)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext

from poker_site.accounts.models import User
from wallet.models import Account, AccountKind
from wallet.services import player_cash_account, player_cash_accounts_lock


def test_the_accounts_come_back_by_user_id_locked_in_primary_key_order_by_one_query(
    make_player: Callable[..., User],
) -> None:
    players = [make_player(f"p{number}", 1_000 * number) for number in range(1, 4)]

    with CaptureQueriesContext(connection) as captured:
        accounts = player_cash_accounts_lock(list(reversed(players)))

    assert len(captured.captured_queries) == 1
    statement = captured.captured_queries[0]["sql"]
    assert statement.endswith('ORDER BY "wallet_account"."id" ASC FOR UPDATE'), statement
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

    accounts = player_cash_accounts_lock([funded, newcomer])

    assert accounts[newcomer.pk] == player_cash_account(newcomer)
    assert accounts[newcomer.pk].balance == 0
    assert accounts[funded.pk].balance == 500


def test_no_players_need_no_query(db: None) -> None:
    with CaptureQueriesContext(connection) as captured:
        assert player_cash_accounts_lock([]) == {}

    assert captured.captured_queries == []
