"""LOB-10: docs/roles.md states the role table written in poker_site/accounts/role_table.py, row for row; they cannot
drift apart (``manage.py role_table --write`` brings the page up to date, ``--check`` says whether it is)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from poker_site.accounts.role_table import ADMIN_POWERS, page_with_table

ROLES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "roles.md"


def test_the_roles_page_shows_the_table_in_code() -> None:
    page = ROLES_PAGE.read_text(encoding="utf-8")

    assert page_with_table(page) == page, "docs/roles.md is out of date: run `manage.py role_table --write`"
    assert all(f"| `{label}` |" in page for label in ADMIN_POWERS)


def test_the_check_fails_on_a_page_whose_table_was_edited_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edited = tmp_path / "roles.md"
    edited.write_text(ROLES_PAGE.read_text(encoding="utf-8").replace("| `auth.group` | — |", "| `auth.group` | view |"))
    monkeypatch.setattr("poker_site.accounts.management.commands.role_table.ROLES_PAGE", edited)

    with pytest.raises(CommandError, match="out of date"):
        call_command("role_table", "--check")
    call_command("role_table", "--write")
    call_command("role_table", "--check")
    assert edited.read_text(encoding="utf-8") == ROLES_PAGE.read_text(encoding="utf-8")


def test_a_page_without_the_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="no role table"):
        page_with_table("# Roles\n")
