"""A JSON body nested deeper than the decoder's recursion allows (``'{"a":' * 5000``, issue 25) is a bad request like
any other unreadable JSON: 400 from every REST endpoint (cashier, tournaments, HexaPro, tables, compliance reports).
It used to be a 500 (a RecursionError in DRF's parser). The sockets' side is
tests/realtime/test_deeply_nested_json_is_a_bad_request_everywhere.py."""

from __future__ import annotations

import pytest
from django.test import Client

from poker_site.accounts.models import User

pytestmark = pytest.mark.django_db

ISSUE_BODY = '{"a":' * 5000
DEEP_ARRAY = "[" * 4000


@pytest.mark.parametrize(
    "path",
    [
        "/api/wallet/deposits/",
        "/api/wallet/withdrawals/",
        "/api/tournaments/hexapro/registrations/",
        "/api/games/stakes/1/queue/",
        "/api/compliance/program-reports/",
    ],
)
@pytest.mark.parametrize("body", [ISSUE_BODY, DEEP_ARRAY], ids=["issue-body", "deep-array"])
def test_a_rest_endpoint_answers_a_deeply_nested_body_with_400(path: str, body: str) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("mallory", password=None))

    response = client.post(
        path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="3f6c1d0e-nested-json-test"
    )

    assert response.status_code == 400, response.content[:300]
    assert "nested too deeply" in response.content.decode()
