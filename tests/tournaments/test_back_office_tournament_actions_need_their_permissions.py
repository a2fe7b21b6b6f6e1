"""LOB-10 for the tournament actions (LOB-08): delay, cancel, hand-for-hand and the manual prize credit need
``tournaments.run_tournament``, disqualifying needs ``tournaments.disqualify_player``; support staff hold both,
compliance reviewers neither. Without the permission an action is neither offered nor run, a definition cannot be
changed, and nothing changes (no audit row either)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF, ensure_role_groups
from tests.tables.back_office import logged_in
from tests.tournaments.back_office import ENTRIES, TOURNAMENTS, client_of, messages_after, run_action
from tests.tournaments.support import fresh, register_players, scheduled
from tournaments.models import EntryStatus, HandForHandMode, TournamentEntry, TournamentStatus
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

TOURNAMENT_ACTIONS = ("delay_tournament", "cancel_tournaments", "set_hand_for_hand")
ENTRY_ACTIONS = ("disqualify_entries", "credit_prizes")


def waiting_tournament() -> Any:
    tournament = scheduled(starts_at=(timezone.now() + timedelta(hours=1)).replace(second=0, microsecond=0))
    register_players(tournament, 2, now=timezone.now())
    return fresh(tournament)


def staff_with(*codenames: str) -> Any:
    user = get_user_model().objects.create_user(username="partial", password="x-unused-password", is_staff=True)
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(content_type__app_label="tournaments", codename=codename))
    return get_user_model().objects.get(pk=user.pk)


def test_support_staff_hold_both_permissions_and_compliance_reviewers_neither() -> None:
    ensure_role_groups()
    support = set(Group.objects.get(name=SUPPORT_STAFF).permissions.values_list("codename", flat=True))
    reviewers = set(Group.objects.get(name=COMPLIANCE_REVIEWERS).permissions.values_list("codename", flat=True))
    assert {"run_tournament", "disqualify_player", "add_tournament", "change_tournament"} <= support
    assert not {"run_tournament", "disqualify_player", "change_tournament"} & reviewers
    assert "view_tournament" in reviewers


def test_compliance_reviewers_see_the_tournaments_but_are_offered_no_action_and_cannot_run_one() -> None:
    tournament = waiting_tournament()
    entry = TournamentEntry.objects.filter(tournament=tournament).first()
    assert entry is not None
    reviewer = client_of(COMPLIANCE_REVIEWERS)

    tournaments_page = reviewer.get(TOURNAMENTS).content.decode()
    entries_page = reviewer.get(ENTRIES).content.decode()
    answers = [
        run_action(
            reviewer, TOURNAMENTS, "delay_tournament", [tournament.pk], new_start="2040-01-01T10:00", reason="x"
        ),
        run_action(reviewer, TOURNAMENTS, "cancel_tournaments", [tournament.pk], reason="x"),
        run_action(reviewer, TOURNAMENTS, "set_hand_for_hand", [tournament.pk], mode="on", reason="x"),
        run_action(reviewer, ENTRIES, "disqualify_entries", [entry.pk], prize="forfeit", reason="x"),
        run_action(reviewer, ENTRIES, "credit_prizes", [entry.pk], reason="x"),
    ]
    edit = reviewer.post(f"{TOURNAMENTS}{tournament.pk}/change/", {"name": "Renamed"})

    assert not [action for action in TOURNAMENT_ACTIONS if action in tournaments_page]
    assert not [action for action in ENTRY_ACTIONS if action in entries_page]
    # With no action they may run, the post is not an action at all: the list is shown again, no reason page.
    assert all(answer.status_code == 200 for answer in answers)
    assert not any('name="reason"' in answer.content.decode() for answer in answers)
    assert edit.status_code == 403
    after = fresh(tournament)
    assert (after.status, after.starts_at, after.hand_for_hand_mode, after.name) == (
        TournamentStatus.REGISTERING,
        tournament.starts_at,
        HandForHandMode.AUTOMATIC,
        tournament.name,
    )
    entry.refresh_from_db()
    assert entry.status == EntryStatus.REGISTERED
    assert not AuditEntry.objects.exists()


def test_a_staff_member_allowed_to_run_tournaments_but_not_to_disqualify_can_delay_and_not_disqualify() -> None:
    tournament = waiting_tournament()
    entry = TournamentEntry.objects.filter(tournament=tournament).first()
    assert entry is not None
    client = logged_in(staff_with("view_tournament", "view_tournamententry", "run_tournament"))
    later = tournament.starts_at + timedelta(minutes=30)

    run_action(
        client,
        TOURNAMENTS,
        "delay_tournament",
        [tournament.pk],
        new_start=later.strftime("%Y-%m-%dT%H:%M"),
        reason="Late",
    )
    refused = run_action(client, ENTRIES, "disqualify_entries", [entry.pk], prize="keep", reason="Not allowed")

    assert fresh(tournament).starts_at == later
    assert "No action selected." in messages_after(client, refused)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.REGISTERED
