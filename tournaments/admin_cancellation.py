"""The back office of a started tournament's cancellation (CXL-01): the preview and proposal from the tournament's
page, and the cancellations' records with their approval by a second staff member or their withdrawal.

* ``/admin/tournaments/tournament/<id>/cancellation/`` (``tournaments.run_tournament``): the state the tournament is
  in, the rules that apply, every player's compensation and the totals, in euros, computed now without changing
  anything (``tournament_cancellation_preview``); with a reason, it proposes (``tournament_cancellation_propose``).
  The page sends the fingerprint of the figures it showed: a proposal whose figures changed meanwhile is refused.
* ``/admin/tournaments/tournamentcancellation/``: the records (read only for every role that reads tournaments:
  support, compliance reviewers), each with its archived calculation shown readably (inputs, rules, each share).
* ``.../<id>/approve/`` (``tournaments.approve_cancellation``): the figures once more and the approval, refused by
  the service (its message shown, nothing changed) when the approver proposed it, when it is no longer waiting, or
  when the figures changed since they were shown; ``.../<id>/withdraw/`` (``tournaments.run_tournament``) lets play
  go on.

The views are thin: they check the permission, validate the form and call the service; every refusal comes back
as the service's message with "Nothing was changed"."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.admin import ReadOnlyAdmin, record_in_history
from poker_site.core.admin_lists import NumberOrPlayerSearch
from poker_site.core.money import euros as money_euros
from tournaments.models import CancellationStatus, Tournament, TournamentCancellation, TournamentStatus
from tournaments.rules.cancellation import CancellationState
from tournaments.services import TournamentError
from tournaments.services.cancellation import (
    calculation_digest,
    tournament_cancellation_approve,
    tournament_cancellation_preview,
    tournament_cancellation_propose,
    tournament_cancellation_withdraw,
)
from tournaments.services.cancellation_alteration import (
    alterations_net,
    proposal_digest,
    tournament_cancellation_alter,
)
from wallet.errors import format_cents

PROPOSE_PAGE = "tournaments_tournament_cancellation"
APPROVE_PAGE = "tournaments_tournamentcancellation_approve"
WITHDRAW_PAGE = "tournaments_tournamentcancellation_withdraw"
ALTER_PAGE = "tournaments_tournamentcancellation_alter"
RUN_TOURNAMENT = "tournaments.run_tournament"
APPROVE_CANCELLATION = "tournaments.approve_cancellation"

STATE_LABELS = {
    CancellationState.BEFORE_START.value: "before the start (CXL-02)",
    CancellationState.STARTED_NOT_IN_THE_MONEY.value: "started, not in the money (CXL-03, CXL-04)",
    CancellationState.IN_THE_MONEY.value: "in the money, not at the final table (CXL-06)",
    CancellationState.FINAL_TABLE.value: "in the money, at the final table (CXL-07)",
    CancellationState.HEXAPRO.value: "HexaPro game (CXL-09)",
}
RULE_LABELS = {
    "CXL-02": "every purchase refunded in full",
    "CXL-03": "each remaining player's fees refunded",
    "CXL-04": "the player-supplied pot: half equally, half by chips",
    "CXL-05": "freeroll: the added prize pool shared as CXL-04",
    "CXL-06": "fees refunded, the lowest remaining prize each, the rest by chips",
    "CXL-07": "fees refunded, the unpaid prizes by ICM chop",
    "CXL-08": "non-monetary prizes at their cash value",
    "CXL-09": "HexaPro: fee component back, 10 % of the pool each, the rest by ICM",
    "CXL-10": "each remaining player's own bounty",
    "CXL-11": "ICM chop, cents by largest remainder",
    "AMB-16": "HexaPro: 10 % per remaining player of the unpaid pool",
    "AMB-17": "exact ICM, rounded down, leftover cents by largest remainder",
    "AMB-34": "player-supplied pot excludes bounties and operator-added money",
    "AMB-35": "lowest remaining prize = the prize of the lowest place still occupied",
}


def euros(cents: int | None) -> str:
    return money_euros(cents, empty="—")


def exact_euros(fraction_text: str | None) -> str:
    """An exact share in cents ("numerator/denominator" or a whole number) as euros: to the cent when exact, else
    six decimals of a euro and "…"."""
    if not fraction_text:
        return "—"
    value = Fraction(str(fraction_text))
    if value.denominator == 1:
        return format_cents(value.numerator)
    sign = "-" if value < 0 else ""
    micro = abs(value) * 10_000 // 1  # millionths of a euro (a cent is 10,000 of them), rounded down
    whole, rest = divmod(int(micro), 1_000_000)
    return f"{sign}€{whole:,}.{rest:06d}…"


def figures_context(figures: dict[str, Any], cancellation: TournamentCancellation | None = None) -> dict[str, Any]:
    """The archived calculation (``CancellationCalculation.to_json()``) as rows a page shows, amounts in euros; with
    the ``cancellation`` record, its alterations (CXL-12) beside each player's policy amount and in the totals."""
    alterations: dict[str, int] = dict(cancellation.alterations) if cancellation is not None else {}
    compensations = figures.get("compensations", [])
    ids = [int(row["player"]) for row in compensations if str(row.get("player", "")).isdigit()]
    users = get_user_model().objects.in_bulk(ids)
    rows = []
    for row in compensations:
        player = str(row.get("player", ""))
        user = users.get(int(player)) if player.isdigit() else None
        rows.append(
            {
                "player": f"{user.username} (#{player})" if user is not None else player,
                "seat": row.get("seat"),
                "chips": row.get("chips"),
                "eliminated": row.get("eliminated", False),
                "buy_in_refund": euros(row.get("buy_in_refund_cents", 0)),
                "fee_refund": euros(row.get("fee_refund_cents", 0)),
                "lowest_remaining_prize": euros(row.get("lowest_remaining_prize_cents", 0)),
                "equal_share": exact_euros(row.get("equal_share")),
                "chip_share": exact_euros(row.get("chip_share")),
                "icm_share": exact_euros(row.get("icm_share")),
                "pool_share_exact": exact_euros(row.get("pool_share_exact")),
                "pool_share": euros(row.get("pool_share_cents", 0)),
                "bounty": euros(row.get("bounty_cents", 0)),
                "tickets": euros(row.get("tickets_cents", 0)),
                "money": euros(row.get("money_cents", 0)),
                "altered": signed_euros(alterations.get(player, 0)),
                "final": euros(int(row.get("money_cents", 0)) + alterations.get(player, 0)),
            }
        )
    held = figures.get("money_held", {})
    totals = figures.get("totals", {})
    cancelled = figures.get("input", {})
    return {
        "state": STATE_LABELS.get(figures.get("state", ""), figures.get("state", "")),
        "rules": [(rule, RULE_LABELS.get(rule, "")) for rule in figures.get("rules", [])],
        "compensations": rows,
        "money_held": [
            ("prize contributions and added money", euros(held.get("prize_pool_cents"))),
            ("of which added by the house", euros(held.get("added_money_cents"))),
            ("fees", euros(held.get("fees_cents"))),
            ("bounties", euros(held.get("bounties_cents"))),
            ("prizes already paid", euros(held.get("prizes_already_paid_cents"))),
            ("bounties already paid", euros(held.get("bounties_already_paid_cents"))),
        ],
        "kept_by_house": [
            (kept.get("reason", ""), euros(kept.get("cents"))) for kept in figures.get("kept_by_house", [])
        ],
        "totals": {
            "paid": euros(totals.get("paid_in_money_cents")),
            "tickets": euros(totals.get("tickets_recredited_cents")),
            "kept": euros(totals.get("kept_by_house_cents")),
            "held": euros(totals.get("money_held_cents")),
        },
        "inputs": _inputs(cancelled),
        "icm": figures.get("icm"),
        "alterations": _alterations(cancellation, totals) if alterations and cancellation is not None else None,
    }


