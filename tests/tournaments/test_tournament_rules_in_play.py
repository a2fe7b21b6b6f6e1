"""Tournament rules the play tests do not name elsewhere: the operator changes registration times without notice
(TRN-12), buy-in and fee are fixed and pooled (TRN-13), chips have no money value (TRN-16), the normal engine with no
raise cap (TRN-18), a crash rolls hands back to their start-of-hand chips and play goes on (TRN-33), tournament hands
join the compliance desk's hand records (TRN-34), and a freezeout has no re-buy (TRN-36)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from compliance.hand_records import hand_record
from games.models import Hand, HandStatus, Seat
from games.runtime.engine_state import hand_engine_state
from games.services import NotAllowedNow, hand_act, hand_start, hands_recover_unfinished, seat_leave, seat_top_up
from tests.tournaments.support import (
    START,
    cash,
    fresh,
    one_shove_a_hand,
    open_tables,
    play,
    register_players,
    scheduled,
    sit_and_go,
)
from tournaments.models import TournamentEntry
from tournaments.services import AlreadyRegistered, tournament_delay, tournament_register, tournaments_advance_all
from wallet.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def started_sit_and_go(seats: int = 3) -> tuple[object, list[object], object]:
    tournament = sit_and_go(seats=seats)
    users = register_players(tournament, seats)
    (table,) = open_tables(tournament)
    return tournament, users, table


def test_the_operator_may_move_the_start_and_with_it_the_unregistration_close_trn_12() -> None:
    from django.contrib.auth import get_user_model

    tournament = scheduled(starts_at=START + timedelta(minutes=30))
    staff = get_user_model().objects.create_user("staff", password="x", is_staff=True)
    delayed = tournament_delay(tournament, START + timedelta(hours=2), actor=staff, reason="server upgrade", now=START)
    assert delayed.starts_at == START + timedelta(hours=2)
    tournaments_advance_all(now=START + timedelta(minutes=31))
    assert fresh(tournament).status == "registering"  # not started at the old time


def test_buy_in_and_fee_are_fixed_and_the_buy_ins_are_pooled_trn_13() -> None:
    tournament = scheduled(buy_in=1_000, fee=100)
    register_players(tournament, 4)
    pool = Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{tournament.pk}")
    assert pool.balance == 4_000
    assert set(TournamentEntry.objects.filter(tournament=tournament).values_list("prize_contribution", "fee")) == {
        (1_000, 100)
    }


def test_chips_cannot_be_bought_cashed_out_or_taken_away_trn_16() -> None:
    _tournament, users, table = started_sit_and_go(3)
    player = users[0]
    before = cash(player)
    with pytest.raises(NotAllowedNow, match="chips cannot be bought"):
        seat_top_up(player, table, 500)
    with pytest.raises(NotAllowedNow, match="cannot leave a tournament table"):
        seat_leave(player, table)
    assert cash(player) == before
    assert Seat.objects.get(table=table, user=player).chips == 1_000
    # Chips are counters: no wallet account holds them.
    assert not Account.objects.filter(owner=player, kind=AccountKind.TABLE_SESSION).exists()


def test_tournament_hands_use_the_normal_engine_with_no_raise_cap_trn_18() -> None:
    _tournament, _users, table = started_sit_and_go(3)
    hand = hand_start(table, now=START + timedelta(seconds=10), shuffler=random.Random(8))
    assert hand is not None
    raises = 0
    for _ in range(6):
        hand.refresh_from_db()
        if hand.status != HandStatus.RUNNING:
            break
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        user = Seat.objects.get(table=table, number=hand.acting_seat).user
        if legal.raise_range is not None and legal.raise_range[0] < legal.raise_range[1]:
            hand_act(table, user, "raise_to", legal.raise_range[0], now=START + timedelta(seconds=11))
            raises += 1
        else:
            hand_act(table, user, "call", now=START + timedelta(seconds=11))
    assert raises >= 4  # raise, re-raise, and on: no cap on the number of raises


def test_a_crash_rolls_a_hand_back_to_its_start_of_hand_chips_and_play_goes_on_trn_33() -> None:
    tournament, users, table = started_sit_and_go(3)
    hand = hand_start(table, now=START + timedelta(seconds=10), shuffler=random.Random(2))
    assert hand is not None
    chips_before = sorted(Seat.objects.filter(table=table).values_list("chips", flat=True))
    hand.refresh_from_db()
    hand_act(
        table, Seat.objects.get(table=table, number=hand.acting_seat).user, "all_in", now=START + timedelta(seconds=11)
    )
    assert hands_recover_unfinished(now=START + timedelta(seconds=12)) == [hand.pk]
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.CANCELLED
    assert sorted(Seat.objects.filter(table=table).values_list("chips", flat=True)) == chips_before
    tournaments_advance_all(now=START + timedelta(seconds=13))
    assert hand_start(table, now=START + timedelta(seconds=15), shuffler=random.Random(3)) is not None
    assert fresh(tournament).status == "running"
    assert len(users) == 3


def test_tournament_hands_are_read_by_the_compliance_desk_like_cash_hands_trn_34() -> None:
    tournament, _users, table = started_sit_and_go(2)
    play(tournament, until=lambda current: Hand.objects.filter(table=table, status=HandStatus.FINISHED).exists())
    finished = Hand.objects.filter(table=table, status=HandStatus.FINISHED).first()
    assert finished is not None
    record = hand_record(finished)
    assert record.rake == 0
    assert sum(seat.net for seat in record.seats) == 0


def test_a_freezeout_has_no_re_entry_once_a_player_is_out_trn_36_trn_09() -> None:
    tournament = scheduled(late_registration_levels=3, table_size=3)
    users = register_players(tournament, 6)
    assert tournament.starts_at is not None
    play(
        tournament,
        start=tournament.starts_at,
        policy=one_shove_a_hand,
        until=lambda current: current.players_remaining <= 5,
    )
    out = TournamentEntry.objects.filter(tournament=tournament).exclude(status="playing").first()
    assert out is not None
    with pytest.raises(AlreadyRegistered, match="no re-entry"):
        tournament_register(out.user, tournament, now=tournament.starts_at + timedelta(minutes=1))
    assert len(users) == 6


def test_tournament_hands_are_in_the_players_hand_history_in_chips_trn_16(client: object) -> None:
    from django.test import Client
    from django.urls import reverse

    tournament, users, table = started_sit_and_go(2)
    play(tournament, until=lambda current: Hand.objects.filter(table=table, status=HandStatus.FINISHED).exists())
    finished = Hand.objects.filter(table=table, status=HandStatus.FINISHED).first()
    assert finished is not None
    browser = Client()
    browser.force_login(users[0])
    page = browser.get(reverse("games:hand_history")).content.decode()
    assert "Sit &amp; Go 2" in page
    assert "chips" in page
    listed = browser.get("/api/games/hands/").json()["results"][0]
    assert listed["currency"] == "CHIPS"
    assert listed["stake"].startswith("Sit & Go 2")
    assert browser.get(reverse("games:hand_replay", args=[finished.pk])).status_code == 200
