"""Stake terms and game rules change by adding a row that takes effect now or later; the rows already in force or past
stay as they were, since every hand played points at the row it was played under (its rake, RAKE-08; its clocks,
TB-05). A row still in the future may be corrected or withdrawn."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin import site
from django.forms import modelform_factory
from django.test import RequestFactory
from django.utils import timezone

from games.admin import EffectiveFromForm
from games.models import GameRules, StakeTerms
from tests.tables.back_office import logged_in, support_agent
from tests.tables.support import open_table

pytestmark = pytest.mark.django_db


def _terms_in_force() -> StakeTerms:
    return open_table().stake.terms_at(timezone.now())


def test_a_stake_terms_row_in_force_cannot_be_changed_or_deleted_from_the_admin() -> None:
    terms = _terms_in_force()
    staff = logged_in(support_agent())
    rate_before = terms.rake_rate_basis_points

    page = staff.get(f"/admin/games/staketerms/{terms.pk}/change/")
    posted = staff.post(f"/admin/games/staketerms/{terms.pk}/change/", {"rake_rate_basis_points": 1})

    assert page.status_code == 200  # shown read-only
    assert 'name="rake_rate_basis_points"' not in page.content.decode()
    assert posted.status_code == 403
    terms.refresh_from_db()
    assert terms.rake_rate_basis_points == rate_before


@pytest.mark.parametrize("model", [GameRules, StakeTerms])
def test_no_rules_or_terms_row_is_added_changed_or_deleted_in_the_admin(model: type) -> None:
    """Game rules and stake terms change only by a proposal a second staff member approves (issue 30, see
    test_stake_terms_change_only_when_a_second_staff_member_approves.py and
    test_game_rules_change_only_when_a_second_staff_member_approves.py), a future row included."""
    agent = support_agent()
    request = RequestFactory().get("/")
    request.user = agent
    admin_of = site._registry[model]
    terms = _terms_in_force()
    in_force = terms if model is StakeTerms else terms.stake.game_type.rules_at(timezone.now())
    future = model.objects.get(pk=in_force.pk)
    future.pk = None
    future.effective_from = timezone.now() + timedelta(days=1)
    future.save()

    for row in (in_force, future):
        assert not admin_of.has_change_permission(request, row)
        assert not admin_of.has_delete_permission(request, row)
    assert not admin_of.has_add_permission(request)


def test_a_new_row_takes_effect_now_or_later_never_in_the_past() -> None:
    form_class = modelform_factory(StakeTerms, form=EffectiveFromForm, fields=("effective_from",))
    past = form_class(data={"effective_from": (timezone.now() - timedelta(hours=1)).isoformat()})
    later = form_class(data={"effective_from": (timezone.now() + timedelta(hours=1)).isoformat()})

    assert not past.is_valid()
    assert "takes effect now or later" in str(past.errors["effective_from"])
    assert later.is_valid(), later.errors
