"""Table chat moderation (issue 22, UTH-33): a player's chat muted for a period, by staff or by the automated
moderation.

The chat lines themselves are events of the table's log (``HandEvent`` of kind ``chat_message`` at cash and tournament
tables, ``UthEvent`` of kind ``chat_message`` at Ultimate Texas Hold'em tables): numbered like every other event, stored
with the hand or round in play, append-only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ChatMute(models.Model):
    """The chat of ``player`` is muted from ``starts_at`` until ``ends_at`` (or until staff lift it: ``lifted_at``).

    ``muted_by`` is the staff member who muted; empty for a mute of the automated moderation (UTH-33: a warning that
    was ignored). Rows are changed only by the services in :mod:`games.chat.services`, each with an audit entry."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_mutes", verbose_name=_("player")
    )
    muted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("muted by"),
        help_text=_("Empty: the automated moderation."),
    )
    reason = models.CharField(_("reason"), max_length=200)
    starts_at = models.DateTimeField(_("from"), default=timezone.now)
    ends_at = models.DateTimeField(_("until"), db_index=True)
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("lifted by"),
    )
    lift_reason = models.CharField(_("reason for lifting"), max_length=200, blank=True)

    class Meta:
        ordering = ("-starts_at", "-pk")
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        permissions = [("mute_chat", "Can mute a player's chat for a period and lift a mute")]
        indexes = [models.Index(fields=("player", "ends_at"), name="games_chat_mute_player_end")]
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")), name="games_chat_mute_period")
        ]

    def __str__(self) -> str:
        return f"chat of {self.player} muted until {self.ends_at:%Y-%m-%d %H:%M} UTC"
