"""Chat at cash and tournament tables, and the mutes that silence a player's chat (issue 22, UTH-33).

A chat line is sent over the table socket (``chat``) and posted by :func:`chat_message_post`: it must meet the rules
of :mod:`games.chat.rules`, come from a player seated at the table (watchers read the chat but do not write in it:
FRD-01 forbids chat that helps a player, and someone who is not in the game has no other reason to talk to those who
are), from a player whose chat is not muted, and within the rate limit (:mod:`games.chat.limits`). An accepted line is
appended to the table's event log as a public ``chat_message`` event with the hand in play (so the hand's reviewers
read it with the hand), and reaches the table's sockets after commit with its sequence number like every event. A
refused line raises :class:`~games.chat.errors.ChatRefused` and stores nothing.

Moderation (UTH-33): a line with offensive language is refused with a warning; another within
``CHAT_WARNING_SECONDS`` mutes the player's chat for ``CHAT_AUTOMATIC_MUTE_MINUTES``. Staff holding
``games.mute_chat`` (support) mute a player for a period and lift a mute, with a reason; every mute and lift is
written to the audit log in its transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.chat.errors import ChatRefused
from games.chat.limits import chat_counters_clear, chat_rate_reserve, chat_warning_count
from games.chat.rules import ChatLineRefused, chat_line_clean, chat_line_offends
from games.models import ChatMute, Seat, Table
from games.runtime.events import NewEvent, events_append
from games.runtime.locking import table_lock_with_hand
from wallet.services.audit import audit_record, audit_target

CHAT_EVENT = "chat_message"
"""The kind of a chat line in a table's event log (cash, tournament and UTH tables alike)."""
MAXIMUM_MUTE_MINUTES = 30 * 24 * 60
"""Longest mute staff may give at once (30 days); a longer one is a sanction for the compliance desk."""
AUTOMATIC_MUTE_REASON = "Automated moderation: offensive language again after a warning."  # UTH-33
WARNINGS_BEFORE_MUTE = 1
"""Warnings a player is given before the next offence mutes their chat."""


def chat_mute_active(user_id: int, now: datetime | None = None) -> ChatMute | None:
    """The mute in force for ``user_id`` at ``now`` (the one that ends last), or None."""
    moment = now or timezone.now()
    return (
        ChatMute.objects.filter(player_id=user_id, lifted_at__isnull=True, starts_at__lte=moment, ends_at__gt=moment)
        .order_by("-ends_at")
        .first()
    )


def chat_line_admit(user: Any, text: str, now: datetime | None = None) -> str:
    """The line ``user`` may send, cleaned (:func:`games.chat.rules.chat_line_clean`), or :class:`ChatRefused`.

    In this order, so that a refused line counts against nothing it should not: the line's own rules, the player's
    mute, the moderation (a warning, then a mute, which is stored in its own transaction before the refusal), and last
    the rate limit (an admitted line takes one slot). Call it outside any transaction."""
    moment = now or timezone.now()
    try:
        line = chat_line_clean(text)
    except ChatLineRefused as refusal:
        raise ChatRefused(refusal.code, refusal.message) from None
    mute = chat_mute_active(user.pk, moment)
    if mute is not None:
        raise _muted(mute)
    if chat_line_offends(line):
        if chat_warning_count(user.pk) > WARNINGS_BEFORE_MUTE:
            raise _muted(chat_mute_automatic(user, now=moment))
        raise ChatRefused(
            "chat_warning",
            "Your message was not sent: abusing other players or the host and offensive language are not allowed. "
            "If you do it again, your chat will be disabled.",
        )
    wait = chat_rate_reserve(user.pk)
    if wait:
        raise ChatRefused(
            "chat_rate_limited", f"You are sending messages too quickly: wait {wait} s.", retry_after=wait
        )
    return line


def _muted(mute: ChatMute) -> ChatRefused:
    until = mute.ends_at
    return ChatRefused(
        "chat_muted",
        f"Your chat is muted until {until:%Y-%m-%d %H:%M} UTC; contact support if you disagree.",
        until=until.isoformat(),
    )


def chat_message_post(user: Any, table: Table, text: str, *, now: datetime | None = None) -> int:
    """Post ``text`` as ``user``'s chat line at ``table`` (a cash or tournament table); returns its sequence number.

    Refused (:class:`ChatRefused`, nothing stored) for a player without a seat at the table, a muted player, a line
    that breaks the rules, offensive language or too many lines (see the module docstring)."""
    moment = now or timezone.now()
    if not Seat.objects.filter(table_id=table.pk, user_id=user.pk).exists():
        raise _not_seated()
    line = chat_line_admit(user, text, moment)
    return _chat_line_store(user, table.pk, line, moment)


def _not_seated() -> ChatRefused:
    return ChatRefused("chat_not_seated", "Only the players seated at this table can chat; watchers can read along.")


@transaction.atomic(durable=True)
def _chat_line_store(user: Any, table_id: int, line: str, moment: datetime) -> int:
    """Append the admitted line to the locked table's log, with the hand in play (None between hands)."""
    table = table_lock_with_hand(table_id)
    seat = Seat.objects.filter(table_id=table.pk, user_id=user.pk).values_list("number", flat=True).first()
    if seat is None:  # left the table since the check before the lock
        raise _not_seated()
    payload = {"user_id": user.pk, "name": user.table_name, "seat": seat, "text": line}
    appended = events_append(table, [NewEvent(CHAT_EVENT, payload, table.current_hand)])
    assert appended is not None
    return appended[0]


