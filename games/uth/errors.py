"""Refusals of the UTH services. Each says, in words a player understands, what was refused and why.

Consumers and API views catch :class:`UthRefused` and send ``error.code`` and ``error.message`` to whoever asked.
Nothing was changed when one is raised: the service's transaction rolls back.
"""

from __future__ import annotations


class UthRefused(Exception):
    """A UTH request was refused; nothing changed. ``code`` is machine-readable, ``message`` is for people."""

    code = "refused"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class TableNotFound(UthRefused):
    code = "table_not_found"


class TableClosed(UthRefused):
    code = "table_closed"


class AlreadySeated(UthRefused):
    code = "already_seated"


class NotSeated(UthRefused):
    code = "not_seated"


class BettingClosed(UthRefused):
    code = "betting_closed"


class BetRefused(UthRefused):
    code = "bet_refused"


class InsufficientFunds(UthRefused):
    code = "insufficient_funds"


class DecisionRefused(UthRefused):
    code = "decision_refused"


class NoBetsInRound(UthRefused):
    code = "no_bets"


class RoundNotChangeable(UthRefused):
    code = "round_not_changeable"


# --- responsible gaming


class SelfExcluded(UthRefused):
    """The player excluded themselves from play for a period that has not ended."""

    code = "self_excluded"
