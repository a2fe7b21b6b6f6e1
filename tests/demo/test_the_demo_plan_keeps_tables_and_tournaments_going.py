"""The demo plan (``games.bots.demo_life``): bots at every game's cash tables, Sit & Gos filled to one seat short and
then full after the wait, bots for scheduled tournaments starting soon (TRN-15: so they start instead of being
cancelled), two bots waiting for a HexaPro game and a third forming it after the wait; never a person registered, and
the wallet reconciles. (Two tests of several checks each: every test here seeds the whole demo into a flushed
database, which is what costs.)"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from games.bots.demo_life import Assignment, DemoLife, demo_life_plan
from games.models import GameType
from poker_site.core.demo import seed_all
from tournaments.hexapro.models import HexaProRegistration, RegistrationStatus
from tournaments.hexapro.products import hexapro_products_seed
from tournaments.models import LIVE_ENTRY_STATUSES, Tournament, TournamentKind, TournamentStatus
from wallet.services.demo_bankroll import DEMO_BOT_PREFIX

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(autouse=True)
def demo_site(settings: Any) -> None:
    settings.DEMO_BOTS = True
    settings.DEMO_CASH_BOTS_PER_GAME = 3
    settings.DEMO_BOTS_IN_A_SCHEDULED_TOURNAMENT = 4
    settings.DEMO_SEAT_KEPT_FOR_PLAYERS_SECONDS = 60
    hexapro_products_seed()  # stored by a data migration, which a flushing test has emptied
    seed_all(lambda _line: None)


def live_entrants(tournament: Tournament) -> int:
    return tournament.entries.filter(status__in=LIVE_ENTRY_STATUSES).count()


def registering_sit_and_gos() -> Any:
    return Tournament.objects.filter(
        kind=TournamentKind.SIT_AND_GO, status=TournamentStatus.REGISTERING, eligibility={}
    )


def test_the_first_round_seats_every_game_and_keeps_a_seat_everywhere_for_players() -> None:
    life = DemoLife()

    first = demo_life_plan(life, {})

    cash = [assignment for assignment in first if assignment.is_cash]
    games = list(GameType.objects.filter(enabled=True).values_list("code", flat=True))
    assert sorted({assignment.game for assignment in cash}) == sorted(games)
    assert all(sum(1 for a in cash if a.game == game) == 3 for game in games)
    assert all(assignment.buy_in > 0 and assignment.session_cookie for assignment in cash)

    assert registering_sit_and_gos().exists()
    for sit_and_go in registering_sit_and_gos():
        assert live_entrants(sit_and_go) == sit_and_go.seats_to_start - 1, sit_and_go.name

    scheduled = Tournament.objects.filter(kind=TournamentKind.SCHEDULED, is_phase_two=False)
    soon = scheduled.filter(status=TournamentStatus.REGISTERING, starts_at__lte=timezone.now() + timedelta(minutes=15))
    later = scheduled.filter(starts_at__gt=timezone.now() + timedelta(hours=1))
    assert soon.exists()
    assert later.exists()
    assert all(live_entrants(tournament) == 4 for tournament in soon)
    assert all(live_entrants(tournament) == 0 for tournament in later)

    assert HexaProRegistration.objects.filter(status=RegistrationStatus.WAITING).count() == 2

    busy: dict[str, Assignment] = {assignment.username: assignment for assignment in first}
    assert [assignment for assignment in demo_life_plan(life, busy) if assignment.is_cash] == []
    for sit_and_go in registering_sit_and_gos():  # the seat is still kept for a player
        assert live_entrants(sit_and_go) == sit_and_go.seats_to_start - 1, sit_and_go.name

    people = get_user_model().objects.exclude(username__startswith=DEMO_BOT_PREFIX)
    assert not Tournament.objects.filter(entries__user__in=people).exists()
    assert not HexaProRegistration.objects.filter(user__in=people).exists()
    call_command("wallet_reconcile")


def test_after_the_wait_bots_take_the_last_seats_so_games_start() -> None:
    life = DemoLife()
    demo_life_plan(life, {})
    heads_up = registering_sit_and_gos().get(seats_to_start=2)

    demo_life_plan(life, {}, timezone.now() + timedelta(seconds=61))

    heads_up.refresh_from_db()
    assert heads_up.status == TournamentStatus.RUNNING
    assert not HexaProRegistration.objects.filter(status=RegistrationStatus.WAITING).exists()
    assert HexaProRegistration.objects.filter(status=RegistrationStatus.SEATED).count() == 3
    call_command("wallet_reconcile")
