"""The tournament bars in the back office (TRN-28, TRN-09 / FRD-15): the list of players barred from tournaments,
and barring a player without a disqualification (a disqualification bars from the entry list's action, with the
"also bar" box), and lifting a bar. A bar is a record: added through ``tournaments.services.sanctions`` (audited),
never deleted; the one change is lifting it (the list's action, a reason required, ``bar_lift``), which keeps the row
as history. Adding and lifting need ``tournaments.disqualify_player`` (adding also the permission to add)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from poker_site.core.admin_lists import CappedCountPaginator, NumberOrPlayerSearch
from tournaments.admin import ServiceRefusalsAsMessages, action_form_or_page, each_through_the_service
from tournaments.models import TournamentBar
from tournaments.services.sanctions import bar_lift, bars_in_force, player_bar_locked
from tournaments.services.staff import staff_reason

READ_ONLY_FIELDS = ("user", "reason", "barred_by", "barred_at", "entry", "lifted_at", "lifted_by", "lift_reason")
LIFT_AT_ONCE = 100
"""The most bars one lifting action takes (each is its own audited transaction)."""


class InForceFilter(admin.SimpleListFilter):
    title = "in force"
    parameter_name = "in_force"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "In force"), ("no", "Lifted")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(lifted_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(lifted_at__isnull=False)
        return queryset


class TournamentBarForm(forms.ModelForm):
    class Meta:
        model = TournamentBar
        fields = ("user", "reason")
        help_texts = {"reason": "Recorded in the audit log. The player's registrations are refused from now on."}

    def clean_user(self) -> Any:
        user = self.cleaned_data["user"]
        if bars_in_force().filter(user=user).exists():
            raise forms.ValidationError(f"{user} is already barred from tournaments.")
        return user


@admin.register(TournamentBar)
class TournamentBarAdmin(ServiceRefusalsAsMessages, NumberOrPlayerSearch, admin.ModelAdmin):
    form = TournamentBarForm
    list_display = ("user", "barred_at", "barred_by", "reason", "entry", "in_force_display", "lifted_at", "lifted_by")
    list_filter = (InForceFilter, ("barred_at", admin.DateFieldListFilter))
    actions = ("lift_bars",)
    search_fields = ("=user__username",)
    search_help_text = "A player's username (exact)."
    number_lookup = "user_id"
    player_lookup = "user__username"
    list_select_related = ("user", "barred_by", "entry", "lifted_by")
    raw_id_fields = ("user", "entry")
    ordering = ("-pk",)
    paginator = CappedCountPaginator
    show_full_result_count = False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("user", "reason") if obj is None else READ_ONLY_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else READ_ONLY_FIELDS

    @admin.display(description="in force", boolean=True)
    def in_force_display(self, bar: TournamentBar) -> bool:
        return bar.in_force

    def has_disqualify_player_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.disqualify_player")

    @admin.action(
        description="Lift the selected bars (the players may enter tournaments again; reason required)",
        permissions=["disqualify_player"],
    )
    def lift_bars(self, request: HttpRequest, queryset: QuerySet[TournamentBar]) -> TemplateResponse | None:
        """Lift each selected bar in force through ``bar_lift`` (audited), after a page that names the players and
        asks for the reason; a bar lifted meanwhile is reported and left as it is."""
        from tournaments.admin_forms import StaffActionForm

        chosen = list(queryset.select_related("user").order_by("pk")[: LIFT_AT_ONCE + 1])
        if len(chosen) > LIFT_AT_ONCE:
            self.message_user(
                request, f"Lift at most {LIFT_AT_ONCE} bars at once; nothing was changed.", messages.WARNING
            )
            return None
        rows = [
            (bar, "in force: it will be lifted" if bar.in_force else "already lifted: left as it is") for bar in chosen
        ]
        answer = action_form_or_page(
            self, request, StaffActionForm, action="lift_bars", title="Lift tournament bars", rows=rows
        )
        if isinstance(answer, TemplateResponse):
            return answer
        reason = answer.cleaned_data["reason"]
        each_through_the_service(
            self,
            request,
            chosen,
            lambda bar: bar_lift(bar, actor=request.user, reason=reason),
            history=lambda lifted: "lifted",
            done=lambda _row, lifted: f"The bar of {lifted.user} is lifted: their registrations are accepted again.",
        )
        return None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) and request.user.has_perm("tournaments.disqualify_player")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: TournamentBar, form: Any, change: bool) -> None:
        """Bar through the service instead of saving the form's row: inside the admin page's transaction (the
        service's own, ``player_bar``, is durable), audited in it."""
        reason = staff_reason(form.cleaned_data["reason"])
        bar = player_bar_locked(form.cleaned_data["user"], actor=request.user, reason=reason)
        obj.pk = bar.pk
        obj.barred_by = bar.barred_by
        obj.barred_at = bar.barred_at
        obj._state.adding = False
