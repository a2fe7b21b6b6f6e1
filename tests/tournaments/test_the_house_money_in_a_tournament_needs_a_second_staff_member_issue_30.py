"""Issue 30 (four eyes) for tournaments: the house's money in a tournament (the guarantee's overlay, TRN-07; added
prize money, TRN-17; the VIP bounty, TRN-43) is never set by one support agent. Saving it on the change page proposes
it; another staff member approves it and only then it applies; big amounts need an administrator. And once a player
has paid an entry, the prices stay as they were (TRN-02: what the players registered under)."""

from __future__ import annotations

import pytest

from poker_site.accounts.roles import SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import ADMINISTRATORS, staff_member
from tests.tournaments.back_office import TOURNAMENTS, audit_rows, client_of, form_errors, messages_after, submit
from tests.tournaments.support import START, fresh, register_players, scheduled
from tournaments.prize_money_changes import TOURNAMENT_HOUSE_MONEY, tournament_target
from tournaments.services.definition import DefinitionRefused, tournament_define, tournament_definition_update

pytestmark = pytest.mark.django_db


def change_page(tournament: object) -> str:
    return f"{TOURNAMENTS}{tournament.pk}/change/"  # type: ignore[attr-defined]


def test_a_guarantee_saved_on_the_change_page_is_only_proposed_and_the_rest_is_saved() -> None:
    tournament = scheduled()
    support = client_of(SUPPORT_STAFF, "first-agent")

    response = submit(
        support,
        change_page(tournament),
        "tournament_form",
        name="Sunday Million",
        guarantee="100000.00",
        house_money_reason="Sunday promotion",
    )

    assert response.status_code == 302, form_errors(response)
    assert fresh(tournament).name == "Sunday Million"
    assert fresh(tournament).guarantee == 0
    proposal = RuleChangeProposal.objects.get(target=tournament_target(tournament))
    assert (proposal.kind, proposal.status, proposal.changes) == (
        TOURNAMENT_HOUSE_MONEY.name,
        RuleChangeStatus.PENDING,
        {"guarantee": 10_000_000},
    )
    assert any("another staff member approves it" in text for text in messages_after(support, response))


def test_the_house_money_needs_a_written_reason() -> None:
    tournament = scheduled()
    support = client_of(SUPPORT_STAFF)

    response = submit(support, change_page(tournament), "tournament_form", added_prize_money="50.00")

    assert "say why they change" in form_errors(response)
    assert not RuleChangeProposal.objects.exists()
    assert fresh(tournament).added_prize_money == 0


def test_the_proposer_cannot_approve_and_a_second_agent_applies_it_in_their_name() -> None:
    tournament = scheduled()
    first, second = staff_member(SUPPORT_STAFF, "first"), staff_member(SUPPORT_STAFF, "second")
    proposal = rule_change_propose(
        first, TOURNAMENT_HOUSE_MONEY.name, tournament_target(tournament), {"guarantee": 50_000}, "Weekly promotion"
    )

    with pytest.raises(RuleChangeRefused, match="cannot approve it"):
        rule_change_approve(proposal, first)
    assert fresh(tournament).guarantee == 0

    rule_change_approve(proposal, second, "Agreed with marketing")

    assert fresh(tournament).guarantee == 50_000
    (audit,) = audit_rows("tournament_definition_changed")
    assert audit.actor == second
    assert (audit.details["before"], audit.details["after"]) == ({"guarantee": 0}, {"guarantee": 50_000})


def test_more_than_ten_thousand_euros_of_house_money_needs_an_administrator() -> None:
    tournament = scheduled()
    first, second = staff_member(SUPPORT_STAFF, "first"), staff_member(SUPPORT_STAFF, "second")
    proposal = rule_change_propose(
        first,
        TOURNAMENT_HOUSE_MONEY.name,
        tournament_target(tournament),
        {"guarantee": 900_000, "added_prize_money": 200_000},
        "Festival main event",
    )

    with pytest.raises(RuleChangeRefused, match="administrator"):
        rule_change_approve(proposal, second)
    assert fresh(tournament).guarantee == 0

    rule_change_approve(proposal, staff_member(ADMINISTRATORS, "administrator"))
    assert (fresh(tournament).guarantee, fresh(tournament).added_prize_money) == (900_000, 200_000)


