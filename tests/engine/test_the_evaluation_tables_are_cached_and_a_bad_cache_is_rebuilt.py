"""The hand evaluation's lookup tables (CARD-03..CARD-06) are built once and cached beside the bytecode, so that every
process that sets the site up reads them instead of building them (0.15 s of CPU each; issue 26). The cache holds
exactly the built tables, is keyed by the source that builds them, and one that cannot be read is built again."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import _evaluation_tables as tables


@pytest.fixture
def writes_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables.sys, "dont_write_bytecode", False)


def built() -> tuple[dict[int, int], list[int]]:
    return tables._build_non_flush_table(), tables._build_flush_table()


def test_the_cache_holds_exactly_the_built_tables_and_is_read_back(tmp_path: Path, writes_bytecode: None) -> None:
    first = tables.tables_cached_or_built(tmp_path)
    assert len(list(tmp_path.glob("_evaluation_tables.*.marshal"))) == 1
    assert first == built()
    assert tables.tables_cached_or_built(tmp_path) == first
    assert first == (tables.NON_FLUSH_BY_RANK_KEY, tables.FLUSH_BY_RANK_MASK)  # what this process imported
    assert list(tmp_path.glob("*.tmp")) == []


@pytest.mark.parametrize("content", [b"", b"not marshal data", b"\xe9\x00\x00\x00"])
def test_an_unreadable_cache_is_built_again_and_replaced(tmp_path: Path, writes_bytecode: None, content: bytes) -> None:
    tables.tables_cached_or_built(tmp_path)
    (cache,) = tmp_path.glob("_evaluation_tables.*.marshal")
    cache.write_bytes(content)
    assert tables.tables_cached_or_built(tmp_path) == built()
    assert cache.read_bytes() != content


def test_no_cache_is_written_where_python_writes_no_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables.sys, "dont_write_bytecode", True)
    assert tables.tables_cached_or_built(tmp_path) == built()
    assert list(tmp_path.iterdir()) == []
