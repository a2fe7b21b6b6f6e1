"""The launcher runs ``TABLE_PROCESSES`` ``manage.py run_tables`` processes (issue 27: table actors owning tables by
lease) when ``TABLE_ACTORS`` is on — the default, except under ``ENVIRONMENT=test`` — and none when it is off (the
per-action durable path)."""

from __future__ import annotations

import pytest

from poker_site.launcher import listening_socket, site_processes, table_processes_from_environment


def test_table_processes_follow_table_actors_and_table_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLE_ACTORS", raising=False)
    monkeypatch.setenv("TABLE_PROCESSES", "3")
    monkeypatch.setenv("ENVIRONMENT", "test")
    assert table_processes_from_environment() == 0
    monkeypatch.setenv("TABLE_ACTORS", "on")
    assert table_processes_from_environment() == 3
    monkeypatch.delenv("TABLE_PROCESSES")
    assert table_processes_from_environment() == 1
    monkeypatch.setenv("TABLE_ACTORS", "off")
    assert table_processes_from_environment() == 0


@pytest.mark.parametrize("environment", ["development", "production", None])
def test_table_actors_are_on_by_default_outside_tests(monkeypatch: pytest.MonkeyPatch, environment: str | None) -> None:
    monkeypatch.delenv("TABLE_ACTORS", raising=False)
    monkeypatch.delenv("TABLE_PROCESSES", raising=False)
    if environment is None:
        monkeypatch.delenv("ENVIRONMENT", raising=False)
    else:
        monkeypatch.setenv("ENVIRONMENT", environment)
    assert table_processes_from_environment() == 1


def test_each_table_process_is_a_supervised_run_tables_child() -> None:
    listener = listening_socket("127.0.0.1", 0)
    try:
        assert not [child for child in site_processes(listener) if "run_tables" in child.command]
        children = {child.name: child.command for child in site_processes(listener, table_processes=2)}
        assert [name for name, command in children.items() if command[-1] == "run_tables"] == ["tables-1", "tables-2"]
        single = [child.name for child in site_processes(listener, table_processes=1) if "run_tables" in child.command]
        assert single == ["tables"]
    finally:
        listener.close()
