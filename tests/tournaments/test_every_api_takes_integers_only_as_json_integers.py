"""Every REST body that takes an integer takes it as a JSON integer only (docs/protocol.md): the text ``"2"``, the
float ``2.0`` and the boolean ``true`` are refused with 400 ``invalid`` and change nothing, and so is a value out of
the field's range (issue 25: the tournament and HexaPro APIs turned ``"2"`` and ``2.0`` into 2). One field does it,
:class:`poker_site.core.strict_input.StrictIntegerField`, used by the tournament registration (``ticket``, ``buy_in``,
TRN-37, TRN-38), the HexaPro registration (``buy_in``, ``games``, HEX-03) and the cash queue (``buy_in``, CASH-04)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import SeatingRequest, Stake
from tests.tables.conftest import catalogue  # noqa: F401 (autouse: the cash tables' catalogue)
from tests.tournaments.support import cash, player, scheduled
from tournaments.hexapro.models import HexaProRegistration
from tournaments.models import TournamentEntry
from wallet.models import Transfer

pytestmark = pytest.mark.django_db

NOT_JSON_INTEGERS = ["2", "1000", 2.0, 1000.0, True, "1e3"]
OUT_OF_RANGE = [2**64, -(2**64)]


def post(client: Client, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, body, content_type="application/json")


def nothing_bought() -> tuple[int, int, int, int]:
    return (
        Transfer.objects.count(),
        TournamentEntry.objects.count(),
        HexaProRegistration.objects.count(),
        SeatingRequest.objects.count(),
    )


def endpoints() -> dict[str, tuple[str, dict[str, Any], str]]:
    """Each endpoint's path, a body that would be accepted, and the integer field tried with bad values."""
    tournament = scheduled(buy_in=1_000, fee=100)
    stake = Stake.objects.filter(game_type__code="holdem", label="NL4").first()  # buy-in €2.00 to €4.00
    assert stake is not None
    return {
        "tournament ticket": (f"/api/tournaments/{tournament.pk}/registration/", {}, "ticket"),
        "tournament buy-in": (f"/api/tournaments/{tournament.pk}/registration/", {}, "buy_in"),
        "hexapro buy-in": (
            "/api/tournaments/hexapro/registrations/",
            {"product": "hexapro", "buy_in": 1_000, "games": 1},
            "buy_in",
        ),
        "hexapro games": (
            "/api/tournaments/hexapro/registrations/",
            {"product": "hexapro", "buy_in": 1_000, "games": 1},
            "games",
        ),
        "cash queue buy-in": (f"/api/games/stakes/{stake.pk}/queue/", {"buy_in": 400}, "buy_in"),
    }


ENDPOINTS = ["tournament ticket", "tournament buy-in", "hexapro buy-in", "hexapro games", "cash queue buy-in"]


@pytest.mark.parametrize("value", NOT_JSON_INTEGERS + OUT_OF_RANGE, ids=repr)
@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_an_integer_field_refuses_anything_but_a_json_integer_in_range(endpoint: str, value: Any) -> None:
    path, body, field = endpoints()[endpoint]
    user = player(cash=100_000)
    client = Client()
    client.force_login(user)
    before = nothing_bought()

    response = post(client, path, {**body, field: value})

    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert field in response.json()["errors"]
    assert nothing_bought() == before
    assert cash(user) == 100_000


@pytest.mark.parametrize("endpoint", ["hexapro games", "cash queue buy-in"])
def test_the_same_value_as_a_json_integer_is_taken(endpoint: str) -> None:
    path, body, _ = endpoints()[endpoint]
    client = Client()
    client.force_login(player(cash=100_000))

    assert post(client, path, body).status_code == 200
