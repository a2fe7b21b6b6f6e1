"""The reset after a transactional test (``tests/database_reset.py``, issue 26) empties what the test wrote and puts
the catalogue rows it changed back from their copies, without Django's flush: before the copies, every browser test
(its table's rules are a new ``GameRules`` row, whose trigger moves the game type's version on) paid the full flush,
3-6 s of its teardown. Each test here records its own baseline with its own copies (``schema``), so the suite's reset
of this worker is left as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.models import GameRules, GameType, Stake
from tests.database_reset import DatabaseReset, _fingerprints, _tables
from wallet.models import Leg, Transfer
from wallet.services import deposit_through_provider

pytestmark = pytest.mark.django_db(transaction=True)

COPIES = "test_reset_baseline_checked"


class FullResets:
    """Stands in for the flush: counts the times the reset fell back to it."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, test_case: Any) -> None:
        self.calls += 1


def every_table_fingerprint() -> dict[str, str]:
    with connection.cursor() as cursor:
        return _fingerprints(cursor, connection.ops.quote_name, _tables("default"))


def drop_the_copies() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f'DROP SCHEMA IF EXISTS "{COPIES}" CASCADE')


def new_rules_for_holdem() -> None:
    """What a browser test's table does: a new rules row for the game, effective now (the trigger bumps its version)."""
    rules = GameType.objects.get(code="holdem").rules_at()
    rules.pk = None
    rules.effective_from = timezone.now()
    rules.minimum_players_to_start = 2
    rules.save()


def test_changed_catalogue_rows_and_the_ledger_a_test_wrote_are_put_back_exactly_without_a_full_reset() -> None:
    before = every_table_fingerprint()
    versions_before = dict(GameType.objects.values_list("code", "rules_version"))
    full_resets = FullResets()
    reset = DatabaseReset(full_resets, schema=COPIES)
    reset.record_baseline("default")
    try:
        new_rules_for_holdem()
        Stake.objects.filter(game_type__code="holdem").update(display_order=99)
        player = get_user_model().objects.create_user("reset-check", password="a long password 1")
        deposit_through_provider(player, 5_000, "reset-check-deposit")  # append-only ledger rows (their triggers)
        assert GameType.objects.get(code="holdem").rules_version != versions_before["holdem"]

        assert reset.empty_what_the_test_filled("default")

        assert every_table_fingerprint() == before
        assert dict(GameType.objects.values_list("code", "rules_version")) == versions_before
        assert not Transfer.objects.exists()
        assert not Leg.objects.exists()
        assert not get_user_model().objects.filter(username="reset-check").exists()
        assert full_resets.calls == 0
    finally:
        drop_the_copies()


def test_a_reset_that_may_not_restore_asks_for_the_full_reset_when_a_catalogue_row_changed() -> None:
    full_resets = FullResets()
    reset = DatabaseReset(full_resets, schema=COPIES)
    reset.record_baseline("default")
    reset.restorable["default"] = False  # as for a database user who may not switch triggers off
    try:
        GameRules.objects.filter(game_type__code="holdem").update(decision_seconds=7)

        assert not reset.empty_what_the_test_filled("default")
        assert "default" not in reset.baselines  # the next reset records a new baseline after the full one
    finally:
        drop_the_copies()


def test_a_test_that_wrote_nothing_leaves_the_database_as_it_found_it() -> None:
    before = every_table_fingerprint()
    reset = DatabaseReset(FullResets(), schema=COPIES)
    reset.record_baseline("default")
    try:
        assert reset.empty_what_the_test_filled("default")
        assert every_table_fingerprint() == before
    finally:
        drop_the_copies()