# --- Mutes -----------------------------------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def chat_mute_create(staff: Any, player: Any, minutes: int, reason: str, *, now: datetime | None = None) -> ChatMute:
    """``staff`` (holding ``games.mute_chat``) mutes ``player``'s chat for ``minutes`` (1 to 30 days) from now, for
    ``reason`` (required); audited. Refused (:class:`ChatRefused`, nothing written) otherwise."""
    moment = now or timezone.now()
    if not staff.has_perm("games.mute_chat"):
        raise ChatRefused("permission_denied", "You are not allowed to mute players' chat.")
    reason = (reason or "").strip()
    if not reason:
        raise ChatRefused("reason_required", "Say why the player's chat is muted.")
    if len(reason) > 200:
        raise ChatRefused("mute_refused", "The reason may have at most 200 characters.")
    if type(minutes) is not int or not 1 <= minutes <= MAXIMUM_MUTE_MINUTES:
        raise ChatRefused("mute_refused", f"A mute lasts from 1 to {MAXIMUM_MUTE_MINUTES} minutes (30 days).")
    if player.pk == staff.pk or player.is_staff or player.is_superuser:
        raise ChatRefused("mute_refused", "Only players' chat can be muted.")
    mute = ChatMute.objects.create(
        player=player, muted_by=staff, reason=reason, starts_at=moment, ends_at=moment + timedelta(minutes=minutes)
    )
    audit_record(
        action="chat_muted",
        actor=staff,
        player=player,
        reason=reason,
        target=audit_target(mute),
        after=_mute_state(mute),
    )
    return mute


@transaction.atomic(durable=True)
def chat_mute_automatic(player: Any, *, now: datetime | None = None) -> ChatMute:
    """The automated moderation mutes ``player`` for ``CHAT_AUTOMATIC_MUTE_MINUTES`` (UTH-33: an ignored warning);
    audited with no actor."""
    moment = now or timezone.now()
    mute = ChatMute.objects.create(
        player=player,
        muted_by=None,
        reason=AUTOMATIC_MUTE_REASON,
        starts_at=moment,
        ends_at=moment + timedelta(minutes=settings.CHAT_AUTOMATIC_MUTE_MINUTES),
    )
    audit_record(
        action="chat_muted",
        actor=None,
        player=player,
        reason=AUTOMATIC_MUTE_REASON,
        target=audit_target(mute),
        after=_mute_state(mute),
    )
    return mute


@transaction.atomic(durable=True)
def chat_mute_lift(staff: Any, mute_id: int, reason: str, *, now: datetime | None = None) -> ChatMute:
    """``staff`` (holding ``games.mute_chat``) lifts the mute ``mute_id`` before its end, for ``reason``: the player
    chats again at once, with a clean slate of warnings (UTH-33: back-office restores chat). Audited. Refused for a
    mute that is over or already lifted."""
    moment = now or timezone.now()
    if not staff.has_perm("games.mute_chat"):
        raise ChatRefused("permission_denied", "You are not allowed to lift chat mutes.")
    reason = (reason or "").strip()
    if not reason:
        raise ChatRefused("reason_required", "Say why the mute is lifted.")
    if len(reason) > 200:
        raise ChatRefused("mute_refused", "The reason may have at most 200 characters.")
    mute = ChatMute.objects.select_for_update().filter(pk=mute_id).select_related("player").first()
    if mute is None:
        raise ChatRefused("not_found", f"There is no chat mute {mute_id}.")
    if mute.lifted_at is not None or mute.ends_at <= moment:
        raise ChatRefused("mute_refused", f"Chat mute {mute_id} is no longer in force.")
    before = _mute_state(mute)
    mute.lifted_at = moment
    mute.lifted_by = staff
    mute.lift_reason = reason
    mute.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    audit_record(
        action="chat_mute_lifted",
        actor=staff,
        player=mute.player,
        reason=reason,
        target=audit_target(mute),
        before=before,
        after=_mute_state(mute),
    )
    player_id = mute.player_id
    transaction.on_commit(lambda: chat_counters_clear(player_id))
    return mute


def _mute_state(mute: ChatMute) -> dict[str, Any]:
    return {
        "player": mute.player_id,
        "muted_by": mute.muted_by_id,
        "starts_at": mute.starts_at.isoformat(),
        "ends_at": mute.ends_at.isoformat(),
        "lifted_at": mute.lifted_at.isoformat() if mute.lifted_at else None,
        "lifted_by": mute.lifted_by_id,
    }


# --- Reading ---------------------------------------------------------------------------------------------------------


def chat_of_hand(hand: Any) -> list[dict[str, Any]]:
    """The chat lines posted at the table while ``hand`` was in play, in order (the reviewers' replayer and the staff
    hand page): each with ``sequence``, ``at``, ``user_id``, ``name``, ``seat`` and ``text``."""
    from games.models import HandEvent

    rows = HandEvent.objects.filter(hand=hand, kind=CHAT_EVENT).order_by("sequence")
    return [
        {
            "sequence": row.sequence,
            "at": row.created_at,
            "user_id": row.payload.get("user_id"),
            "name": row.payload.get("name", ""),
            "seat": row.payload.get("seat"),
            "text": row.payload.get("text", ""),
        }
        for row in rows
    ]
