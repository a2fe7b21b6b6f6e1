"""TRN-38..TRN-45, docs/decisions.md D-25-1: re-entry, re-buys and add-ons are offered with every bounty kind (a
re-entry or re-buy is a new bounty part); multi-buy-in with bounties, and any of these formats with phases, stay
refused with the reason, and nothing is created. The VIP does not re-enter (TRN-43, AMB-61)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.bounty_support import coordinate, play_hand, shove, the_table, user_at
from tests.tournaments.rebuys_support import REBUY_SETTINGS
from tests.tournaments.support import START, cash, register_players, scheduled
from tournaments.models import Tournament, TournamentEntry, TournamentKind
from tournaments.services import tournament_register
from tournaments.services.definition import DefinitionRefused, tournament_define
from tournaments.services.errors import NotAllowedNow

pytestmark = pytest.mark.django_db

RE_ENTRY = {
    "kind": TournamentKind.SCHEDULED,
    "starts_at": START + timedelta(days=1),
    "buy_in": 1_000,
    "fee": 100,
    "late_registration_levels": 2,
    "re_entries_maximum": 1,
}


@pytest.mark.parametrize("kind", ["regular", "progressive"])
def test_re_entry_and_rebuys_in_a_bounty_tournament_are_accepted_trn_40_trn_41(kind: str) -> None:
    tournament = tournament_define(
        {**RE_ENTRY, **REBUY_SETTINGS, "name": f"Re-entry {kind} bounty", "bounty_kind": kind, "bounty": 500},
        actor=None,
    )

    assert (tournament.re_entries_maximum, tournament.rebuy_levels, tournament.bounty_per_entry) == (1, 2, 500)


def test_multi_buy_in_in_a_bounty_tournament_is_refused_trn_38_trn_41() -> None:
    with pytest.raises(DefinitionRefused, match="Multi-buy-in is not offered in bounty tournaments"):
        tournament_define(
            {
                **RE_ENTRY,
                "name": "Multi-buy-in bounty",
                "re_entries_maximum": 0,
                "buy_in_maximum": 5_500,
                "bounty_kind": "regular",
                "bounty": 500,
            },
            actor=None,
        )

    assert not Tournament.objects.filter(name="Multi-buy-in bounty").exists()


def test_re_entry_in_a_phase_two_is_refused_trn_40_trn_45() -> None:
    with pytest.raises(DefinitionRefused, match="not offered in phased tournaments"):
        tournament_define(
            {**RE_ENTRY, "name": "Re-entry Phase 2", "buy_in": 0, "fee": 0, "is_phase_two": True}, actor=None
        )

    assert not Tournament.objects.filter(name="Re-entry Phase 2").exists()


def test_each_format_alone_is_accepted() -> None:
    re_entry = tournament_define({**RE_ENTRY, "name": "Re-entry alone"}, actor=None)
    bounty = tournament_define(
        {**RE_ENTRY, "name": "Bounty alone", "re_entries_maximum": 0, "bounty_kind": "regular", "bounty": 500},
        actor=None,
    )

    assert re_entry.re_entries_maximum == 1
    assert bounty.bounty_per_entry == 500


def test_the_vip_knocked_out_of_a_re_entry_tournament_does_not_re_enter_trn_43_amb_61() -> None:
    tournament = scheduled(
        table_size=3, bounty_kind="regular", bounty=500, late_registration_levels=2, re_entries_maximum=1
    )
    register_players(tournament, 3)
    assert tournament.starts_at is not None
    coordinate(tournament.starts_at)
    table = the_table(tournament)
    vip = user_at(table, 3)
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=vip, vip_bounty=5_000)
    first_deal = tournament.starts_at + timedelta(seconds=10)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=first_deal, button=3)
    coordinate(first_deal)
    balance = cash(vip)

    with pytest.raises(NotAllowedNow, match="the VIP does not re-enter"):
        tournament_register(vip, tournament, now=first_deal)

    assert TournamentEntry.objects.filter(tournament=tournament, user=vip).count() == 1
    assert cash(vip) == balance
