"""The names a player is known by at the tables: their screen name, or their username when they have none
(``User.table_name``). Whoever reads a name there must be able to trust that it is one account's, so a name belongs to
one account whatever its case, across both fields: no screen name equal to another account's screen name ("ALICE"
beside "alice") or to another account's username (a player calling themselves "Support" beside the account
"support"), and no new username equal to another account's screen name. A player's own username as their screen name
is theirs.

The database holds the first by a unique index on ``lower(screen_name)`` (``User.Meta.constraints``), as it holds
usernames by one on ``lower(username)``; an index cannot compare one row's screen name with another row's username, so
every writer of a name takes :func:`names_hold` in its transaction before its last check and its save: two writers of
one name (in any case, in either field) then take turns, and the second's check sees the first's committed account.

Names are compared as the indexes compare them: PostgreSQL's ``lower()`` on both sides.
"""

from __future__ import annotations

import zlib

from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from poker_site.accounts.models import SCREEN_NAME_TAKEN_MESSAGE, User, screen_name_without_case, username_without_case

USERNAME_IS_A_SCREEN_NAME_MESSAGE = _("Another player already goes by this name at the tables.")
"""What the forms say of a new username that is another account's screen name, in any case."""

_NAME_LOCK_CLASS = zlib.crc32(b"accounts-name") & 0x7FFFFFFF


class NameInUse(Exception):
    """A name another account already goes by, found under :func:`names_hold` after the form's check passed (another
    account took it meanwhile). ``field`` is the form's field ("username" or "screen_name") and ``message`` what it
    says. Nothing was saved."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def screen_name_in_use(screen_name: str | None, account_pk: int | None) -> bool:
    """Whether an account other than ``account_pk`` (``None``: a new account) goes by ``screen_name``, compared
    without case: as its screen name or as its username. An empty screen name is nobody's."""
    if not screen_name:
        return False
    others = User.objects.exclude(pk=account_pk) if account_pk is not None else User.objects.all()
    return others.filter(Q(screen_name_without_case(screen_name)) | Q(username_without_case(screen_name))).exists()


def username_is_another_accounts_screen_name(username: str | None, account_pk: int | None) -> bool:
    """Whether an account other than ``account_pk`` (``None``: a new account) has ``username`` as its screen name,
    compared without case. (Another account's username is refused by the username index and Django's forms.)"""
    if not username:
        return False
    others = User.objects.exclude(pk=account_pk) if account_pk is not None else User.objects.all()
    return others.filter(screen_name_without_case(username)).exists()


def names_hold(*names: str | None) -> None:
    """Take, until the end of the current transaction, the lock of each name whatever its case (empty ones skipped),
    in the order of their keys, so that two writers never wait for each other crosswise. Call it inside a transaction,
    before the last check of the names and the save."""
    given = sorted({name for name in names if name})
    if not given:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, key) FROM"
            " (SELECT DISTINCT hashtext(lower(name)) AS key FROM unnest(%s::text[]) AS name ORDER BY key) AS keys",
            [_NAME_LOCK_CLASS, given],
        )


def account_names_check(account: User) -> None:
    """Before saving ``account`` (new or changed): take its names' locks (:func:`names_hold`) and check them once
    more; :class:`NameInUse` when another account goes by its screen name, or has its username as a screen name.
    Inside the transaction that saves it, so the locks are held until it commits."""
    names_hold(account.username, account.screen_name)
    if screen_name_in_use(account.screen_name, account.pk):
        raise NameInUse("screen_name", str(SCREEN_NAME_TAKEN_MESSAGE))
    if username_is_another_accounts_screen_name(account.username, account.pk):
        raise NameInUse("username", str(USERNAME_IS_A_SCREEN_NAME_MESSAGE))
