"""Refusals of the tournament services: each carries a ``code`` and a player-facing ``message``; when one is raised
nothing has changed. The table socket and the APIs turn them into their error answers."""

from __future__ import annotations


class TournamentError(Exception):
    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TournamentNotFound(TournamentError):
    code = "not_found"


class RegistrationClosed(TournamentError):
    """The tournament takes no registration now. The subclasses name the reason when it is not simply that
    registration (or late registration) has closed, so that each refusal says what is true."""

    code = "registration_closed"


class RegistrationNotOpen(RegistrationClosed):
    """Registration has not opened yet (an announced tournament)."""

    code = "registration_not_open"


class TournamentFull(RegistrationClosed):
    """Every seat of a Sit & Go, or the maximum of entries of a scheduled tournament, is taken."""

    code = "tournament_full"


class TournamentCancelled(RegistrationClosed):
    """The tournament was cancelled: nobody registers for it or unregisters from it any more."""

    code = "tournament_cancelled"


class TournamentFinished(RegistrationClosed):
    """The tournament is over."""

    code = "tournament_finished"


class AlreadyRegistered(TournamentError):
    code = "already_registered"


class NotRegistered(TournamentError):
    code = "not_registered"


class NotEligible(TournamentError):
    code = "not_eligible"


class InsufficientBalance(TournamentError):
    code = "insufficient_balance"


class NotAllowedNow(TournamentError):
    code = "not_allowed_now"


class ReasonRequired(TournamentError):
    code = "reason_required"


class InvalidRequest(TournamentError):
    """The request itself is wrong (a buy-in not offered, a number of games out of range), whatever the state."""

    code = "invalid_request"


# --- responsible gaming


class KeyReused(TournamentError):
    """The Idempotency-Key was already used by the player for a different request (wallet's IdempotencyConflict)."""

    code = "idempotency_conflict"


class SelfExcluded(TournamentError):
    """The player excluded themselves from play for a period that has not ended."""

    code = "self_excluded"