def signed_euros(cents: int) -> str:
    if not cents:
        return "—"
    return ("+" if cents > 0 else "−") + format_cents(abs(cents))


def _alterations(row: TournamentCancellation, totals: dict[str, Any]) -> dict[str, Any]:
    net = alterations_net(row.alterations)
    return {
        "by": row.altered_by,
        "at": row.altered_at,
        "reason": row.alteration_reason,
        "net": signed_euros(net),
        "paid": euros(int(totals.get("paid_in_money_cents", 0)) + net),
        "kept": euros(int(totals.get("kept_by_house_cents", 0)) - net),
    }


def _inputs(cancelled: dict[str, Any]) -> list[tuple[str, str]]:
    """The calculation's inputs, one line each."""
    lines: list[tuple[str, str]] = []
    if "purchases" in cancelled:
        purchases = cancelled["purchases"]
        lines += [
            ("purchases", str(len(purchases))),
            ("prize contributions", euros(sum(p.get("prize_contribution_cents", 0) for p in purchases))),
            ("fees", euros(sum(p.get("fee_cents", 0) for p in purchases))),
            ("started", "yes" if cancelled.get("started") else "no"),
            ("at the final table", "yes" if cancelled.get("at_final_table") else "no"),
            ("freeroll", "yes" if cancelled.get("freeroll") else "no"),
            ("added money", euros(cancelled.get("added_money_cents", 0))),
            ("prize table", ", ".join(euros(prize) for prize in cancelled.get("prizes", [])) or "not fixed yet"),
        ]
    if "prize_pool_cents" in cancelled:
        lines += [
            ("drawn prize pool", euros(cancelled["prize_pool_cents"])),
            ("payout percentages", " / ".join(str(share) for share in cancelled.get("payout_percentages", []))),
            ("fee component", euros(cancelled.get("fee_component_cents", 0))),
        ]
    remaining = cancelled.get("remaining", [])
    lines.append(
        ("players remaining (chips)", ", ".join(f"#{p['player']}: {p['chips']:,}" for p in remaining) or "none")
    )
    return lines


