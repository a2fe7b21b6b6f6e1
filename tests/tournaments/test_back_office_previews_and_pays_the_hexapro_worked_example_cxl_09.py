"""CXL-09 / AMB-16 in the back office: the preview of a HexaPro game's cancellation shows the catalog's worked example
in euros (€10, 25x, 700 / 500 / 300 chips → €100.94 / €84.32 / €66.81: the €0.69 fee component, €25.00 each and the
ICM chop of €175.00), and the approval by a second staff member pays exactly those amounts."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Seat
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import client_of, form_values
from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.support import cash
from tournaments.models import CancellationStatus, TournamentCancellation

pytestmark = pytest.mark.django_db


def test_cxl_09_the_preview_shows_the_worked_example_in_euros_and_the_approval_pays_it() -> None:
    users, game = three_players_register(1_000, multiplier=250)
    chips = {users[0].pk: 700, users[1].pk: 500, users[2].pk: 300}
    for seat in Seat.objects.filter(table__tournament_link__tournament=game.tournament, user__isnull=False):
        Seat.objects.filter(pk=seat.pk).update(chips=chips[seat.user_id])
    before = {user.pk: cash(user) for user in users}
    first = client_of(SUPPORT_STAFF, "support-first")
    preview_url = f"/admin/tournaments/tournament/{game.tournament_id}/cancellation/"

    preview = first.get(preview_url).content.decode()

    assert "HexaPro game (CXL-09)" in preview
    for total in ("€100.94", "€84.32", "€66.81", "€0.69", "€25.00"):
        assert total in preview
    assert '<th scope="row">paid to players</th><td>€252.07</td>' in preview
    response = first.post(
        preview_url, {**form_values(preview, "cancellation-propose"), "reason": "Game server crashed"}
    )
    assert response.status_code == 302
    row = TournamentCancellation.objects.get(tournament=game.tournament)

    second = client_of(SUPPORT_STAFF, "support-second")
    approve_url = f"/admin/tournaments/tournamentcancellation/{row.pk}/approve/"
    page = second.get(approve_url).content.decode()
    assert "€100.94" in page
    assert second.post(approve_url, form_values(page, "cancellation-approve")).status_code == 302

    assert TournamentCancellation.objects.get(pk=row.pk).status == CancellationStatus.APPROVED
    paid = {user.pk: cash(user) - before[user.pk] for user in users}
    assert paid == {users[0].pk: 10_094, users[1].pk: 8_432, users[2].pk: 6_681}
    call_command("wallet_reconcile")
