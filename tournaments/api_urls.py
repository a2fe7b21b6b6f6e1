"""Tournament API routes, mounted at /api/tournaments/ (see tournaments/api.py)."""

from django.urls import path, re_path

from tournaments import api
from tournaments.hexapro import api as hexapro_api

app_name = "tournaments-api"

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="list"),
    path("<int:tournament_id>/", api.TournamentDetailView.as_view(), name="detail"),
    path("<int:tournament_id>/bar/", api.TournamentBarView.as_view(), name="bar"),
    path("tickets/", api.TicketListView.as_view(), name="tickets"),
    path("<int:tournament_id>/registration/", api.TournamentRegistrationView.as_view(), name="registration"),
    path("<int:tournament_id>/rebuy/", api.TournamentRebuyView.as_view(), name="rebuy"),
    path("<int:tournament_id>/add-on/", api.TournamentAddOnView.as_view(), name="add-on"),
    path("hexapro/", hexapro_api.ProductsView.as_view(), name="hexapro-products"),
    path("hexapro/mine/", hexapro_api.MineView.as_view(), name="hexapro-mine"),
    path("hexapro/registrations/", hexapro_api.RegistrationsView.as_view(), name="hexapro-register"),
    path(
        "hexapro/registrations/<int:registration_id>/",
        hexapro_api.WithdrawalView.as_view(),
        name="hexapro-withdraw",
    ),
    # Last: an address none of the above answers (a word for a tournament's number, say) is the API's JSON 404, not
    # Django's HTML page. Only addresses ending in a slash, so that one without it is still sent to its slashed form
    # (APPEND_SLASH) when that is an endpoint.
    re_path(r"^.*/$", api.UnknownAddressView.as_view(), name="unknown"),
]
