"""Buy-in limits when a player sits down (CASH-10..14, CASH-26, CASH-30, CASH-31) and the daily counters.

The limits depend on the table's game type:

* Regular Hold'em/Omaha (CASH-10/11/12/13, AMB-26): 50–100 BB, unless the player left this exact table within the last
  30 minutes with a stack X. Then, by the ratholing table: X <= 50 BB → 50–100 BB; 50 < X < 100 BB → X–100 BB;
  X >= 100 BB with a ratholing counter of 0–4 → 100 BB–X; X >= 100 BB with a counter of 5 or more → exactly X. A
  re-seat in the X >= 100 BB rows increments the counter (read before the re-seat). Counters reset at 00:00 UTC.
* Texas Deepstack / Omaha Shortstack (CASH-14, AMB-30): the stake's range; returning to the same table within 30
  minutes the minimum is at least X and the maximum at least X; no counter.
* Banzai (CASH-26, CASH-30, CASH-31, AMB-27, AMB-62): exactly 10 BB; after leaving any Banzai table of the same stake
  with more than 10 BB within 30 minutes, the player resumes with that stack, or — five times per UTC day — resets to
  10 BB.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.models import (
    BuyInKind,
    BuyInRule,
    DailyCounterKind,
    GameRules,
    PlayerDailyCounter,
    Stake,
    StakeTerms,
    Table,
    TableSession,
    TableStatus,
)
from games.runtime.errors import BuyInRefused, NotFound

RATHOLING_COUNTER_LIMIT = 5
"""CASH-11: from a counter of 5 the player must return with exactly the stack they left with."""


class BanzaiChoice:
    RESUME = "resume"
    RESET = "reset"


@dataclass(frozen=True)
class BuyInLimits:
    """What a player may buy in for at a table now, in cents, and why (shown in the buy-in dialog, LOB-05).

    ``kind`` is how the buy-in is recorded (a ratholing return is counted, CASH-12). For Banzai carry-overs
    ``banzai_resume_stack`` is the stack to resume with, ``banzai_resets_left`` how many Resets remain today and
    ``banzai_reset_amount`` the buy-in of a Reset (10 BB) while one remains.
    """

    minimum: int
    maximum: int
    kind: str
    rule: str
    returning_stack: int | None = None
    ratholing_counter: int | None = None
    banzai_resume_stack: int | None = None
    banzai_resets_left: int | None = None
    banzai_reset_amount: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "minimum": self.minimum,
            "maximum": self.maximum,
            "kind": self.kind,
            "rule": self.rule,
            "returning_stack": self.returning_stack,
            "ratholing_counter": self.ratholing_counter,
            "banzai_resume_stack": self.banzai_resume_stack,
            "banzai_resets_left": self.banzai_resets_left,
        }


def utc_day(moment: datetime) -> date:
    """The UTC calendar day of ``moment`` (counters reset at 00:00 UTC)."""
    return moment.astimezone(UTC).date()


def daily_count(user_id: int, kind: str, moment: datetime) -> int:
    """The player's counter of ``kind`` for the UTC day of ``moment``."""
    value = (
        PlayerDailyCounter.objects.filter(user_id=user_id, kind=kind, day=utc_day(moment))
        .values_list("count", flat=True)
        .first()
    )
    return int(value or 0)


def daily_count_increment(user_id: int, kind: str, moment: datetime) -> None:
    """Add one to the player's counter of ``kind`` for the UTC day of ``moment`` (inside the caller's transaction)."""
    counter, _created = PlayerDailyCounter.objects.get_or_create(user_id=user_id, kind=kind, day=utc_day(moment))
    PlayerDailyCounter.objects.filter(pk=counter.pk).update(count=F("count") + 1)


def _format(cents: int) -> str:
    return f"€{cents // 100}.{cents % 100:02d}"


def _last_leave(user_id: int, since: datetime, **where: object) -> TableSession | None:
    return (
        TableSession.objects.filter(user_id=user_id, ended_at__isnull=False, ended_at__gte=since, **where)
        .order_by("-ended_at", "-pk")
        .first()
    )


