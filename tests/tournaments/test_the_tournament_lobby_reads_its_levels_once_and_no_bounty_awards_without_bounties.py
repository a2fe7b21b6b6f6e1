"""The Specific Tournament Lobby (LOB-03, ``GET /api/tournaments/<id>/``) is what a waiting player's page polls every
few seconds, so its reads are counted: the levels are read once (the structure shown and the current level's clock
come from the same rows), a tournament without bounties reads no bounty awards (TRN-41..TRN-43) for its entrants or
for the viewer, and a bounty tournament reads them once for both. The current level it shows is the level clock's, as
before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from tests.tournaments.bounty_support import bounty_sit_and_go
from tests.tournaments.support import register_players, sit_and_go

pytestmark = pytest.mark.django_db


def statements_of(call: Callable[[], Any]) -> tuple[Any, list[str]]:
    seen: list[str] = []

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connections["default"].execute_wrapper(wrapper):
        result = call()
    return result, seen


def test_a_running_sit_and_go_lobby_reads_its_levels_once_and_no_bounty_awards(client: Any) -> None:
    tournament = sit_and_go(6)
    users = register_players(tournament, 6)  # the sixth registration starts it
    client.force_login(users[0])

    response, seen = statements_of(lambda: client.get(f"/api/tournaments/{tournament.pk}/"))

    assert response.status_code == 200
    detail = response.json()
    assert detail["status"] == "running"
    assert detail["viewer"]["bounties_won"] == 0
    assert all(row["bounties_won"] == 0 for row in detail["entrants_list"])
    current = detail["current_level"]  # the clock's level (the tournament started at the fixtures' moment)
    listed = detail["levels"][current["level"] - 1]
    assert listed["level"] == current["level"]
    assert (current["small_blind"], current["big_blind"], current["ante"]) == (
        listed["small_blind"],
        listed["big_blind"],
        listed["ante"],
    )
    assert sum('FROM "tournaments_tournamentlevel"' in sql for sql in seen) == 1
    assert not any('FROM "tournaments_tournamentbountyaward"' in sql for sql in seen)


def test_a_bounty_sit_and_go_lobby_reads_its_bounty_awards_once_for_the_entrants_and_the_viewer(client: Any) -> None:
    tournament = bounty_sit_and_go(3)
    users = register_players(tournament, 3)
    client.force_login(users[0])

    response, seen = statements_of(lambda: client.get(f"/api/tournaments/{tournament.pk}/"))

    assert response.status_code == 200
    detail = response.json()
    assert detail["viewer"]["bounties_won"] == 0
    assert all(row["bounties_won"] == 0 for row in detail["entrants_list"])
    assert sum('FROM "tournaments_tournamentbountyaward"' in sql for sql in seen) == 1
