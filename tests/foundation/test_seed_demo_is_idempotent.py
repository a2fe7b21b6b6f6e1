"""The demo data loads on an empty database and loading it again changes nothing."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command

from poker_site.accounts.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models()
        if not model._meta.label.startswith(("sessions.", "admin.", "django_celery_beat."))
    }


def test_seed_demo_creates_the_demo_accounts_and_a_second_run_adds_nothing() -> None:
    call_command("seed_demo")
    assert set(User.objects.values_list("username", flat=True)) >= {
        "alice",
        "bob",
        "carol",
        "dave",
        "support",
        "compliance",
        "admin",
    }
    first = row_counts()
    call_command("seed_demo")
    assert row_counts() == first
    call_command("seed_demo", "--migrate", verbosity=0)  # the launcher's one start-up: nothing to migrate, nothing new
    assert row_counts() == first