# --- Forms ---------------------------------------------------------------------------------------------------------


class ProposeForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        max_length=300,
        help_text="The software problem that forces the cancellation. Recorded in the audit log and shown to the "
        "players when the cancellation is approved.",
        widget=forms.TextInput(attrs={"size": 80}),
    )
    previewed = forms.CharField(widget=forms.HiddenInput)


class ApproveForm(forms.Form):
    previewed = forms.CharField(widget=forms.HiddenInput)
    comment = forms.CharField(
        label="Your comment (optional)",
        max_length=300,
        required=False,
        help_text="Kept with the cancellation and in the audit log.",
        widget=forms.TextInput(attrs={"size": 80}),
    )


class AlterForm(forms.Form):
    """CXL-12: a signed change in euros for each compensated player (``player_<id>`` fields, 0 = as the policy
    says), the reason, and the fingerprint of the page seen."""

    reason = forms.CharField(
        label="Reason",
        max_length=300,
        help_text="Management's decision (CXL-12, GEN-05). Recorded in the audit log and on the cancellation.",
        widget=forms.TextInput(attrs={"size": 80}),
    )
    previewed = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: list[tuple[str, str, int]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for player, label, current in players:
            self.fields[f"player_{player}"] = forms.DecimalField(
                label=f"{label}: change (€)",
                max_digits=10,
                decimal_places=2,
                initial=Decimal(current) / 100,
                required=False,
                help_text="Signed: +5.00 adds €5.00 to the policy's amount, -5.00 takes it away. Empty or 0: none.",
            )

    def alterations(self) -> dict[str, int]:
        """Player id to signed cents, from the valid form."""
        changes = {}
        for name, value in self.cleaned_data.items():
            if name.startswith("player_") and value:
                changes[name.removeprefix("player_")] = int(value * 100)
        return changes


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        max_length=300,
        help_text="Why play goes on. Recorded in the audit log.",
        widget=forms.TextInput(attrs={"size": 80}),
    )


