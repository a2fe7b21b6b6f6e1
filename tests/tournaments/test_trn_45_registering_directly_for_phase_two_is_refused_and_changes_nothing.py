"""TRN-45: players cannot register for Phase 2 directly — by the service, the page or the API the refusal says why
(play a flight) and nothing changes; a player carried to Phase 2 cannot unregister their stack either."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.phases_support import flight, phase_two
from tests.tournaments.support import START, cash, fresh, player
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.services import NotAllowedNow, RegistrationClosed, tournament_register, tournament_unregister

pytestmark = pytest.mark.django_db


def test_registering_for_phase_two_is_refused_with_a_clear_message_and_nothing_changes_trn_45() -> None:
    target = phase_two()
    flight(target, START + timedelta(minutes=30))
    user = player(cash=100_000)
    before = fresh(target)
    with pytest.raises(RegistrationClosed, match=r"cannot register for it directly\. Play one of its Phase 1 flights"):
        tournament_register(user, target, now=START)
    after = fresh(target)
    assert (after.entrants, after.version, after.status) == (before.entrants, before.version, before.status)
    assert not TournamentEntry.objects.filter(tournament=target).exists()
    assert cash(user) == 100_000


def test_the_page_and_the_api_refuse_phase_two_registration_in_words_trn_45(client: Client) -> None:
    target = phase_two(starts_at=timezone.now() + timedelta(days=1))
    user = player(cash=100_000)
    client.force_login(user)
    page = client.post(reverse("tournaments:registration", args=[target.pk]), {"action": "register"}, follow=True)
    assert "cannot register for it directly" in page.content.decode()
    answer = client.post(f"/api/tournaments/{target.pk}/registration/", {}, content_type="application/json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "registration_closed"
    assert "Phase 1 flights" in answer.json()["message"]
    assert not TournamentEntry.objects.filter(tournament=target).exists()
    assert cash(user) == 100_000


def test_a_player_carried_to_phase_two_cannot_unregister_the_stack_trn_45() -> None:
    target = phase_two()
    user = player(cash=0)
    carried = TournamentEntry.objects.create(
        tournament=target, user=user, status=EntryStatus.REGISTERED, carried_chips=2_500
    )
    with pytest.raises(NotAllowedNow, match="cannot be withdrawn"):
        tournament_unregister(user, target, now=START)
    carried.refresh_from_db()
    assert carried.status == EntryStatus.REGISTERED
    assert carried.carried_chips == 2_500
