"""TRN-02 ("the operator may change any parameter at any time") within the issue's bad-input rule: a staff edit of a
running tournament's past levels gets a clear error and changes nothing. Levels up to the current one are history
(the clock is past their start); the levels after it may be changed, added or removed. The fields players registered
and were seated under (buy-in, fee, starting stack, table size, kind, seats, game, start) are fixed once it started,
and a finished tournament's definition does not change at all. The rule lives in
``tournaments.services.definition`` (the service checks again under the row lock); the admin shows its refusal."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import TOURNAMENTS, audit_rows, client_of, form_errors, submit
from tests.tournaments.support import QUICK_LEVELS, fresh, register_players, sit_and_go
from tournaments import admin_forms
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.definition import (
    DefinitionRefused,
    LevelRow,
    levels_of,
    levels_played,
    tournament_definition_update,
)

pytestmark = pytest.mark.django_db

SEVEN_MINUTES = timedelta(minutes=7)  # QUICK_LEVELS last five minutes each: level 2 is current


def running_in_level_two() -> Tournament:
    tournament = sit_and_go(seats=3, structure=QUICK_LEVELS)
    register_players(tournament, 3, now=timezone.now() - SEVEN_MINUTES)
    started = fresh(tournament)
    assert started.status == TournamentStatus.RUNNING
    return started


def change_page(tournament: Tournament) -> str:
    return f"{TOURNAMENTS}{tournament.pk}/change/"


def snapshot(tournament: Tournament) -> tuple[Any, ...]:
    row = fresh(tournament)
    return (levels_of(row), row.buy_in, row.fee, row.starting_stack, row.name, row.version)


def with_level(levels: list[LevelRow], number: int, **changes: int) -> list[LevelRow]:
    return [LevelRow(**{**level.__dict__, **changes}) if level.number == number else level for level in levels]


def test_the_levels_played_are_none_before_the_start_up_to_the_current_one_while_running_and_all_once_over() -> None:
    waiting = sit_and_go(seats=3)
    running = running_in_level_two()
    now = timezone.now()

    assert levels_played(waiting, now) == 0
    assert levels_played(running, now) == 2
    assert levels_played(running, now + timedelta(minutes=5)) == 3  # the clock moves on
    Tournament.objects.filter(pk=running.pk).update(status=TournamentStatus.FINISHED)
    assert levels_played(fresh(running), now) == len(QUICK_LEVELS.levels)


def test_the_service_refuses_a_past_or_current_level_change_and_changes_nothing() -> None:
    tournament = running_in_level_two()
    before = snapshot(tournament)
    stored = levels_of(tournament)

    for number in (1, 2):
        with pytest.raises(DefinitionRefused, match="levels 1 to 2 are history"):
            tournament_definition_update(
                tournament, changes={}, levels=with_level(stored, number, big_blind=999), actor=None
            )
    with pytest.raises(DefinitionRefused, match="removed level 2"):
        tournament_definition_update(tournament, changes={}, levels=stored[:1], actor=None)

    assert snapshot(tournament) == before
    assert audit_rows("tournament_definition_changed") == []


def test_the_service_changes_adds_and_removes_future_levels_and_audits_before_and_after() -> None:
    tournament = running_in_level_two()
    stored = levels_of(tournament)
    wanted = [*with_level(stored[:3], 3, small_blind=60, big_blind=120), LevelRow(4, 200, 400, 40, 600)]

    tournament_definition_update(tournament, changes={"name": "Renamed"}, levels=wanted, actor=None)

    assert levels_of(tournament) == wanted
    assert fresh(tournament).name == "Renamed"
    (audit,) = audit_rows("tournament_definition_changed")
    assert audit.details["before"]["name"] == "Sit & Go 3"
    assert audit.details["after"]["name"] == "Renamed"
    assert [level["number"] for level in audit.details["before"]["levels"]] == [3, 4]
    assert audit.details["after"]["levels"] == [
        {"number": 3, "small_blind": 60, "big_blind": 120, "ante": 10, "duration_seconds": 300},
        {"number": 4, "small_blind": 200, "big_blind": 400, "ante": 40, "duration_seconds": 600},
    ]


def test_the_service_refuses_the_fields_fixed_since_the_start() -> None:
    tournament = running_in_level_two()
    before = snapshot(tournament)

    for field, value in (("buy_in", 5_000), ("fee", 0), ("starting_stack", 5_000), ("table_size", 9)):
        with pytest.raises(DefinitionRefused) as refusal:
            tournament_definition_update(tournament, changes={field: value}, actor=None)
        assert field in refusal.value.field_errors

    assert snapshot(tournament) == before


def test_the_admin_shows_the_refusal_of_a_current_level_change_and_saves_nothing() -> None:
    tournament = running_in_level_two()
    before = snapshot(tournament)
    support = client_of(SUPPORT_STAFF)

    response = submit(support, change_page(tournament), "tournament_form", **{"levels-1-big_blind": "55"})

    assert "levels 1 to 2 are history" in form_errors(response)
    assert snapshot(tournament) == before


def test_the_admin_refuses_deleting_a_past_level() -> None:
    tournament = running_in_level_two()
    before = snapshot(tournament)
    support = client_of(SUPPORT_STAFF)

    response = submit(support, change_page(tournament), "tournament_form", **{"levels-0-DELETE": "on"})

    assert "removed level 1" in form_errors(response)
    assert snapshot(tournament) == before


def test_the_admin_shows_the_refusal_of_a_buy_in_change_on_the_field() -> None:
    tournament = running_in_level_two()
    before = snapshot(tournament)
    support = client_of(SUPPORT_STAFF)

    response = submit(support, change_page(tournament), "tournament_form", buy_in="50.00", name="Renamed too")

    assert "Fixed since the start" in form_errors(response)
    assert response.context["adminform"].form.errors["buy_in"]
    assert snapshot(tournament) == before  # the name was not saved either


def test_the_admin_saves_a_future_level_change_with_an_audit_row() -> None:
    tournament = running_in_level_two()
    support = client_of(SUPPORT_STAFF)

    response = submit(
        support,
        change_page(tournament),
        "tournament_form",
        **{"levels-3-small_blind": "150", "levels-3-big_blind": "300"},
        break_seconds="240",
    )

    assert response.status_code == 302, form_errors(response)
    assert levels_of(tournament)[3] == LevelRow(4, 150, 300, 20, 300)
    assert fresh(tournament).break_seconds == 240
    (audit,) = audit_rows("tournament_definition_changed")
    assert audit.actor is not None
    assert audit.details["before"]["break_seconds"] != 240
    assert audit.details["after"]["break_seconds"] == 240


def test_a_refusal_when_the_service_writes_comes_back_as_a_message_and_nothing_is_saved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tournament moved on between the form's check and the write (here: the form's check is skipped)."""
    tournament = running_in_level_two()
    before = snapshot(tournament)
    monkeypatch.setattr(admin_forms, "levels_change_check", lambda *args: None)
    support = client_of(SUPPORT_STAFF)

    response = submit(
        support, change_page(tournament), "tournament_form", **{"levels-0-big_blind": "25"}, name="Also renamed"
    )

    assert response.status_code == 302
    assert response.url == change_page(tournament)
    followed = support.get(response.url)
    assert any("levels 1 to 2 are history" in str(message) for message in followed.context["messages"])
    assert snapshot(tournament) == before


def test_a_finished_tournament_is_shown_read_only_and_its_definition_never_changes() -> None:
    tournament = running_in_level_two()
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    before = snapshot(tournament)
    support = client_of(SUPPORT_STAFF)

    page = support.get(change_page(tournament))
    posted = support.post(change_page(tournament), {"name": "Rewritten"})

    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()  # shown to read, with no save button
    assert posted.status_code == 403
    with pytest.raises(DefinitionRefused, match="record of what was played"):
        tournament_definition_update(tournament, changes={"name": "Rewritten"}, actor=None)
    assert snapshot(tournament) == before
