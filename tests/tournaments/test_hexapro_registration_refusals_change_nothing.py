"""Bad HexaPro registrations (the issue's "Bad input"): too little balance for the number of games, zero, negative,
absurd or non-integer game counts, a buy-in that is not offered, a product that does not exist — a clear error and
nothing changed (no transfer, no registration, no game); acting in a game one was eliminated from is refused too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.hexapro_support import register
from tests.tournaments.support import cash, player
from tournaments.hexapro.models import HexaProGame, HexaProRegistration
from tournaments.hexapro.registration import hexapro_register
from tournaments.services import InsufficientBalance, TournamentError
from tournaments.services.errors import InvalidRequest
from wallet.models import Transfer

pytestmark = pytest.mark.django_db


def nothing_changed(user: Any, balance: int, transfers: int) -> None:
    assert cash(user) == balance
    assert Transfer.objects.count() == transfers
    assert not HexaProRegistration.objects.exists()
    assert not HexaProGame.objects.exists()


def test_too_little_balance_for_the_number_of_games_is_refused() -> None:
    user = player(cash=2_999)
    transfers = Transfer.objects.count()
    with pytest.raises(InsufficientBalance, match=r"3 × €10.00 = €30.00 is more than the balance of €29.99"):
        register(user, 1_000, games=3)
    nothing_changed(user, 2_999, transfers)


@pytest.mark.parametrize(
    ("product", "buy_in", "games", "message"),
    [
        ("hexapro", 1_000, 0, "the number of games is a whole number from 1 to 20, not 0"),
        ("hexapro", 1_000, -2, "not -2"),
        ("hexapro", 1_000, 21, "not 21"),
        ("hexapro", 1_000, 10**12, "not 1000000000000"),
        ("hexapro", 1_000, "3", "not '3'"),
        ("hexapro", 1_000, 1.0, "not 1.0"),
        ("hexapro", 1_000, True, "not True"),
        ("hexapro", 2_000, 1, "HexaPro has no €20.00 buy-in; offered: €1.00, €2.00, €5.00"),
        ("hexapro", 20, 1, "HexaPro has no €0.20 buy-in"),
        ("hexapro_extreme", 2_000, 0, "not 0"),
        ("hexapro", -100, 1, "buy-in (cents)"),
        ("hexapro", "1000", 1, "buy-in (cents)"),
        ("hexapro_banzai", 1_000, 1, "There is no HexaPro product 'hexapro_banzai'"),
        ("", 1_000, 1, "Choose HexaPro or HexaPro Extreme"),
    ],
)
def test_a_bad_request_is_refused_with_a_clear_message(product: Any, buy_in: Any, games: Any, message: str) -> None:
    user = player(cash=100_000)
    transfers = Transfer.objects.count()
    with pytest.raises(InvalidRequest, match=message.replace("(", r"\(").replace(")", r"\)")):
        hexapro_register(user, product, buy_in, games)
    nothing_changed(user, 100_000, transfers)


def test_every_refusal_is_a_tournament_error_with_a_code() -> None:
    with pytest.raises(TournamentError) as refused:
        hexapro_register(player(), "hexapro", 1_000, 0)
    assert refused.value.code == "invalid_request"
