"""The user model. Players and staff share it; staff roles are Django groups (see roles.py)."""

from typing import TYPE_CHECKING, ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import IntegrityError, models
from django.db.models import Value
from django.db.models.functions import Lower
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

EMAIL_UNIQUE_CONSTRAINT = "accounts_user_email_unique_without_case"
EMAIL_TAKEN_MESSAGE = _("An account with this email already exists.")
USERNAME_UNIQUE_CONSTRAINT = "accounts_user_username_unique_without_case"
"""A username belongs to one account whatever its case: the unique index on PostgreSQL's ``lower(username)``
(migration 0004)."""
USERNAME_EXACT_UNIQUE_CONSTRAINT = "accounts_user_username_key"
"""PostgreSQL's name for Django's ``unique=True`` on ``username`` (migration 0001, ``<table>_<column>_key``). It
stays, and may be the one that refuses a name taken in the very same case."""
USERNAME_TAKEN_MESSAGE = AbstractUser._meta.get_field("username").error_messages["unique"]
"""What the forms say of a username another account has, in any case (Django's own words, translated with Django)."""
SCREEN_NAME_UNIQUE_CONSTRAINT = "accounts_user_screen_name_unique_without_case"
"""A screen name belongs to one account whatever its case: the unique index on PostgreSQL's ``lower(screen_name)``
(migration 0005), empty screen names apart."""
SCREEN_NAME_EXACT_UNIQUE_CONSTRAINT = "accounts_user_screen_name_key"
"""PostgreSQL's name for Django's ``unique=True`` on ``screen_name`` (migration 0001). It stays, and may be the one that
refuses a screen name taken in the very same case."""
SCREEN_NAME_TAKEN_MESSAGE = _("Another player already goes by this name.")
"""What the forms say of a screen name another account has as its screen name or its username, in any case."""


def username_without_case(username: str | None) -> Exact:
    """For ``filter()``: the account whose username is ``username`` compared as :data:`USERNAME_UNIQUE_CONSTRAINT`
    compares it (``lower()`` on both sides, so its index answers; ``None`` matches none). Not Django's ``iexact``,
    which compares ``upper()``: a few letters (the Greek final and ordinary sigma) are equal in one and not in the
    other."""
    return Exact(Lower("username"), Lower(Value(username)))


def screen_name_without_case(screen_name: str | None) -> Exact:
    """For ``filter()``: the account whose screen name is ``screen_name`` compared as
    :data:`SCREEN_NAME_UNIQUE_CONSTRAINT` compares it (``lower()`` on both sides; ``None`` matches none)."""
    return Exact(Lower("screen_name"), Lower(Value(screen_name)))


if TYPE_CHECKING:  # generic in the type stubs only
    _Manager = DjangoUserManager["User"]
else:
    _Manager = DjangoUserManager


class UserManager(_Manager):
    """Django's, except that an account is found by its username whatever its case (log-in, ``createsuperuser``'s
    check, natural keys): a username belongs to one account whatever its case, so the name a player types finds
    their account however they type it, as the log-in lock already counts it (``throttle.account_key``)."""

    def get_by_natural_key(self, username: str | None) -> "User":
        return self.get(username_without_case(username))

    async def aget_by_natural_key(self, username: str | None) -> "User":
        return await self.aget(username_without_case(username))


class User(AbstractUser):
    """A person with a log-in: a player, a support agent or a compliance reviewer."""

    objects: ClassVar[UserManager] = UserManager()

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
            # A username belongs to one account whatever its case: players log in with it and see it at the tables,
            # so "Pat" beside "pat" would be another person passing for them. Sign-up and the admin check first
            # (for the message on the field); two requests at once both pass a check, so the database holds it.
            models.UniqueConstraint(
                Lower("username"), name=USERNAME_UNIQUE_CONSTRAINT, violation_error_message=USERNAME_TAKEN_MESSAGE
            ),
            # A screen name belongs to one account whatever its case, for the same reason: it is what the other
            # players read at the tables ("ALICE" beside "alice"). The forms also refuse a screen name that is
            # another account's username (poker_site.accounts.names), which no index can compare across columns.
            # Accounts without a screen name (NULL, or "" if any was saved so) are many.
            models.UniqueConstraint(
                Lower("screen_name"),
                condition=~models.Q(screen_name=""),
                name=SCREEN_NAME_UNIQUE_CONSTRAINT,
                violation_error_message=SCREEN_NAME_TAKEN_MESSAGE,
            ),
        ]

    @property
    def table_name(self) -> str:
        """The name shown at tables and in hand histories."""
        return self.screen_name or self.username


def _violated_constraint(error: IntegrityError) -> str | None:
    diagnostic = getattr(error.__cause__, "diag", None)
    return getattr(diagnostic, "constraint_name", None)


def violates_email_uniqueness(error: IntegrityError) -> bool:
    """Whether ``error`` is the database refusing an e-mail address another account has
    (:data:`EMAIL_UNIQUE_CONSTRAINT`), as opposed to any other integrity error (which callers let through)."""
    return _violated_constraint(error) == EMAIL_UNIQUE_CONSTRAINT


def violates_username_uniqueness(error: IntegrityError) -> bool:
    """Whether ``error`` is the database refusing a username another account has, in any case
    (:data:`USERNAME_UNIQUE_CONSTRAINT`, or :data:`USERNAME_EXACT_UNIQUE_CONSTRAINT` for the same case), as opposed to
    any other integrity error (which callers let through)."""
    return _violated_constraint(error) in (USERNAME_UNIQUE_CONSTRAINT, USERNAME_EXACT_UNIQUE_CONSTRAINT)


def violates_screen_name_uniqueness(error: IntegrityError) -> bool:
    """Whether ``error`` is the database refusing a screen name another account has, in any case
    (:data:`SCREEN_NAME_UNIQUE_CONSTRAINT`, or :data:`SCREEN_NAME_EXACT_UNIQUE_CONSTRAINT` for the same case), as
    opposed to any other integrity error (which callers let through)."""
    return _violated_constraint(error) in (SCREEN_NAME_UNIQUE_CONSTRAINT, SCREEN_NAME_EXACT_UNIQUE_CONSTRAINT)
