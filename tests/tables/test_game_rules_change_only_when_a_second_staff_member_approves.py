"""Issue 30 (TB-02, TB-05, TB-07, CASH-11, CASH-17, CASH-20): a cash game type's rules change by a proposal with a
reason that a second staff member approves; only then a new rules row is added, from the time proposed. Less time to
act, to reconnect or in the timebank, or a shorter return window against ratholing, than the rule documents give needs
an administrator. A game type's game, rake table and buy-in rule never change once it is made (a support agent turned
live Hold'em tables into Omaha that way)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import GameRules, GameType, Variant
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in, support_agent
from tests.tables.support import stake
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

KIND = "game_rules"


def _holdem() -> GameType:
    return stake("holdem", "NL10").game_type


def _proposal(proposer: Any, game_type: GameType, **changes: Any) -> RuleChangeProposal:
    when = (timezone.now() + timedelta(hours=1)).isoformat()
    return rule_change_propose(
        proposer, KIND, f"games.gametype:{game_type.pk}", {"effective_from": when, **changes}, "Clock review"
    )


def test_new_rules_are_added_only_when_a_second_support_agent_approves() -> None:
    game_type = _holdem()
    rows_before = GameRules.objects.filter(game_type=game_type).count()
    proposer, approver = support_agent("sue"), support_agent("sid")
    proposal = _proposal(proposer, game_type, decision_seconds=12, sit_out_removal_seconds=900)
    assert GameRules.objects.filter(game_type=game_type).count() == rows_before
    assert not proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, proposer)
    rule_change_approve(proposal, approver)

    new = GameRules.objects.filter(game_type=game_type).latest("effective_from")
    assert (new.decision_seconds, new.sit_out_removal_seconds) == (12, 900)
    assert new.effective_from > timezone.now()
    assert game_type.rules_at().decision_seconds != 12  # in force from the time proposed, not before
    actions = AuditEntry.objects.filter(target=f"games.gametype:{game_type.pk}").order_by("pk")
    assert [entry.action for entry in actions] == ["rule_change_proposed", "rule_change_approved"]


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"rathole_window_minutes": 0}, "rathole window minutes 0 below"),
        ({"decision_seconds": 1}, "decision seconds 1 below"),
        ({"reconnect_grace_seconds": 5}, "reconnect grace seconds 5 below"),
        ({"timebank_replenish_every_hands": 50}, "replenish every hands 50 above"),
    ],
)
def test_rules_taking_protection_from_the_players_need_an_administrator(changes: dict[str, Any], why: str) -> None:
    game_type = _holdem()
    proposal = _proposal(support_agent("sue"), game_type, **changes)
    assert proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match=why):
        rule_change_approve(proposal, support_agent("sid"))
    rule_change_approve(proposal, staff_member(ADMINISTRATORS, "ada"))
    assert GameRules.objects.filter(game_type=game_type).latest("effective_from").rathole_window_minutes == (
        changes.get("rathole_window_minutes", 30)
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"minimum_players_to_start": 1},
        {"timebank_first_hand_seconds": 40, "timebank_cap_seconds": 30},
        {"decision_seconds": "10"},
        {"decision_seconds": -3},
        {"continue_heads_up": "yes"},
        {"variant": "PO"},
        {},
    ],
)
def test_rules_the_rows_refuse_or_that_change_nothing_are_refused_when_proposed(changes: dict[str, Any]) -> None:
    with pytest.raises(RuleChangeRefused):
        _proposal(support_agent("sue"), _holdem(), **changes)
    assert not RuleChangeProposal.objects.exists()


def test_compliance_reviewers_neither_propose_nor_approve_rules() -> None:
    from poker_site.accounts.roles import COMPLIANCE_REVIEWERS

    game_type = _holdem()
    reviewer = staff_member(COMPLIANCE_REVIEWERS, "rita")
    with pytest.raises(RuleChangeRefused, match=r"games\.add_gamerules"):
        _proposal(reviewer, game_type, decision_seconds=15)
    proposal = _proposal(support_agent("sue"), game_type, decision_seconds=15)
    with pytest.raises(RuleChangeRefused, match=r"games\.add_gamerules"):
        rule_change_approve(proposal, reviewer)


def test_the_game_type_page_keeps_its_game_and_proposes_rules_instead_of_adding_rows() -> None:
    game_type = _holdem()
    agent = support_agent("sue")
    client = logged_in(agent)
    rows_before = GameRules.objects.filter(game_type=game_type).count()

    assert client.get("/admin/games/gamerules/add/").status_code == 403
    page = client.get(f"/admin/games/gametype/{game_type.pk}/change/").content.decode()
    assert 'name="variant"' not in page
    assert 'name="rules-TOTAL_FORMS"' in page
    assert "propose-rules/" in page
    client.post(
        f"/admin/games/gametype/{game_type.pk}/change/",
        {
            "code": game_type.code,
            "name": game_type.name,
            "variant": Variant.POT_LIMIT_OMAHA,
            "rake_table_type": "banzai",
            "buy_in_rule": "banzai",
            "display_order": game_type.display_order,
            "enabled": "on",
            "rules-TOTAL_FORMS": "1",
            "rules-INITIAL_FORMS": "0",
            "rules-0-effective_from": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d 12:00:00"),
            "rules-0-decision_seconds": "1",
        },
    )
    game_type.refresh_from_db()
    assert (game_type.variant, game_type.rake_table_type, game_type.buy_in_rule) == (
        Variant.NO_LIMIT_HOLDEM,
        "regular",
        "ratholing",
    )
    assert GameRules.objects.filter(game_type=game_type).count() == rows_before

    form = client.get(f"/admin/games/gametype/{game_type.pk}/propose-rules/")
    data = {name: value for name, value in form.context["form"].initial.items() if value not in (None, False)}
    data.update(
        {
            "effective_from": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d 12:00:00"),
            "global_sit_out_seconds": "600",
            "reason": "Players asked for longer breaks",
        }
    )
    if data.pop("continue_heads_up", False):
        data["continue_heads_up"] = "on"
    response = client.post(f"/admin/games/gametype/{game_type.pk}/propose-rules/", data)
    assert response.status_code == 302, response.context["form"].errors if response.context else ""
    proposal = RuleChangeProposal.objects.get()
    assert (proposal.kind, proposal.changes["global_sit_out_seconds"], proposal.proposed_by) == (KIND, 600, agent)
    assert GameRules.objects.filter(game_type=game_type).count() == rows_before


def test_a_stake_keeps_its_game_type_so_its_tables_keep_their_game() -> None:
    """A QA tester moved a live Hold'em stake, open table included, to the Omaha game type from the stake's page."""
    the_stake = stake("holdem", "NL10")
    omaha = stake("omaha", "PL10").game_type
    client = logged_in(support_agent("sue"))

    page = client.get(f"/admin/games/stake/{the_stake.pk}/change/").content.decode()
    client.post(
        f"/admin/games/stake/{the_stake.pk}/change/",
        {
            "game_type": omaha.pk,
            "label": the_stake.label,
            "display_order": the_stake.display_order,
            "terms-TOTAL_FORMS": "0",
            "terms-INITIAL_FORMS": "0",
        },
    )

    the_stake.refresh_from_db()
    assert the_stake.game_type.variant == Variant.NO_LIMIT_HOLDEM
    assert 'name="game_type"' not in page
