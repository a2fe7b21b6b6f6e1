"""The user model. Players and staff share it; staff roles are Django groups (see roles.py)."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person with a log-in: a player, a support agent or a compliance reviewer."""

    screen_name = models.CharField(
        _("screen name"),
        max_length=20,
        unique=True,
        null=True,
        blank=True,
        help_text=_("The name other players see at the tables. Defaults to the username."),
    )
    # --- responsible gaming: the sign-up's age and terms record (GEN-02, FRD-03) and the session reminder.
    # Accounts made before these fields have no date of birth and no terms record (empty, not invented).
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
    terms_version = models.CharField(
        _("terms version accepted"), max_length=20, blank=True, default="", help_text=_("Empty: not recorded.")
    )
    terms_accepted_at = models.DateTimeField(_("terms accepted at"), null=True, blank=True)
    session_reminder_minutes = models.PositiveSmallIntegerField(
        _("session reminder (minutes)"), default=60, help_text=_("How often a logged-in player is reminded.")
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    @property
    def table_name(self) -> str:
        """The name shown at tables and in hand histories."""
        return self.screen_name or self.username
