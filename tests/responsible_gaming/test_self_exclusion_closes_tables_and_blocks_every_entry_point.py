"""Self-exclusion: confirmed by the player, in force at once for the chosen period. It leaves the player's cash
tables (the stack back to the cash balance; a player in a hand folds and leaves when it ends), their stake queue and
UTH seats (bets in the betting time returned), unregisters them from tournaments that have not started with the refund
and withdraws their waiting HexaPro registrations, each through the games' own services; it then refuses deposits,
sitting down, queueing, registering and UTH bets with a clear message, cannot be started twice or undone, and
withdrawals stay possible. When it ends, play is allowed again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Seat, SeatingRequest, SeatingRequestStatus, TableSession
from games.runtime.errors import SelfExcluded as TableSelfExcluded
from games.services import seat_take, table_join_queue
from games.uth.errors import SelfExcluded as UthSelfExcluded
from games.uth.models import UthHand, UthSeat, UthTable
from games.uth.services import uth_bet_place, uth_seat_take
from games.uth.ticks import advance_uth_tables
from poker_site.responsible_gaming.models import SelfExclusion
from poker_site.responsible_gaming.services import (
    ResponsibleGamingError,
    SelfExcluded,
    play_refusal,
    self_exclusion_active,
    self_exclusion_start,
)
from tests.tables.support import (
    START,
    acting_user,
    cash,
    deal,
    fold_to_the_end,
    open_table,
    player,
    seat_players,
    stake,
)
from tests.tournaments.hexapro_support import register as hexapro_register
from tests.tournaments.support import register_players, scheduled, sit_and_go
from tests.wallet.conftest import ledger_row_counts, new_key
from tournaments.hexapro.models import HexaProRegistration, RegistrationStatus
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.services import tournament_register
from tournaments.services.errors import SelfExcluded as TournamentSelfExcluded
from wallet.errors import DepositRefused
from wallet.models import AuditEntry
from wallet.services import deposit_create, withdrawal_create

pytestmark = pytest.mark.django_db

EXCLUDED_AT = START + timedelta(minutes=1)


def uth_table() -> UthTable:
    return UthTable.objects.create(
        name="UTH",
        ante_minimum=100,
        ante_maximum=10_000,
        trips_minimum=100,
        trips_maximum=2_500,
        chip_values=[100, 500, 2500],
        betting_seconds=600,
        decision_seconds=10,
        result_seconds=6,
        next_round_at=START,
    )


def test_self_exclusion_leaves_every_table_queue_and_unstarted_tournament_and_the_money_comes_back() -> None:
    user = player(cash=100_000)
    cash_table = open_table(now=START)
    seat_players(cash_table, [user], 1_000, now=START)
    table_join_queue(user, stake("holdem", "NL25"), 2_000, now=START)  # alone in the queue: waiting
    tournament = scheduled(starts_at=START + timedelta(hours=2))
    tournament_register(user, tournament, now=START)
    hexapro_register(user, 1_000, now=START)
    table = uth_table()
    uth_seat_take(user, table.pk, now=START)
    advance_uth_tables(START)  # the betting time opens
    uth_bet_place(user, table.pk, "ante", 500, now=START + timedelta(seconds=1))
    assert cash(user) < 100_000

    result = self_exclusion_start(user, "7d", confirmed=True, now=EXCLUDED_AT)

    assert result.not_closed == []
    assert not Seat.objects.filter(user=user).exists()
    assert not SeatingRequest.objects.filter(user=user, status=SeatingRequestStatus.WAITING).exists()
    assert TournamentEntry.objects.get(user=user).status == EntryStatus.UNREGISTERED
    assert HexaProRegistration.objects.get(user=user).status == RegistrationStatus.WITHDRAWN
    assert UthSeat.objects.get(player=user).left_at == EXCLUDED_AT
    assert UthHand.objects.get(player=user).stake == 0
    assert cash(user) == 100_000  # every cent back: stack, buy-in and fee, HexaPro buy-in, UTH bets
    exclusion = result.exclusion
    assert (exclusion.started_at, exclusion.ends_at) == (EXCLUDED_AT, EXCLUDED_AT + timedelta(days=7))
    audit = AuditEntry.objects.get(action="self_exclusion_tables_closed", player=user)
    assert len(audit.details["closed"]) == 5


def test_a_player_in_a_hand_leaves_when_the_hand_ends_with_the_stack_back() -> None:
    users = [player(cash=10_000) for _ in range(3)]
    table = open_table(now=START)
    seat_players(table, users, 1_000, now=START)
    deal(table, now=START)
    leaving = next(user for user in users if user != acting_user(table))
    self_exclusion_start(leaving, "24h", confirmed=True, now=EXCLUDED_AT)
    assert Seat.objects.get(user=leaving).leave_after_hand  # folds when the turn comes, leaves when the hand ends
    fold_to_the_end(table, now=EXCLUDED_AT)
    assert not Seat.objects.filter(user=leaving).exists()
    session = TableSession.objects.get(user=leaving)
    assert session.ended_at is not None
    assert session.account.balance == 0  # the whole stack went back to the cash balance
    assert 9_000 < cash(leaving) <= 10_000 + 2_000


def test_every_entry_point_refuses_a_self_excluded_player_with_a_clear_message() -> None:
    user = player(cash=100_000)
    table = open_table(now=START)
    tournament = scheduled(starts_at=START + timedelta(hours=2))
    uth = uth_table()
    self_exclusion_start(user, "30d", confirmed=True, now=EXCLUDED_AT)
    later = EXCLUDED_AT + timedelta(days=29)
    before = ledger_row_counts()

    with pytest.raises(TableSelfExcluded, match=r"You cannot sit down: you have excluded yourself until 2026-04-01"):
        seat_take(user, table, 1_000, now=later)
    with pytest.raises(TableSelfExcluded, match="You cannot join a table"):
        table_join_queue(user, stake("holdem", "NL10"), 1_000, now=later)
    with pytest.raises(TournamentSelfExcluded, match="You cannot register for tournaments"):
        tournament_register(user, tournament, now=later)
    with pytest.raises(TournamentSelfExcluded, match="You cannot register for HexaPro games"):
        hexapro_register(user, 1_000, now=later)
    with pytest.raises(UthSelfExcluded, match="You cannot take a seat"):
        uth_seat_take(user, uth.pk, now=later)

    assert ledger_row_counts() == before
    assert not Seat.objects.filter(user=user).exists()
    assert not SeatingRequest.objects.filter(user=user).exists()
    assert not TournamentEntry.objects.filter(user=user).exists()
    assert not HexaProRegistration.objects.filter(user=user).exists()
    assert not UthSeat.objects.filter(player=user).exists()


def test_a_uth_bet_is_refused_when_the_player_kept_a_seat_somehow() -> None:
    user = player(cash=100_000)
    table = uth_table()
    uth_seat_take(user, table.pk, now=START)
    advance_uth_tables(START)
    SelfExclusion.objects.create(user=user, period="24h", started_at=START, ends_at=START + timedelta(hours=24))
    with pytest.raises(UthSelfExcluded, match="You cannot bet: you have excluded yourself until"):
        uth_bet_place(user, table.pk, "ante", 500, now=START + timedelta(seconds=1))
    assert not UthHand.objects.filter(player=user).exists()
    assert cash(user) == 100_000


def test_deposits_are_refused_and_withdrawals_remain_possible() -> None:
    user = player(cash=5_000)
    self_exclusion_start(user, "permanent", confirmed=True)
    before = ledger_row_counts()
    with pytest.raises(DepositRefused, match="You cannot deposit: you have excluded yourself permanently"):
        deposit_create(user, 2_000, "bank-1", new_key())
    assert ledger_row_counts() == before
    withdrawal = withdrawal_create(user, 2_000, new_key())
    assert withdrawal.status == "completed"
    assert cash(user) == 3_000


def test_it_needs_the_players_confirmation_and_a_known_period() -> None:
    user = player(cash=0)
    with pytest.raises(ResponsibleGamingError, match="Confirm that you want to exclude yourself"):
        self_exclusion_start(user, "7d", confirmed=False, now=START)
    with pytest.raises(ResponsibleGamingError, match="Confirm"):
        self_exclusion_start(user, "7d", confirmed="yes", now=START)
    with pytest.raises(ResponsibleGamingError, match=r"Choose a self-exclusion period\."):
        self_exclusion_start(user, "1y", confirmed=True, now=START)
    assert not SelfExclusion.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="self_exclusion").exists()


def test_it_cannot_be_started_again_or_shortened_while_in_force() -> None:
    user = player(cash=0)
    self_exclusion_start(user, "6m", confirmed=True, now=START)
    with pytest.raises(SelfExcluded, match="You are already excluded: you have excluded yourself until 2026-09-01"):
        self_exclusion_start(user, "24h", confirmed=True, now=START + timedelta(days=1))
    assert SelfExclusion.objects.filter(user=user).count() == 1


def test_play_is_allowed_again_when_it_ends() -> None:
    user = player(cash=10_000)
    self_exclusion_start(user, "24h", confirmed=True, now=START)
    assert self_exclusion_active(user.pk, START + timedelta(hours=23, minutes=59)) is not None
    assert play_refusal(user.pk, at=START + timedelta(hours=24)) is None
    table = open_table(now=START)
    seat_take(user, table, 1_000, now=START + timedelta(hours=24))
    assert Seat.objects.filter(user=user).exists()


def test_a_permanent_exclusion_never_ends() -> None:
    user = player(cash=0)
    self_exclusion_start(user, "permanent", confirmed=True, now=START)
    assert SelfExclusion.objects.get(user=user).ends_at is None
    assert self_exclusion_active(user.pk, timezone.now() + timedelta(days=36_500)) is not None


def test_a_started_tournament_keeps_the_entry_and_the_player_is_told() -> None:
    tournament = sit_and_go(3)
    users = register_players(tournament, 3, now=START)
    result = self_exclusion_start(users[0], "7d", confirmed=True, now=EXCLUDED_AT)
    assert result.not_closed == ["Sit & Go 3 has started: your entry stays in play."]
    assert TournamentEntry.objects.get(user=users[0]).status == EntryStatus.PLAYING
