"""QA note 13 (issue 30): support answers a player's ticket from the player's account page too: it links to the
player overview (LOB-08), the player's ledger legs, transfers and hands, each list searched for the player. Only the
links the viewer's role may open are shown, and a staff account (not in the overview) has no overview link."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from poker_site.accounts.models import User
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

LISTS = (
    "/admin/wallet/leg/?q=player%3Apat",
    "/admin/wallet/transfer/?q=player%3Apat",
    "/admin/games/hand/?q=player%3Apat",
)


def pat() -> User:
    return User.objects.create_user(username="pat", email="pat@example.com", password="pat-passphrase-42")


@pytest.mark.parametrize("role", [SUPPORT_STAFF, COMPLIANCE_REVIEWERS])
def test_a_players_page_links_to_the_overview_ledger_transfers_and_hands(role: str) -> None:
    player = pat()

    page = logged_in(staff_member(role)).get(f"/admin/accounts/user/{player.pk}/change/").content.decode()

    assert f'href="/admin/compliance/playeroverview/{player.pk}/change/"' in page
    for address in LISTS:
        assert f'href="{address}"' in page


def test_a_staff_account_has_no_overview_link_and_staff_without_a_role_get_no_links() -> None:
    agent = staff_member(SUPPORT_STAFF, "agent")
    viewer = staff_member(WITHOUT_A_ROLE, "viewer")
    viewer.user_permissions.add(Permission.objects.get(codename="view_user"))
    player = pat()

    about_staff = logged_in(staff_member(COMPLIANCE_REVIEWERS)).get(f"/admin/accounts/user/{agent.pk}/change/")
    without_role = logged_in(User.objects.get(pk=viewer.pk)).get(f"/admin/accounts/user/{player.pk}/change/")

    assert f"/admin/compliance/playeroverview/{agent.pk}/change/" not in about_staff.content.decode()
    assert "/admin/wallet/leg/?q=player%3Aagent" in about_staff.content.decode()
    assert without_role.status_code == 200
    assert 'class="player-page"' not in without_role.content.decode()
