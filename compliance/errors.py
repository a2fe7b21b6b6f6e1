"""Errors the compliance desk's services raise. Each says what was refused and why; nothing was changed.

Views show ``str(error)``; ``code`` is a stable name for JSON answers. Money moves through the wallet, whose own
refusals (``wallet.errors.WalletError``: a hold already decided, a seizure larger than the hold, funds missing, a
permission missing, a reason missing) reach the caller unchanged.
"""

from __future__ import annotations


class ComplianceError(Exception):
    code = "compliance_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CaseClosed(ComplianceError):
    """An action on a case that is closed."""

    code = "case_closed"


class InvalidRequest(ComplianceError):
    """Input that cannot be acted on (an unknown player, hand or outcome, a missing text, a deadline in the past)."""

    code = "invalid_request"


class NotAllowed(ComplianceError):
    """An action the state forbids (a terminated account reinstated, a case closed with holds undecided)."""

    code = "not_allowed"


class ReportRefused(ComplianceError):
    """A player's report that cannot be taken (a hand they were not in, a player who was not in it)."""

    code = "report_refused"


class RateLimited(ComplianceError):
    """Too many reports from one player in a day."""

    code = "rate_limited"
