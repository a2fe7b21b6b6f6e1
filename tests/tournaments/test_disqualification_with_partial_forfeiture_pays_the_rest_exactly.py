"""TRN-28, TRN-09 / FRD-15: a disqualified player forfeits their unpaid prize in full or in part — a stated amount or
percentage goes to the house's seized funds and the rest is paid to them at once, in one transfer, to the cent — and
each disqualification is audited with what was forfeited; bad amounts (zero, negative, the whole prize or more, not
whole cents, both full and partial, a prize already paid, an entry with no prize) are refused and nothing changes.
Issue 30 (four eyes on money): the disqualification is immediate, the forfeiture is proposed with it and done when a
second holder of ``tournaments.forfeit_prize`` approves it (``approved``: a second compliance reviewer); in the back
office an administrator proposes it (support staff do not hold the permission)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import rule_change_approve
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import ENTRIES, audit_rows, client_of, messages_after, run_action
from tests.tournaments.support import cash, play, register_players, sit_and_go, unpaid_winner
from tournaments import services
from tournaments.forfeiture_changes import KIND, forfeiture_target
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.services import NotAllowedNow, entry_disqualify
from tournaments.services.money import prize_pool_account
from wallet.models import AccountKind, Transfer
from wallet.services import balance_of, system_account

pytestmark = pytest.mark.django_db


def seized() -> int:
    return balance_of(system_account(AccountKind.HOUSE_SEIZED))


def staff() -> Any:
    """The compliance reviewer who disqualifies and proposes the forfeiture (one per test)."""
    existing = get_user_model().objects.filter(username="desk-judge").first()
    return existing or staff_member(COMPLIANCE_REVIEWERS, "desk-judge")


def approved(entry: TournamentEntry) -> TournamentEntry:
    """A second reviewer approves the entry's pending forfeiture (issue 30); the entry as it is then."""
    proposal = RuleChangeProposal.objects.get(kind=KIND, target=forfeiture_target(entry), status="pending")
    approver = get_user_model().objects.filter(username="desk-second").first()
    rule_change_approve(proposal, approver or staff_member(COMPLIANCE_REVIEWERS, "desk-second"))
    return TournamentEntry.objects.get(pk=entry.pk)


