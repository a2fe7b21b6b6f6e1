"""TRN-40: where a tournament allows re-entry, a player knocked out registers again within the late-registration
window — a new entry, a new buy-in + fee (FEE-04), a new starting stack — up to the allowed number of re-entries.
Refused, changing nothing: while still playing, once the re-entries are used, after late registration closed, and in
a tournament without re-entry."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.tournaments.rebuys_support import LEVEL, chips, pool, start_of
from tests.tournaments.support import cash, fresh, one_shove_a_hand, play, register_players, scheduled
from tournaments.models import EntryStatus, Tournament, TournamentEntry
from tournaments.services import AlreadyRegistered, NotAllowedNow, RegistrationClosed, tournament_register

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def re_entry_tournament(**fields: Any) -> Tournament:
    return scheduled(buy_in=1_000, fee=100, late_registration_levels=4, re_entries_maximum=1, **fields)


def play_until_a_knock_out(tournament: Tournament) -> datetime:
    assert tournament.starts_at is not None
    return play(
        tournament, policy=one_shove_a_hand, start=tournament.starts_at, until=lambda now: bool(knocked_out(now))
    )


def knocked_out(tournament: Tournament) -> list[TournamentEntry]:
    return list(TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).select_related("user"))


def test_a_knocked_out_player_re_enters_with_a_new_entry_buy_in_and_fee_trn_40() -> None:
    tournament = re_entry_tournament()
    users = register_players(tournament, 4)
    assert tournament.starts_at is not None
    moment = play(
        tournament,
        policy=one_shove_a_hand,
        start=tournament.starts_at,
        until=lambda current: bool(knocked_out(current)),
    )
    (out,) = knocked_out(tournament)[:1]
    user = out.user
    before_cash, before_pool = cash(user), pool(tournament)
    entries_before = fresh(tournament).entrants
    again = tournament_register(user, tournament, now=moment, randomness=random.Random(1))
    assert again.pk != out.pk
    assert (again.entry_number, again.status, again.prize_contribution, again.fee) == (
        2,
        EntryStatus.PLAYING,
        1_000,
        100,
    )
    assert cash(user) == before_cash - 1_100
    assert pool(tournament) == before_pool + 1_000
    assert chips(user) == 1_000
    assert fresh(tournament).entrants == entries_before + 1
    assert TournamentEntry.objects.get(pk=out.pk).status == EntryStatus.BUSTED  # the first entry keeps its fate
    with pytest.raises(AlreadyRegistered):
        tournament_register(user, tournament, now=moment)
    assert len(users) == 4


def test_once_the_re_entries_are_used_another_is_refused_trn_40() -> None:
    tournament = re_entry_tournament()
    register_players(tournament, 6)
    assert tournament.starts_at is not None

    def re_enter(current: Tournament, now: datetime) -> None:
        for entry in knocked_out(current):
            if TournamentEntry.objects.filter(tournament=current, user=entry.user).count() == 1:
                tournament_register(entry.user, current, now=now, randomness=random.Random(entry.pk))

    def twice_out(current: Tournament) -> bool:
        return TournamentEntry.objects.filter(tournament=current, entry_number=2, status=EntryStatus.BUSTED).exists()

    moment = play(tournament, policy=one_shove_a_hand, start=tournament.starts_at, until=twice_out, after_step=re_enter)
    user = (
        TournamentEntry.objects.filter(tournament=tournament, entry_number=2)
        .exclude(status__in=[EntryStatus.PLAYING, EntryStatus.REGISTERED])[0]
        .user
    )
    before = (cash(user), pool(tournament), TournamentEntry.objects.filter(tournament=tournament).count())
    with pytest.raises(NotAllowedNow, match="used all 1 re-entries"):
        tournament_register(user, tournament, now=moment)
    assert (cash(user), pool(tournament), TournamentEntry.objects.filter(tournament=tournament).count()) == before


def test_after_late_registration_closes_re_entry_is_refused_trn_40() -> None:
    tournament = scheduled(buy_in=1_000, fee=100, late_registration_levels=1, re_entries_maximum=3)
    register_players(tournament, 6)
    assert tournament.starts_at is not None
    start = tournament.starts_at

    def late(current: Tournament) -> bool:
        return bool(knocked_out(current)) and current.started_at is not None

    play(tournament, policy=one_shove_a_hand, start=start, until=late)
    out = knocked_out(tournament)[0]
    after_window = start_of(tournament) + LEVEL + timedelta(seconds=10)
    before = (cash(out.user), pool(tournament))
    with pytest.raises(RegistrationClosed, match="re-entry is no longer possible"):
        tournament_register(out.user, tournament, now=after_window)
    assert (cash(out.user), pool(tournament)) == before


def test_a_freezeout_has_no_re_entry_trn_09_trn_40() -> None:
    tournament = scheduled(buy_in=1_000, fee=100, late_registration_levels=4)
    register_players(tournament, 4)
    assert tournament.starts_at is not None
    moment = play(
        tournament,
        policy=one_shove_a_hand,
        start=tournament.starts_at,
        until=lambda current: bool(knocked_out(current)),
    )
    out = knocked_out(tournament)[0]
    before = cash(out.user)
    with pytest.raises(AlreadyRegistered, match="no re-entry"):
        tournament_register(out.user, tournament, now=moment)
    assert cash(out.user) == before
