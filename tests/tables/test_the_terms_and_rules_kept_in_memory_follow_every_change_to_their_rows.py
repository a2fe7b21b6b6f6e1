"""The stake terms and game rules in force are kept in memory by each process (``games.models.catalog.terms_in_force``
/ ``rules_in_force``: a hand start reads no catalog rows, issue 27), yet every hand is dealt under the row in force at
its deal (catalog section 0.3, RAKE-08, TB-05): a row added by staff takes effect at the next hand, a row scheduled for
later at the first hand dealt from its time, a future row corrected or withdrawn is dealt as corrected or not at all.
The database moves the stake's ``terms_version`` / the game type's ``rules_version`` with every change to their rows
(a trigger: whoever changes them), never back, and a process reads the rows again when the version it loads with the
table is not the one it kept them under."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameRules, GameType, Hand, Stake, StakeTerms
from games.models.catalog import rules_in_force, terms_in_force
from games.runtime.locking import table_terms
from tests.tables.support import START, check_or_call_down, deal, fresh, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def _terms_row(stake: Stake, effective_from: Any, big_blind: int, rake_rate: int = 350) -> StakeTerms:
    return StakeTerms.objects.create(
        stake=stake,
        effective_from=effective_from,
        small_blind=big_blind // 2,
        big_blind=big_blind,
        min_buy_in_big_blinds=50,
        max_buy_in_big_blinds=100,
        seats=6,
        rake_rate_basis_points=rake_rate,
        rake_cap=100,
        rake_small_hand_cap=100,
    )


def _catalog_reads(queries: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in queries.captured_queries
        if '"games_staketerms"' in query["sql"] or '"games_gamerules"' in query["sql"]
    ]


def test_the_terms_and_rules_in_force_are_read_once_and_then_kept_while_their_rows_are_unchanged() -> None:
    table = open_table("holdem", "NL10")
    terms, rules = table_terms(fresh(table), START)
    assert terms == table.stake.terms_at(START)
    assert rules == table.stake.game_type.rules_at(START)

    with CaptureQueriesContext(connection) as queries:
        kept_terms, kept_rules = table_terms(fresh(table), START + timedelta(minutes=5))
    assert _catalog_reads(queries) == []
    assert (kept_terms, kept_rules) == (terms, rules)
    assert kept_terms.stake.pk == table.stake_id  # the row's stake is the caller's, read with the table
    assert kept_terms is not terms  # a copy per caller: no two threads share a row instance


def test_a_terms_row_staff_add_now_deals_the_next_hand_though_the_terms_were_kept_catalog_0_3_rake_08() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1000)
    first = deal(table, now=START)
    old = first.stake_terms
    check_or_call_down(table)

    added = _terms_row(table.stake, START + timedelta(seconds=30), big_blind=20, rake_rate=500)
    second = deal(table, seed=2, now=START + timedelta(minutes=1))

    assert Hand.objects.get(pk=first.pk).stake_terms == old
    assert Hand.objects.get(pk=second.pk).stake_terms == added
    assert second.config["big_blind"] == 20


def test_a_row_scheduled_for_later_deals_the_first_hand_from_its_time_without_reading_the_rows_again() -> None:
    table = open_table("holdem", "NL10")
    stake = Stake.objects.select_related("game_type").get(pk=table.stake_id)
    takes_effect = START + timedelta(hours=1)
    old = terms_in_force(stake, START)
    scheduled = _terms_row(stake, takes_effect, big_blind=40)
    stake = Stake.objects.select_related("game_type").get(
        pk=table.stake_id
    )  # read after the change, as a lock reads it

    assert terms_in_force(stake, takes_effect - timedelta(microseconds=1)) == old  # reads the rows afresh: new version
    with CaptureQueriesContext(connection) as queries:
        at_its_time = terms_in_force(stake, takes_effect)
        after = terms_in_force(stake, takes_effect + timedelta(days=3))
    assert _catalog_reads(queries) == []
    assert at_its_time == scheduled
    assert after == scheduled

    seat_players(table, [player() for _ in range(3)], 1000)
    before_its_time = deal(table, now=takes_effect - timedelta(seconds=1))
    check_or_call_down(table, now=takes_effect - timedelta(seconds=1))
    from_its_time = deal(table, seed=2, now=takes_effect)
    assert before_its_time.stake_terms == old
    assert from_its_time.stake_terms == scheduled


def test_a_future_row_corrected_or_withdrawn_before_its_time_is_dealt_as_corrected_or_not_at_all() -> None:
    table = open_table("holdem", "NL10")
    stake = table.stake
    takes_effect = START + timedelta(hours=1)
    old = terms_in_force(fresh(table).cash_stake, START)
    future = _terms_row(stake, takes_effect, big_blind=40)
    assert terms_in_force(fresh(table).cash_stake, takes_effect).big_blind == 40  # kept with the future row

    StakeTerms.objects.filter(pk=future.pk).update(big_blind=30, small_blind=15)  # corrected, by any SQL at all
    assert terms_in_force(fresh(table).cash_stake, takes_effect).big_blind == 30

    future.delete()  # withdrawn
    assert terms_in_force(fresh(table).cash_stake, takes_effect) == old


def test_a_game_rules_row_added_by_staff_sets_the_clock_of_the_next_hand_tb_05() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1000)
    first = deal(table, now=START)
    assert first.game_rules is not None
    decision = first.game_rules.decision_seconds
    check_or_call_down(table)

    faster = GameRules.objects.get(pk=first.game_rules.pk)
    faster.pk = None
    faster.effective_from = START + timedelta(seconds=30)
    faster.decision_seconds = decision + 7
    faster.save()
    moment = START + timedelta(minutes=1)
    second = deal(table, seed=2, now=moment)

    assert second.game_rules == faster
    assert second.action_deadline == moment + timedelta(seconds=decision + 7)
    assert rules_in_force(fresh(table).cash_stake.game_type, moment) == faster


def test_the_versions_move_with_every_change_and_a_stale_save_of_the_stake_or_game_type_never_moves_them_back() -> None:
    table = open_table("holdem", "NL10")
    stake_read_earlier = Stake.objects.get(pk=table.stake_id)  # an admin form opened before the change
    game_type_read_earlier = GameType.objects.get(pk=stake_read_earlier.game_type_id)
    terms_version, rules_version = stake_read_earlier.terms_version, game_type_read_earlier.rules_version

    _terms_row(stake_read_earlier, START + timedelta(days=1), big_blind=40)
    rules = GameRules.objects.filter(game_type_id=game_type_read_earlier.pk).latest("effective_from", "pk")
    rules.pk = None
    rules.effective_from = START + timedelta(days=1)
    rules.save()
    moved_terms = Stake.objects.get(pk=table.stake_id).terms_version
    moved_rules = GameType.objects.get(pk=game_type_read_earlier.pk).rules_version
    assert moved_terms > terms_version
    assert moved_rules > rules_version

    stake_read_earlier.display_order += 1
    stake_read_earlier.save()  # writes every field, the version it read included
    game_type_read_earlier.save()
    assert Stake.objects.get(pk=table.stake_id).terms_version == moved_terms
    assert GameType.objects.get(pk=game_type_read_earlier.pk).rules_version == moved_rules
