"""HEX-06, HEX-08, HEX-31: an administrator changes a HexaPro product's tables the way a regulated operator must —
as a new version in force from a later time, never by editing the tables games were drawn with. The copy action
schedules a version (audited); its rows are edited on its page until it takes effect, each save checked against the
product rules (a change they refuse saves nothing) and audited with the new expected multiplier and rake equivalent;
a version in force is read-only; support staff only read."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import audit_rows, client_of, form_values, messages_after, run_action
from tournaments.hexapro.models import HexaProMultiplier, HexaProProductVersion
from tournaments.hexapro.products import version_in_force
from tournaments.hexapro.versions import hexapro_version_schedule
from tournaments.services import NotAllowedNow

pytestmark = pytest.mark.django_db

VERSIONS = "/admin/tournaments/hexaproproductversion/"
FORM = "hexaproproductversion_form"


def in_force() -> HexaProProductVersion:
    return version_in_force("hexapro")


def scheduled_copy(days: int = 1) -> HexaProProductVersion:
    return hexapro_version_schedule(
        in_force(),
        effective_from=timezone.now() + timedelta(days=days),
        actor=product_administrator(),
        reason="New draw table approved by the product board",
    )


def product_administrator() -> Any:
    return staff_member(ADMINISTRATORS, "product-admin")


def multiplier_rows(version: HexaProProductVersion) -> list[tuple[int, int, list[int]]]:
    return [
        (row.multiplier_tenths, row.weight, list(row.payout_percentages))
        for row in HexaProMultiplier.objects.filter(version=version).order_by("-multiplier_tenths")
    ]


def test_hex_06_an_administrator_copies_the_version_in_force_into_one_from_tomorrow() -> None:
    current = in_force()
    administrator = client_of(ADMINISTRATORS, "product-admin")
    tomorrow = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)

    response = run_action(
        administrator,
        VERSIONS,
        "schedule_new_version",
        [current.pk],
        effective_from=tomorrow.strftime("%Y-%m-%dT%H:%M"),
        reason="New draw table approved by the product board",
    )

    assert any("edit its tables" in message for message in messages_after(administrator, response))
    copy = HexaProProductVersion.objects.get(code="hexapro", effective_from=tomorrow)
    assert multiplier_rows(copy) == multiplier_rows(current)
    assert copy.buy_ins.count() == current.buy_ins.count()
    assert copy.blind_levels.count() == current.blind_levels.count()
    assert in_force() == current  # still the one in force until tomorrow
    assert version_in_force("hexapro", tomorrow + timedelta(seconds=1)) == copy
    (audit,) = audit_rows("hexapro_version_scheduled")
    assert audit.details["copied_from"] == current.pk


def test_hex_06_a_copy_in_force_now_or_at_an_existing_start_is_refused() -> None:
    current = in_force()
    actor = product_administrator()

    with pytest.raises(NotAllowedNow, match="later than now"):
        hexapro_version_schedule(current, effective_from=timezone.now() - timedelta(minutes=1), actor=actor, reason="x")
    copy = hexapro_version_schedule(
        current, effective_from=timezone.now() + timedelta(days=2), actor=actor, reason="Board decision"
    )
    with pytest.raises(NotAllowedNow, match="already has a version from"):
        hexapro_version_schedule(current, effective_from=copy.effective_from, actor=actor, reason="Again")

    assert HexaProProductVersion.objects.filter(code="hexapro").count() == 2


def test_hex_08_editing_the_scheduled_version_saves_checks_and_audits_the_new_figures() -> None:
    copy = scheduled_copy()
    administrator = client_of(ADMINISTRATORS, "board-admin")
    page = administrator.get(f"{VERSIONS}{copy.pk}/change/")
    data = form_values(page.content.decode(), FORM)
    weight_field = next(name for name in data if name.startswith("multipliers-") and name.endswith("-weight"))
    old_weight = int(data[weight_field])

    response = administrator.post(f"{VERSIONS}{copy.pk}/change/", {**data, weight_field: str(old_weight + 1)})

    assert response.status_code == 302, response.content.decode()[:3000]
    assert sorted(weight for _, weight, _ in multiplier_rows(copy)) != sorted(
        weight for _, weight, _ in multiplier_rows(in_force())
    )
    (audit,) = audit_rows("hexapro_version_changed")
    assert audit.details["version"] == copy.pk
    assert "rake equivalent" in audit.details["figures"]


def test_hex_06_a_change_the_product_rules_refuse_saves_nothing() -> None:
    copy = scheduled_copy()
    before = multiplier_rows(copy)
    administrator = client_of(ADMINISTRATORS, "board-admin")
    page = administrator.get(f"{VERSIONS}{copy.pk}/change/")
    data = form_values(page.content.decode(), FORM)
    payouts_field = next(
        name for name in data if name.startswith("multipliers-") and name.endswith("-payout_percentages")
    )

    response = administrator.post(
        f"{VERSIONS}{copy.pk}/change/", {**data, payouts_field: "[50, 30, 10, 5, 5]"}, follow=True
    )

    assert "are not a valid HexaPro product" in response.content.decode()
    assert "Nothing was saved" in response.content.decode()
    assert multiplier_rows(copy) == before
    assert audit_rows("hexapro_version_changed") == []


def test_hex_31_the_version_in_force_is_read_only_even_for_administrators() -> None:
    current = in_force()
    before = multiplier_rows(current)
    administrator = client_of(ADMINISTRATORS, "board-admin")

    page = administrator.get(f"{VERSIONS}{current.pk}/change/")
    posted = administrator.post(f"{VERSIONS}{current.pk}/change/", {"name": "Renamed"})

    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert posted.status_code == 403
    assert multiplier_rows(current) == before
    assert administrator.post(f"{VERSIONS}{current.pk}/delete/", {"post": "yes"}).status_code == 403


def test_hex_06_support_staff_read_the_versions_but_cannot_copy_or_edit_them() -> None:
    copy = scheduled_copy()
    support = client_of(SUPPORT_STAFF, "support-reader")

    listing = support.get(VERSIONS)
    run_action(
        support, VERSIONS, "schedule_new_version", [in_force().pk], effective_from="2040-01-01T00:00", reason="x"
    )
    edit = support.post(f"{VERSIONS}{copy.pk}/change/", {"name": "Renamed"})

    assert listing.status_code == 200
    assert "schedule_new_version" not in listing.content.decode()
    assert edit.status_code == 403
    assert HexaProProductVersion.objects.filter(code="hexapro").count() == 2
    assert HexaProProductVersion.objects.get(pk=copy.pk).name != "Renamed"
