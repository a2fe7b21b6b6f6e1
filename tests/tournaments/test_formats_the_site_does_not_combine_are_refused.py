"""TRN-38..TRN-45: re-entry (and re-buys, add-ons, multi-buy-in) are not offered together with bounties or phases —
whose bounty a re-entry renews (AMB-61 speaks of a VIP's re-buy only) and which of a re-entered player's stacks a
flight carries are not decided — so a definition combining them is refused with the reason, and nothing is created."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.support import START
from tournaments.models import Tournament, TournamentKind
from tournaments.services.definition import DefinitionRefused, tournament_define

pytestmark = pytest.mark.django_db

RE_ENTRY = {
    "kind": TournamentKind.SCHEDULED,
    "starts_at": START + timedelta(days=1),
    "buy_in": 1_000,
    "fee": 100,
    "late_registration_levels": 2,
    "re_entries_maximum": 1,
}


def test_re_entry_in_a_bounty_tournament_is_refused_trn_40_trn_41() -> None:
    with pytest.raises(DefinitionRefused, match="not offered in bounty tournaments"):
        tournament_define({**RE_ENTRY, "name": "Re-entry bounty", "bounty_kind": "regular", "bounty": 500}, actor=None)

    assert not Tournament.objects.filter(name="Re-entry bounty").exists()


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
