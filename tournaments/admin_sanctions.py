"""The tournament bars in the back office (TRN-28, TRN-09 / FRD-15): the list of players barred from tournaments,
and barring a player without a disqualification (a disqualification bars from the entry list's action, with the
"also bar" box). A bar is a record: added through ``tournaments.services.sanctions`` (audited), never
changed or deleted here. Adding needs ``tournaments.disqualify_player`` as well as the permission to add."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from poker_site.core.admin_lists import CappedCountPaginator, NumberOrPlayerSearch
from tournaments.models import TournamentBar
from tournaments.services import TournamentError
from tournaments.services.sanctions import player_bar_locked
from tournaments.services.staff import staff_reason


class TournamentBarForm(forms.ModelForm):
    class Meta:
        model = TournamentBar
        fields = ("user", "reason")
        help_texts = {"reason": "Recorded in the audit log. The player's registrations are refused from now on."}

    def clean_user(self) -> Any:
        user = self.cleaned_data["user"]
        if TournamentBar.objects.filter(user=user).exists():
            raise forms.ValidationError(f"{user} is already barred from tournaments.")
        return user


@admin.register(TournamentBar)
class TournamentBarAdmin(NumberOrPlayerSearch, admin.ModelAdmin):
    form = TournamentBarForm
    list_display = ("user", "barred_at", "barred_by", "reason", "entry")
    list_filter = (("barred_at", admin.DateFieldListFilter),)
    search_fields = ("=user__username",)
    search_help_text = "A player's username (exact)."
    number_lookup = "user_id"
    player_lookup = "user__username"
    list_select_related = ("user", "barred_by", "entry")
    raw_id_fields = ("user", "entry")
    ordering = ("-pk",)
    paginator = CappedCountPaginator
    show_full_result_count = False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("user", "reason") if obj is None else ("user", "reason", "barred_by", "barred_at", "entry")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else ("user", "reason", "barred_by", "barred_at", "entry")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) and request.user.has_perm("tournaments.disqualify_player")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """A refusal the service makes when it writes (barred meanwhile) comes back as a message: nothing saved."""
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except TournamentError as error:
            self.message_user(request, f"{error.message} Nothing was saved.", messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def save_model(self, request: HttpRequest, obj: TournamentBar, form: Any, change: bool) -> None:
        """Bar through the service instead of saving the form's row: inside the admin page's transaction (the
        service's own, ``player_bar``, is durable), audited in it."""
        reason = staff_reason(form.cleaned_data["reason"])
        bar = player_bar_locked(form.cleaned_data["user"], actor=request.user, reason=reason)
        obj.pk = bar.pk
        obj.barred_by = bar.barred_by
        obj.barred_at = bar.barred_at
        obj._state.adding = False
