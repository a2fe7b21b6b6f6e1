"""The definition form and the definition service refuse bad bounty settings with a clear error on the field
(TRN-41 bounty per entry, TRN-42 / AMB-18 progressive percentages adding up to 100, TRN-43 a VIP with a VIP bounty),
nothing created; good settings are taken, and they are fixed once the tournament has started."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict

from tests.tournaments.support import START, player, scheduled
from tournaments.admin_forms import TournamentForm
from tournaments.models import Tournament
from tournaments.services.definition import DefinitionRefused, fields_change_check, tournament_define

pytestmark = pytest.mark.django_db


def form_for(tournament: Tournament, **changes: object) -> TournamentForm:
    data = {key: value for key, value in model_to_dict(tournament).items() if value is not None}
    data["starts_at"] = tournament.starts_at
    data.update(changes)
    return TournamentForm(data=data, instance=tournament)


def errors_of(**changes: Any) -> dict[str, Any]:
    form = form_for(scheduled(), **changes)
    assert not form.is_valid()
    return dict(form.errors)


def test_progressive_percentages_must_add_up_to_100_amb_18() -> None:
    errors = errors_of(bounty_kind="progressive", bounty=500, bounty_credited_percent=50, bounty_added_percent=40)
    assert "add up to 100, not 90" in errors["bounty_credited_percent"][0]


def test_a_bounty_tournament_needs_a_bounty_per_entry_trn_41() -> None:
    errors = errors_of(bounty_kind="regular", bounty=0)
    assert "needs a bounty per entry of at least €0.01" in errors["bounty"][0]


def test_a_tournament_without_bounties_takes_no_bounty_per_entry() -> None:
    errors = errors_of(bounty_kind="none", bounty=500)
    assert "has no bounty per entry" in errors["bounty"][0]


def test_a_vip_bounty_needs_its_vip_and_a_vip_needs_a_bounty_trn_43() -> None:
    assert "needs its VIP player" in errors_of(vip_bounty=5_000)["vip_player"][0]
    assert "special bounty of at least €0.01" in errors_of(vip_player=player().pk, vip_bounty=0)["vip_bounty"][0]


def test_a_percentage_above_100_is_refused() -> None:
    errors = errors_of(bounty_kind="progressive", bounty=500, bounty_credited_percent=150, bounty_added_percent=0)
    assert "whole number from 0 to 100" in errors["bounty_credited_percent"][0]


def test_good_bounty_settings_are_taken() -> None:
    vip = player()
    form = form_for(
        scheduled(),
        bounty_kind="progressive",
        bounty=500,
        bounty_credited_percent=40,
        bounty_added_percent=60,
        vip_player=vip.pk,
        vip_bounty=10_000,
        house_money_reason="The VIP's bounty of the week",
    )
    assert form.is_valid(), form.errors
    assert form.house_money_changes() == {"vip_player": vip.pk, "vip_bounty": 10_000}


def test_the_definition_service_refuses_them_too_and_creates_nothing() -> None:
    staff = get_user_model().objects.create_user(username="staff", password="x", is_staff=True)
    count = Tournament.objects.count()
    with pytest.raises(DefinitionRefused, match="add up to 100"):
        tournament_define(
            {
                "name": "Bad bounty",
                "kind": "scheduled",
                "starts_at": START,
                "bounty_kind": "progressive",
                "bounty": 500,
                "bounty_credited_percent": 60,
                "bounty_added_percent": 60,
            },
            actor=staff,
        )
    assert Tournament.objects.count() == count


def test_the_bounty_settings_are_fixed_once_started() -> None:
    tournament = scheduled(bounty_kind="regular", bounty=500)
    tournament.started_at = START
    for name in ("bounty_kind", "bounty", "bounty_credited_percent", "vip_player", "vip_bounty"):
        with pytest.raises(DefinitionRefused, match="stay as they were") as refused:
            fields_change_check(tournament, [name])
        assert "Fixed since the start" in refused.value.field_errors[name]


def test_staff_see_the_refusal_on_the_add_page_and_nothing_is_created() -> None:
    from poker_site.accounts.roles import SUPPORT_STAFF
    from tests.tournaments.back_office import TOURNAMENTS, client_of, form_errors, submit

    support = client_of(SUPPORT_STAFF)
    fields = {
        "name": "Bounty Sunday",
        "kind": "scheduled",
        "starts_at_0": "2031-05-04",
        "starts_at_1": "20:00:00",
        "buy_in": "10.00",
        "fee": "1.00",
        "bounty_kind": "progressive",
        "bounty": "5.00",
        "bounty_credited_percent": "70",
        "bounty_added_percent": "20",
    }
    response = submit(support, TOURNAMENTS + "add/", "tournament_form", **fields)
    assert response.status_code == 200
    assert "add up to 100, not 90" in form_errors(response)
    assert not Tournament.objects.filter(name="Bounty Sunday").exists()

    response = submit(support, TOURNAMENTS + "add/", "tournament_form", **{**fields, "bounty_added_percent": "30"})
    assert response.status_code == 302, form_errors(response)
    created = Tournament.objects.get(name="Bounty Sunday")
    assert (created.bounty_kind, created.bounty, created.bounty_credited_percent) == ("progressive", 500, 70)
    assert created.entry_price == 1_000 + 500 + 100
