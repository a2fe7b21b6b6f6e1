"""The user model. Players and staff share it; staff roles are Django groups (see roles.py)."""

from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

EMAIL_UNIQUE_CONSTRAINT = "accounts_user_email_unique_without_case"
EMAIL_TAKEN_MESSAGE = _("An account with this email already exists.")
USERNAME_UNIQUE_CONSTRAINT = "accounts_user_username_key"
"""PostgreSQL's name for the uniqueness of ``username`` (Django's ``unique=True``, made in migration 0001 as
``<table>_<column>_key``)."""


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
        constraints = [
            # An address belongs to one account: password-reset links go to it (issue 30). Sign-up, the e-mail
            # proposals and the admin check first, for a clear message; two requests at once both pass a check, so
            # the database holds it. Empty addresses (accounts made without one) are many.
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name=EMAIL_UNIQUE_CONSTRAINT,
                violation_error_message=EMAIL_TAKEN_MESSAGE,
            ),
        ]

    @property
    def table_name(self) -> str:
        """The name shown at tables and in hand histories."""
        return self.screen_name or self.username


USERNAME_TAKEN_MESSAGE = User._meta.get_field("username").error_messages["unique"]
"""What the sign-up form says of a username another account has (Django's own words, translated with Django)."""


def _violated_constraint(error: IntegrityError) -> str | None:
    diagnostic = getattr(error.__cause__, "diag", None)
    return getattr(diagnostic, "constraint_name", None)


def violates_email_uniqueness(error: IntegrityError) -> bool:
    """Whether ``error`` is the database refusing an e-mail address another account has
    (:data:`EMAIL_UNIQUE_CONSTRAINT`), as opposed to any other integrity error (which callers let through)."""
    return _violated_constraint(error) == EMAIL_UNIQUE_CONSTRAINT


def violates_username_uniqueness(error: IntegrityError) -> bool:
    """Whether ``error`` is the database refusing a username another account has (:data:`USERNAME_UNIQUE_CONSTRAINT`),
    as opposed to any other integrity error (which callers let through)."""
    return _violated_constraint(error) == USERNAME_UNIQUE_CONSTRAINT
