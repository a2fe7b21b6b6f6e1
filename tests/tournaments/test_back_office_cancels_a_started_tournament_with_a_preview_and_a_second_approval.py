"""CXL-01 in the back office: from a running tournament's page, a preview shows the state (CXL-03/CXL-04 not in the
money here), the rules, every player's compensation and the totals in euros, and proposing it with a reason goes
through ``tournament_cancellation_propose``; the cancellation's page shows the archived calculation to every role
that reads tournaments (support, compliance reviewers); a second staff member approves it (the players are paid and
``wallet_reconcile`` passes) — the proposer, a second approval (a chop for a tournament already paid) and figures that
changed since they were shown are refused with the service's message and nothing changed —, or it is withdrawn."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import WITHOUT_A_ROLE
from tests.tournaments.back_office import TOURNAMENTS, audit_rows, client_of, form_values, messages_after
from tests.tournaments.support import cash, fresh, play, register_players, scheduled
from tournaments.models import CancellationStatus, Tournament, TournamentCancellation, TournamentStatus
from tournaments.services.cancellation import tournament_cancellation_preview
from wallet.errors import format_cents

pytestmark = pytest.mark.django_db

CANCELLATIONS = "/admin/tournaments/tournamentcancellation/"


def running_tournament() -> tuple[Tournament, list[Any]]:
    """Nine players on three tables of three, started, nobody out yet: not in the money (three places paid)."""
    tournament = scheduled(table_size=3, buy_in=1_000, fee=100)
    users = register_players(tournament, 9)
    assert tournament.starts_at is not None
    play(tournament, start=tournament.starts_at, until=lambda current: current.status == TournamentStatus.RUNNING)
    return fresh(tournament), users


def preview_page(tournament: Tournament) -> str:
    return f"{TOURNAMENTS}{tournament.pk}/cancellation/"


def approve_page(row: TournamentCancellation) -> str:
    return f"{CANCELLATIONS}{row.pk}/approve/"


def withdraw_page(row: TournamentCancellation) -> str:
    return f"{CANCELLATIONS}{row.pk}/withdraw/"


def propose(client: Any, tournament: Tournament, reason: str = "Database outage") -> TournamentCancellation:
    page = client.get(preview_page(tournament))
    data = form_values(page.content.decode(), "cancellation-propose")
    response = client.post(preview_page(tournament), {**data, "reason": reason})
    assert response.status_code == 302, response.content.decode()[:2000]
    return TournamentCancellation.objects.get(tournament=tournament, status=CancellationStatus.PROPOSED)


def approve(client: Any, row: TournamentCancellation) -> Any:
    page = client.get(approve_page(row))
    assert page.status_code == 200
    return client.post(approve_page(row), form_values(page.content.decode(), "cancellation-approve"))


def test_cxl_01_the_preview_shows_the_state_the_rule_and_every_share_in_euros_and_changes_nothing() -> None:
    """CXL-01, CXL-03, CXL-04: the preview before a proposal."""
    tournament, _users = running_tournament()
    expected = tournament_cancellation_preview(tournament)

    page = client_of(SUPPORT_STAFF).get(preview_page(tournament))

    html = page.content.decode()
    assert page.status_code == 200
    assert "started, not in the money (CXL-03, CXL-04)" in html
    assert "CXL-04 (the player-supplied pot: half equally, half by chips)" in html
    for compensation in expected.compensations:
        assert format_cents(compensation.money_cents) in html
    assert f'<th scope="row">paid to players</th><td>{format_cents(expected.paid_in_money_cents)}</td>' in html
    assert f'<th scope="row">kept by the house</th><td>{format_cents(expected.kept_by_house_cents)}</td>' in html
    assert f'<th scope="row">money held</th><td>{format_cents(expected.money_held.total_cents)}</td>' in html
    assert expected.paid_in_money_cents == 9_000 + 100 * 9  # the €90.00 pot and nine €1.00 fees
    assert not TournamentCancellation.objects.exists()
    assert not fresh(tournament).cancellation_pending


def test_cxl_01_proposing_from_the_preview_stops_dealing_and_the_record_shows_the_archived_calculation() -> None:
    """CXL-01: the proposal, its audit row, and the record every reading role sees."""
    tournament, _users = running_tournament()
    support = client_of(SUPPORT_STAFF, "support-first")

    row = propose(support, tournament, reason="Database outage")

    assert row.reason == "Database outage"
    assert row.proposed_by.username == "support-first"
    assert fresh(tournament).cancellation_pending
    assert fresh(tournament).status == TournamentStatus.RUNNING
    (audit,) = audit_rows("tournament_cancellation_proposed")
    assert audit.details["cancellation"] == row.pk
    for role in (SUPPORT_STAFF, COMPLIANCE_REVIEWERS, ADMINISTRATORS):
        page = client_of(role, f"reader-{role[:4].lower()}").get(f"{CANCELLATIONS}{row.pk}/change/")
        html = page.content.decode()
        assert page.status_code == 200, role
        assert "started, not in the money (CXL-03, CXL-04)" in html
        assert format_cents(row.paid_in_money) in html
        for compensation in row.calculation["compensations"]:
            assert format_cents(compensation["money_cents"]) in html
    listing = client_of(COMPLIANCE_REVIEWERS, "reader-list").get(f"{CANCELLATIONS}?status=proposed")
    assert listing.status_code == 200
    assert tournament.name in listing.content.decode()


def test_cxl_01_a_second_staff_member_approves_the_players_are_paid_and_the_ledger_reconciles() -> None:
    """CXL-01, CXL-03, CXL-04: approval by another staff member pays every share exactly."""
    tournament, users = running_tournament()
    before = {user.pk: cash(user) for user in users}
    row = propose(client_of(SUPPORT_STAFF, "support-first"), tournament)
    second = client_of(SUPPORT_STAFF, "support-second")

    response = approve(second, row)

    assert response.status_code == 302
    assert any("is cancelled" in text for text in messages_after(second, response))
    approved = TournamentCancellation.objects.get(pk=row.pk)
    assert approved.status == CancellationStatus.APPROVED
    assert approved.approved_by is not None
    assert approved.approved_by.username == "support-second"
    assert fresh(tournament).status == TournamentStatus.CANCELLED
    shares = {int(c["player"]): c["money_cents"] for c in approved.calculation["compensations"]}
    for user in users:
        assert cash(user) - before[user.pk] == shares.get(user.pk, 0)
    assert len(audit_rows("tournament_cancelled")) == 1
    call_command("wallet_reconcile")


def test_cxl_01_the_proposer_cannot_approve_and_a_cancellation_already_paid_is_not_paid_twice() -> None:
    """CXL-01: "approved by the proposer" and "approved twice" (a chop for a tournament already paid) are clear
    errors on the approval page, and nothing changes."""
    tournament, users = running_tournament()
    proposer = client_of(SUPPORT_STAFF, "support-first")
    row = propose(proposer, tournament)
    balances = {user.pk: cash(user) for user in users}

    own = proposer.get(approve_page(row))
    assert "You proposed this cancellation" in own.content.decode()
    refused = approve(proposer, row)
    assert any(
        "the one who proposed it cannot approve it" in text and "Nothing was changed" in text
        for text in messages_after(proposer, refused)
    )
    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.PROPOSED
    assert {user.pk: cash(user) for user in users} == balances
    assert fresh(tournament).status == TournamentStatus.RUNNING

    second = client_of(SUPPORT_STAFF, "support-second")
    page = second.get(approve_page(row))
    data = form_values(page.content.decode(), "cancellation-approve")
    assert second.post(approve_page(row), data).status_code == 302
    paid = {user.pk: cash(user) for user in users}
    third = client_of(ADMINISTRATORS, "admin-third")
    again = third.post(approve_page(row), data)  # the same approval posted again, e.g. from a stale page
    assert any(
        "already approved and paid" in text and "Nothing was changed" in text for text in messages_after(third, again)
    )
    assert {user.pk: cash(user) for user in users} == paid
    assert len(audit_rows("tournament_cancelled")) == 1
    call_command("wallet_reconcile")


def test_cxl_01_figures_that_changed_since_they_were_shown_refuse_the_approval_and_the_proposal() -> None:
    """CXL-01: the page sends the fingerprint of the figures it showed; different figures are refused, nothing
    changed."""
    tournament, users = running_tournament()
    proposer = client_of(SUPPORT_STAFF, "support-first")
    stale_preview = form_values(proposer.get(preview_page(tournament)).content.decode(), "cancellation-propose")
    refused_proposal = proposer.post(
        preview_page(tournament), {**stale_preview, "previewed": "0" * 64, "reason": "Outage"}
    )
    assert any("figures changed since the preview" in text for text in messages_after(proposer, refused_proposal))
    assert not TournamentCancellation.objects.exists()
    assert not fresh(tournament).cancellation_pending

    row = propose(proposer, tournament)
    second = client_of(SUPPORT_STAFF, "support-second")
    shown = form_values(second.get(approve_page(row)).content.decode(), "cancellation-approve")
    figures = dict(row.calculation)
    figures["rules"] = [*figures["rules"], "updated"]  # the proposal's figures were brought up to date meanwhile
    TournamentCancellation.objects.filter(pk=row.pk).update(calculation=figures)
    balances = {user.pk: cash(user) for user in users}

    refused = second.post(approve_page(row), shown)

    assert any(
        "figures changed since the preview" in text and "Nothing was changed" in text
        for text in messages_after(second, refused)
    )
    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.PROPOSED
    assert {user.pk: cash(user) for user in users} == balances


def test_cxl_01_a_withdrawn_proposal_lets_play_go_on() -> None:
    """CXL-01: withdrawal with a reason, audited; the tables deal again."""
    tournament, _users = running_tournament()
    row = propose(client_of(SUPPORT_STAFF, "support-first"), tournament)
    support = client_of(SUPPORT_STAFF, "support-second")

    no_reason = support.post(withdraw_page(row), {"reason": ""})
    assert no_reason.status_code == 200
    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.PROPOSED

    response = support.post(withdraw_page(row), {"reason": "The database is back"})

    assert response.status_code == 302
    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.WITHDRAWN
    assert not fresh(tournament).cancellation_pending
    (audit,) = audit_rows("tournament_cancellation_withdrawn")
    assert audit.reason == "The database is back"
    again = approve(client_of(ADMINISTRATORS, "admin-late"), row)
    assert again.status_code == 302
    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.WITHDRAWN


def test_cxl_01_each_role_gets_only_its_cancellation_pages() -> None:
    """CXL-01, LOB-10: reviewers read the record but neither propose, approve nor withdraw; staff without a role get
    nothing; support proposes, approves and withdraws (another member than the proposer approves)."""
    tournament, _users = running_tournament()
    row = propose(client_of(SUPPORT_STAFF, "support-first"), tournament)
    reviewer = client_of(COMPLIANCE_REVIEWERS)
    nobody = client_of(WITHOUT_A_ROLE)

    for url in (preview_page(tournament), approve_page(row), withdraw_page(row)):
        assert reviewer.get(url).status_code == 403, url
        assert reviewer.post(url, {"reason": "x", "previewed": "x"}).status_code == 403, url
        assert nobody.get(url).status_code == 403, url
    assert nobody.get(f"{CANCELLATIONS}{row.pk}/change/").status_code == 403
    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.PROPOSED
    support = client_of(SUPPORT_STAFF, "support-second")
    for url in (preview_page(tournament), approve_page(row), withdraw_page(row)):
        assert support.get(url).status_code == 200, url


def test_cxl_01_the_action_opens_the_preview_of_one_running_tournament_only() -> None:
    """CXL-01: the list's "propose cancellation" action; a tournament not started is pointed elsewhere (CXL-02)."""
    tournament, _users = running_tournament()
    waiting = scheduled()
    support = client_of(SUPPORT_STAFF)

    opened = support.post(TOURNAMENTS, {"action": "propose_cancellation", "_selected_action": [tournament.pk]})
    assert opened.status_code == 302
    assert opened.url == preview_page(tournament)
    refused = support.post(TOURNAMENTS, {"action": "propose_cancellation", "_selected_action": [waiting.pk]})
    assert any("exactly one running tournament" in text for text in messages_after(support, refused))
    not_started = support.get(preview_page(waiting))
    assert "has not started: cancel it with full refunds (CXL-02)" in not_started.content.decode()
    assert 'id="cancellation-propose"' not in not_started.content.decode()


