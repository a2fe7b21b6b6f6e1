"""Template context every page needs: the logged-in player's cash balance for the header."""

from __future__ import annotations

from django.http import HttpRequest

from wallet.services import player_cash_balance


def header_balance(request: HttpRequest) -> dict[str, object]:
    """``header_balance_cents``: the player's cash balance (0 before their first deposit), ``None`` when logged out.

    Read only: a page view never creates the wallet account (the cashier does that on the first deposit).
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"header_balance_cents": None}
    return {"header_balance_cents": player_cash_balance(user.pk)}
