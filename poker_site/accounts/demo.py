"""Demo accounts: four players, a support agent, a compliance reviewer and an administrator."""

from __future__ import annotations

from django.contrib.auth.models import Group

from poker_site.accounts.models import User
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF, ensure_role_groups

DEMO_PASSWORD = "demo-poker-2026"
DEMO_PLAYERS = ("alice", "bob", "carol", "dave")


def _user(username: str, *, staff: bool = False, superuser: bool = False) -> User:
    user, created = User.objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com", "is_staff": staff, "is_superuser": superuser}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


def seed_demo(write: object) -> None:
    ensure_role_groups()
    for name in DEMO_PLAYERS:
        _user(name)
    _user("support", staff=True).groups.add(Group.objects.get(name=SUPPORT_STAFF))
    _user("compliance", staff=True).groups.add(Group.objects.get(name=COMPLIANCE_REVIEWERS))
    _user("admin", staff=True, superuser=True)
    assert callable(write)
    write(
        f"Demo players: {', '.join(DEMO_PLAYERS)}; staff: support (support), compliance (compliance reviewer), "
        f"admin (superuser). Every demo password: {DEMO_PASSWORD}"
    )
