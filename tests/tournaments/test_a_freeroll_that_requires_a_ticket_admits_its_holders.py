"""TRN-17 / FEE-05: a freeroll whose entry requirement is a ticket (``{"ticket": "<series name>"}``) admits a player
holding a usable ticket for that series, without spending it; a player without one, or whose ticket expired, is
refused in their language with the requirement named, and nothing changes. The Specific Tournament Lobby and the API
state the requirements in words. A definition whose requirements cannot be read, or name a series that does not
exist, is refused by the back office with the reason, and nothing is created."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import translation

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import TOURNAMENTS, client_of, form_errors, submit
from tests.tournaments.support import START, cash, fresh, player, scheduled
from tests.tournaments.tickets_support import series, ticket_for
from tournaments.models import EntryStatus, TicketStatus, Tournament, TournamentEntry, TournamentKind
from tournaments.services import NotEligible, tournament_register
from tournaments.services.definition import DefinitionRefused, tournament_define
from wallet.models import Transfer

pytestmark = pytest.mark.django_db

CLUB = "Weekly Freeroll Club"


def club_freeroll(**fields: object) -> Tournament:
    series(CLUB)
    return scheduled(buy_in=0, fee=0, added_prize_money=5_000, eligibility={"ticket": CLUB}, **fields)


def test_trn_17_a_ticket_holder_enters_the_freeroll_and_keeps_the_ticket() -> None:
    tournament = club_freeroll()
    holder = player(cash=0)
    ticket = ticket_for(holder, value=500, series_row=series(CLUB))

    entry = tournament_register(holder, tournament, now=START)

    assert entry.status == EntryStatus.REGISTERED
    assert entry.registration_transfer is None  # a freeroll costs nothing
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.AVAILABLE  # shown, not spent


def test_trn_17_a_player_without_the_ticket_is_refused_with_the_requirement_named_and_nothing_changes() -> None:
    tournament = club_freeroll()
    other_series_holder = player(cash=2_000)
    ticket_for(other_series_holder, value=500, series_row=series("Sunday Major"))
    transfers = Transfer.objects.count()

    with pytest.raises(NotEligible, match=f"You cannot enter {tournament.name}: holds a ticket for {CLUB}."):
        tournament_register(other_series_holder, tournament, now=START)

    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    assert fresh(tournament).entrants == 0
    assert Transfer.objects.count() == transfers
    assert cash(other_series_holder) == 2_000


def test_trn_17_an_expired_ticket_does_not_qualify() -> None:
    tournament = club_freeroll()
    holder = player(cash=0)
    ticket_for(holder, value=500, series_row=series(CLUB), now=START - timedelta(days=8))

    with pytest.raises(NotEligible, match=f"holds a ticket for {CLUB}"):
        tournament_register(holder, tournament, now=START)


def test_trn_17_the_refusal_names_every_unmet_requirement_in_the_players_language() -> None:
    series(CLUB)
    tournament = scheduled(
        buy_in=0, fee=0, added_prize_money=5_000, eligibility={"all": [{"ticket": CLUB}, {"deposited_cents": 2_000}]}
    )
    newcomer = player(cash=0)

    with translation.override("et"), pytest.raises(NotEligible) as refusal:
        tournament_register(newcomer, tournament, now=START)

    assert str(refusal.value.message) == (
        f"Te ei saa osaleda turniiril {tournament.name}: omab piletit sarjale {CLUB}; on sisse maksnud vähemalt €20.00."
    )


def test_trn_17_the_tournament_page_and_the_api_state_the_requirements_in_words() -> None:
    tournament = scheduled(
        buy_in=0,
        fee=0,
        added_prize_money=5_000,
        eligibility={"any": [{"ticket": CLUB}, {"account_age_days": 30}]},
    )
    series(CLUB)
    client = Client()

    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    rows = client.get("/api/tournaments/").json()

    assert f"either holds a ticket for {CLUB} or account opened at least 30 days ago" in page
    (row,) = [row for row in (rows["results"] if isinstance(rows, dict) else rows) if row["id"] == tournament.pk]
    assert row["requirements"] == f"either holds a ticket for {CLUB} or account opened at least 30 days ago"
    with translation.override("et"):
        estonian = client.get(f"/tournaments/{tournament.pk}/", headers={"accept-language": "et"}).content.decode()
    assert f"kas omab piletit sarjale {CLUB} või konto avatud vähemalt 30 päeva tagasi" in estonian


def test_trn_17_a_definition_naming_an_unknown_series_or_unreadable_requirements_is_refused() -> None:
    staff = client_of(SUPPORT_STAFF)
    fields = {"name": "Club freeroll", "kind": TournamentKind.SCHEDULED, "starts_at": START + timedelta(days=1)}

    with pytest.raises(DefinitionRefused, match="there is no series named Nobody's Club"):
        tournament_define({**fields, "eligibility": {"ticket": "Nobody's Club"}}, actor=None)
    with pytest.raises(DefinitionRefused, match="Not a valid entry requirement: unknown requirement 'karma'"):
        tournament_define({**fields, "eligibility": {"karma": 3}}, actor=None)
    response = submit(
        staff,
        TOURNAMENTS + "add/",
        "tournament_form",
        name="Club freeroll",
        kind=TournamentKind.SCHEDULED,
        starts_at_0="2031-05-04",
        starts_at_1="20:00:00",
        buy_in="0",
        fee="0",
        eligibility='{"ticket": "Nobody\'s Club"}',
    )

    assert "there is no series named Nobody&#x27;s Club" in form_errors(response)
    assert not Tournament.objects.filter(name="Club freeroll").exists()
