"""Issue 22 (UTH-33): support staff (``games.mute_chat``) mute a player's chat for a period from the admin and lift
mutes with a reason, both audited; compliance reviewers read mutes but cannot add or lift one; nobody edits or deletes
a mute."""

from __future__ import annotations

from typing import Any

import pytest

from games.chat.services import chat_mute_active
from games.models import ChatMute
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import choose_action, logged_in
from tests.tables.support import player
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

ADD = "/admin/games/chatmute/add/"
LIST = "/admin/games/chatmute/"


def test_support_mutes_a_player_for_a_period_with_a_reason() -> None:
    support = staff_member(SUPPORT_STAFF, "sam")
    anne = player("anne")
    client = logged_in(support)
    assert client.get(ADD).status_code == 200
    response = client.post(ADD, {"player": "anne", "minutes": "45", "reason": "insults at table 3"})
    assert response.status_code == 302
    mute = ChatMute.objects.get(player=anne)
    assert (mute.muted_by, mute.reason) == (support, "insults at table 3")
    assert (mute.ends_at - mute.starts_at).total_seconds() == 45 * 60
    assert chat_mute_active(anne.pk) == mute
    assert AuditEntry.objects.filter(action="chat_muted", actor=support, player=anne).count() == 1


@pytest.mark.parametrize(
    "form",
    [
        {"player": "nobody", "minutes": "45", "reason": "spam"},
        {"player": "anne", "minutes": "0", "reason": "spam"},
        {"player": "anne", "minutes": "45", "reason": ""},
        {"player": "sam", "minutes": "45", "reason": "a colleague"},
    ],
)
def test_a_wrong_mute_form_is_shown_again_and_nothing_is_written(form: dict[str, str]) -> None:
    support = staff_member(SUPPORT_STAFF, "sam")
    player("anne")
    response = logged_in(support).post(ADD, form)
    assert response.status_code == 200
    assert not ChatMute.objects.exists()
    assert not AuditEntry.objects.filter(action="chat_muted").exists()


def test_support_lifts_a_mute_with_a_reason() -> None:
    support = staff_member(SUPPORT_STAFF, "sam")
    anne = player("anne")
    client = logged_in(support)
    client.post(ADD, {"player": "anne", "minutes": "45", "reason": "spam"})
    mute = ChatMute.objects.get(player=anne)
    page = choose_action(client, LIST, "lift_mutes", [mute.pk])
    assert page.status_code == 200  # the reason is asked first
    assert chat_mute_active(anne.pk) == mute
    response = client.post(
        LIST, {"action": "lift_mutes", "_selected_action": [mute.pk], "confirm": "yes", "reason": "reviewed"}
    )
    assert response.status_code == 302
    mute.refresh_from_db()
    assert (mute.lifted_by, mute.lift_reason) == (support, "reviewed")
    assert chat_mute_active(anne.pk) is None
    assert AuditEntry.objects.filter(action="chat_mute_lifted", actor=support).count() == 1


def test_reviewers_read_mutes_but_cannot_mute_or_lift(django_user_model: Any) -> None:
    reviewer = staff_member(COMPLIANCE_REVIEWERS, "rita")
    anne = player("anne")
    client = logged_in(reviewer)
    assert client.get(LIST).status_code == 200
    assert client.get(ADD).status_code == 403
    assert client.post(ADD, {"player": "anne", "minutes": "45", "reason": "spam"}).status_code == 403
    assert not ChatMute.objects.filter(player=anne).exists()
    assert "lift_mutes" not in client.get(LIST).content.decode()
