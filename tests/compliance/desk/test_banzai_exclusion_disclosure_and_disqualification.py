"""CASH-32, FRD-17: a subject excluded from Banzai cannot sit at a Banzai table until readmitted. FRD-10 (3): a
disclosure to an authority is recorded (to whom, what, why). TRN-28, FRD-15, FRD-16: a subject is disqualified from a
tournament through the tournaments' own service and the decision is on the case. Each needs the sanction permission,
is audited, and bad input changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.errors import InvalidRequest, NotAllowed
from compliance.models import CaseActionKind
from compliance.services import banzai_exclusion_set, disclosure_record, tournament_disqualify
from games.models import PlayerTableSettings
from games.runtime.errors import BanzaiExcluded
from games.services import seat_take
from tests.compliance.desk.support import case_about, everything_that_records, player
from tests.tables.back_office import logged_in
from tests.tables.support import START, open_table
from tests.tournaments.support import register_players, scheduled
from tournaments.models import EntryStatus, TournamentEntry
from wallet.errors import NotPermitted
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_a_player_excluded_from_banzai_cannot_sit_at_a_banzai_table_until_readmitted(reviewer: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/banzai/",
        {"banzai-player": alice.pk, "banzai-excluded": "yes", "banzai-reason": "Soft-play at Banzai tables"},
    )
    assert response.status_code == 302
    settings = PlayerTableSettings.objects.get(user=alice)
    assert (settings.banzai_excluded, settings.banzai_exclusion_reason) == (True, "Soft-play at Banzai tables")
    with pytest.raises(BanzaiExcluded):
        seat_take(alice, open_table("banzai", "NL5"), 500, now=START)
    entry = AuditEntry.objects.get(action="banzai_excluded")
    assert entry.before == {"banzai_excluded": False, "banzai_exclusion_reason": ""}

    banzai_exclusion_set(case, reviewer, alice, excluded=False, reason="Appeal upheld")
    seat_take(alice, open_table("banzai", "NL5"), 500, now=START)
    assert [action.kind for action in case.actions.order_by("pk")][-2:] == [
        CaseActionKind.BANZAI_EXCLUDED,
        CaseActionKind.BANZAI_READMITTED,
    ]


def test_excluding_twice_is_refused_and_changes_nothing(reviewer: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    banzai_exclusion_set(case, reviewer, alice, excluded=True, reason="Chip dumping at Banzai")
    before = everything_that_records()
    with pytest.raises(NotAllowed, match="already excluded"):
        banzai_exclusion_set(case, reviewer, alice, excluded=True, reason="Again")
    assert everything_that_records() == before


def test_a_disclosure_is_recorded_with_its_recipient_information_and_grounds(reviewer: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/disclose/",
        {
            "disclose-player": alice.pk,
            "disclose-recipient": "Financial Intelligence Unit",
            "disclose-information": "Identity and deposits of the last 90 days",
            "disclose-reason": "Suspected money laundering through chip dumping (FRD-10)",
        },
    )
    assert response.status_code == 302
    action = case.actions.get(kind=CaseActionKind.DISCLOSED)
    assert action.subject == alice
    assert action.details["recipient"] == "Financial Intelligence Unit"
    assert action.audit_entry is not None
    assert action.audit_entry.after == {
        "recipient": "Financial Intelligence Unit",
        "information": "Identity and deposits of the last 90 days",
    }


def test_a_subject_is_disqualified_from_a_tournament_and_the_decision_is_on_the_case(reviewer: Any) -> None:
    tournament = scheduled()
    first, second = register_players(tournament, 2)
    case = case_about(reviewer, first, second, title="Two accounts, one person (FRD-15)")
    entry = TournamentEntry.objects.get(tournament=tournament, user=second)

    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/disqualify/",
        {"disqualify-entry": entry.pk, "disqualify-reason": "Second account of the same person"},
    )

    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == EntryStatus.DISQUALIFIED
    assert list(case.tournaments.all()) == [tournament]
    action = case.actions.get(kind=CaseActionKind.DISQUALIFIED)
    assert (action.subject, action.details["entry"]) == (second, entry.pk)
    assert AuditEntry.objects.filter(action="tournament_player_disqualified", player=second).exists()


def test_disqualifying_an_entry_of_someone_outside_the_case_is_refused_and_changes_nothing(reviewer: Any) -> None:
    tournament = scheduled()
    first, outsider = register_players(tournament, 2)
    case = case_about(reviewer, first)
    entry = TournamentEntry.objects.get(tournament=tournament, user=outsider)
    before = everything_that_records()
    with pytest.raises(InvalidRequest, match="not a subject"):
        tournament_disqualify(case, reviewer, entry.pk, reason="x", forfeit_prize=False)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.REGISTERED
    assert everything_that_records() == before


def test_sanctions_need_the_sanction_permission(reviewer: Any, administrator: Any) -> None:
    from django.contrib.auth.models import Permission

    alice = player("alice")
    case = case_about(reviewer, alice)
    reviewer.groups.clear()
    reviewer.user_permissions.add(Permission.objects.get(codename="review_cases"))
    from poker_site.accounts.models import User

    limited = User.objects.get(pk=reviewer.pk)
    before = everything_that_records()
    with pytest.raises(NotPermitted):
        disclosure_record(case, limited, alice, recipient="Police", information="Everything", reason="Asked")
    with pytest.raises(NotPermitted):
        banzai_exclusion_set(case, limited, alice, excluded=True, reason="x")
    assert everything_that_records() == before
    disclosure_record(case, administrator, alice, recipient="Police", information="Identity", reason="Court order")
