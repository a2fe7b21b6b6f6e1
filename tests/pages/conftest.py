"""Fixtures for the page tests: the stake catalogue, quiet realtime publishing, players and a heads-up table."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from games.models import Stake, Table
from games.services import seed_stakes, table_open

PASSWORD = "a-long-enough-passphrase-42"


@pytest.fixture(autouse=True)
def quiet_realtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """Page tests read what the services committed; they do not need the live fan-out."""
    from games.runtime import realtime

    monkeypatch.setattr(realtime, "table_events_committed", lambda *args: None)
    monkeypatch.setattr(realtime, "lobby_table_changed", lambda *args: None)


@pytest.fixture
def make_player(transactional_db: Any) -> Callable[..., Any]:
    from django.contrib.auth import get_user_model

    from wallet.services import deposit_through_provider

    def make(username: str, cash_cents: int = 5000) -> Any:
        user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD)
        if cash_cents:
            deposit_through_provider(user, cash_cents, f"page-test-{uuid.uuid4().hex}")
        return user

    return make


@pytest.fixture
def heads_up_table(transactional_db: Any) -> Table:
    """A Hold'em NL10 table whose rules deal two players (back-office data)."""
    seed_stakes()
    stake = Stake.objects.select_related("game_type").get(game_type__code="holdem", label="NL10")
    rules = stake.game_type.rules_at()
    rules.pk = None
    rules.effective_from = timezone.now()
    rules.minimum_players_to_start = 2
    rules.continue_heads_up = True
    rules.save()
    return table_open(stake)


def deal(table: Table, seed: int = 7) -> Any:
    from games.services import hand_start

    hand = hand_start(table, shuffler=random.Random(seed))
    assert hand is not None
    return hand
