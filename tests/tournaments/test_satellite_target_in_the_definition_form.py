"""The definition form refuses a satellite target that cannot be one (TRN-37): a freeroll (its seat is worth nothing)
or a chain of satellites leading back to the tournament itself; a good target is taken, and fixed once started."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.forms.models import model_to_dict

from tests.tournaments.support import START, scheduled
from tournaments.admin_forms import TournamentForm
from tournaments.models import Tournament
from tournaments.services.definition import DefinitionRefused, fields_change_check

pytestmark = pytest.mark.django_db


def form_for(tournament: Tournament, **changes: object) -> TournamentForm:
    data = {key: value for key, value in model_to_dict(tournament).items() if value is not None}
    data["starts_at"] = tournament.starts_at
    data.update(changes)
    return TournamentForm(data=data, instance=tournament)


def test_a_freeroll_cannot_be_a_satellites_target() -> None:
    freeroll = scheduled(buy_in=0, fee=0)
    satellite = scheduled()
    form = form_for(satellite, satellite_target=freeroll.pk)
    assert not form.is_valid()
    assert "A freeroll cannot be a satellite's target" in form.errors["satellite_target"][0]


def test_a_chain_of_satellites_cannot_lead_back_to_itself() -> None:
    first = scheduled()
    second = scheduled(satellite_target=first)
    form = form_for(first, satellite_target=second.pk)
    assert not form.is_valid()
    assert "cannot lead back to itself" in form.errors["satellite_target"][0]


def test_a_good_target_is_taken_and_fixed_once_started() -> None:
    target = scheduled(START + timedelta(days=1))
    satellite = scheduled()
    form = form_for(satellite, satellite_target=target.pk)
    assert form.is_valid(), form.errors
    satellite.started_at = START
    with pytest.raises(DefinitionRefused):
        fields_change_check(satellite, ["satellite_target"])