def _page(
    model_admin: admin.ModelAdmin, request: HttpRequest, template: str, title: str, **context: Any
) -> TemplateResponse:
    return TemplateResponse(
        request,
        template,
        {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta, "title": title, **context},
    )


def _refused(model_admin: admin.ModelAdmin, request: HttpRequest, error: TournamentError) -> None:
    model_admin.message_user(request, f"{error.message} Nothing was changed.", messages.ERROR)


def _object_or_404(queryset: QuerySet[Any], object_id: str) -> Any:
    if not str(object_id).isdigit():
        raise Http404("No such row.")
    return get_object_or_404(queryset, pk=int(object_id))


# --- The tournament's page: preview and propose ---------------------------------------------------------------------


def propose_view(model_admin: admin.ModelAdmin, request: HttpRequest, object_id: str) -> HttpResponse:
    """The preview of a running tournament's cancellation and, posted with a reason, its proposal (CXL-01)."""
    if not request.user.has_perm(RUN_TOURNAMENT):
        raise PermissionDenied
    tournament = _object_or_404(Tournament.objects.all(), object_id)
    form = ProposeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            proposal = tournament_cancellation_propose(
                tournament.pk,
                actor=request.user,
                reason=form.cleaned_data["reason"],
                previewed=form.cleaned_data["previewed"],
            )
        except TournamentError as error:
            _refused(model_admin, request, error)
            return HttpResponseRedirect(request.path)
        record_in_history(model_admin, request, tournament, f"cancellation {proposal.pk} proposed: {proposal.reason}")
        model_admin.message_user(
            request,
            f"The cancellation of {tournament.name} is proposed; no new hand is dealt. A second staff member "
            "approves it (or it is withdrawn) on this page.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:tournaments_tournamentcancellation_change", args=[proposal.pk]))
    figures, refusal = None, ""
    try:
        calculation = tournament_cancellation_preview(tournament.pk)
    except TournamentError as error:
        refusal = error.message
    else:
        figures = calculation.to_json()
        if request.method != "POST":
            form = ProposeForm(initial={"previewed": calculation_digest(figures)})
        else:  # the reason was missing: the page again, with the figures it shows now
            form = ProposeForm({"reason": request.POST.get("reason", ""), "previewed": calculation_digest(figures)})
    waiting = TournamentCancellation.objects.filter(tournament=tournament, status=CancellationStatus.PROPOSED).first()
    return _page(
        model_admin,
        request,
        "tournaments/admin_cancellation_propose.html",
        f"Cancel {tournament.name} (CXL-01): preview",
        tournament=tournament,
        figures=figures_context(figures) if figures is not None else None,
        refusal=refusal,
        waiting=waiting,
        form=form,
    )


def tournament_cancellation_panel(tournament: Tournament) -> SafeString:
    """The tournament page's link to the cancellation preview (running) and to its cancellations' records."""
    records = list(TournamentCancellation.objects.filter(tournament=tournament).order_by("-pk")[:10])
    parts = []
    if tournament.status == TournamentStatus.RUNNING:
        parts.append(
            format_html(
                '<a class="button" href="{}">Propose cancellation (CXL-01): preview the compensation</a>',
                reverse(f"admin:{PROPOSE_PAGE}", args=[tournament.pk]),
            )
        )
    for record in records:
        parts.append(
            format_html(
                '<a href="{}">Cancellation {}: {}</a>',
                reverse("admin:tournaments_tournamentcancellation_change", args=[record.pk]),
                record.pk,
                record.get_status_display(),
            )
        )
    if not parts:
        return format_html("{}", "Only a running tournament is cancelled under the cancellation policy.")
    return format_html("<br>".join(["{}"] * len(parts)), *parts)


# --- The cancellations' records -------------------------------------------------------------------------------------


