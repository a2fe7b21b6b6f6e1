"""The demo data offers a re-buy tournament with an add-on (TRN-39, FEE-03) and a re-entry tournament (TRN-40) that
start every hour (issue 28: "Demo data includes a re-buy tournament and a re-entry tournament that start regularly"),
and the demo plan keeps the schedule topped up while the site runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.bots.demo_life import SCHEDULE_REFRESH, DemoLife, _schedule_refresh
from tournaments.demo import HOURLY, HOURLY_AHEAD, REBUY_SERIES, REENTRY_SERIES, seed_demo
from tournaments.models import Tournament, TournamentLevel, TournamentStatus
from tournaments.services.definition import late_registration_check, phases_definition_check

pytestmark = pytest.mark.django_db


def series_upcoming(name: str) -> list[Tournament]:
    return list(
        Tournament.objects.filter(
            series__name=name, status__in=(TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
        ).order_by("starts_at")
    )


def test_the_demo_keeps_two_rebuy_and_two_reentry_tournaments_an_hour_apart_and_seeding_again_adds_none() -> None:
    seed_demo(lambda _line: None)
    seed_demo(lambda _line: None)
    for name in (REBUY_SERIES, REENTRY_SERIES):
        upcoming = series_upcoming(name)
        assert len(upcoming) == HOURLY_AHEAD
        first, second = upcoming
        assert first.starts_at is not None
        assert second.starts_at is not None
        assert second.starts_at - first.starts_at == HOURLY
        for tournament in upcoming:  # each is a definition staff could have saved
            tournament.full_clean()
            phases_definition_check(tournament)
            late_registration_check(
                tournament.late_registration_levels, TournamentLevel.objects.filter(tournament=tournament).count()
            )


def test_the_rebuy_tournament_offers_rebuys_with_a_fee_and_an_add_on_trn_39_fee_03() -> None:
    seed_demo(lambda _line: None)
    rebuys = series_upcoming(REBUY_SERIES)[0]
    assert rebuys.offers_rebuys
    assert (rebuys.rebuy_levels, rebuys.rebuy_maximum) == (3, 3)
    assert rebuys.rebuy_stack_threshold == rebuys.starting_stack  # a re-buy while at or below the starting stack
    assert rebuys.rebuy_chips == rebuys.starting_stack
    assert rebuys.rebuy_fee > 0
    assert rebuys.rebuy_buy_in > 0
    assert rebuys.add_on_allowed
    assert rebuys.add_on_fee > 0
    assert rebuys.add_on_chips > 0
    assert rebuys.re_entries_maximum == 0


def test_the_reentry_tournament_allows_two_re_entries_within_late_registration_trn_40() -> None:
    seed_demo(lambda _line: None)
    reentry = series_upcoming(REENTRY_SERIES)[0]
    assert reentry.re_entries_maximum == 2
    assert reentry.late_registration_levels > 0  # TRN-40: re-entry only within the late-registration window
    assert not reentry.offers_rebuys


def test_once_one_starts_the_next_seeding_schedules_the_following_hour() -> None:
    seed_demo(lambda _line: None)
    first, second = series_upcoming(REBUY_SERIES)
    Tournament.objects.filter(pk=first.pk).update(status=TournamentStatus.RUNNING)
    seed_demo(lambda _line: None)
    upcoming = series_upcoming(REBUY_SERIES)
    assert upcoming[0].pk == second.pk
    assert len(upcoming) == HOURLY_AHEAD
    assert second.starts_at is not None
    assert upcoming[1].starts_at == second.starts_at + HOURLY


def test_the_demo_plan_tops_the_schedule_up_once_a_minute() -> None:
    life = DemoLife()
    moment = timezone.now()
    _schedule_refresh(life, moment)
    assert len(series_upcoming(REENTRY_SERIES)) == HOURLY_AHEAD
    Tournament.objects.filter(series__name=REENTRY_SERIES).delete()

    _schedule_refresh(life, moment + SCHEDULE_REFRESH - timedelta(seconds=1))
    assert series_upcoming(REENTRY_SERIES) == []  # not yet: the plan runs every few seconds
    _schedule_refresh(life, moment + SCHEDULE_REFRESH)
    assert len(series_upcoming(REENTRY_SERIES)) == HOURLY_AHEAD
