"""The HexaPro back office (HEX-10, HEX-17, HEX-31): the product versions with their tables, the games with their
draws (search by game id or player, the entries with the manual prize credit, the 90-day queue), the registrations,
and the multiplier audit.

* Product versions: a version in force or past is history the games were played with and is read-only. The versions
  are seeded by the data migration; an administrator schedules a change with the list's "Copy into a new version"
  action (a copy in force from a later time, ``hexapro_version_schedule``) and edits the copy's rows until it takes
  effect; every save passes the product rules (``version_check``) or is refused with nothing saved, and is audited.
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

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.admin import ReadOnlyAdmin, too_many
from poker_site.core.admin_lists import NumberOrPlayerSearch
from tournaments.admin import ServiceRefusalsAsMessages, action_form_or_page, each_through_the_service
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
from tournaments.hexapro.versions import (
    hexapro_version_schedule,
    product_figures,
    version_changed_record,
    version_check,
    version_editable,
)
from tournaments.models import TournamentEntry
from tournaments.rules.common import RuleError
from wallet.errors import format_cents

AUDIT_PAGE = "tournaments_hexaprogame_audit"


class ScheduleVersionForm(StaffActionForm):
    effective_from = forms.DateTimeField(
        label="In force from",
        help_text="Later than now (UTC). Until then the copy's tables can be edited on its page.",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    field_order = ("effective_from", "reason")


def version_may_change(request: HttpRequest, version: HexaProProductVersion | None) -> bool:
    """Administrators change a version not yet in force and not yet used by a game (``version_editable``)."""
    return bool(request.user.is_superuser) and version is not None and version_editable(version)


class VersionPartInline(admin.TabularInline):
    """A version's rows: editable (added, changed, removed) exactly when the version may change."""

    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return version_may_change(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return version_may_change(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return version_may_change(request, obj)


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
class HexaProProductVersionAdmin(ServiceRefusalsAsMessages, ReadOnlyAdmin):
    list_display = ("code", "name", "effective_from", "seats", "figures")
    actions = ("schedule_new_version",)
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
    readonly_fields = ("code", "effective_from", "figures")
    inlines = (BuyInInline, MultiplierInline, BlindLevelInline)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser) if obj is None else version_may_change(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser) if obj is None else version_may_change(request, obj)

    def has_schedule_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def get_actions(self, request: HttpRequest) -> Any:
        """No bulk delete: a version in force is history; a future one is deleted from its own page."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.action(
        description="Copy into a new version in force from a later time (then edit its tables)",
        permissions=["schedule"],
    )
    def schedule_new_version(
        self, request: HttpRequest, queryset: QuerySet[HexaProProductVersion]
    ) -> TemplateResponse | None:
        chosen = list(queryset.order_by("pk")[:2])
        if len(chosen) != 1:
            self.message_user(request, "Select exactly one version to copy; nothing was changed.", messages.WARNING)
            return None
        (version,) = chosen
        answer = action_form_or_page(
            self,
            request,
            ScheduleVersionForm,
            action="schedule_new_version",
            title="Copy into a new HexaPro product version",
            rows=[(version, "its settings and tables are copied into a version in force from the time below")],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        effective_from, reason = answer.cleaned_data["effective_from"], answer.cleaned_data["reason"]
        each_through_the_service(
            self,
            request,
            [version],
            lambda source: hexapro_version_schedule(
                source, effective_from=effective_from, actor=request.user, reason=reason
            ),
            history=lambda copy: f"scheduled from {copy.effective_from:%Y-%m-%d %H:%M}",
            done=lambda _row, copy: f"{copy} is created: edit its tables on its page before it takes effect.",
        )
        return None

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Save the rows, then check the whole product (refused: the page's transaction rolls back) and audit."""
        super().save_related(request, form, formsets, change)
        version = form.instance
        figures = version_check(version)
        changes = list(form.changed_data) + [
            f"{formset.model._meta.verbose_name}: {len(formset.new_objects)} added, {len(formset.changed_objects)} "
            f"changed, {len(formset.deleted_objects)} removed"
            for formset in formsets
            if formset.new_objects or formset.changed_objects or formset.deleted_objects
        ]
        version_changed_record(version, actor=request.user, changes=changes, figures=figures)

    @admin.display(description="expected multiplier, rake equivalent (HEX-08, HEX-24)")
    def figures(self, version: HexaProProductVersion) -> str:
        try:
            product = product_from_version(version)
        except RuleError as error:
            return f"tables refused by the rules: {error}"
        return product_figures(product)


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
