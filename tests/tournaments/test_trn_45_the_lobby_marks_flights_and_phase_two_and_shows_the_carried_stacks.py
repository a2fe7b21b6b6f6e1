"""TRN-45 in the lobby (LOB-02, LOB-03), in English and Estonian: the full lobby marks each flight as "Phase 1 flight of
X, ends after level N" and Phase 2 as reached through the flights; Phase 2's own lobby lists its flights, the players
through to it and the stacks they carry; a player who survived a flight reads there that they are through to Phase 2
with their stack; the API says the same."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.phases_support import flight, phase_two, play_flight, register
from tests.tournaments.support import player
from tests.tournaments.test_tournament_pages_speak_estonian import english_lines
from tournaments.models import EntryStatus, TournamentEntry

pytestmark = pytest.mark.django_db


def estonian() -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="et")
    client.cookies["django_language"] = "et"
    return client


def test_the_full_lobby_marks_the_flights_and_phase_two_trn_45(client: Client) -> None:
    start = timezone.now() + timedelta(days=1)
    target = phase_two(starts_at=start, name="Suurturniir II")
    first = flight(target, start - timedelta(hours=3), final_level=4, name="Suurturniir IA")

    page = client.get(reverse("tournaments:index")).content.decode()
    assert "Phase 1 flight of Suurturniir II, ends after level 4" in page
    assert "Phase 2: reached through the flights" in page
    rows = {row["id"]: row for row in client.get("/api/tournaments/").json()}
    assert rows[first.pk]["phase"] == {
        "role": "flight",
        "phase_two_id": target.pk,
        "phase_two_name": "Suurturniir II",
        "final_level": 4,
    }
    assert rows[target.pk]["phase"] == {"role": "phase_two"}
    assert rows[target.pk]["registration"] == "phase_two"
    assert rows[target.pk]["freeroll"] is False

    in_estonian = estonian().get(reverse("tournaments:index")).content.decode()
    assert "Etapp 1 turniirile Suurturniir II, lõpeb peale taset 4" in in_estonian
    assert "Etapp 2: pääseb ainult etapp 1 turniiride kaudu" in in_estonian
    assert english_lines(in_estonian) == []
    detail = estonian().get(reverse("tournaments:detail", args=[target.pk])).content.decode()
    assert "Etapiline turniir" in detail
    assert english_lines(detail) == []


def test_phase_two_lists_the_players_through_and_a_survivor_sees_the_stack_carried_trn_45(client: Client) -> None:
    target = phase_two(name="Suurturniir II")
    first = flight(target, target.starts_at - timedelta(minutes=90), name="Suurturniir IA")  # type: ignore[operator]
    register(first, [player(cash=100_000) for _ in range(8)])
    play_flight(first)
    carried = list(
        TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED).select_related("user")
    )
    assert carried
    survivor = max(carried, key=lambda entry: entry.carried_chips or 0)

    api = client.get(f"/api/tournaments/{target.pk}/").json()
    assert [flight_row["id"] for flight_row in api["flights"]] == [first.pk]
    assert {row["chips"] for row in api["qualified"]} == {entry.carried_chips for entry in carried}
    assert api["qualified"][0]["chips"] == survivor.carried_chips  # the biggest stack first
    assert api["qualified"][0]["flight_name"] == "Suurturniir IA"
    assert api["carried_prize_money"] == 8_000

    client.force_login(survivor.user)
    phase_two_page = client.get(reverse("tournaments:detail", args=[target.pk])).content.decode()
    assert f"You are through to Phase 2 with {survivor.carried_chips} chips." in phase_two_page
    assert 'id="qualified"' in phase_two_page
    assert 'id="register"' not in phase_two_page
    flight_page = client.get(reverse("tournaments:detail", args=[first.pk])).content.decode()
    assert "You are through to Phase 2" in flight_page
    assert f"with {survivor.carried_chips} chips." in flight_page
    assert "A flight pays no prizes" in flight_page
    flight_api = client.get(f"/api/tournaments/{first.pk}/").json()
    assert flight_api["viewer"]["status"] == "qualified"
    assert flight_api["viewer"]["phase_two"]["chips"] == survivor.carried_chips
    assert flight_api["viewer"]["phase_two"]["from_this_flight"] is True

    in_estonian = estonian()
    in_estonian.force_login(survivor.user)
    page = in_estonian.get(reverse("tournaments:detail", args=[target.pk])).content.decode()
    assert f"Pääsesite etapp 2-le {survivor.carried_chips} mängumärgiga." in page
    assert english_lines(page) == []
    flight_in_estonian = in_estonian.get(reverse("tournaments:detail", args=[first.pk])).content.decode()
    assert "Pääsesite etapp 2-le" in flight_in_estonian
    assert english_lines(flight_in_estonian) == []