def test_cxl_01_the_running_tournaments_page_links_to_the_preview() -> None:
    """CXL-01: the tournament's change page offers the proposal while it runs, and lists its cancellations."""
    tournament, _users = running_tournament()
    support = client_of(SUPPORT_STAFF, "support-first")

    page = support.get(f"{TOURNAMENTS}{tournament.pk}/change/").content.decode()
    assert preview_page(tournament) in page
    row = propose(support, tournament)
    page = support.get(f"{TOURNAMENTS}{tournament.pk}/change/").content.decode()
    assert f"{CANCELLATIONS}{row.pk}/change/" in page


def test_cxl_01_a_tournament_that_changed_since_the_proposal_refuses_the_approval_and_shows_the_new_figures() -> None:
    """CXL-01, CXL-04: chips moved after the proposal: the approval is refused with the service's message, the
    record carries the new figures, nothing is paid; approved again on the new figures, it pays them."""
    from games.models import Seat

    tournament, users = running_tournament()
    row = propose(client_of(SUPPORT_STAFF, "support-first"), tournament)
    seats = list(Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False).order_by("pk"))
    Seat.objects.filter(pk=seats[0].pk).update(chips=seats[0].chips + 500)
    Seat.objects.filter(pk=seats[1].pk).update(chips=seats[1].chips - 500)
    balances = {user.pk: cash(user) for user in users}
    second = client_of(SUPPORT_STAFF, "support-second")

    refused = approve(second, row)

    assert any(
        "changed since the preview" in text and "Nothing was paid: these are the new figures" in text
        for text in messages_after(second, refused)
    )
    updated = TournamentCancellation.objects.get(pk=row.pk)
    assert updated.status == CancellationStatus.PROPOSED
    assert updated.calculation != row.calculation
    assert {user.pk: cash(user) for user in users} == balances
    new_page = second.get(approve_page(row)).content.decode()
    for compensation in updated.calculation["compensations"]:
        assert format_cents(compensation["money_cents"]) in new_page

    assert approve(second, row).status_code == 302
    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.APPROVED
    shares = {int(c["player"]): c["money_cents"] for c in updated.calculation["compensations"]}
    for user in users:
        assert cash(user) - balances[user.pk] == shares.get(user.pk, 0)
    call_command("wallet_reconcile")
