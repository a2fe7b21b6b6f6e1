"""The HexaPro back office (HEX-10, HEX-17, HEX-31): the product versions with their tables, the games with their
draws (search by game id or player, the entries with the manual prize credit, the 90-day queue), the registrations,
and the multiplier audit.

* Product versions are read-only here: a version in force or past is history the games were played with; the
  versions are seeded by the data migration (a later version is one more row with its own effective-from time).
* A game's entries link to the tournament entry list, where an unpaid prize is credited by hand with a reason
  (``entry_prize_credit``, audited; ``tournaments.run_tournament``) — HEX-10's "players who did not receive winnings
  contact support: search by game id, manual credit with audit".
* "Put in the 90-day queue" (``tournaments.run_tournament``) parks an incomplete game (``hexapro_game_park``); the
  decision is the CXL-09 cancellation.
* The audit page (``tournaments_hexaprogame_audit``, ``tournaments.view_hexaprogame``) shows HEX-31 per product version
  and buy-in.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.admin import ReadOnlyAdmin, too_many
from poker_site.core.admin_lists import NumberOrPlayerSearch
from tournaments.admin import action_form_or_page, each_through_the_service
from tournaments.admin_forms import StaffActionForm
from tournaments.hexapro.audit import multiplier_audits
from tournaments.hexapro.models import (
    HexaProBlindLevel,
    HexaProBuyIn,
    HexaProGame,
    HexaProMultiplier,
    HexaProProductVersion,
    HexaProRegistration,
)
from tournaments.hexapro.products import product_from_version
from tournaments.hexapro.staff import hexapro_game_park
from tournaments.models import TournamentEntry
from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import expected_multiplier, percent_text, rake_equivalent
from wallet.errors import format_cents

AUDIT_PAGE = "tournaments_hexaprogame_audit"


class VersionPartInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class BuyInInline(VersionPartInline):
    model = HexaProBuyIn
    fields = ("buy_in_cents", "fee_component_cents")


class MultiplierInline(VersionPartInline):
    model = HexaProMultiplier
    fields = (
        "multiplier_tenths",
        "weight",
        "payout_percentages",
        "starting_stack",
        "level_seconds",
        "timebank_first_hand_seconds",
        "timebank_replenish_seconds",
        "timebank_replenish_every_hands",
        "timebank_cap_seconds",
    )


class BlindLevelInline(VersionPartInline):
    model = HexaProBlindLevel
    fields = ("number", "small_blind", "big_blind", "ante")


@admin.register(HexaProProductVersion)
class HexaProProductVersionAdmin(ReadOnlyAdmin):
    list_display = ("code", "name", "effective_from", "seats", "figures")
    fields = (
        "code",
        "name",
        "effective_from",
        "seats",
        "maximum_games_per_registration",
        "decision_seconds",
        "reconnect_grace_seconds",
        "stated_rake_equivalent_percent",
        "figures",
    )
    readonly_fields = ("figures",)
    inlines = (BuyInInline, MultiplierInline, BlindLevelInline)

    @admin.display(description="expected multiplier, rake equivalent (HEX-08, HEX-24)")
    def figures(self, version: HexaProProductVersion) -> str:
        try:
            product = product_from_version(version)
        except RuleError as error:
            return f"tables refused by the rules: {error}"
        return f"{float(expected_multiplier(product)):.5f}, {percent_text(rake_equivalent(product))}"


class HexaProGameSearch(NumberOrPlayerSearch):
    number_lookup = "tournament_id"
    player_lookup = "registrations__user__username"


@admin.register(HexaProGame)
class HexaProGameAdmin(HexaProGameSearch, ReadOnlyAdmin):
    list_display = ("game_id", "product_code", "buy_in", "multiplier", "prize_pool", "status", "drawn_at")
    list_filter = ("product_code", "tournament__status")
    list_select_related = ("tournament",)
    search_fields = ("=registrations__user__username",)
    search_help_text = "A game id, or player:<username>."
    ordering = ("-drawn_at",)
    fields = (
        "tournament",
        "version",
        "buy_in",
        "fee_component",
        "multiplier",
        "draw",
        "prize_pool",
        "payout_percentages",
        "formation_transfer",
        "unresolved_case",
        "entries",
    )
    readonly_fields = ("buy_in", "fee_component", "multiplier", "draw", "prize_pool", "entries")
    actions = ("park_incomplete_games",)

    @admin.display(description="game", ordering="tournament_id")
    def game_id(self, game: HexaProGame) -> int:
        return int(game.pk)

    @admin.display(description="buy-in", ordering="buy_in_cents")
    def buy_in(self, game: HexaProGame) -> str:
        return format_cents(game.buy_in_cents)

    @admin.display(description="fee component (FEE-06)")
    def fee_component(self, game: HexaProGame) -> str:
        return format_cents(game.fee_component_cents)

    @admin.display(description="multiplier", ordering="multiplier_tenths")
    def multiplier(self, game: HexaProGame) -> str:
        return game.multiplier_label

    @admin.display(description="draw (GEN-08)")
    def draw(self, game: HexaProGame) -> str:
        return f"ticket {game.draw_ticket} of {game.draw_total_weight} at {game.drawn_at:%Y-%m-%d %H:%M:%S}"

    @admin.display(description="prize pool", ordering="prize_pool_cents")
    def prize_pool(self, game: HexaProGame) -> str:
        return format_cents(game.prize_pool_cents)

    @admin.display(description="status")
    def status(self, game: HexaProGame) -> str:
        return str(game.tournament.get_status_display())

    @admin.display(description="players, places and prizes (HEX-10)")
    def entries(self, game: HexaProGame) -> SafeString:
        rows = TournamentEntry.objects.filter(tournament_id=game.pk).select_related("user").order_by("place", "pk")
        listing = format_html_join(
            "",
            "<li>{}: {}, {}</li>",
            (
                (
                    entry.user.get_username(),
                    f"place {entry.place}" if entry.place else entry.get_status_display(),
                    (
                        f"{format_cents(entry.prize)} " + ("paid" if entry.prize_transfer_id else "NOT PAID")
                        if entry.prize
                        else "no prize"
                    ),
                )
                for entry in rows
            ),
        )
        link = reverse("admin:tournaments_tournamententry_changelist") + f"?q={game.pk}"
        return format_html(
            '<ul>{}</ul><p><a href="{}">Credit an unpaid prize by hand (reason required, audited)</a></p>',
            listing,
            link,
        )

    def has_run_tournament_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.run_tournament")

    @admin.action(
        description="Put the selected incomplete games in the 90-day queue (HEX-17, reason required)",
        permissions=["run_tournament"],
    )
    def park_incomplete_games(self, request: HttpRequest, queryset: QuerySet[HexaProGame]) -> TemplateResponse | None:
        if too_many(self, request, queryset):
            return None
        games = list(queryset.select_related("tournament").order_by("pk"))
        answer = action_form_or_page(
            self,
            request,
            StaffActionForm,
            action="park_incomplete_games",
            title="Put incomplete HexaPro games in the 90-day queue",
            rows=[(game, f"{game.multiplier_label}, pool {format_cents(game.prize_pool_cents)}") for game in games],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        reason = answer.cleaned_data["reason"]
        each_through_the_service(
            self,
            request,
            games,
            lambda game: hexapro_game_park(game.pk, actor=request.user, reason=reason),
            history=lambda case: f"put in the 90-day queue as case {case.pk}",
            done=lambda game, case: f"{game}: in the queue, to decide by {case.deadline:%Y-%m-%d}.",
        )
        return None

    def get_urls(self) -> list[URLPattern]:
        audit = path("audit/", self.admin_site.admin_view(self.audit_view), name=AUDIT_PAGE)
        return [audit, *super().get_urls()]

    def audit_view(self, request: HttpRequest) -> HttpResponse:
        """HEX-31: games per multiplier against the stated probabilities, chi-square, realised rake equivalent."""
        if not request.user.has_perm("tournaments.view_hexaprogame"):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "HexaPro multiplier audit (HEX-31)",
            "audits": multiplier_audits(),
        }
        return TemplateResponse(request, "tournaments/admin_hexapro_audit.html", context)


@admin.register(HexaProRegistration)
class HexaProRegistrationAdmin(NumberOrPlayerSearch, ReadOnlyAdmin):
    list_display = ("id", "user", "product_code", "buy_in", "status", "game", "registered_at")
    list_filter = ("status", "product_code")
    list_select_related = ("user",)
    search_fields = ("=user__username",)
    search_help_text = "A registration number, or player:<username>."
    player_lookup = "user__username"
    raw_id_fields = ("user", "registration_transfer", "refund_transfer", "game")
    ordering = ("-pk",)

    @admin.display(description="buy-in", ordering="buy_in_cents")
    def buy_in(self, registration: HexaProRegistration) -> str:
        return format_cents(registration.buy_in_cents)
