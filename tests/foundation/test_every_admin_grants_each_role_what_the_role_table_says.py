"""LOB-10: back-office actions are restricted by staff role. Every model registered in the admin, for each role
(support staff, compliance reviewers, administrators) and for a staff member without a role: what the admin grants
(``has_view/add/change/delete_permission``, the actions ``get_actions`` offers, the model admin's extra pages) and what
its list and add pages answer (200 or 403) are exactly what the written table in ``poker_site/accounts/role_table.py``
says. A model registered without a row there fails here, so each new admin has to be classified."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import NoReverseMatch, reverse

from poker_site.accounts.role_table import ADMIN_POWERS, NOTHING, ROLES, Powers
from tests.foundation.staff_roles import WITHOUT_A_ROLE, describe, extra_pages, granted, staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

REGISTERED = {model._meta.label_lower: model for model in admin.site._registry}
MISSING_ROW = 2_147_483_000  # no such row: whoever may open an object's page gets 404, whoever may not gets 403

UNCLASSIFIED = (
    "{labels} registered in the admin but not classified: add a row to ADMIN_POWERS in "
    "poker_site/accounts/role_table.py saying what support staff, compliance reviewers and administrators may do "
    "with it (view/add/change/delete, actions, extra pages), then run `manage.py role_table --write` for docs/roles.md."
)


def expected_powers(label: str, role: str) -> Powers:
    return ADMIN_POWERS[label].of(role) if role in ROLES else NOTHING


def pages_that_open(client: Client, model_admin: admin.ModelAdmin) -> set[str]:
    """The model admin's extra pages that do not answer 403 (an object's page is asked for a row that is not there:
    the permission is checked first)."""
    opened = set()
    for name in extra_pages(model_admin):
        try:
            url = reverse(f"admin:{name}", args=[MISSING_ROW])
        except NoReverseMatch:
            url = reverse(f"admin:{name}")
        status = client.get(url).status_code
        assert status < 500, f"{url} answered {status}"
        if status != 403:
            opened.add(name)
    return opened


def test_every_model_registered_in_the_admin_is_in_the_role_table() -> None:
    unclassified = sorted(set(REGISTERED) - set(ADMIN_POWERS))
    assert not unclassified, UNCLASSIFIED.format(labels=", ".join(unclassified))
    no_longer_registered = sorted(set(ADMIN_POWERS) - set(REGISTERED))
    assert not no_longer_registered, f"the role table lists models with no admin any more: {no_longer_registered}"


@pytest.mark.parametrize("label", sorted(set(REGISTERED) | set(ADMIN_POWERS)))
def test_each_role_gets_exactly_what_the_role_table_says_from_the_admin_of(label: str) -> None:
    assert label in ADMIN_POWERS, UNCLASSIFIED.format(labels=label)
    assert label in REGISTERED, f"{label} is in the role table but not registered in the admin"
    model_admin = admin.site._registry[REGISTERED[label]]
    opts = model_admin.model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    add_page = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")

    mismatches: list[str] = []
    for role in (*ROLES, WITHOUT_A_ROLE):
        expected = expected_powers(label, role)
        user = staff_member(role)
        client = logged_in(user)
        verbs, actions = granted(model_admin, user)
        pages = pages_that_open(client, model_admin)
        if (verbs, actions, pages) != (set(expected.verbs), set(expected.actions), set(expected.pages)):
            mismatches.append(
                f"{role}: the admin grants {describe(verbs, actions, pages)}; the table says {expected.describe()}"
            )
        answers: dict[str, Any] = {
            "list": (client.get(changelist).status_code, 200 if expected.verbs & {"view", "change"} else 403),
            "add page": (client.get(add_page).status_code, 200 if "add" in expected.verbs else 403),
        }
        mismatches += [
            f"{role}: the {page} answers {status}, expected {wanted}"
            for page, (status, wanted) in answers.items()
            if status != wanted
        ]
    assert not mismatches, f"{label}:\n" + "\n".join(mismatches)
