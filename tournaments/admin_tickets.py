"""The back office of tournament tickets and series (TRN-37, AMB-54, LOB-08).

Tickets are money-equivalent: staff never edit one. They propose a ticket on the "issue a ticket" page, issued when a
second staff member approves it (issue 30, :mod:`tournaments.ticket_changes`), and void usable ones with the list's
action, both through :mod:`tournaments.services.tickets` (the value moves through the ledger, the audit log keeps
who, when and why), both needing ``tournaments.manage_tickets``. Every role with the
view permission reads the tickets with their audit trail (issued, used, returned, expired, voided).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.admin import ReadOnlyAdmin, too_many
from poker_site.accounts.models import username_without_case
from poker_site.core.admin_lists import CappedCountPaginator
from tournaments.admin_forms import StaffActionForm
from tournaments.models import TournamentSeries, TournamentTicket, TournamentTicketEvent
from tournaments.services.tickets import TicketRequest
from wallet.errors import InvalidAmount, format_cents
from wallet.services import parse_euros_to_cents

ISSUE_PAGE = "tournaments_tournamentticket_issue"


class TicketEventInline(admin.TabularInline):
    """The ticket's audit trail, oldest first."""

    model = TournamentTicketEvent
    fields = ("at", "action", "status_after", "actor", "entry", "transfer", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("at", "pk")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class IssueTicketForm(StaffActionForm):
    username = forms.CharField(label="Player (username)", max_length=150)
    value = forms.CharField(label="Value (euros)", max_length=20, help_text="The target's buy-in + fee, e.g. 11.00.")
    series = forms.ModelChoiceField(label="Series", queryset=TournamentSeries.objects.order_by("name"), required=False)
    tournament = forms.IntegerField(
        label="Or tournament number", required=False, min_value=1, help_text="Exactly one of a series and a tournament."
    )
    expires_at = forms.DateTimeField(label="Expires at", help_text="In the future (the site's time zone, UTC).")

    def clean_value(self) -> int:
        try:
            return parse_euros_to_cents(self.cleaned_data["value"])
        except InvalidAmount as error:
            raise forms.ValidationError(str(error)) from error

    def ticket_request(self) -> TicketRequest:
        data = self.cleaned_data
        series = data.get("series")
        return TicketRequest(
            username=data["username"].strip(),
            value=data["value"],
            expires_at=data["expires_at"],
            series_id=series.pk if series is not None else None,
            tournament_id=data.get("tournament"),
        )


@admin.register(TournamentTicket)
class TournamentTicketAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "value_display", "target_name", "status", "expires_at", "created_at", "issued_by")
    list_filter = ("status",)
    search_fields = ("=user__username",)
    search_help_text = "A player's username (exact)."
    list_select_related = ("user", "series", "tournament", "issued_by")
    raw_id_fields = ("user", "tournament", "won_in", "issued_by")
    ordering = ("-pk",)
    paginator = CappedCountPaginator
    inlines = (TicketEventInline,)
    actions = ("void_tickets",)
    change_list_template = "tournaments/admin_ticket_change_list.html"

    @admin.display(description="value", ordering="value")
    def value_display(self, ticket: TournamentTicket) -> str:
        return format_cents(ticket.value)

    def has_manage_tickets_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.manage_tickets")

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = dict(extra_context or {})
        if self.has_manage_tickets_permission(request):
            context["issue_link"] = self.issue_link()
        return super().changelist_view(request, context)

    def issue_link(self) -> SafeString:
        return format_html(
            '<a class="addlink" href="{}">Issue a ticket (proposed; another staff member approves it)</a>',
            reverse(f"admin:{ISSUE_PAGE}"),
        )

    @admin.action(
        description="Propose voiding the selected usable tickets (reason required; another staff member approves)",
        permissions=["manage_tickets"],
    )
    def void_tickets(self, request: HttpRequest, queryset: QuerySet[TournamentTicket]) -> TemplateResponse | None:
        """Propose voiding each selected ticket (issue 30: its value leaves the player, so another staff member
        approves it; ``tournaments.ticket_changes.TICKET_VOID``). Nothing is voided here."""
        from poker_site.core.rule_changes import RuleChangeRefused, rule_change_propose
        from tournaments.admin import action_form_or_page
        from tournaments.ticket_changes import TICKET_VOID, ticket_void_target

        if too_many(self, request, queryset):
            return None
        tickets = list(queryset.select_related("user", "series", "tournament").order_by("pk"))
        answer = action_form_or_page(
            self,
            request,
            StaffActionForm,
            action="void_tickets",
            title="Propose voiding tickets (another staff member approves)",
            rows=[(ticket, f"{format_cents(ticket.value)}, {ticket.get_status_display()}") for ticket in tickets],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        reason = answer.cleaned_data["reason"]
        for ticket in tickets:
            try:
                proposal = rule_change_propose(request.user, TICKET_VOID.name, ticket_void_target(ticket), {}, reason)
            except RuleChangeRefused as error:
                self.message_user(request, f"Ticket {ticket.pk}: {error.message} Nothing was changed.", messages.ERROR)
                continue
            self.message_user(
                request,
                f"Voiding of ticket {ticket.pk} proposed (#{proposal.pk}): it is voided when another staff member "
                "approves it.",
                messages.SUCCESS,
            )
        return None

    def get_urls(self) -> list[URLPattern]:
        issue = path("issue/", self.admin_site.admin_view(self.issue_view), name=ISSUE_PAGE)
        return [issue, *super().get_urls()]

    def issue_view(self, request: HttpRequest) -> HttpResponse:
        """Propose a ticket for a player (issue 30: ``rule_change_propose``; issued from the house's promotions,
        audited, when another staff member approves it)."""
        from poker_site.core.rule_changes import RuleChangeRefused, rule_change_propose
        from tournaments.ticket_changes import TICKET_ISSUE, ticket_target

        if not self.has_manage_tickets_permission(request):
            raise PermissionDenied
        form = IssueTicketForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            ticket = form.ticket_request()
            player = get_user_model().objects.filter(username_without_case(ticket.username), is_active=True).first()
            changes = {
                "value": ticket.value,
                "expires_at": ticket.expires_at.isoformat(),
                "series_id": ticket.series_id,
                "tournament_id": ticket.tournament_id,
            }
            try:
                if player is None:
                    raise RuleChangeRefused(f"There is no active player {ticket.username!r}.")
                proposal = rule_change_propose(
                    request.user, TICKET_ISSUE.name, ticket_target(player), changes, form.cleaned_data["reason"]
                )
            except RuleChangeRefused as error:
                form.add_error(None, f"{error.message} Nothing was changed.")
            else:
                self.message_user(
                    request,
                    f"Ticket proposed (#{proposal.pk}): {proposal.summary}. It is issued when another staff member "
                    "approves it.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:core_rulechangeproposal_change", args=[proposal.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Propose a ticket (another staff member approves it)",
            "action": "",
            "rows": [],
            "form": form,
        }
        return TemplateResponse(request, "tournaments/admin_ticket_issue.html", context)


@admin.register(TournamentSeries)
class TournamentSeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "description")
    search_fields = ("name",)
    ordering = ("name",)
