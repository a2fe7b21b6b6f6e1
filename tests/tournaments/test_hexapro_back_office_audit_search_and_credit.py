"""The HexaPro back office: the multiplier audit per product and buy-in with the chi-square p-value and the realised
rake equivalent against 6.853 % (HEX-31), a game found by its id with its players, places and prizes, an unpaid prize
credited by hand with an audit row (HEX-10), an incomplete game put in the 90-day queue (HEX-17), and the product
tables with their figures (HEX-08, HEX-24)."""

from __future__ import annotations

import pytest

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.tournaments.back_office import ENTRIES, audit_rows, client_of, messages_after, run_action
from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.support import cash, play
from tournaments import services
from tournaments.hexapro.models import HexaProGame
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db

GAMES = "/admin/tournaments/hexaprogame/"
AUDIT = GAMES + "audit/"
VERSIONS = "/admin/tournaments/hexaproproductversion/"


def test_hex_31_the_audit_counts_games_per_multiplier_per_buy_in_with_chi_square_and_rake() -> None:
    for multiplier in [15] * 7 + [30] * 3 + [50] * 2:
        three_players_register(100, multiplier=multiplier)
    three_players_register(1_000, multiplier=50)
    page = client_of(COMPLIANCE_REVIEWERS).get(AUDIT)
    assert page.status_code == 200
    text = page.content.decode()
    assert "€1.00 buy-in: 12 games" in text
    assert "€10.00 buy-in: 1 games" in text
    assert "all buy-ins: 13 games" in text
    assert "too few games for a chi-square test" in text  # the one €10 game
    assert "stated 6.853 %" in text
    assert "expected from the tables 6.853 %" in text
    # €1: pools 7 × 1.5 + 3 × 3 + 2 × 5 = €29.50 of 36 seats' buy-ins → 1 − 29.5/36 = 18.056 %.
    assert "realised rake equivalent 18.056 %" in text
    audits = page.context["audits"]
    (hexapro,) = audits
    one_euro = next(audit for audit in hexapro.audits if audit.buy_in_cents == 100)
    assert {row.multiplier_tenths: row.games for row in one_euro.rows if row.games} == {15: 7, 30: 3, 50: 2}
    assert one_euro.test is not None
    assert f"p-value {one_euro.test.p_value:.4f}" in text
    assert one_euro.test.degrees_of_freedom == 1  # the rare multipliers pooled until each group expects 5 games


def test_hex_10_support_finds_a_game_by_id_and_credits_an_unpaid_prize_with_an_audit_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _users, game = three_players_register(1_000, multiplier=250)
    monkeypatch.setattr(services, "entry_prize_pay", lambda entry_id: False)  # the automatic credit never happens
    play(game.tournament)
    second = TournamentEntry.objects.get(tournament=game.tournament, place=2)
    assert second.prize_transfer is None
    support = client_of(SUPPORT_STAFF)
    listing = support.get(GAMES, {"q": str(game.pk)})
    assert list(listing.context["cl"].result_list) == [HexaProGame.objects.get(pk=game.pk)]
    detail = support.get(f"{GAMES}{game.pk}/change/").content.decode()
    assert "place 2" in detail
    assert "€30.00 NOT PAID" in detail
    assert f"{ENTRIES}?q={game.pk}" in detail
    answer = run_action(support, ENTRIES, "credit_prizes", [second.pk], reason="player wrote to support")
    assert any("€30.00 credited" in message for message in messages_after(support, answer))
    (row,) = audit_rows("tournament_prize_credited")
    assert row.reason == "player wrote to support"
    assert cash(second.user) == 99_000 + 3_000
    again = run_action(support, ENTRIES, "credit_prizes", [second.pk], reason="asked twice")
    assert any("already paid" in message for message in messages_after(support, again))
    assert cash(second.user) == 99_000 + 3_000


def test_hex_17_support_puts_an_incomplete_game_in_the_queue_and_reviewers_cannot() -> None:
    _users, game = three_players_register(500, multiplier=30)
    reviewer = client_of(COMPLIANCE_REVIEWERS)
    assert reviewer.get(GAMES).context["action_form"] is None  # no action for reviewers
    refused = run_action(reviewer, GAMES, "park_incomplete_games", [game.pk], reason="not theirs")
    assert HexaProGame.objects.get(pk=game.pk).unresolved_case is None, refused.status_code
    support = client_of(SUPPORT_STAFF)
    answer = run_action(support, GAMES, "park_incomplete_games", [game.pk], reason="table server lost")
    assert any("in the queue" in message for message in messages_after(support, answer))
    assert HexaProGame.objects.get(pk=game.pk).unresolved_case is not None
    (row,) = audit_rows("hexapro_game_parked")
    assert row.reason == "table server lost"


def test_hex_08_hex_24_the_product_versions_show_their_figures() -> None:
    text = client_of(SUPPORT_STAFF).get(VERSIONS).content.decode()
    assert text.count("2.79441, 6.853 %") == 2
