"""Counting the ORM's compilations: the tests that a warm process runs a hot read or poll without building SQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models.sql.compiler import SQLCompiler


def compilations_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on (until the test ends), the name of each model whose query the ORM compiles, in order."""
    compiled: list[str] = []
    original = SQLCompiler.as_sql

    def counting(self: SQLCompiler, *arguments: Any, **keywords: Any) -> Any:
        compiled.append(self.query.model.__name__ if self.query.model is not None else "?")
        return original(self, *arguments, **keywords)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    return compiled
