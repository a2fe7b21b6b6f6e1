"""TRN-45 in the back office: staff define a Phase 2 (no buy-in of its own) and attach Phase 1 flights to it with the
level at which each flight ends; an unfit flight or Phase 2 is refused on the field with the reason and nothing is
saved: a flight starting after its Phase 2, of another game, ending at level 1 or beyond its levels, with a guarantee,
attached to a tournament that is not a Phase 2; a Phase 2 with a buy-in; a Phase 2 as a satellite's target."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import TOURNAMENTS, client_of, form_errors, submit
from tests.tournaments.phases_support import PHASE_TWO_START, phase_two
from tests.tournaments.support import fresh, scheduled
from tournaments.models import Tournament, TournamentKind
from tournaments.services import DefinitionRefused, tournament_define, tournament_definition_update

pytestmark = pytest.mark.django_db

ADD = TOURNAMENTS + "add/"


def flight_fields(target: Tournament, **changes: Any) -> dict[str, Any]:
    """A flight as staff fill it in: two hours before its Phase 2, the turbo structure, ending after level 6."""
    start = PHASE_TWO_START - timedelta(hours=2)
    fields: dict[str, Any] = {
        "name": "Main Event – Flight A",
        "kind": TournamentKind.SCHEDULED,
        "starts_at_0": f"{start:%Y-%m-%d}",
        "starts_at_1": f"{start:%H:%M:%S}",
        "buy_in": "10.00",
        "fee": "1.00",
        "default_structure": "turbo_multi_table",
        "phase_two": str(target.pk),
        "final_level": "6",
    }
    fields.update(changes)
    return fields


def test_staff_attach_a_flight_to_phase_two_with_the_level_after_which_it_ends_trn_45() -> None:
    target = phase_two()
    support = client_of(SUPPORT_STAFF)

    response = submit(support, ADD, "tournament_form", **flight_fields(target))

    assert response.status_code == 302, form_errors(response)
    created = Tournament.objects.get(name="Main Event – Flight A")
    assert created.phase_two_id == target.pk
    assert created.final_level == 6
    assert list(target.flights.all()) == [created]


def test_staff_may_attach_a_flight_that_ends_after_its_first_level_trn_45() -> None:
    target = phase_two()
    support = client_of(SUPPORT_STAFF)

    response = submit(support, ADD, "tournament_form", **flight_fields(target, final_level="1"))

    assert response.status_code == 302, form_errors(response)
    assert Tournament.objects.get(name="Main Event – Flight A").final_level == 1


def test_staff_define_a_phase_two_without_a_buy_in_trn_45() -> None:
    support = client_of(SUPPORT_STAFF)
    response = submit(
        support,
        ADD,
        "tournament_form",
        name="Main Event – Phase 2",
        kind=TournamentKind.SCHEDULED,
        starts_at_0="2031-05-04",
        starts_at_1="20:00:00",
        buy_in="0",
        fee="0",
        is_phase_two="on",
    )
    assert response.status_code == 302, form_errors(response)
    assert Tournament.objects.get(name="Main Event – Phase 2").is_phase_two


BAD_FLIGHTS = [
    pytest.param(
        {"starts_at_0": f"{PHASE_TWO_START + timedelta(days=1):%Y-%m-%d}"},
        "A flight starts before its Phase 2.",
        id="starts-after-phase-two",
    ),
    pytest.param({"variant": "PO"}, "A flight plays the same game as its Phase 2.", id="another-game"),
    pytest.param({"final_level": "0"}, "A flight ends after one of its levels: level 1 or later", id="level-zero"),
    pytest.param({"final_level": "99"}, "cannot end after a later one", id="beyond-its-levels"),
    pytest.param({"final_level": ""}, "Give the level after which the flight ends.", id="no-final-level"),
    pytest.param({"guarantee": "500.00"}, "A flight pays no prizes", id="guarantee"),
    pytest.param(
        {"late_registration_levels": "6"},
        "Late registration of a flight closes before the flight ends",
        id="late-registration-to-the-end",
    ),
    pytest.param({"is_phase_two": "on"}, "either a Phase 1 flight or a Phase 2, not both", id="both"),
]


@pytest.mark.parametrize(("changes", "reason"), BAD_FLIGHTS)
def test_an_unfit_flight_is_refused_with_the_reason_and_nothing_is_saved_trn_45(
    changes: dict[str, Any], reason: str
) -> None:
    target = phase_two()
    support = client_of(SUPPORT_STAFF)

    response = submit(support, ADD, "tournament_form", **flight_fields(target, **changes))

    assert reason in form_errors(response)
    assert not Tournament.objects.filter(name="Main Event – Flight A").exists()


def test_a_flight_of_a_tournament_that_is_not_a_phase_two_cannot_be_chosen_trn_45() -> None:
    ordinary = scheduled()
    support = client_of(SUPPORT_STAFF)
    response = submit(support, ADD, "tournament_form", **flight_fields(ordinary))
    assert "Select a valid choice" in form_errors(response)
    assert not Tournament.objects.filter(name="Main Event – Flight A").exists()


def test_a_phase_two_with_a_buy_in_or_as_a_satellite_target_is_refused_trn_45() -> None:
    target = phase_two()
    support = client_of(SUPPORT_STAFF)
    with_buy_in = submit(
        support,
        ADD,
        "tournament_form",
        name="Priced Phase 2",
        kind=TournamentKind.SCHEDULED,
        starts_at_0="2031-05-04",
        starts_at_1="20:00:00",
        buy_in="10.00",
        fee="1.00",
        is_phase_two="on",
    )
    assert "Phase 2 has no buy-in or fee of its own" in form_errors(with_buy_in)
    satellite = submit(
        support,
        ADD,
        "tournament_form",
        name="Satellite to Phase 2",
        kind=TournamentKind.SCHEDULED,
        starts_at_0="2031-05-04",
        starts_at_1="18:00:00",
        buy_in="1.00",
        fee="0.10",
        satellite_target=str(target.pk),
    )
    assert "reached only through its flights" in form_errors(satellite)
    assert not Tournament.objects.filter(name__in=["Priced Phase 2", "Satellite to Phase 2"]).exists()


def test_a_phase_two_cannot_move_its_start_before_a_flight_trn_45() -> None:
    target = phase_two()
    support = client_of(SUPPORT_STAFF)
    submit(support, ADD, "tournament_form", **flight_fields(target))
    early = PHASE_TWO_START - timedelta(hours=3)
    response = submit(
        support,
        f"{TOURNAMENTS}{target.pk}/change/",
        "tournament_form",
        starts_at_0=f"{early:%Y-%m-%d}",
        starts_at_1=f"{early:%H:%M:%S}",
    )
    assert "Phase 2 starts after its flights" in form_errors(response)
    target.refresh_from_db()
    assert target.starts_at == PHASE_TWO_START


def test_the_definition_services_refuse_the_same_unfit_flights_and_phase_twos_trn_45() -> None:
    target = phase_two()
    actor = staff_member(SUPPORT_STAFF)
    late_start = PHASE_TWO_START + timedelta(hours=1)
    with pytest.raises(DefinitionRefused, match="A flight starts before its Phase 2") as refused:
        tournament_define(
            {
                "name": "Late flight",
                "kind": TournamentKind.SCHEDULED,
                "starts_at": late_start,
                "phase_two": target,
                "final_level": 3,
            },
            actor=actor,
        )
    assert "starts_at" in refused.value.field_errors
    assert not Tournament.objects.filter(name="Late flight").exists()
    with pytest.raises(DefinitionRefused, match="Phase 2 has no buy-in or fee of its own"):
        tournament_definition_update(target, changes={"buy_in": 1_000}, actor=actor)
    assert fresh(target).buy_in == 0
