"""LOB-08 tournament actions from the back office, as support staff: delay (TRN-01), cancel before the start with full
refunds (TRN-01, CXL-02) — a started tournament is pointed to the cancellation policy instead —, hand-for-hand on /
off / automatic (AMB-43), disqualify keeping the prize (TRN-28: forfeiting it is the compliance desk's decision,
``tournaments.forfeit_prize``), and a manual prize credit. Each goes through
its service on a confirmation page that asks for the reason, and writes an audit row with before and after."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import (
    ENTRIES,
    TOURNAMENTS,
    audit_rows,
    client_of,
    messages_after,
    run_action,
)
from tests.tournaments.support import cash, fresh, register_players, scheduled, sit_and_go, unpaid_winner
from tournaments.models import EntryStatus, HandForHandMode, Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


def minute(moment: Any) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def waiting_scheduled(players: int = 2) -> tuple[Tournament, list[Any]]:
    tournament = scheduled(starts_at=(timezone.now() + timedelta(hours=1)).replace(second=0, microsecond=0))
    users = register_players(tournament, players, now=timezone.now())
    return fresh(tournament), users


def running_sit_and_go() -> Tournament:
    tournament = sit_and_go(seats=3)
    register_players(tournament, 3, now=timezone.now())
    return fresh(tournament)


def test_trn_01_support_delays_a_scheduled_tournament_and_the_audit_row_has_before_and_after() -> None:
    tournament, _users = waiting_scheduled()
    new_start = tournament.starts_at + timedelta(minutes=45)  # type: ignore[operator]
    support = client_of(SUPPORT_STAFF)

    response = run_action(
        support, TOURNAMENTS, "delay_tournament", [tournament.pk], new_start=minute(new_start), reason="Server patch"
    )

    assert response.status_code == 302
    assert fresh(tournament).starts_at == new_start
    (audit,) = audit_rows("tournament_delayed")
    assert audit.actor is not None
    assert audit.actor.username == "support-staff"
    assert audit.reason == "Server patch"
    assert audit.details["before"] == {"starts_at": tournament.starts_at.isoformat()}  # type: ignore[union-attr]
    assert audit.details["after"] == {"starts_at": new_start.isoformat()}
    assert LogEntry.objects.filter(object_id=str(tournament.pk), change_message__contains="delayed").exists()


def test_a_delay_to_an_earlier_time_or_without_a_reason_changes_nothing() -> None:
    tournament, _users = waiting_scheduled()
    earlier = tournament.starts_at - timedelta(minutes=10)  # type: ignore[operator]
    support = client_of(SUPPORT_STAFF)

    refused = run_action(
        support, TOURNAMENTS, "delay_tournament", [tournament.pk], new_start=minute(earlier), reason="Oops"
    )
    assert any("moves the start later" in text for text in messages_after(support, refused))
    no_reason = run_action(
        support,
        TOURNAMENTS,
        "delay_tournament",
        [tournament.pk],
        new_start=minute(tournament.starts_at + timedelta(hours=1)),  # type: ignore[operator]
        reason="",
    )

    assert no_reason.status_code == 200  # the page again, with the missing reason marked
    assert no_reason.context["form"].errors["reason"]
    assert fresh(tournament).starts_at == tournament.starts_at
    assert audit_rows("tournament_delayed") == []


def test_trn_01_cxl_02_support_cancels_before_the_start_and_every_registration_is_refunded() -> None:
    tournament, users = waiting_scheduled(players=2)
    support = client_of(SUPPORT_STAFF)
    assert {cash(user) for user in users} == {100_000 - 1_100}

    response = run_action(support, TOURNAMENTS, "cancel_tournaments", [tournament.pk], reason="Low turnout")

    assert response.status_code == 302
    cancelled = fresh(tournament)
    assert cancelled.status == TournamentStatus.CANCELLED
    assert cancelled.cancelled_reason == "Low turnout"
    assert {cash(user) for user in users} == {100_000}
    assert set(TournamentEntry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        EntryStatus.REFUNDED
    }
    (audit,) = audit_rows("tournament_cancelled")
    assert audit.details["before"] == {"status": "registering"}
    assert audit.details["after"] == {"refunded": 2}


def test_a_started_tournament_is_not_cancelled_here_and_the_message_names_the_cancellation_policy() -> None:
    tournament = running_sit_and_go()
    support = client_of(SUPPORT_STAFF)

    response = run_action(support, TOURNAMENTS, "cancel_tournaments", [tournament.pk], reason="Outage")

    assert any("cancellation policy" in text for text in messages_after(support, response))
    assert fresh(tournament).status == TournamentStatus.RUNNING
    assert audit_rows("tournament_cancelled") == []


def test_amb_43_support_switches_hand_for_hand_on_and_back_to_automatic() -> None:
    tournament = running_sit_and_go()
    support = client_of(SUPPORT_STAFF)

    run_action(support, TOURNAMENTS, "set_hand_for_hand", [tournament.pk], mode="on", reason="Bubble by hand")
    assert fresh(tournament).hand_for_hand_mode == HandForHandMode.ON
    run_action(support, TOURNAMENTS, "set_hand_for_hand", [tournament.pk], mode="auto", reason="Back to the rule")

    assert fresh(tournament).hand_for_hand_mode == HandForHandMode.AUTOMATIC
    switched_on, back = audit_rows("tournament_hand_for_hand")
    assert (switched_on.details["before"], switched_on.details["after"]) == ({"mode": "auto"}, {"mode": "on"})
    assert (back.details["before"], back.details["after"]) == ({"mode": "on"}, {"mode": "auto"})
    assert back.reason == "Back to the rule"


def test_trn_28_support_disqualifies_a_player_in_play_who_leaves_with_their_chips() -> None:
    tournament = running_sit_and_go()
    entry = TournamentEntry.objects.filter(tournament=tournament).order_by("pk").first()
    assert entry is not None
    assert entry.status == EntryStatus.PLAYING
    support = client_of(SUPPORT_STAFF)

    response = run_action(
        support, ENTRIES, "disqualify_entries", [entry.pk], prize="keep", reason="Collusion (case 12)"
    )

    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == EntryStatus.DISQUALIFIED
    assert entry.table_id is None
    assert fresh(tournament).players_remaining == 2
    (audit,) = audit_rows("tournament_player_disqualified")
    assert audit.player_id == entry.user_id
    assert audit.details["before"]["status"] == EntryStatus.PLAYING
    assert audit.details["after"] == {"status": EntryStatus.DISQUALIFIED}


def test_trn_28_support_is_offered_no_forfeiture_and_one_posted_anyway_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 30, least privilege: a forfeiture takes a player's money, so it needs ``tournaments.forfeit_prize``,
    which support does not hold; their disqualification page offers the prize kept only, and says who forfeits."""
    winner = unpaid_winner(monkeypatch)
    support = client_of(SUPPORT_STAFF)

    page = support.post(ENTRIES, {"action": "disqualify_entries", "_selected_action": [winner.pk], "index": 0})
    forced = run_action(support, ENTRIES, "disqualify_entries", [winner.pk], prize="forfeit", reason="Collusion")

    text = page.content.decode()
    assert 'value="keep"' in text
    assert not [choice for choice in ("forfeit", "partial_amount", "partial_percent") if f'value="{choice}"' in text]
    assert "compliance desk" in text
    assert forced.status_code == 200  # the page again: not a choice offered
    winner.refresh_from_db()
    assert (winner.status, winner.prize_forfeited) == (EntryStatus.FINISHED, False)
    assert audit_rows("tournament_player_disqualified") == []


def test_a_disqualified_winner_who_keeps_the_prize_is_paid_by_the_manual_credit_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    winner = unpaid_winner(monkeypatch)
    cash_before = cash(winner.user)
    support = client_of(SUPPORT_STAFF)

    run_action(support, ENTRIES, "disqualify_entries", [winner.pk], prize="keep", reason="Abusive chat")
    run_action(support, ENTRIES, "credit_prizes", [winner.pk], reason="Automatic credit failed")
    again = run_action(support, ENTRIES, "credit_prizes", [winner.pk], reason="Twice by mistake")

    winner.refresh_from_db()
    assert winner.status == EntryStatus.DISQUALIFIED
    assert not winner.prize_forfeited
    assert winner.prize_transfer_id is not None
    assert cash(winner.user) == cash_before + 3_000
    assert any("already paid" in text for text in messages_after(support, again))
    (audit,) = audit_rows("tournament_prize_credited")
    assert audit.transfer_id == winner.prize_transfer_id
    assert audit.reason == "Automatic credit failed"
    assert audit.details["before"] == {"prize_transfer": None}
    assert audit.details["after"] == {"prize_transfer": winner.prize_transfer_id}
