"""TRN-02 / ENG-08: blind structures as data — the default multi-table and Sit & Go structures (conventional: the
catalog gives none besides HexaPro), their turbo variants, and the refusal of impossible levels."""

from __future__ import annotations

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.levels import (
    DEFAULT_MULTI_TABLE_STRUCTURE,
    DEFAULT_SIT_AND_GO_STRUCTURE,
    TURBO_MULTI_TABLE_STRUCTURE,
    TURBO_SIT_AND_GO_STRUCTURE,
    BlindLevel,
    BlindStructure,
)


def test_trn_02_the_default_multi_table_structure_starts_at_50_100_with_10000_chips_and_10_minute_levels() -> None:
    structure = DEFAULT_MULTI_TABLE_STRUCTURE
    assert structure.starting_stack == 10_000
    assert structure.levels[0] == BlindLevel(50, 100, 0, 600)
    assert {level.duration_seconds for level in structure.levels} == {600}
    assert [level.ante for level in structure.levels[:3]] == [0, 0, 0]
    assert all(level.ante > 0 for level in structure.levels[3:])  # antes from level 4 (ENG-08)


def test_trn_02_the_default_sit_and_go_structure_starts_at_10_20_with_1500_chips_and_5_minute_levels() -> None:
    structure = DEFAULT_SIT_AND_GO_STRUCTURE
    assert structure.starting_stack == 1_500
    assert structure.levels[0] == BlindLevel(10, 20, 0, 300)
    assert {level.duration_seconds for level in structure.levels} == {300}
    assert structure.levels[6].ante > 0
    assert all(level.ante == 0 for level in structure.levels[:6])


@pytest.mark.parametrize(
    "structure", [DEFAULT_MULTI_TABLE_STRUCTURE, DEFAULT_SIT_AND_GO_STRUCTURE], ids=lambda s: s.name
)
def test_blinds_never_fall_from_one_level_to_the_next(structure: BlindStructure) -> None:
    for lower, higher in zip(structure.levels, structure.levels[1:], strict=False):
        assert (higher.small_blind, higher.big_blind, higher.ante) >= (lower.small_blind, lower.big_blind, lower.ante)
        assert higher.big_blind >= lower.big_blind
        assert higher.ante >= lower.ante


def test_the_turbo_variants_keep_the_blinds_with_one_or_two_minute_levels() -> None:
    assert [(level.small_blind, level.big_blind, level.ante) for level in TURBO_MULTI_TABLE_STRUCTURE.levels] == [
        (level.small_blind, level.big_blind, level.ante) for level in DEFAULT_MULTI_TABLE_STRUCTURE.levels
    ]
    assert {level.duration_seconds for level in TURBO_MULTI_TABLE_STRUCTURE.levels} == {120}
    assert {level.duration_seconds for level in TURBO_SIT_AND_GO_STRUCTURE.levels} == {60}
    assert TURBO_SIT_AND_GO_STRUCTURE.starting_stack == DEFAULT_SIT_AND_GO_STRUCTURE.starting_stack


def test_after_the_last_level_the_last_level_stays_in_force() -> None:
    structure = DEFAULT_SIT_AND_GO_STRUCTURE
    assert structure.level(len(structure.levels) + 5) == structure.levels[-1]
    assert structure.level(1) == structure.levels[0]


@pytest.mark.parametrize(
    ("small_blind", "big_blind", "ante", "duration"),
    [(200, 100, 0, 600), (0, 100, 0, 600), (50, 100, -1, 600), (50, 100, 0, 0), (50, 100, 0, 1.5), (True, 2, 0, 60)],
)
def test_an_impossible_level_is_refused(small_blind: int, big_blind: int, ante: int, duration: int) -> None:
    with pytest.raises(RuleError):
        BlindLevel(small_blind, big_blind, ante, duration)


def test_a_structure_without_levels_or_chips_is_refused() -> None:
    with pytest.raises(RuleError):
        BlindStructure("empty", 1_000, ())
    with pytest.raises(RuleError):
        BlindStructure("no chips", 0, (BlindLevel(10, 20, 0, 60),))