def buy_in_limits(
    user_id: int,
    table: Table,
    terms: StakeTerms,
    rules: GameRules,
    now: datetime,
    *,
    banzai_choice: str | None = None,
) -> BuyInLimits:
    """The buy-in limits for ``user_id`` sitting down at ``table`` at ``now`` (see the module docstring)."""
    game_type = table.cash_stake.game_type
    base_minimum, base_maximum = terms.min_buy_in, terms.max_buy_in
    since = now - timedelta(minutes=rules.rathole_window_minutes)
    if game_type.buy_in_rule == BuyInRule.BANZAI:
        return _banzai_limits(user_id, table.stake_id, terms, rules, now, since, banzai_choice)
    last = _last_leave(user_id, since, table_id=table.pk)
    if last is None or last.leave_stack is None:
        return BuyInLimits(
            base_minimum, base_maximum, BuyInKind.NORMAL, gettext("The usual buy-in range of this table")
        )
    stack = last.leave_stack
    if game_type.buy_in_rule == BuyInRule.NO_RATHOLING:
        return BuyInLimits(
            max(base_minimum, stack),
            max(base_maximum, stack),
            BuyInKind.NORMAL,
            gettext(
                "You left this table with %(stack)s less than %(minutes)d minutes ago: at this table you come back "
                "with at least the stack you left with"
            )
            % {"stack": _format(stack), "minutes": rules.rathole_window_minutes},
            returning_stack=stack,
        )
    big_blind = last.leave_big_blind or terms.big_blind
    low_threshold = terms.min_buy_in_big_blinds * big_blind
    high_threshold = terms.max_buy_in_big_blinds * big_blind
    if stack <= low_threshold:
        return BuyInLimits(
            base_minimum,
            base_maximum,
            BuyInKind.NORMAL,
            gettext("You left this table with 50 big blinds or less: the usual buy-in range applies"),
            returning_stack=stack,
        )
    if stack < high_threshold:
        return BuyInLimits(
            stack,
            base_maximum,
            BuyInKind.NORMAL,
            gettext(
                "You left this table with %(stack)s less than %(minutes)d minutes ago: you come back with at least "
                "that stack"
            )
            % {"stack": _format(stack), "minutes": rules.rathole_window_minutes},
            returning_stack=stack,
        )
    counter = daily_count(user_id, DailyCounterKind.RATHOLING, now)
    if counter < RATHOLING_COUNTER_LIMIT:
        return BuyInLimits(
            base_maximum,
            stack,
            BuyInKind.RATHOLE_RETURN,
            ngettext(
                "You left this table with %(stack)s less than %(minutes)d minutes ago: you may bring back up to that "
                "stack. Today you have come back to a table with a big stack %(count)d time; from the %(limit)dth "
                "time you bring back all of it",
                "You left this table with %(stack)s less than %(minutes)d minutes ago: you may bring back up to that "
                "stack. Today you have come back to a table with a big stack %(count)d times; from the %(limit)dth "
                "time you bring back all of it",
                counter,
            )
            % {
                "stack": _format(stack),
                "minutes": rules.rathole_window_minutes,
                "count": counter,
                "limit": RATHOLING_COUNTER_LIMIT + 1,
            },
            returning_stack=stack,
            ratholing_counter=counter,
        )
    return BuyInLimits(
        stack,
        stack,
        BuyInKind.RATHOLE_RETURN,
        gettext(
            "You left this table with %(stack)s less than %(minutes)d minutes ago and have come back to a table with a "
            "big stack %(count)d times today: you bring back all of it"
        )
        % {"stack": _format(stack), "minutes": rules.rathole_window_minutes, "count": counter},
        returning_stack=stack,
        ratholing_counter=counter,
    )


def stake_buy_in_limits(
    user_id: int,
    stake: Stake,
    terms: StakeTerms,
    rules: GameRules,
    now: datetime,
    *,
    banzai_choice: str | None = None,
) -> BuyInLimits:
    """The buy-in limits for ``user_id`` asking to play ``stake`` at ``now`` (the lobby's buy-in dialog, LOB-05, and
    the stake queue's check before it queues a request): the player chooses a stake, not a table (CASH-04).

    * Banzai: the carry-over applies at any table of the stake (CASH-30, AMB-62), so these are the table limits.
    * Otherwise: the limits at the table of the stake the player left last within the ratholing window while it is
      still open (the queue favours tables played at, AMB-63, and that table checks CASH-11/14 when it seats them);
      the stake's range when there is none. Another table of the stake would take the usual range (CASH-13)."""
    since = now - timedelta(minutes=rules.rathole_window_minutes)
    if stake.game_type.buy_in_rule == BuyInRule.BANZAI:
        return _banzai_limits(user_id, stake.pk, terms, rules, now, since, banzai_choice)
    last = _last_leave(user_id, since, table__stake_id=stake.pk)
    if last is not None and last.leave_stack is not None:
        table = Table.objects.select_related("stake__game_type").filter(pk=last.table_id).first()
        if table is not None and table.status == TableStatus.OPEN:
            return buy_in_limits(user_id, table, terms, rules, now, banzai_choice=banzai_choice)
    return BuyInLimits(
        terms.min_buy_in, terms.max_buy_in, BuyInKind.NORMAL, gettext("The usual buy-in range of this table")
    )


