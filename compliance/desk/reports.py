"""The players' report form (FRD-12): from a hand of their history, report suspected collusion or cheating by other
players of that hand. Each report opens a case; a player may send ``COMPLIANCE_REPORTS_PER_DAY`` a day."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from compliance.desk.forms import ReportForm
from compliance.errors import ComplianceError, RateLimited
from compliance.services import player_report_create


@login_required
@require_http_methods(["GET", "POST"])
def report_page(request: HttpRequest, hand_id: int) -> HttpResponse:
    from games.models import Hand, HandPlayer

    hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
    rows = list(HandPlayer.objects.filter(hand_id=hand_id).select_related("user").order_by("seat_number"))
    mine = any(row.user_id == request.user.pk for row in rows)
    if hand is None or (request.method == "GET" and not mine):
        raise Http404(_("No such hand in your history."))
    others = [(row.user_id, row.user.table_name) for row in rows if row.user_id != request.user.pk]
    form = ReportForm(request.POST or None, others=others)
    error = ""
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                report = player_report_create(
                    request.user,  # type: ignore[arg-type]
                    hand_id,
                    form.cleaned_data["reported"],
                    form.cleaned_data["text"],
                )
            except RateLimited as refusal:
                error, status = str(refusal), 429
            except ComplianceError as refusal:
                error = str(refusal)
            else:
                messages.success(
                    request,
                    _("Thank you: report #%(number)s was received and will be investigated.") % {"number": report.pk},
                )
                return redirect("games:hand_replay", hand_id=hand_id)
    return render(request, "compliance/report.html", {"hand": hand, "form": form, "error": error}, status=status)
