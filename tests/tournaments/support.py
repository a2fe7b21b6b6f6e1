"""Helpers for the tournament service tests: tournaments to register for, and a driver that plays them through the
services (the ticker's and the beat task's work done in-process at simulated times)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.engine.state import HandState
from games.models import Hand, HandStatus, Table, TableStatus
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act, hand_start
from tests.tables.support import START, cash, player
from tournaments.models import Tournament, TournamentEntry, TournamentKind, TournamentStatus
from tournaments.rules.levels import BlindStructure, structure_from_rows
from tournaments.services import tournament_register, tournaments_advance_all
from tournaments.services.catalog import tournament_create

__all__ = ["START", "cash", "player"]

QUICK_LEVELS = structure_from_rows("quick", 1_000, [(10, 20, 0), (20, 40, 0), (50, 100, 10), (100, 200, 20)], 300)


def sit_and_go(
    seats: int = 3,
    *,
    buy_in: int = 1_000,
    fee: int = 100,
    table_size: int | None = None,
    structure: BlindStructure = QUICK_LEVELS,
    **fields: Any,
) -> Tournament:
    return tournament_create(
        name=f"Sit & Go {seats}",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=seats,
        table_size=table_size or seats,
        buy_in=buy_in,
        fee=fee,
        structure=structure,
        **fields,
    )


def scheduled(
    starts_at: datetime = START + timedelta(minutes=30),
    *,
    buy_in: int = 1_000,
    fee: int = 100,
    table_size: int = 9,
    structure: BlindStructure = QUICK_LEVELS,
    **fields: Any,
) -> Tournament:
    return tournament_create(
        name="Scheduled",
        kind=TournamentKind.SCHEDULED,
        starts_at=starts_at,
        table_size=table_size,
        buy_in=buy_in,
        fee=fee,
        structure=structure,
        **fields,
    )


def register_players(tournament: Tournament, count: int, now: datetime = START, cash_each: int = 100_000) -> list[Any]:
    users = [player(cash=cash_each) for _ in range(count)]
    for user in users:
        tournament_register(user, tournament, now=now, randomness=random.Random(user.pk))
    return users


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def open_tables(tournament: Tournament) -> list[Table]:
    return list(Table.objects.filter(tournament_link__tournament=tournament, status=TableStatus.OPEN).order_by("pk"))


def running_hand(table: Table) -> Hand | None:
    hand = Hand.objects.filter(table=table, status=HandStatus.RUNNING).first()
    return hand


Policy = Callable[[HandState, int], tuple[str, int | None]]


def shove_or_call(state: HandState, seat: int) -> tuple[str, int | None]:
    """All-in pressure: the player to act goes all in (or calls an all-in): hands end fast."""
    legal = state.legal_actions()
    assert legal is not None
    kinds = set(legal.kinds)
    if "all_in" in kinds:
        return "all_in", None
    if "call" in kinds:
        return "call", None
    return "check", None


def one_shove_a_hand(state: HandState, seat: int) -> tuple[str, int | None]:
    """The first player to act goes all in, the big blind calls, everyone else folds: at most one knock-out per hand."""
    legal = state.legal_actions()
    assert legal is not None
    kinds = set(legal.kinds)
    raised = state.current_bet > state.config.big_blind
    if not raised:
        return ("all_in", None) if "all_in" in kinds else ("check", None)
    if seat == state.config.big_blind_seat and "call" in kinds:
        return "call", None
    return ("check", None) if "check" in kinds else ("fold", None)


def fold_at_once(state: HandState, seat: int) -> tuple[str, int | None]:
    return "fold", None


def hand_played(
    table: Table, now: datetime, policy: Callable[[HandState, int], tuple[str, int | None]], seed: int
) -> Hand:
    """One hand dealt at ``table`` (shuffled by ``seed``) and played to its end, every player deciding by ``policy``."""
    hand = hand_start(table, now=now, shuffler=random.Random(seed))
    assert hand is not None
    while hand.status == HandStatus.RUNNING and hand.acting_seat is not None:
        user_id = hand.participants[str(hand.acting_seat)]["user"]
        action, amount = policy(hand_engine_state(hand), hand.acting_seat)
        hand_act(table, get_user_model().objects.get(pk=user_id), action, amount, now=now)
        hand = Hand.objects.get(pk=hand.pk)
    assert hand.status == HandStatus.FINISHED
    return hand


def play(
    tournament: Tournament,
    *,
    until: Callable[[Tournament], bool] | None = None,
    start: datetime = START,
    step: timedelta = timedelta(seconds=3),
    policy: Policy = shove_or_call,
    seed: int = 7,
    limit: int = 5_000,
    after_step: Callable[[Tournament, datetime], None] | None = None,
) -> datetime:
    """Drive the tournament: each step the coordinator runs, every idle table is dealt, and every player to act acts
    by ``policy``; stops when ``until`` holds (default: the tournament is over). Returns the simulated time."""
    chance = random.Random(seed)
    now = start
    players: dict[int, Any] = {}  # the acting users, read once: the services take the user for its id
    done = until or (lambda current: current.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED))
    for _ in range(limit):
        tournaments_advance_all(now=now, randomness=chance)
        current = fresh(tournament)
        if after_step is not None:
            after_step(current, now)
        if done(current):
            return now
        for table in open_tables(current):
            hand = running_hand(table)
            if hand is None:
                hand_start(table, now=now, shuffler=random.Random(chance.random()))
                hand = running_hand(table)
            while hand is not None and hand.status == HandStatus.RUNNING and hand.acting_seat is not None:
                state = hand_engine_state(hand)
                user_id = hand.participants[str(hand.acting_seat)]["user"]
                action, amount = policy(state, hand.acting_seat)
                user = players.get(user_id) or players.setdefault(user_id, get_user_model().objects.get(pk=user_id))
                hand_act(table, user, action, amount, now=now)
                hand = Hand.objects.get(pk=hand.pk)
        now += step
    raise AssertionError(f"the tournament did not get there in {limit} steps")


def unpaid_winner(monkeypatch: pytest.MonkeyPatch) -> TournamentEntry:
    """The winner of a Sit & Go of three (€10 + €1) played to the end, their €30.00 prize not credited yet: the
    automatic credit is held off while it is played, then restored (a disqualification's forfeiture can then withhold
    the prize, or staff credit it)."""
    from tournaments import services

    monkeypatch.setattr(services, "entry_prize_pay", lambda entry_id: False)
    tournament = sit_and_go(seats=3, buy_in=1_000, fee=100)
    register_players(tournament, 3)
    play(tournament)
    monkeypatch.undo()
    winner = TournamentEntry.objects.select_related("tournament", "user").get(tournament=tournament, place=1)
    assert (winner.prize, winner.prize_transfer_id) == (3_000, None)
    return winner
