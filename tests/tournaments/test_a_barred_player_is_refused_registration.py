"""TRN-28, TRN-09 / FRD-15: staff disqualify a player and bar them from tournaments in one step (audited); from then
on the player's registration to any tournament — scheduled, Sit & Go, HexaPro — is refused with a clear error and
nothing changes; a second bar is refused; the player's back-office overview lists the disqualification with its
forfeiture and the bar."""

from __future__ import annotations

import re
from datetime import timedelta
from html import escape
from typing import Any

import pytest
from django.utils import timezone

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import ENTRIES, audit_rows, client_of, run_action
from tests.tournaments.hexapro_support import register as hexapro_register
from tests.tournaments.support import cash, fresh, play, player, register_players, scheduled, sit_and_go
from tournaments.hexapro.models import HexaProRegistration
from tournaments.models import EntryStatus, TournamentBar, TournamentEntry
from tournaments.services import NotAllowedNow, NotEligible, entry_disqualify, tournament_register
from tournaments.services.sanctions import player_bar
from wallet.models import Transfer

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def registered_entry() -> TournamentEntry:
    tournament = sit_and_go(seats=3)
    (user,) = register_players(tournament, 1, now=timezone.now())
    return TournamentEntry.objects.select_related("user", "tournament").get(tournament=tournament, user=user)


def test_trn_28_support_disqualifies_and_bars_and_the_next_registration_is_refused() -> None:
    """TRN-28, TRN-09: disqualify with the bar ticked; then every registration is refused, nothing changed."""
    entry = registered_entry()
    support = client_of(SUPPORT_STAFF)

    response = run_action(
        support, ENTRIES, "disqualify_entries", [entry.pk], prize="keep", bar="on", reason="Multi-accounting"
    )

    assert response.status_code == 302
    assert TournamentEntry.objects.get(pk=entry.pk).status == EntryStatus.DISQUALIFIED
    bar = TournamentBar.objects.get(user=entry.user)
    assert bar.reason == "Multi-accounting"
    assert bar.entry_id == entry.pk
    assert bar.barred_by.username == "support-staff"
    (audit,) = audit_rows("tournament_player_barred")
    assert audit.player_id == entry.user_id
    assert audit.after == {"barred": True}
    assert audit_rows("tournament_player_disqualified")[0].details["barred"] is True

    later = scheduled(starts_at=timezone.now() + timedelta(hours=1))
    balance, transfers = cash(entry.user), Transfer.objects.count()
    with pytest.raises(NotEligible, match="barred from tournaments"):
        tournament_register(entry.user, later, now=timezone.now())
    with pytest.raises(NotEligible, match="barred from tournaments"):
        hexapro_register(entry.user, 1_000)
    assert (cash(entry.user), Transfer.objects.count()) == (balance, transfers)
    assert not TournamentEntry.objects.filter(tournament=later).exists()
    assert fresh(later).entrants == 0
    assert not HexaProRegistration.objects.filter(user=entry.user).exists()


def test_trn_28_a_player_already_barred_is_not_barred_again_and_the_disqualification_that_asked_is_refused() -> None:
    """TRN-28: a second bar is a clear error; the disqualification that asked for it changes nothing either."""
    entry = registered_entry()
    judge = staff_member(SUPPORT_STAFF, "support-judge")
    player_bar(entry.user, actor=judge, reason="Abusive chat")

    with pytest.raises(NotAllowedNow, match="already barred"):
        player_bar(entry.user, actor=judge, reason="Again")
    with pytest.raises(NotAllowedNow, match="already barred"):
        entry_disqualify(entry, actor=judge, reason="Again", forfeit_prize=False, bar=True)

    assert TournamentBar.objects.filter(user=entry.user).count() == 1
    assert TournamentEntry.objects.get(pk=entry.pk).status == EntryStatus.REGISTERED
    assert len(audit_rows("tournament_player_barred")) == 1
    assert audit_rows("tournament_player_disqualified") == []


