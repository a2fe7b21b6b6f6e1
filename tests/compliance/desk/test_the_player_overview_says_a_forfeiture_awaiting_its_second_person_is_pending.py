"""LOB-08, TRN-28, issue 30: a disqualified player's prize forfeiture waits for a second person's approval, and the
prize is withheld meanwhile. The player overview (support's in the back office, the reviewers' on the desk) said
"none" in its forfeiture column until then, as if nothing were forfeited or pending; it now reads "withheld:
forfeiture pending (rule change #N)", naming the proposal to decide, as the back office's prize lists do. Once
approved it reads what was forfeited."""

from __future__ import annotations

import re
from typing import Any

import pytest

from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import rule_change_approve
from tests.tables.back_office import logged_in
from tests.tournaments.support import unpaid_winner
from tournaments.forfeiture_changes import KIND, forfeiture_target
from tournaments.models import TournamentEntry
from tournaments.services import entry_disqualify

pytestmark = pytest.mark.django_db


def forfeiture_column(page: Any, entry: TournamentEntry) -> str:
    """The forfeiture cell of ``entry``'s row in the overview's disqualifications table."""
    html = page.content.decode()
    table = html[html.index('id="player-tournament-sanctions"') :]
    row = table[table.index(f"<td>#{entry.pk}</td>") :]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row[: row.index("</tr>")], flags=re.DOTALL)
    return re.sub(r"\s+", " ", cells[3]).strip()  # entry, place, prize, forfeiture


@pytest.fixture
def withheld(reviewer: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[TournamentEntry, RuleChangeProposal]:
    """A winner disqualified by a reviewer who proposed to forfeit the whole unpaid prize: the proposal pending."""
    winner = unpaid_winner(monkeypatch)
    entry_disqualify(winner, actor=reviewer, reason="Collusion", forfeit_prize=True)
    return winner, RuleChangeProposal.objects.get(kind=KIND, target=forfeiture_target(winner))


def test_supports_overview_says_the_forfeiture_is_pending_and_names_the_rule_change(
    withheld: tuple[TournamentEntry, RuleChangeProposal], support_agent: Any
) -> None:
    winner, proposal = withheld

    page = logged_in(support_agent).get(f"/admin/compliance/playeroverview/{winner.user_id}/change/")

    assert page.status_code == 200
    assert forfeiture_column(page, winner) == f"withheld: forfeiture pending (rule change #{proposal.pk})"


def test_the_desks_player_page_says_the_same(
    withheld: tuple[TournamentEntry, RuleChangeProposal], second_reviewer: Any
) -> None:
    winner, proposal = withheld

    page = logged_in(second_reviewer).get(f"/compliance/players/{winner.user_id}/")

    assert page.status_code == 200
    assert forfeiture_column(page, winner) == f"withheld: forfeiture pending (rule change #{proposal.pk})"


def test_once_the_second_reviewer_approves_it_the_overview_says_what_was_forfeited(
    withheld: tuple[TournamentEntry, RuleChangeProposal], support_agent: Any, second_reviewer: Any
) -> None:
    winner, proposal = withheld

    rule_change_approve(proposal, second_reviewer)
    page = logged_in(support_agent).get(f"/admin/compliance/playeroverview/{winner.user_id}/change/")

    assert forfeiture_column(page, winner) == "in full (€30.00)"


def test_a_disqualification_with_no_forfeiture_proposed_still_says_none(
    reviewer: Any, support_agent: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    winner = unpaid_winner(monkeypatch)
    entry_disqualify(winner, actor=reviewer, reason="Collusion", forfeit_prize=False)

    page = logged_in(support_agent).get(f"/admin/compliance/playeroverview/{winner.user_id}/change/")

    assert forfeiture_column(page, winner) == "none"
