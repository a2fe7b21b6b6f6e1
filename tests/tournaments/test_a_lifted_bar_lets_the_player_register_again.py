"""TRN-28, TRN-09 / FRD-15: a tournament bar can be lifted by staff holding ``tournaments.disqualify_player``, with a
reason, audited; the bar stays as history (who barred, why, who lifted, when, why), the player's registrations are
accepted again, a later bar is a new row, and the player's back-office overview says the bar was lifted. Lifting a
bar already lifted, or without a reason, is a clear error and changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import audit_rows, client_of, messages_after, run_action
from tests.tournaments.support import player, scheduled
from tournaments.models import EntryStatus, TournamentBar
from tournaments.services import NotAllowedNow, NotEligible, tournament_register
from tournaments.services.errors import ReasonRequired
from tournaments.services.sanctions import bar_lift, player_bar

pytestmark = pytest.mark.django_db

BARS = "/admin/tournaments/tournamentbar/"


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def barred_player(judge: str = "support-judge") -> tuple[object, TournamentBar]:
    someone = player(cash=10_000)
    bar = player_bar(someone, actor=staff_member(SUPPORT_STAFF, judge), reason="Abusive chat")
    return someone, bar


def test_trn_28_support_lifts_a_bar_from_the_list_and_the_player_registers_again() -> None:
    """TRN-28: the list's "Lift" action asks for the reason, lifts through the service (audited) and keeps the row."""
    someone, bar = barred_player()
    tournament = scheduled(starts_at=timezone.now() + timedelta(hours=1))
    with pytest.raises(NotEligible, match="barred from tournaments"):
        tournament_register(someone, tournament, now=timezone.now())
    support = client_of(SUPPORT_STAFF, "support-lifter")

    confirmation = support.post(BARS, {"action": "lift_bars", "_selected_action": [bar.pk], "index": 0})
    assert confirmation.status_code == 200
    assert "in force: it will be lifted" in words(confirmation.content.decode())
    response = run_action(support, BARS, "lift_bars", [bar.pk], reason="Appeal upheld by management")

    assert any("is lifted" in message for message in messages_after(support, response))
    lifted = TournamentBar.objects.get(pk=bar.pk)
    assert lifted.reason == "Abusive chat"
    assert lifted.barred_by.username == "support-judge"
    assert lifted.lifted_by.username == "support-lifter"
    assert lifted.lift_reason == "Appeal upheld by management"
    assert lifted.lifted_at is not None
    assert not lifted.in_force
    (audit,) = audit_rows("tournament_bar_lifted")
    assert (audit.player_id, audit.reason) == (someone.pk, "Appeal upheld by management")
    assert (audit.before, audit.after) == ({"barred": True}, {"barred": False})
    entry = tournament_register(someone, tournament, now=timezone.now())
    assert entry.status == EntryStatus.REGISTERED


def test_trn_28_lifting_a_bar_twice_or_without_a_reason_is_refused_and_changes_nothing() -> None:
    """TRN-28, bad input: no reason, then a second lift; each a clear error, the first lift's record unchanged."""
    _someone, bar = barred_player()
    staff = staff_member(SUPPORT_STAFF, "support-lifter")

    with pytest.raises(ReasonRequired):
        bar_lift(bar, actor=staff, reason="   ")
    assert TournamentBar.objects.get(pk=bar.pk).in_force
    bar_lift(bar, actor=staff, reason="Appeal upheld")
    first = TournamentBar.objects.get(pk=bar.pk)
    with pytest.raises(NotAllowedNow, match="already lifted"):
        bar_lift(bar, actor=staff_member(SUPPORT_STAFF, "support-other"), reason="Again")

    again = TournamentBar.objects.get(pk=bar.pk)
    assert (again.lifted_at, again.lifted_by_id, again.lift_reason) == (
        first.lifted_at,
        first.lifted_by_id,
        "Appeal upheld",
    )
    assert len(audit_rows("tournament_bar_lifted")) == 1


def test_trn_28_the_list_action_reports_a_bar_already_lifted_and_leaves_it() -> None:
    """TRN-28: selecting a lifted bar with one in force lifts only the one in force; the other is reported."""
    _, lifted_before = barred_player()
    bar_lift(lifted_before, actor=staff_member(SUPPORT_STAFF, "support-first"), reason="Appeal upheld")
    other = player(cash=10_000)
    in_force = player_bar(other, actor=staff_member(SUPPORT_STAFF, "support-second-judge"), reason="Threats")
    support = client_of(SUPPORT_STAFF, "support-lifter")

    response = run_action(support, BARS, "lift_bars", [lifted_before.pk, in_force.pk], reason="Review")

    shown = " ".join(messages_after(support, response))
    assert "already lifted" in shown
    assert "Nothing was changed" in shown
    assert TournamentBar.objects.get(pk=lifted_before.pk).lifted_by.username == "support-first"
    assert TournamentBar.objects.get(pk=in_force.pk).lifted_by.username == "support-lifter"


def test_trn_28_a_player_whose_bar_was_lifted_can_be_barred_again_as_a_new_record() -> None:
    """TRN-28: the lifted bar stays; the new bar is a second row; the database allows one bar in force per player."""
    someone, bar = barred_player()
    bar_lift(bar, actor=staff_member(SUPPORT_STAFF, "support-lifter"), reason="Appeal upheld")

    again = player_bar(someone, actor=staff_member(SUPPORT_STAFF, "support-second-judge"), reason="Collusion")

    assert TournamentBar.objects.filter(user=someone).count() == 2
    assert again.in_force
    assert again.pk != bar.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentBar.objects.create(user=someone, reason="A third at once", barred_by=again.barred_by)


def test_trn_28_compliance_reviewers_read_the_bars_but_cannot_lift_them() -> None:
    """LOB-10: the action needs ``tournaments.disqualify_player``; a reviewer's attempt changes nothing."""
    _, bar = barred_player()
    reviewer = client_of(COMPLIANCE_REVIEWERS, "reviewer-reads")

    listing = reviewer.get(BARS)
    run_action(reviewer, BARS, "lift_bars", [bar.pk], reason="Not mine to lift")

    assert listing.status_code == 200
    assert "lift_bars" not in listing.content.decode()
    assert TournamentBar.objects.get(pk=bar.pk).in_force
    assert audit_rows("tournament_bar_lifted") == []


def test_trn_28_the_players_overview_says_the_bar_was_lifted_and_why() -> None:
    """TRN-28, LOB-08: the overview's tournament line names the lifting day and reason, no longer "barred since"."""
    someone, bar = barred_player()
    bar_lift(bar, actor=staff_member(SUPPORT_STAFF, "support-lifter"), reason="Appeal upheld")

    page = client_of(SUPPORT_STAFF, "support-reader").get(f"/admin/compliance/playeroverview/{someone.pk}/change/")

    text = words(page.content.decode())
    assert "not barred: a bar was lifted on" in text
    assert "Appeal upheld" in text
    assert "barred since" not in text