def test_a_player_not_barred_still_registers() -> None:
    """TRN-09: the bar check refuses only barred players."""
    tournament = scheduled(starts_at=timezone.now() + timedelta(hours=1))
    someone = player(cash=10_000)

    entry = tournament_register(someone, tournament, now=timezone.now())

    assert entry.status == EntryStatus.REGISTERED


def test_trn_28_the_players_back_office_overview_lists_the_disqualification_its_forfeiture_and_the_bar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28, LOB-08: the player overview's tournament sanctions panel (partial forfeiture proposed by a reviewer
    and approved by a second one, issue 30; bar)."""
    from tournaments import services

    monkeypatch.setattr(services, "entry_prize_pay", lambda entry_id: False)
    tournament = sit_and_go(seats=3, buy_in=1_000, fee=100)
    register_players(tournament, 3)
    play(tournament)
    winner = TournamentEntry.objects.select_related("user").get(tournament=tournament, place=1)
    judge = staff_member(COMPLIANCE_REVIEWERS, "desk-judge")
    entry_disqualify(winner, actor=judge, reason="Chip dumping", forfeit_prize=False, forfeit_cents=1_000, bar=True)
    # Issue 30: the forfeiture is done when a second reviewer (``tournaments.forfeit_prize``) approves it.
    from poker_site.core.models import RuleChangeProposal
    from poker_site.core.rule_changes import rule_change_approve
    from tournaments.forfeiture_changes import KIND, forfeiture_target

    proposal = RuleChangeProposal.objects.get(kind=KIND, target=forfeiture_target(winner))
    rule_change_approve(proposal, staff_member(COMPLIANCE_REVIEWERS, "desk-second"))

    text = _overview(client_of(SUPPORT_STAFF, "support-reader"), winner.user)

    assert "Tournament disqualifications and forfeitures" in text
    assert f"{escape(tournament.name)} (#{tournament.pk})" in text
    assert "in part (€10.00), the rest paid" in text
    assert "Chip dumping" in text
    assert "barred since" in text


def _overview(client: Any, user: Any) -> str:
    page = client.get(f"/admin/compliance/playeroverview/{user.pk}/change/")
    assert page.status_code == 200
    return words(page.content.decode())


def test_trn_28_the_refusal_speaks_the_players_language() -> None:
    """TRN-28: an Estonian player reads the refusal in Estonian."""
    from django.utils import translation

    entry = registered_entry()
    player_bar(entry.user, actor=staff_member(SUPPORT_STAFF, "support-judge"), reason="Abusive chat")
    later = scheduled(starts_at=timezone.now() + timedelta(hours=1))

    with translation.override("et"), pytest.raises(NotEligible, match="turniiridel osalemine keelatud"):
        tournament_register(entry.user, later, now=timezone.now())


def test_trn_28_support_bars_a_player_from_the_bars_list_and_a_second_bar_is_refused() -> None:
    """TRN-28: a bar without a disqualification, through the service (audited); the same player again is a clear
    error on the form and nothing changes."""
    someone = player(cash=10_000)
    support = client_of(SUPPORT_STAFF)

    response = support.post("/admin/tournaments/tournamentbar/add/", {"user": someone.pk, "reason": "Threats in chat"})

    assert response.status_code == 302
    bar = TournamentBar.objects.get(user=someone)
    assert (bar.reason, bar.barred_by.username, bar.entry_id) == ("Threats in chat", "support-staff", None)
    (audit,) = audit_rows("tournament_player_barred")
    assert audit.player_id == someone.pk
    again = support.post("/admin/tournaments/tournamentbar/add/", {"user": someone.pk, "reason": "Again"})
    assert again.status_code == 200
    assert "already barred from tournaments" in again.content.decode()
    assert TournamentBar.objects.filter(user=someone).count() == 1
    assert len(audit_rows("tournament_player_barred")) == 1
    listing = client_of(COMPLIANCE_REVIEWERS, "reviewer-reads").get("/admin/tournaments/tournamentbar/")
    assert listing.status_code == 200
    assert "Threats in chat" in listing.content.decode()
