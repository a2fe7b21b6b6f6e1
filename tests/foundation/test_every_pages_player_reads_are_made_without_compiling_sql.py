"""Every page a logged-in player opens shows their balance in its header and asks whether a self-exclusion is in force
(RG: a self-excluded player is told on every page); every sit-down, queue, registration and UTH bet asks the second
too. Both are read by statements compiled once per process (poker_site.core.prepared_queries): a warm process
compiles no SQL for them, and they answer what the ORM's queries answer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from poker_site.responsible_gaming.models import SelfExclusion
from poker_site.responsible_gaming.services import play_refusal, self_exclusion_active
from tests.compilations import compilations_counted
from tests.tables.support import player
from wallet.models import Account
from wallet.services import player_cash_balance

pytestmark = pytest.mark.django_db


def test_a_warm_process_reads_balances_and_finds_no_exclusion_without_compiling_sql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    funded, newcomer = player(cash=12_345), player(cash=0)
    player_cash_balance(funded.pk), play_refusal(funded.pk)  # the process's first reads compile
    compiled = compilations_counted(monkeypatch)

    balances = (player_cash_balance(funded.pk), player_cash_balance(newcomer.pk))
    refusals = (play_refusal(funded.pk), play_refusal(newcomer.pk, "You cannot sit down"))

    assert compiled == []
    assert balances == (12_345, 0)
    assert refusals == (None, None)


def test_looking_at_a_balance_creates_no_account() -> None:
    newcomer = player(cash=0)
    Account.objects.filter(owner=newcomer).delete()

    assert player_cash_balance(newcomer.pk) == 0
    assert not Account.objects.filter(owner=newcomer).exists()


def test_an_exclusion_refuses_play_from_its_start_until_its_end_and_a_permanent_one_for_good() -> None:
    now = timezone.now()
    timed, permanent = player(), player()
    SelfExclusion.objects.create(user=timed, period="6m", started_at=now, ends_at=now + timedelta(days=180))
    SelfExclusion.objects.create(user=permanent, period="permanent", started_at=now, ends_at=None)

    for user in (timed, permanent):
        assert play_refusal(user.pk, at=now - timedelta(seconds=1)) is None
        refusal = play_refusal(user.pk, "You cannot sit down", at=now)
        assert refusal is not None
        assert refusal.startswith("You cannot sit down: you have excluded yourself")
        assert self_exclusion_active(user.pk, now) is not None
    assert play_refusal(timed.pk, at=now + timedelta(days=180)) is None
    assert play_refusal(permanent.pk, at=now + timedelta(days=10_000)) is not None
