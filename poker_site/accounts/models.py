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

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    @property
    def table_name(self) -> str:
        """The name shown at tables and in hand histories."""
        return self.screen_name or self.username
