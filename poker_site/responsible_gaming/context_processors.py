"""Template context every page needs: when the session reminder is due, and a self-excluded player's notice."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from poker_site.responsible_gaming.services import play_refusal, session_reminder_due_at


def session_reminder(request: HttpRequest) -> dict[str, object]:
    """``session_reminder_due_in``: seconds until the page shows the session reminder (0: at once), ``None`` when
    nobody is logged in. The page keeps the count itself (static/js/session_reminder.js); the server only stores
    the session's start. ``self_exclusion_notice``: what a self-excluded player is told on every page ("" if not)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not hasattr(request, "session"):
        return {"session_reminder_due_in": None, "self_exclusion_notice": ""}
    due = session_reminder_due_at(request, user)
    return {
        "session_reminder_due_in": max(0, int((due - timezone.now()).total_seconds())),
        "self_exclusion_notice": play_refusal(user.pk, _("You cannot play or deposit")) or "",
    }
