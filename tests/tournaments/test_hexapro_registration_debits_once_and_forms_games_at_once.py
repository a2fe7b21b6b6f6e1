"""Registering HexaPro games (HEX-03): one PLAY of N games is one debit of the total into the holding account; three
waiting registrations at one buy-in form a game at once, a player's several registrations never in one game (HEX-04);
a waiting registration can be withdrawn and refunded (a decision: the catalog is silent)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.tournaments.hexapro_support import holding_balance, register
from tests.tournaments.support import cash, player
from tournaments.hexapro.models import HexaProGame, HexaProRegistration, RegistrationStatus
from tournaments.hexapro.registration import hexapro_withdraw
from tournaments.models import TournamentEntry, TournamentStatus
from tournaments.services import NotAllowedNow, NotRegistered
from wallet.models import AccountKind

pytestmark = pytest.mark.django_db


def test_hex_03_five_games_are_one_debit_of_the_total_buy_in() -> None:
    user = player(cash=10_000)
    result = register(user, 1_000, games=5)
    assert result.total_cents == 5_000
    assert cash(user) == 5_000
    assert len(result.registrations) == 5
    assert {row.registration_transfer_id for row in result.registrations} == {
        result.registrations[0].registration_transfer_id
    }
    legs = {
        leg.account.kind: leg.amount
        for leg in result.registrations[0].registration_transfer.legs.select_related("account")
    }
    assert legs == {AccountKind.PLAYER_CASH: -5_000, AccountKind.TOURNAMENT_PRIZE_POOL: 5_000}
    assert holding_balance("hexapro", 1_000) == 5_000
    assert result.games == ()
    assert all(row.status == RegistrationStatus.WAITING for row in result.registrations)


def test_hex_04_the_third_player_at_a_buy_in_forms_a_game_at_once() -> None:
    first, second, third = player(), player(), player()
    register(first, 500)
    register(second, 500)
    register(player(), 1_000)  # another buy-in: never in the same game
    result = register(third, 500)
    (game,) = result.games
    assert game.tournament.status == TournamentStatus.RUNNING
    assert set(TournamentEntry.objects.filter(tournament=game.tournament).values_list("user_id", flat=True)) == {
        first.pk,
        second.pk,
        third.pk,
    }
    assert holding_balance("hexapro", 500) == 0
    assert holding_balance("hexapro", 1_000) == 1_000


def test_hex_04_a_players_several_games_never_meet_and_everyone_plays_them_all() -> None:
    """Three players register 4, 4 and 4 games: four games, each with all three of them."""
    players = [player(cash=100_000) for _ in range(3)]
    for user in players:
        register(user, 200, games=4)
    games = list(HexaProGame.objects.filter(buy_in_cents=200))
    assert len(games) == 4
    for game in games:
        seated = list(TournamentEntry.objects.filter(tournament=game.tournament).values_list("user_id", flat=True))
        assert sorted(seated) == sorted(user.pk for user in players)
    assert not HexaProRegistration.objects.filter(status=RegistrationStatus.WAITING).exists()
    call_command("wallet_reconcile")


def test_hex_04_a_players_surplus_registrations_wait_without_holding_up_others() -> None:
    """A player with 3 waiting games and two others with one each: one game forms, two of the first player's wait."""
    many, one, other = player(), player(), player()
    register(many, 100, games=3)
    register(one, 100)
    (game,) = register(other, 100).games
    waiting = HexaProRegistration.objects.filter(status=RegistrationStatus.WAITING)
    assert list(waiting.values_list("user_id", flat=True)) == [many.pk, many.pk]
    assert HexaProRegistration.objects.filter(game=game).count() == 3


def test_a_waiting_registration_is_withdrawn_with_its_buy_in_refunded() -> None:
    user = player(cash=10_000)
    registration = register(user, 2_500, games=2).registrations[0]
    withdrawn = hexapro_withdraw(user, registration.pk)
    assert withdrawn.status == RegistrationStatus.WITHDRAWN
    assert cash(user) == 10_000 - 2_500
    assert holding_balance("hexapro", 2_500) == 2_500
    with pytest.raises(NotAllowedNow, match="already withdrawn"):
        hexapro_withdraw(user, registration.pk)
    with pytest.raises(NotRegistered):
        hexapro_withdraw(player(), registration.pk)


def test_a_registration_in_a_game_cannot_be_withdrawn() -> None:
    users = [player() for _ in range(3)]
    registrations = [register(user, 100).registrations[0] for user in users]
    with pytest.raises(NotAllowedNow, match="already in a game"):
        hexapro_withdraw(users[0], registrations[0].pk)
    assert cash(users[0]) == 100_000 - 100
