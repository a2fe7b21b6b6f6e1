"""The wallet history's cursor position is compared with the integer leg id: a forged cursor whose position is not an
integer (``p=abc``, ``p=1.5``, a NUL character) is an invalid cursor (404), not a database error and a 500."""

from __future__ import annotations

import base64

import pytest
from rest_framework.test import APIClient

from poker_site.accounts.models import User


@pytest.mark.parametrize("position", ["abc", "1.5", "1e3", "\x00"])
def test_a_forged_transactions_cursor_is_a_404_not_a_server_error(alice: User, position: str) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    cursor = base64.b64encode(f"p={position}".encode()).decode()
    response = client.get("/api/wallet/transactions/", {"cursor": cursor})
    assert response.status_code == 404


def test_a_genuine_cursor_still_pages(alice: User) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    first = client.get("/api/wallet/transactions/").json()
    assert first["results"], "alice's funding shows in her history"
    genuine = base64.b64encode(b"p=999999").decode()
    assert client.get("/api/wallet/transactions/", {"cursor": genuine}).status_code == 200
