"""Demo data: the stakes and a few open tables per game type, idempotent (``manage.py seed_demo``)."""

from __future__ import annotations

import pytest

from games.demo import seed_demo
from games.models import GameType, Table, TableStatus

pytestmark = pytest.mark.django_db


def test_seed_demo_opens_tables_for_every_game_type_and_can_run_again() -> None:
    messages: list[str] = []
    seed_demo(messages.append)
    first = Table.objects.count()
    for game_type in GameType.objects.all():
        assert Table.objects.filter(stake__game_type=game_type, status=TableStatus.OPEN).exists()
    seed_demo(messages.append)
    assert Table.objects.count() == first
    assert "0 demo tables opened" in messages[-1]