def test_trn_28_a_partial_forfeiture_by_amount_seizes_that_amount_and_pays_the_rest_to_the_cent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28: €12.34 of a €30.00 prize forfeited, €17.66 paid, the pool emptied by exactly the prize."""
    winner = unpaid_winner(monkeypatch)
    pool = prize_pool_account(winner.tournament)
    before_cash, before_seized, before_pool = cash(winner.user), seized(), balance_of(pool)

    disqualified = entry_disqualify(
        winner, actor=staff(), reason="Multi-accounting (TRN-09)", forfeit_prize=False, forfeit_cents=1_234
    )
    assert disqualified.status == EntryStatus.DISQUALIFIED
    assert (cash(winner.user), seized(), balance_of(pool)) == (before_cash, before_seized, before_pool)
    disqualified = approved(winner)

    assert disqualified.status == EntryStatus.DISQUALIFIED
    assert disqualified.prize_forfeited is False
    assert disqualified.prize_forfeited_cents == 1_234
    assert cash(winner.user) - before_cash == 1_766
    assert seized() - before_seized == 1_234
    assert before_pool - balance_of(pool) == 3_000
    assert disqualified.prize_transfer_id is not None
    (audit,) = audit_rows("tournament_prize_forfeited")
    assert audit.details["forfeited_cents"] == 1_234
    assert audit.transfer_id == disqualified.prize_transfer_id
    assert audit_rows("tournament_player_disqualified")[0].details["forfeiture_proposed_cents"] == 1_234
    # Not paid again by the prize credit that runs later, by hand or by the beat task.
    monkeypatch.undo()
    assert services.entry_prize_pay(winner.pk) is False
    with pytest.raises(NotAllowedNow, match="already paid"):
        services.entry_prize_credit(winner.pk, actor=staff(), reason="retry")
    call_command("wallet_reconcile")


def test_trn_28_a_full_forfeiture_records_the_whole_prize_as_forfeited(monkeypatch: pytest.MonkeyPatch) -> None:
    """TRN-28: the full forfeiture confiscates the whole unpaid prize."""
    winner = unpaid_winner(monkeypatch)
    before_cash, before_seized = cash(winner.user), seized()

    entry_disqualify(winner, actor=staff(), reason="Collusion", forfeit_prize=True)
    assert (cash(winner.user), seized()) == (before_cash, before_seized)
    disqualified = approved(winner)

    assert disqualified.prize_forfeited is True
    assert disqualified.prize_forfeited_cents == 3_000
    assert cash(winner.user) == before_cash
    assert seized() - before_seized == 3_000
    call_command("wallet_reconcile")


@pytest.mark.parametrize(
    ("forfeit_prize", "forfeit_cents", "message"),
    [
        (False, 0, "more than €0.00 and less than the prize €30.00"),
        (False, -1, "more than €0.00 and less than the prize €30.00"),
        (False, 3_000, "more than €0.00 and less than the prize €30.00"),
        (False, 10**15, "more than €0.00 and less than the prize €30.00"),
        (False, 12.5, "whole number of cents"),
        (False, "100", "whole number of cents"),
        (False, True, "whole number of cents"),
        (True, 100, "full or a partial forfeiture, not both"),
    ],
)
def test_trn_28_a_bad_partial_forfeiture_is_refused_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, forfeit_prize: bool, forfeit_cents: Any, message: str
) -> None:
    """TRN-28: bad input, a clear error, nothing changed."""
    winner = unpaid_winner(monkeypatch)
    before_cash, before_seized, transfers = cash(winner.user), seized(), Transfer.objects.count()

    with pytest.raises(NotAllowedNow, match=message):
        entry_disqualify(
            winner, actor=staff(), reason="Cheating", forfeit_prize=forfeit_prize, forfeit_cents=forfeit_cents
        )

    row = TournamentEntry.objects.get(pk=winner.pk)
    assert row.status == EntryStatus.FINISHED
    assert row.prize_forfeited_cents == 0
    assert (cash(winner.user), seized(), Transfer.objects.count()) == (before_cash, before_seized, transfers)
    assert audit_rows("tournament_player_disqualified") == []
    assert not RuleChangeProposal.objects.filter(kind=KIND).exists()


def test_trn_28_a_prize_already_paid_or_no_prize_at_all_cannot_be_forfeited_in_part() -> None:
    """TRN-28: a paid prize is confiscated through the compliance desk's hold; a player without a prize has nothing
    to forfeit in part."""
    tournament = sit_and_go(seats=3, buy_in=1_000, fee=100)
    register_players(tournament, 3)
    play(tournament)
    paid = TournamentEntry.objects.get(tournament=tournament, place=1)
    assert paid.prize_transfer_id is not None
    third = TournamentEntry.objects.get(tournament=tournament, place=3)
    assert third.prize == 0

    with pytest.raises(NotAllowedNow, match="already paid: put it on hold"):
        entry_disqualify(paid, actor=staff(), reason="Cheating", forfeit_prize=False, forfeit_cents=100)
    with pytest.raises(NotAllowedNow, match="no prize won"):
        entry_disqualify(third, actor=staff(), reason="Cheating", forfeit_prize=False, forfeit_cents=100)
    assert set(TournamentEntry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        EntryStatus.FINISHED
    }


def test_trn_28_an_administrator_forfeits_a_percentage_from_the_back_office_rounded_down_to_the_cent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28: 33.33 % of €30.00 is €9.999 → €9.99 forfeited (the player keeps the fraction of a cent), €20.01 paid."""
    winner = unpaid_winner(monkeypatch)
    before_cash, before_seized = cash(winner.user), seized()
    administrator = client_of(ADMINISTRATORS)

    missing = run_action(
        administrator, ENTRIES, "disqualify_entries", [winner.pk], prize="partial_percent", reason="Chip dumping"
    )
    assert missing.status_code == 200  # the page again: the percentage is missing
    assert missing.context["form"].errors["forfeit_percent"]
    response = run_action(
        administrator,
        ENTRIES,
        "disqualify_entries",
        [winner.pk],
        prize="partial_percent",
        forfeit_percent="33.33",
        reason="Chip dumping",
    )

    assert response.status_code == 302
    proposed = "forfeiture of €9.99 of their prize €30.00 is proposed"
    assert any(proposed in text for text in messages_after(administrator, response))
    assert (cash(winner.user), seized()) == (before_cash, before_seized)
    row = approved(winner)
    assert row.prize_forfeited_cents == 999
    assert cash(winner.user) - before_cash == 2_001
    assert seized() - before_seized == 999
    call_command("wallet_reconcile")


def test_trn_28_a_refused_partial_amount_in_the_back_office_says_why_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28: €30.00 of a €30.00 prize is not a partial forfeiture."""
    winner = unpaid_winner(monkeypatch)
    administrator = client_of(ADMINISTRATORS)

    response = run_action(
        administrator,
        ENTRIES,
        "disqualify_entries",
        [winner.pk],
        prize="partial_amount",
        forfeit_amount="30.00",
        reason="Chip dumping",
    )

    assert any(
        "less than the prize €30.00" in text and "Nothing was changed" in text
        for text in messages_after(administrator, response)
    )
    assert TournamentEntry.objects.get(pk=winner.pk).status == EntryStatus.FINISHED


def test_hex_10_a_partial_forfeiture_waits_for_the_end_of_a_running_hexapro_game() -> None:
    """TRN-28, HEX-10: the rest of a partly forfeited prize would be paid at once, but a running HexaPro game pays
    its places when it ends: refused, nothing changed."""
    from tests.tournaments.hexapro_support import three_players_register
    from tests.tournaments.support import one_shove_a_hand

    _users, game = three_players_register(1_000, multiplier=250)
    play(
        game.tournament,
        policy=one_shove_a_hand,
        until=lambda current: TournamentEntry.objects.filter(tournament=current, place=3).exists(),
    )
    third = TournamentEntry.objects.get(tournament=game.tournament, place=3)
    assert (third.prize, third.prize_transfer_id) == (2_000, None)
    before_cash, before_seized = cash(third.user), seized()

    with pytest.raises(NotAllowedNow, match="still running: its prizes are paid when it ends"):
        entry_disqualify(third, actor=staff(), reason="Collusion", forfeit_prize=False, forfeit_cents=500)

    assert TournamentEntry.objects.get(pk=third.pk).status == EntryStatus.FINISHED
    assert (cash(third.user), seized()) == (before_cash, before_seized)