def test_the_service_refuses_house_money_that_no_second_person_approved() -> None:
    tournament = scheduled()
    agent = staff_member(SUPPORT_STAFF)

    with pytest.raises(DefinitionRefused, match="another staff member approves"):
        tournament_definition_update(tournament, changes={"guarantee": 10_000_000}, actor=agent)
    with pytest.raises(DefinitionRefused, match="starts without the house's money"):
        tournament_define({"name": "Freeroll", "kind": "scheduled", "starts_at": START, "guarantee": 1}, actor=agent)
    assert fresh(tournament).guarantee == 0


def test_the_house_money_is_fixed_once_the_tournament_started() -> None:
    tournament = scheduled()
    tournament.__class__.objects.filter(pk=tournament.pk).update(started_at=START)

    with pytest.raises(RuleChangeRefused, match="stay as they were"):
        rule_change_propose(
            staff_member(SUPPORT_STAFF),
            TOURNAMENT_HOUSE_MONEY.name,
            tournament_target(tournament),
            {"added_prize_money": 10_000},
            "Late sweetener",
        )
    assert not RuleChangeProposal.objects.exists()


@pytest.mark.parametrize("changes", [{"guarantee": -1}, {"guarantee": "500"}, {"buy_in": 0}, {"guarantee": 0}])
def test_a_proposal_of_anything_but_new_whole_cents_of_house_money_is_refused(changes: dict[str, object]) -> None:
    tournament = scheduled()

    with pytest.raises(RuleChangeRefused):
        rule_change_propose(
            staff_member(SUPPORT_STAFF), TOURNAMENT_HOUSE_MONEY.name, tournament_target(tournament), changes, "Why"
        )


def test_prices_are_fixed_once_a_player_has_paid_an_entry_trn_02() -> None:
    tournament = scheduled()
    register_players(tournament, 1)
    support = client_of(SUPPORT_STAFF)

    response = submit(support, change_page(tournament), "tournament_form", fee="0.00", name="Cheaper")

    assert "Fixed since the first paid entry" in form_errors(response)
    assert (fresh(tournament).fee, fresh(tournament).name) == (100, "Scheduled")
    with pytest.raises(DefinitionRefused, match="paid an entry"):
        tournament_definition_update(tournament, changes={"buy_in": 1}, actor=staff_member(SUPPORT_STAFF, "second"))


@pytest.mark.parametrize("field", ["payout_structure", "bounty_kind", "satellite_target"])
def test_what_an_entry_was_bought_under_is_fixed_once_a_player_has_paid_one_trn_06(field: str) -> None:
    """A QA tester switched a tournament with paid entries, then running, to winner-takes-all payouts (TRN-06: a payout
    structure reaching registered players changes only by a proposal an administrator approves)."""
    tournament = scheduled()
    register_players(tournament, 1)

    from tournaments.services.definition import fields_change_check

    with pytest.raises(DefinitionRefused, match="paid an entry") as refused:
        fields_change_check(fresh(tournament), [field])
    assert "Fixed since the first paid entry" in refused.value.field_errors[field]


def test_a_reopened_sit_and_go_does_not_repeat_the_house_money_approved_for_its_predecessor() -> None:
    """A QA tester had €40 of added prize money approved once, then turned re-opening on alone: every new copy of the
    Sit & Go carried the €40 again, with no second approval."""
    from tests.tournaments.support import sit_and_go

    game = sit_and_go(seats=2, reopens=True)
    first, second = staff_member(SUPPORT_STAFF, "first"), staff_member(SUPPORT_STAFF, "second")
    rule_change_approve(
        rule_change_propose(
            first, TOURNAMENT_HOUSE_MONEY.name, tournament_target(game), {"added_prize_money": 4_000}, "Promotion"
        ),
        second,
    )

    register_players(fresh(game), 2)

    (copy,) = game.__class__.objects.filter(name=game.name).exclude(pk=game.pk)
    assert fresh(game).added_prize_money == 4_000
    assert (copy.added_prize_money, copy.guarantee, copy.vip_bounty) == (0, 0, 0)
