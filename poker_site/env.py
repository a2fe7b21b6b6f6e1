"""Strict, typed readers for configuration from environment variables.

Every reader raises ``ImproperlyConfigured`` naming the variable when a value is present but
malformed, so a typo in production fails at start-up instead of silently using a default.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def string(name: str, default: str | None = None) -> str:
    """Return the variable's value; without a default a missing variable is an error."""
    value = os.environ.get(name)
    if value is None or value == "":
        if default is None:
            raise ImproperlyConfigured(f"The environment variable {name} must be set.")
        return default
    return value


def table_actors() -> bool:
    """``TABLE_ACTORS``: whether ``run_tables`` processes play the tables (issue 27). On by default; off by default
    under ``ENVIRONMENT=test``, where the test process itself drives the durable services in process (the sites the
    tests start set it on, as a deployment has it)."""
    return boolean("TABLE_ACTORS", os.environ.get("ENVIRONMENT", "development") != "test")


def optional_string(name: str) -> str | None:
    """Return the variable's value, or None when it is unset or empty."""
    value = os.environ.get(name)
    return value or None


def boolean(name: str, default: bool) -> bool:
    """Read 1/0, true/false, yes/no or on/off (any case)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in TRUE_WORDS:
        return True
    if lowered in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false, 1/0, yes/no, on/off), not {value!r}.")


def integer(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Read a whole number, optionally bounded."""
    value = os.environ.get(name)
    if value is None or value == "":
        number = default
    else:
        try:
            number = int(value.strip())
        except ValueError as error:
            raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from error
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {number}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, not {number}.")
    return number


def number(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """Read a decimal number (seconds, say), optionally bounded."""
    value = os.environ.get(name)
    if value is None or value == "":
        result = default
    else:
        try:
            result = float(value.strip())
        except ValueError as error:
            raise ImproperlyConfigured(f"{name} must be a number, not {value!r}.") from error
        if not math.isfinite(result):
            raise ImproperlyConfigured(f"{name} must be a finite number, not {value!r}.")
    if minimum is not None and result < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {result}.")
    if maximum is not None and result > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, not {result}.")
    return result


def string_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; blank items are dropped."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """Read one of a fixed set of words."""
    value = string(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {value!r}.")
    return value


@dataclass(frozen=True)
class DatabaseAddress:
    """The parts of a ``postgresql://user:password@host:port/name?host=/socket/dir`` URL."""

    name: str
    user: str
    password: str
    host: str
    port: str


def database_address(url: str) -> DatabaseAddress:
    """Parse a PostgreSQL URL; a ``host`` query parameter (a socket directory) overrides the netloc host."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "postgresql+psycopg"}:
        raise ImproperlyConfigured(f"DATABASE_URL must be a postgresql:// URL, not {parts.scheme!r}.")
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured(
            "DATABASE_URL must name a database, e.g. postgresql://postgres@127.0.0.1:5432/poker."
        )
    query = parse_qs(parts.query)
    host = query.get("host", [parts.hostname or ""])[0]
    return DatabaseAddress(
        name=name,
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        host=host,
        port=str(parts.port or ""),
    )


@dataclass(frozen=True)
class DatabasePool:
    """The bounds of one process's database connection pool (``psycopg_pool.ConnectionPool`` through Django)."""

    minimum_size: int
    maximum_size: int
    timeout_seconds: float
    maximum_waiting: int

    def options(self) -> dict[str, object]:
        """Django's ``OPTIONS["pool"]`` (the keyword arguments of ``psycopg_pool.ConnectionPool``)."""
        return {
            "min_size": self.minimum_size,
            "max_size": self.maximum_size,
            "timeout": self.timeout_seconds,
            "max_waiting": self.maximum_waiting,
        }


def database_pool(*, enabled_by_default: bool) -> DatabasePool | None:
    """Read DATABASE_POOL and its DATABASE_POOL_* bounds; None when pooling is off."""
    if not boolean("DATABASE_POOL", enabled_by_default):
        return None
    minimum_size = integer("DATABASE_POOL_MIN_SIZE", 2, minimum=0)
    maximum_size = integer("DATABASE_POOL_MAX_SIZE", 10, minimum=1)
    if maximum_size < minimum_size:
        raise ImproperlyConfigured(
            f"DATABASE_POOL_MAX_SIZE ({maximum_size}) must be at least DATABASE_POOL_MIN_SIZE ({minimum_size})."
        )
    return DatabasePool(
        minimum_size=minimum_size,
        maximum_size=maximum_size,
        timeout_seconds=number("DATABASE_POOL_TIMEOUT", 3.0, minimum=0.05),
        maximum_waiting=integer("DATABASE_POOL_MAX_WAITING", 0, minimum=0),
    )
