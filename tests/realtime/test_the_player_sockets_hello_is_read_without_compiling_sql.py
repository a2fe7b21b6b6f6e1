"""Issue 27: every page a player opens opens a player socket, whose ``hello`` reads the player's tournament seats and
cash balance (a Sit & Go's six players open theirs as their game forms). Both readings are compiled once per process
(``poker_site.core.prepared_queries``): a warm process builds no SQL with the ORM's compiler, and the ``hello`` says
what the ORM's queries say (LOB-05: the seat a player is called to; the header's balance)."""

from __future__ import annotations

import random

import pytest

from tests.compilations import compilations_counted
from tests.tables.support import cash, player
from tests.tournaments.support import START, open_tables, sit_and_go
from tournaments.player_socket import player_hello
from tournaments.services import tournament_register

pytestmark = pytest.mark.django_db


def test_a_warm_process_reads_a_players_hello_without_compiling_sql(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = sit_and_go(seats=2)
    seated, other, stranger = player(), player(), player(cash=12_345)
    for index, user in enumerate((seated, other)):
        tournament_register(user, tournament, now=START, randomness=random.Random(index))
    (table,) = open_tables(tournament)
    player_hello(stranger.pk)  # the process's first socket compiles
    compiled = compilations_counted(monkeypatch)

    hello = player_hello(seated.pk, now=START)
    nobody = player_hello(stranger.pk, now=START)
    without_account = player_hello(seated.pk + other.pk + stranger.pk + 1_000, now=START)

    assert compiled == []
    (seat,) = hello["seats"]
    assert (seat["table_id"], seat["tournament_id"], seat["tournament_kind"]) == (table.pk, tournament.pk, "sit_and_go")
    assert seat["tournament_name"] == tournament.name
    assert hello["balance_cents"] == cash(seated)
    assert nobody == {"type": "hello", "seats": [], "balance_cents": 12_345}
    assert without_account == {"type": "hello", "seats": [], "balance_cents": 0}