def player_stake_buy_in_limits(user_id: int, stake: Stake, *, now: datetime | None = None) -> BuyInLimits:
    """Read-only: what ``user_id`` may buy in for at ``stake`` now (the lobby's buy-in dialog, LOB-05), see
    :func:`stake_buy_in_limits`. Refused (:class:`NotFound`) when the stake is not offered."""
    moment = now or timezone.now()
    try:
        terms = stake.terms_at(moment)
    except StakeTerms.DoesNotExist:
        raise NotFound(f"{stake} is not offered.") from None
    if not terms.enabled or not stake.game_type.enabled:
        raise NotFound(f"{stake} is not offered.")
    return stake_buy_in_limits(user_id, stake, terms, stake.game_type.rules_at(moment), moment)


def limits_refusal(limits: BuyInLimits) -> BuyInRefused:
    """The refusal of a buy-in outside the player's own ``limits``, naming them and why (CASH-10..14, CASH-26..31)."""
    span = (
        f"exactly {_format(limits.minimum)}"
        if limits.minimum == limits.maximum
        else f"{_format(limits.minimum)} to {_format(limits.maximum)}"
    )
    return BuyInRefused(
        f"The buy-in here must be {span}: {limits.rule}.", minimum=limits.minimum, maximum=limits.maximum
    )


def _banzai_limits(
    user_id: int,
    stake_id: int | None,
    terms: StakeTerms,
    rules: GameRules,
    now: datetime,
    since: datetime,
    banzai_choice: str | None,
) -> BuyInLimits:
    ten_big_blinds = terms.max_buy_in
    last = _last_leave(user_id, since, table__stake_id=stake_id)
    if last is None or last.leave_stack is None or last.leave_stack <= ten_big_blinds:
        if banzai_choice not in (None, BanzaiChoice.RESET, BanzaiChoice.RESUME):
            raise BuyInRefused(f"Unknown Banzai choice {banzai_choice!r}; choose resume or reset.")
        return BuyInLimits(
            ten_big_blinds, ten_big_blinds, BuyInKind.NORMAL, gettext("A Banzai buy-in is exactly 10 big blinds")
        )
    stack = last.leave_stack
    resets_left = max(0, rules.banzai_resets_per_day - daily_count(user_id, DailyCounterKind.BANZAI_RESET, now))
    if banzai_choice == BanzaiChoice.RESET:
        if resets_left == 0:
            raise BuyInRefused(
                f"You have used all {rules.banzai_resets_per_day} Banzai resets today; you can resume with "
                f"{_format(stack)}.",
                minimum=stack,
                maximum=stack,
            )
        return BuyInLimits(
            ten_big_blinds,
            ten_big_blinds,
            BuyInKind.BANZAI_RESET,
            gettext("Reset: you start again with 10 big blinds"),
            returning_stack=stack,
            banzai_resume_stack=stack,
            banzai_resets_left=resets_left,
        )
    if banzai_choice not in (None, BanzaiChoice.RESUME):
        raise BuyInRefused(f"Unknown Banzai choice {banzai_choice!r}; choose resume or reset.")
    return BuyInLimits(
        stack,
        stack,
        BuyInKind.BANZAI_RESUME,
        (
            ngettext(
                "You left a Banzai table of this stake with %(stack)s less than %(minutes)d minutes ago: resume with "
                "that stack or reset to 10 big blinds (%(count)d reset left today)",
                "You left a Banzai table of this stake with %(stack)s less than %(minutes)d minutes ago: resume with "
                "that stack or reset to 10 big blinds (%(count)d resets left today)",
                resets_left,
            )
            if resets_left
            else gettext(
                "You left a Banzai table of this stake with %(stack)s less than %(minutes)d minutes ago: resume with "
                "that stack (no resets left today)"
            )
        )
        % {"stack": _format(stack), "minutes": rules.rathole_window_minutes, "count": resets_left},
        returning_stack=stack,
        banzai_resume_stack=stack,
        banzai_resets_left=resets_left,
        banzai_reset_amount=ten_big_blinds if resets_left else None,
    )
