"""Chat mutes (issue 22, UTH-33): support (``games.mute_chat``) mutes a player's chat for a period with a reason, and
lifts a mute; both audited. A muted player's lines are refused with the end of the mute and nothing is stored. The
automated moderation warns about offensive language first, and mutes the player when it happens again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.chat.errors import ChatRefused
from games.chat.services import (
    chat_message_post,
    chat_mute_active,
    chat_mute_create,
    chat_mute_lift,
)
from games.models import ChatMute, HandEvent
from tests.tables.back_office import support_agent
from tests.tables.support import open_table, player, seat_players
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_and_anne() -> tuple[Any, Any]:
    table = open_table()
    anne = player("anne")
    seat_players(table, [anne], 1000)
    return table, anne


def chat_lines(table: Any) -> list[str]:
    return [row.payload["text"] for row in HandEvent.objects.filter(table=table, kind="chat_message")]


def test_support_mutes_a_player_for_a_period_and_their_lines_are_refused(table_and_anne: tuple[Any, Any]) -> None:
    table, anne = table_and_anne
    support = support_agent()
    mute = chat_mute_create(support, anne, 30, "insulted the table")
    assert mute.ends_at - mute.starts_at == timedelta(minutes=30)
    entry = AuditEntry.objects.get(action="chat_muted")
    assert (entry.actor, entry.player, entry.reason, entry.target) == (
        support,
        anne,
        "insulted the table",
        f"games.chatmute:{mute.pk}",
    )
    with pytest.raises(ChatRefused) as refused:
        chat_message_post(anne, table, "let me talk")
    assert refused.value.code == "chat_muted"
    assert refused.value.details["until"] == mute.ends_at.isoformat()
    assert chat_lines(table) == []
    assert chat_mute_active(anne.pk, mute.ends_at + timedelta(seconds=1)) is None


def test_support_lifts_the_mute_and_the_player_chats_again(table_and_anne: tuple[Any, Any]) -> None:
    table, anne = table_and_anne
    support = support_agent()
    mute = chat_mute_create(support, anne, 60, "spam")
    chat_mute_lift(support, mute.pk, "the player apologised")
    chat_message_post(anne, table, "sorry everyone")
    assert chat_lines(table) == ["sorry everyone"]
    entry = AuditEntry.objects.get(action="chat_mute_lifted")
    assert entry.before["lifted_at"] is None
    assert entry.after["lifted_by"] == support.pk
    with pytest.raises(ChatRefused):
        chat_mute_lift(support, mute.pk, "twice")


@pytest.mark.parametrize(
    ("minutes", "reason"),
    [(0, "spam"), (-5, "spam"), (30 * 24 * 60 + 1, "spam"), (30, ""), (30, "   "), (30, "x" * 201)],
)
def test_a_mute_without_a_reason_or_with_a_wrong_period_is_refused(minutes: int, reason: str) -> None:
    anne = player("anne")
    with pytest.raises(ChatRefused):
        chat_mute_create(support_agent(), anne, minutes, reason)
    assert not ChatMute.objects.exists()
    assert not AuditEntry.objects.filter(action="chat_muted").exists()


def test_staff_without_the_permission_cannot_mute(table_and_anne: tuple[Any, Any]) -> None:
    from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
    from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member

    _table, anne = table_and_anne
    for staff in (staff_member(COMPLIANCE_REVIEWERS), staff_member(WITHOUT_A_ROLE)):
        with pytest.raises(ChatRefused) as refused:
            chat_mute_create(staff, anne, 30, "spam")
        assert refused.value.code == "permission_denied"
    assert not ChatMute.objects.exists()


def test_offensive_language_is_warned_first_and_then_mutes_the_chat(table_and_anne: tuple[Any, Any]) -> None:
    """UTH-33: abuse or offensive language → a warning; the warning ignored → chat disabled (support can restore)."""
    table, anne = table_and_anne
    with pytest.raises(ChatRefused) as warned:
        chat_message_post(anne, table, "you IDIOT")
    assert warned.value.code == "chat_warning"
    assert not ChatMute.objects.exists()
    chat_message_post(anne, table, "well played, bert")
    with pytest.raises(ChatRefused) as muted:
        chat_message_post(anne, table, "what a moron")
    assert muted.value.code == "chat_muted"
    mute = ChatMute.objects.get(player=anne)
    assert mute.muted_by is None
    assert AuditEntry.objects.get(action="chat_muted").actor is None
    with pytest.raises(ChatRefused):
        chat_message_post(anne, table, "a polite line")
    assert chat_lines(table) == ["well played, bert"]
    chat_mute_lift(support_agent(), mute.pk, "reviewed: restored")
    chat_message_post(anne, table, "a polite line")
    assert chat_lines(table) == ["well played, bert", "a polite line"]


def test_a_mute_that_ended_no_longer_refuses(table_and_anne: tuple[Any, Any]) -> None:
    table, anne = table_and_anne
    past = timezone.now() - timedelta(hours=2)
    chat_mute_create(support_agent(), anne, 60, "spam", now=past)
    chat_message_post(anne, table, "back again")
    assert chat_lines(table) == ["back again"]
