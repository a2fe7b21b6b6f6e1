"""HEX-16 at a HexaPro table: the normal decision time (10 s) then 20 s more for a disconnected player, no extra
final-stage time (the whole game is one table); a player sitting out is dealt in and acted for; two or more players
sitting out by choice at once is flagged for review in the audit trail, once per game."""

from __future__ import annotations

import pytest

from games.engine.state import HandState
from games.runtime.sitting_out import seat_sit_out
from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.support import START, fresh, open_tables, play
from tournaments.models import TournamentEntry
from tournaments.table_policy import SITTING_OUT_TOGETHER, tournament_table_rules
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def check_or_fold(state: HandState, seat: int) -> tuple[str, int | None]:
    legal = state.legal_actions()
    assert legal is not None
    return ("check", None) if "check" in legal.kinds else ("fold", None)


def test_hex_16_a_disconnected_player_gets_the_decision_time_and_20_seconds_more() -> None:
    _users, game = three_players_register(1_000, multiplier=30)
    rules = tournament_table_rules(fresh(game.tournament))
    assert rules.decision_seconds == 10
    assert rules.reconnect_grace_seconds == 20


def test_hex_16_two_players_sitting_out_by_choice_are_flagged_once() -> None:
    users, game = three_players_register(1_000, multiplier=30)
    (table,) = open_tables(game.tournament)
    seat_sit_out(users[0], table, now=START)
    play(game.tournament, policy=check_or_fold, until=lambda current: table.hands.count() >= 2)
    assert not AuditEntry.objects.filter(action=SITTING_OUT_TOGETHER).exists()  # one player alone may sit out
    seat_sit_out(users[1], table, now=START)
    play(game.tournament)
    (flag,) = AuditEntry.objects.filter(action=SITTING_OUT_TOGETHER)
    assert flag.details["tournament"] == game.pk
    assert sorted(flag.details["players"]) == sorted([users[0].pk, users[1].pk])
    # Sitting out, they were dealt in and acted for until the game ended.
    assert TournamentEntry.objects.filter(tournament=game.tournament, place__isnull=False).count() == 3
