"""The engine's refusals in a player's words: money (or chips) and names, never raw cents and seat numbers.

The engine (:mod:`games.engine`) is pure standard library: an :class:`~games.engine.actions.IllegalAction` carries its
own reason, with amounts in the table's units (cents at a cash table, chips at a tournament table) and seats by number
("minimum raise is to 8", "cannot raise to 1000000000000: seat 5 has only 400 in total"). This is where the table
runtime turns such a reason into the message of the ``illegal_action`` refusal a player reads (QA report F, finding 5):
translated (gettext) and with amounts in the site's money format for the active language
(:func:`poker_site.core.templatetags.money.format_money`: "€0.08", in Estonian "0,08 €") or as
chips at a tournament table, the player's own seat as "you" and another seat by its player's table name. A reason this
module does not know is passed on as the engine wrote it, with a capital letter (never dropped).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from poker_site.core.templatetags.money import format_money

Amount = Callable[[int], str]


def amount_formatter(chips: bool) -> Amount:
    """How an amount is written: euros at a cash table (integer cents), whole chips at a tournament table."""
    if chips:
        return lambda value: ngettext("%(count)s chip", "%(count)s chips", value) % {"count": f"{value:,}"}
    return format_money


def seat_name(seats: Mapping[int, Any], number: int) -> str:
    """The table name of the player in seat ``number`` (a seat nobody holds: "seat N")."""
    seat = seats.get(number)
    user = getattr(seat, "user", None) if seat is not None else None
    name = getattr(user, "table_name", None) if user is not None else None
    return str(name) if name else gettext("seat %(number)d") % {"number": number}


def _may_raise(reason: str) -> str | None:
    """The engine's reasons why the player may not bet or raise (``HandState._may_raise``)."""
    if reason == "your stack only covers a call":
        return gettext("your stack only covers a call")
    if reason.startswith("the betting was not reopened since you acted"):
        return gettext(
            "the betting was not reopened since you acted (an all-in for less than a full raise does not reopen it)"
        )
    if reason == "every other player is all-in or covered, so there is nobody to raise against":
        return gettext("every other player is all-in or covered, so there is nobody to raise against")
    return None


def engine_refusal(reason: str, *, seats: Mapping[int, Any], chips: bool) -> str:
    """The player's message for the engine's ``reason`` (see the module docstring)."""
    money = amount_formatter(chips)
    text = reason.strip()

    def match(pattern: str) -> re.Match[str] | None:
        return re.fullmatch(pattern, text)

    if m := match(r"minimum raise is to (\d+)"):
        return gettext("The smallest raise is to %(amount)s.") % {"amount": money(int(m[1]))}
    if m := match(r"minimum bet is (\d+)"):
        return gettext("The smallest bet is %(amount)s.") % {"amount": money(int(m[1]))}
    if m := match(r"pot-limit maximum is (\d+)"):
        return gettext("The largest bet or raise the pot allows is to %(amount)s.") % {"amount": money(int(m[1]))}
    if m := match(r"cannot (bet|raise) to (\d+): seat (\d+) has only (\d+) in total"):
        values = {"amount": money(int(m[2])), "total": money(int(m[4]))}
        if m[1] == "bet":
            return gettext("You cannot bet %(amount)s: you have only %(total)s in total.") % values
        return gettext("You cannot raise to %(amount)s: you have only %(total)s in total.") % values
    if m := match(r"cannot check facing a bet of (\d+); call (\d+), raise or fold"):
        return gettext("You cannot check facing a bet of %(bet)s: call %(call)s, raise or fold.") % {
            "bet": money(int(m[1])),
            "call": money(int(m[2])),
        }
    if text == "there is no bet to call; check instead":
        return gettext("There is no bet to call: check instead.")
    if m := match(r"there is already a bet of (\d+) in this round; raise instead"):
        return gettext("There is already a bet of %(amount)s in this round: raise instead.") % {
            "amount": money(int(m[1]))
        }
    if text == "there is no bet to raise in this round; bet instead":
        return gettext("There is no bet to raise in this round: bet instead.")
    if (m := match(r"cannot (bet|raise): (.+)")) and (why := _may_raise(m[2])):
        if m[1] == "bet":
            return gettext("You cannot bet: %(reason)s.") % {"reason": why}
        return gettext("You cannot raise: %(reason)s.") % {"reason": why}
    if (m := match(r"cannot go all-in: (.+); call (\d+) or fold")) and (why := _may_raise(m[1])):
        return gettext("You cannot go all-in: %(reason)s; call %(call)s or fold.") % {
            "reason": why,
            "call": money(int(m[2])),
        }
    if why := _may_raise(text):
        return gettext("You cannot go all-in: %(reason)s.") % {"reason": why}
    if m := match(r"cannot go all-in for (\d+): pot-limit maximum is (\d+)"):
        return gettext("You cannot go all-in for %(amount)s: the most the pot allows is %(maximum)s.") % {
            "amount": money(int(m[1])),
            "maximum": money(int(m[2])),
        }
    if m := match(r"it is seat (\d+)'s turn, not seat (\d+)'s"):
        return gettext("It is not your turn: %(name)s is to act.") % {"name": seat_name(seats, int(m[1]))}
    if match(r"seat (\d+) has folded"):
        return gettext("You have folded in this hand.")
    if match(r"seat (\d+) is not dealt into this hand"):
        return gettext("You are not dealt into this hand.")
    if m := match(r"seat (\d+) must post the (.+) first"):
        return gettext("The blinds must be posted first (%(name)s is to post).") % {"name": seat_name(seats, int(m[1]))}
    if text == "forced bets have already been posted":
        return gettext("The blinds have already been posted.")
    if text == "the hand is over":
        return gettext("The hand is over.")
    if match(r"amount must be positive, not (-?\d+)"):
        return gettext("The amount must be positive.")
    if match(r"(bet|raise_to) needs an amount"):
        return gettext("A bet or a raise needs an amount.")
    if m := match(r"unexpected field\(s\) for \w+: (.+)"):
        return gettext("That action takes no %(fields)s.") % {"fields": m[1]}
    if match(r"amount must be a whole number of chips, not .*"):
        return (
            gettext("The amount must be a whole number of chips.")
            if chips
            else gettext("The amount must be a whole number of cents.")
        )
    if match(r"amount (\d+) is too large"):
        return gettext("That amount is too large.")
    if not text:
        return gettext("That action is not allowed now.")
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
