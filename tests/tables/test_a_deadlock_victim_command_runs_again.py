"""A command whose transaction PostgreSQL rolled back as a deadlock victim runs again (its service owns a durable
transaction, so the failed attempt changed nothing); a deadlock that persists, or any other database error, reaches
the caller as before."""

from __future__ import annotations

from typing import Any

import psycopg.errors
import pytest
from django.db import OperationalError

from games.runtime import commands


def _deadlock() -> OperationalError:
    error = OperationalError("deadlock detected")
    error.__cause__ = psycopg.errors.DeadlockDetected("deadlock detected")
    return error


class FailsFirst:
    """A service stand-in that raises the given errors on its first calls, then answers."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.calls = 0

    def __call__(self, *arguments: Any, **keywords: Any) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "done"


def test_a_deadlock_victim_is_run_again_and_its_answer_returned() -> None:
    service = FailsFirst(_deadlock(), _deadlock())
    assert commands.service_call(service) == "done"
    assert service.calls == 3


def test_a_deadlock_that_persists_reaches_the_caller() -> None:
    service = FailsFirst(*(_deadlock() for _ in range(commands.DEADLOCK_RETRIES + 1)))
    with pytest.raises(OperationalError):
        commands.service_call(service)
    assert service.calls == commands.DEADLOCK_RETRIES + 1


def test_another_database_error_is_not_retried() -> None:
    service = FailsFirst(OperationalError("connection lost"))
    with pytest.raises(OperationalError):
        commands.service_call(service)
    assert service.calls == 1
