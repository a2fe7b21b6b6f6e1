"""LOB-09 / RAKE-08: the rake report per day × game × stake (hands, raked hands, rake, average per raked hand) and per
player (rakeback and VIP), from the hand settlements: its rake adds up to the house rake account's legs of the
settlement transfers, and each hand's rake is attributed to its players by contribution — each pot's rake (RAKE-07)
shared by what each player put into that pot. Shown to support staff and compliance reviewers (the role table)."""

from __future__ import annotations

from datetime import UTC

import pytest

from games.models import Hand, HandPlayer, HandStatus
from games.reports import rake_report
from games.runtime.engine_state import hand_engine_state
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import WITHOUT_A_ROLE
from tests.tables.support import (
    START,
    act,
    check_or_call_down,
    current_hand,
    deal,
    fold_to_the_end,
    open_table,
    player,
    seat_at,
    seat_players,
)
from tests.tournaments.back_office import client_of
from wallet.models import AccountKind, Leg
from wallet.services import TransferKind

pytestmark = pytest.mark.django_db

RAKE_REPORT = "/admin/games/hand/rake/"
DAY = START.date()


def all_in_to_the_end(table: object) -> None:
    while (hand := current_hand(table)) is not None and hand.status == HandStatus.RUNNING:
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        act(table, "all_in" if legal.all_in_amount is not None else "call")


def three_hands() -> dict[str, object]:
    """NL10: stacks €5, €10, €10 all in — rake 88 cents, 53 from the main pot (€15) and 35 from the side pot (€10).
    NL4: a hand folded before the flop (no rake) and a five-way limped pot checked down (rake 1 cent)."""
    side_pots = open_table("holdem", "NL10")
    short, big_one, big_two = player("short"), player("big-one"), player("big-two")
    seat_at(side_pots, {1: short}, 500)
    seat_at(side_pots, {2: big_one, 3: big_two}, 1000)
    deal(side_pots)
    all_in_to_the_end(side_pots)
    micro = open_table("holdem", "NL4")
    seat_players(micro, [player() for _ in range(5)], 400)
    deal(micro)
    fold_to_the_end(micro)
    deal(micro, seed=2)
    check_or_call_down(micro)
    return {"short": short, "big_one": big_one, "big_two": big_two}


def test_lob_09_rake_per_day_game_and_stake_adds_up_to_the_settlements() -> None:
    three_hands()

    report = rake_report(DAY, DAY, UTC)

    by_stake = {(line.game, line.stake): line for line in report.totals}
    nl10 = by_stake[("Texas Hold'em", "NL10")]
    assert (nl10.hands, nl10.raked_hands, nl10.rake, nl10.average_per_raked_hand) == (1, 1, 88, 88)
    nl4 = by_stake[("Texas Hold'em", "NL4")]
    assert (nl4.hands, nl4.raked_hands, nl4.rake, nl4.average_per_raked_hand) == (2, 1, 1, 1)
    assert [(line.day, line.stake) for line in report.lines] == [(DAY, "NL10"), (DAY, "NL4")]
    settled_rake = sum(
        Leg.objects.filter(
            account__kind=AccountKind.HOUSE_RAKE, transfer__kind=TransferKind.HAND_SETTLEMENT
        ).values_list("amount", flat=True)
    )
    assert report.rake == settled_rake == sum(Hand.objects.values_list("rake", flat=True)) == 89


def test_the_rake_is_attributed_to_players_by_their_contribution_to_each_pot() -> None:
    """Main pot €15 (€5 each): 53 cents → 18, 18, 17 (equal remainders: the lower seat first); side pot €10 (€5 each
    of the two big stacks): 35 cents → 18, 17. The short stack paid 18, the big ones 36 and 34."""
    players = three_hands()

    report = rake_report(DAY, DAY, UTC)

    attributed = {line.username: line.rake for line in report.players}
    assert (attributed["short"], attributed["big-one"], attributed["big-two"]) == (18, 36, 34)
    assert sum(attributed.values()) == report.rake  # every cent of rake is someone's, none twice
    assert report.unattributed_rake == 0
    short_line = next(line for line in report.players if line.user_id == players["short"].pk)  # type: ignore[attr-defined]
    assert (short_line.hands, short_line.raked_hands) == (1, 1)
    for hand in Hand.objects.filter(status=HandStatus.FINISHED):
        assert sum(HandPlayer.objects.filter(hand=hand).values_list("rake_share", flat=True)) == hand.rake


def test_a_period_without_the_hands_day_reports_nothing() -> None:
    three_hands()

    report = rake_report(DAY.replace(year=DAY.year - 1), DAY.replace(year=DAY.year - 1), UTC)

    assert (report.lines, report.totals, report.players) == ([], [], [])


@pytest.mark.parametrize("role", [SUPPORT_STAFF, COMPLIANCE_REVIEWERS])
def test_support_and_compliance_read_the_report_in_euros(role: str) -> None:
    three_hands()

    page = client_of(role).get(RAKE_REPORT, {"first_day": DAY.isoformat(), "last_day": DAY.isoformat()})

    assert page.status_code == 200
    text = page.content.decode()
    assert "€0.88" in text
    assert "€0.36" in text
    assert "big-two" in text


def test_staff_without_a_role_are_refused_the_report() -> None:
    assert client_of(WITHOUT_A_ROLE).get(RAKE_REPORT).status_code == 403


def test_the_rake_report_exports_its_days_and_its_players_as_csv() -> None:
    three_hands()
    compliance = client_of(COMPLIANCE_REVIEWERS)
    period = {"first_day": DAY.isoformat(), "last_day": DAY.isoformat()}

    days = compliance.get(RAKE_REPORT, {**period, "_export": "csv"})
    players = compliance.get(RAKE_REPORT, {**period, "_export": "players"})

    assert days.streaming
    day_rows = b"".join(days.streaming_content).decode("utf-8-sig").splitlines()
    assert day_rows[1:] == [f"{DAY},Texas Hold'em,NL10,1,1,0.88,0.88", f"{DAY},Texas Hold'em,NL4,2,1,0.01,0.01"]
    player_rows = b"".join(players.streaming_content).decode("utf-8-sig").splitlines()
    assert player_rows[1].endswith(",big-one,1,1,0.36")