class StateFilter(admin.SimpleListFilter):
    """The state at cancellation, from the fixed list of states (no scan of the column for its values)."""

    title = "state at cancellation"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return list(STATE_LABELS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(state=self.value()) if self.value() in STATE_LABELS else queryset


@admin.register(TournamentCancellation)
class TournamentCancellationAdmin(NumberOrPlayerSearch, ReadOnlyAdmin):
    """Read only for every role that reads tournaments (support, compliance reviewers, administrators): the record and
    its archived calculation. Approving and withdrawing are the extra pages, each with its permission."""

    number_lookup = "tournament_id"
    list_display = (
        "id",
        "tournament",
        "status",
        "state",
        "paid_display",
        "kept_display",
        "proposed_by",
        "proposed_at",
        "approved_by",
        "approved_at",
    )
    list_filter = ("status", StateFilter, ("proposed_at", admin.DateFieldListFilter))
    search_fields = ()
    search_help_text = "A tournament number: its cancellations."
    list_select_related = ("tournament", "proposed_by", "approved_by")
    raw_id_fields = ("tournament", "proposed_by", "approved_by")
    ordering = ("-pk",)
    fields = (
        "tournament",
        "status",
        "state_display",
        "reason",
        "proposed_by",
        "proposed_at",
        "approved_by",
        "approved_at",
        "approval_comment",
        "paid_display",
        "kept_display",
        "decision_panel",
        "calculation_panel",
    )
    readonly_fields = fields

    @admin.display(description="paid to players", ordering="paid_in_money")
    def paid_display(self, row: TournamentCancellation) -> str:
        return euros(row.paid_in_money)

    @admin.display(description="kept by the house", ordering="kept_by_house")
    def kept_display(self, row: TournamentCancellation) -> str:
        return euros(row.kept_by_house)

    @admin.display(description="state at cancellation")
    def state_display(self, row: TournamentCancellation) -> str:
        return STATE_LABELS.get(row.state, row.state)

    @admin.display(description="decision")
    def decision_panel(self, row: TournamentCancellation) -> SafeString:
        if row.status != CancellationStatus.PROPOSED:
            return format_html("{}", row.get_status_display())
        return format_html(
            '<a class="button" href="{}">Approve and pay (a second staff member)</a> '
            '<a class="button" href="{}">Alter the payouts (CXL-12)</a> '
            '<a class="button" href="{}">Withdraw (play goes on)</a>',
            reverse(f"admin:{APPROVE_PAGE}", args=[row.pk]),
            reverse(f"admin:{ALTER_PAGE}", args=[row.pk]),
            reverse(f"admin:{WITHDRAW_PAGE}", args=[row.pk]),
        )

    @admin.display(description="calculation (archived)")
    def calculation_panel(self, row: TournamentCancellation) -> SafeString:
        return SafeString(
            render_to_string(
                "tournaments/admin_cancellation_figures.html", {"figures": figures_context(row.calculation, row)}
            )
        )

    def get_urls(self) -> list[URLPattern]:
        return [
            path("<path:object_id>/approve/", self.admin_site.admin_view(self.approve_view), name=APPROVE_PAGE),
            path("<path:object_id>/withdraw/", self.admin_site.admin_view(self.withdraw_view), name=WITHDRAW_PAGE),
            path("<path:object_id>/alter/", self.admin_site.admin_view(self.alter_view), name=ALTER_PAGE),
            *super().get_urls(),
        ]

    def _change_page(self, row: TournamentCancellation) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:tournaments_tournamentcancellation_change", args=[row.pk]))

    def approve_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The figures as proposed (as they are now) and the approval; posted, ``tournament_cancellation_approve``
        with the fingerprint of the figures shown."""
        if not request.user.has_perm(APPROVE_CANCELLATION):
            raise PermissionDenied
        row = _object_or_404(TournamentCancellation.objects.select_related("tournament", "proposed_by"), object_id)
        if request.method == "POST":
            form = ApproveForm(request.POST)
            if not form.is_valid():
                self.message_user(request, "Open the approval page again: nothing was changed.", messages.ERROR)
                return HttpResponseRedirect(request.path)
            try:
                approved = tournament_cancellation_approve(
                    row.pk,
                    actor=request.user,
                    previewed=form.cleaned_data["previewed"],
                    comment=form.cleaned_data["comment"],
                )
            except TournamentError as error:
                now_shown = TournamentCancellation.objects.filter(pk=row.pk).values_list("calculation", flat=True)
                if now_shown.first() != row.calculation:  # the service stored the new figures for another look
                    self.message_user(
                        request, f"{error.message} Nothing was paid: these are the new figures.", messages.ERROR
                    )
                else:
                    _refused(self, request, error)
                return HttpResponseRedirect(request.path)
            record_in_history(self, request, approved, "approved and paid")
            self.message_user(
                request,
                f"{row.tournament.name} is cancelled: {euros(approved.paid_in_money)} paid to the players, "
                f"{euros(approved.kept_by_house)} kept by the house.",
                messages.SUCCESS,
            )
            return self._change_page(approved)
        return _page(
            self,
            request,
            "tournaments/admin_cancellation_approve.html",
            f"Approve the cancellation of {row.tournament.name}",
            row=row,
            figures=figures_context(row.calculation, row),
            form=ApproveForm(initial={"previewed": proposal_digest(row.calculation, row.alterations)}),
            own_proposal=row.proposed_by_id == request.user.pk,
            own_alteration=row.altered_by_id == request.user.pk,
        )

    def alter_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """CXL-12: the figures with a change field per compensated player and a reason; posted,
        ``tournament_cancellation_alter`` with the fingerprint of the page shown."""
        if not request.user.has_perm(RUN_TOURNAMENT):
            raise PermissionDenied
        row = _object_or_404(TournamentCancellation.objects.select_related("tournament", "altered_by"), object_id)
        context = figures_context(row.calculation, row)
        compensated = row.calculation.get("compensations", [])
        players = [
            (str(compensation["player"]), shown["player"], int(row.alterations.get(str(compensation["player"]), 0)))
            for compensation, shown in zip(compensated, context["compensations"], strict=True)
        ]
        digest = proposal_digest(row.calculation, row.alterations)
        form = AlterForm(request.POST if request.method == "POST" else None, players=players)
        if request.method == "POST" and form.is_valid():
            try:
                altered = tournament_cancellation_alter(
                    row.pk,
                    alterations=form.alterations(),
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    previewed=form.cleaned_data["previewed"],
                )
            except TournamentError as error:
                _refused(self, request, error)
                return HttpResponseRedirect(request.path)
            record_in_history(self, request, altered, f"payouts altered (CXL-12): {altered.alteration_reason}")
            self.message_user(
                request,
                f"The payouts are altered: {euros(altered.paid_in_money)} to the players, the house adds "
                f"{euros(alterations_net(altered.alterations))}. Another staff member approves them.",
                messages.SUCCESS,
            )
            return self._change_page(altered)
        if request.method != "POST":
            form = AlterForm(initial={"previewed": digest}, players=players)
        return _page(
            self,
            request,
            "tournaments/admin_cancellation_alter.html",
            f"Alter the payouts of the cancellation of {row.tournament.name} (CXL-12)",
            row=row,
            figures=context,
            form=form,
        )

    def withdraw_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Withdraw a waiting proposal with a reason (``tournament_cancellation_withdraw``): the tables deal again."""
        if not request.user.has_perm(RUN_TOURNAMENT):
            raise PermissionDenied
        row = _object_or_404(TournamentCancellation.objects.select_related("tournament"), object_id)
        form = WithdrawForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                withdrawn = tournament_cancellation_withdraw(
                    row.pk, actor=request.user, reason=form.cleaned_data["reason"]
                )
            except TournamentError as error:
                _refused(self, request, error)
                return self._change_page(row)
            record_in_history(self, request, withdrawn, f"withdrawn: {form.cleaned_data['reason']}")
            self.message_user(
                request, f"The cancellation is withdrawn: {row.tournament.name} plays on.", messages.SUCCESS
            )
            return self._change_page(withdrawn)
        return _page(
            self,
            request,
            "tournaments/admin_cancellation_withdraw.html",
            f"Withdraw the cancellation of {row.tournament.name}",
            row=row,
            form=form,
        )
