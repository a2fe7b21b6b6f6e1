"""A NUL character anywhere in a request's path or query string is a clear 400, not a database error and a 500:
PostgreSQL text cannot hold NUL, and UTH game numbers, admin searches and lobby filters all reach it as text (the
hardening issue, item 6: ``/api/uth/rounds/%00/`` was a 500)."""

from __future__ import annotations

import pytest
from django.test import Client

from poker_site.accounts.models import User
from poker_site.core.middleware import NUL_MESSAGE

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def player_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("player", "p@example.com", "a-long-enough-passphrase-42"))
    return client


@pytest.mark.parametrize(
    "address",
    [
        "/api/uth/rounds/%00/",
        "/api/uth/rounds/T1-20260301-211010-1%00/",
        "/api/uth/history/?limit=%00",
        "/api/games/tables/?game=%00",
        "/api/games/tables/?stake=NL10%00",
        "/api/games/tables/?%00=holdem",
        "/api/wallet/transactions/?cursor=%00",
    ],
)
def test_an_api_address_with_a_nul_character_is_refused_in_the_apis_error_shape(
    player_client: Client, address: str
) -> None:
    response = player_client.get(address)
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "message": NUL_MESSAGE}


@pytest.mark.parametrize("address", ["/rules/%00/", "/games/hands/?page=%00", "/wallet/?before=%00", "/uth/%00/"])
def test_a_page_address_with_a_nul_character_is_refused_in_words(player_client: Client, address: str) -> None:
    response = player_client.get(address)
    assert response.status_code == 400
    assert response.content.decode() == NUL_MESSAGE


@pytest.mark.parametrize("changelist", ["/admin/uth/uthround/", "/admin/accounts/user/", "/admin/wallet/account/"])
def test_an_admin_search_for_a_nul_character_is_refused(client: Client, changelist: str) -> None:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "a-long-enough-passphrase-42"))
    assert client.get(changelist, {"q": "\x00"}).status_code == 400
    assert client.get(changelist, {"q": "ordinary"}).status_code == 200


def test_a_game_number_that_does_not_exist_is_still_a_404(player_client: Client) -> None:
    response = player_client.get("/api/uth/rounds/no-such-game/")
    assert response.status_code == 404
