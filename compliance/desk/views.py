"""The compliance desk's pages (compliance role: ``compliance.review_cases``; everyone else gets 403).

Thin views: the queue of flags ordered by score, a flag, the cases, a case with every action's form (FRD-18), the
reviewers' hand replayer (FRD-04, every card of an ended hand), a player's file. Each action posts a form; the form
checks the input, a service does the work; a refusal is shown on the page (status 400) and nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from compliance import services
from compliance.desk import forms
from compliance.errors import ComplianceError, InvalidRequest, NotAllowed
from compliance.models import (
    Case,
    CaseStatus,
    ConnectionRecord,
    Flag,
    FlagStatus,
    PlayerReport,
    ProhibitedProgramReport,
    Standing,
    VideoOutcome,
    VideoRecordingRequest,
)
from compliance.player_view import player_overview
from compliance.replay import review_replay
from compliance.services.common import REVIEW_CASES
from compliance.services.flags import INDICATOR_TITLES, flag_title, flags_dismiss
from compliance.standing import standing_of
from poker_site.core.rule_changes import RuleChangeRefused
from tournaments.services.errors import TournamentError
from wallet.errors import WalletError

REFUSALS = (ComplianceError, WalletError, TournamentError, RuleChangeRefused)
QUEUE_LENGTH = 100
CASES_PER_PAGE = 50

View = Callable[..., HttpResponse]


def reviewer_required(view: View) -> View:
    """Log-in first; then only active holders of ``compliance.review_cases`` (403 for support staff and players)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not (request.user.is_active and request.user.has_perm(REVIEW_CASES)):
            raise PermissionDenied(_("The compliance desk is for compliance reviewers."))
        return view(request, *args, **kwargs)

    return wrapped


def _user(request: HttpRequest) -> Any:
    return request.user


def _refuse_own(request: HttpRequest, concerned: bool, what: str) -> None:
    """403 when the page is about the reviewer's own account (QA report H, finding 2): a reviewer never reads the
    evidence of a case, flag or file about themselves, nor acts on it; another reviewer does."""
    if concerned:
        raise PermissionDenied(f"This {what} concerns your own account: another reviewer handles it.")


def _case_of(request: HttpRequest, case_id: int) -> Case:
    case = get_object_or_404(Case, pk=case_id)
    _refuse_own(request, case.subjects.filter(pk=request.user.pk).exists(), "case")
    return case


def _flag_of(request: HttpRequest, flag_id: int) -> Flag:
    flag = get_object_or_404(Flag, pk=flag_id)
    _refuse_own(request, flag.players.filter(pk=request.user.pk).exists(), "flag")
    return flag


# --- The queue ----------------------------------------------------------------------------------------------------


QUEUE_PAGE = 50


def queue_filter_form(data: Any) -> forms.QueueFilterForm:
    return forms.QueueFilterForm(data or None, indicators=INDICATOR_TITLES)


def queue_filter_errors(form: forms.QueueFilterForm) -> str:
    """The wrong filters in one sentence, e.g. "Raised from: Enter a valid date." ("" when every filter is valid)."""
    if not form.is_bound or form.is_valid():
        return ""
    return " ".join(
        f"{form.fields[name].label if name in form.fields else name}: {' '.join(str(error) for error in errors)}"
        for name, errors in form.errors.items()
    )


def flag_queue(request: HttpRequest) -> tuple[forms.QueueFilterForm, Any]:
    """The queue's filter form and its flags: open ones by default, by severity (the scale common to every indicator,
    highest first), then score, then age. A wrong filter value lists nothing (QA report H, finding 7): the reviewer
    must never take an unfiltered queue for a filtered one and dismiss the wrong flags."""
    form = queue_filter_form(request.GET)
    flags = (
        Flag.objects.prefetch_related("players")
        .exclude(players=request.user.pk)  # a reviewer never sees the flags about themselves (finding 2)
        .order_by("-severity", "-score", "pk")
    )
    if form.is_bound and not form.is_valid():
        return form, flags.none()
    criteria = form.cleaned_data if form.is_bound else {}
    status = criteria.get("status") or "open"
    if status != "all":
        flags = flags.filter(status=status)
    if criteria.get("indicator"):
        flags = flags.filter(indicator=criteria["indicator"])
    if criteria.get("player"):
        flags = flags.filter(players__username__icontains=criteria["player"]).distinct()
    if criteria.get("raised_from"):
        flags = flags.filter(raised_at__date__gte=criteria["raised_from"])
    if criteria.get("raised_to"):
        flags = flags.filter(raised_at__date__lte=criteria["raised_to"])
    return form, flags


@reviewer_required
@require_GET
def desk(request: HttpRequest) -> HttpResponse:
    """The flag queue (filtered, a page at a time, with bulk dismissal), open cases, overdue video requests and the
    latest player reports."""
    form, flags = flag_queue(request)
    page = Paginator(flags, QUEUE_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    cases = list(
        Case.objects.exclude(status=CaseStatus.CLOSED)
        .select_related("reviewer")
        .annotate(subject_count=Count("subjects"))
        .order_by("-pk")[:QUEUE_LENGTH]
    )
    overdue = list(
        VideoRecordingRequest.objects.filter(outcome=VideoOutcome.PENDING, deadline__lt=timezone.now())
        .select_related("player", "case")
        .order_by("deadline")[:50]
    )
    reports = list(PlayerReport.objects.select_related("reporter", "case").order_by("-pk")[:20])
    return render(
        request,
        "compliance/desk.html",
        {
            "flags": [(flag, flag_title(flag)) for flag in page.object_list],
            "page": page,
            "query": query.urlencode(),
            "filter_form": form,
            "filter_errors": queue_filter_errors(form),
            "dismiss_form": forms.BulkDismissForm(),
            "cases": cases,
            "overdue": overdue,
            "reports": reports,
        },
    )


@reviewer_required
@require_POST
def flags_dismiss_view(request: HttpRequest) -> HttpResponse:
    """Dismiss the chosen flags with one reason (all or none), then back to the queue as it was filtered."""
    form = forms.BulkDismissForm(request.POST)
    back = request.POST.get("next") or ""
    target = reverse("compliance:desk") + (f"?{back}" if back and "//" not in back else "")
    wrong_filters = queue_filter_errors(queue_filter_form(QueryDict(back if "//" not in back else "")))
    if wrong_filters:  # finding 7: never dismiss from a queue whose filters did not apply
        messages.error(
            request,
            _("Nothing was dismissed: the queue's filters are wrong (%(errors)s). Correct them first.")
            % {"errors": wrong_filters},
        )
        return redirect(target)
    if not form.is_valid():
        messages.error(request, _("Choose the flags and say why they are dismissed."))
        return redirect(target)
    try:
        dismissed = flags_dismiss(form.cleaned_data["flags"], _user(request), form.cleaned_data["reason"])
    except (InvalidRequest, NotAllowed) as error:
        messages.error(request, str(error))
        return redirect(target)
    messages.success(request, _("%(count)d flag(s) dismissed.") % {"count": len(dismissed)})
    return redirect(target)


def evidence_rows(evidence: dict[str, Any]) -> list[tuple[str, SafeString]]:
    """A flag's evidence as rows a reviewer reads: the indicator's names in words, numbers rounded, lists and tables
    spelled out, hands (``hand:<id>`` or a hand id under a ``hands`` name) linked to the reviewers' replayer."""
    return [
        (name.replace("_", " ").capitalize(), _evidence_value(name, value)) for name, value in sorted(evidence.items())
    ]


def _evidence_value(name: str, value: Any) -> SafeString:
    if value is None:  # a figure the indicator has not got for this flag (another test found the pair)
        return format_html("{}", "—")
    if isinstance(value, dict):
        if not value:
            return format_html("{}", "—")
        rows = format_html_join(
            "",
            "<tr><th scope='row'>{}</th><td>{}</td></tr>",
            ((key, _evidence_value(str(key), item)) for key, item in sorted(value.items())),
        )
        return format_html("<table class='data evidence-detail'><tbody>{}</tbody></table>", rows)
    if isinstance(value, list | tuple):
        if not value:
            return format_html("{}", "—")
        return format_html_join(", ", "{}", ((_evidence_value(name, item),) for item in value))
    if isinstance(value, bool):
        return format_html("{}", _("yes") if value else _("no"))
    if isinstance(value, float):
        return format_html("{}", f"{value:.3f}".rstrip("0").rstrip("."))
    text = str(value)
    hand = text.removeprefix("hand:")
    if hand.isdigit() and (text.startswith("hand:") or "hand" in name):
        return format_html("<a href='{}'>{} #{}</a>", reverse("compliance:hand", args=[int(hand)]), _("hand"), hand)
    return format_html("{}", text)


# --- Flags --------------------------------------------------------------------------------------------------------


@reviewer_required
@require_GET
def flag_page(request: HttpRequest, flag_id: int) -> HttpResponse:
    return _flag_render(request, _flag_of(request, flag_id))


def _flag_render(
    request: HttpRequest, flag: Flag, *, error: str = "", form: Any = None, status: int = 200
) -> HttpResponse:
    from games.models import Hand

    hands = Hand.objects.filter(pk__in=flag.hands).select_related("table").order_by("-pk")
    return render(
        request,
        "compliance/flag.html",
        {
            "flag": flag,
            "title": flag_title(flag),
            "players": list(flag.players.order_by("username")),
            "hands": hands,
            "evidence": evidence_rows(flag.evidence),
            "dismiss_form": form if isinstance(form, forms.DismissForm) else forms.DismissForm(),
            "add_form": form if isinstance(form, forms.AddToCaseForm) else forms.AddToCaseForm(),
            "error": error,
        },
        status=status,
    )


@reviewer_required
@require_POST
def flag_action(request: HttpRequest, flag_id: int, action: str) -> HttpResponse:
    """``open-case``, ``add-to-case`` (field ``case``) or ``dismiss`` (field ``reason``)."""
    flag = _flag_of(request, flag_id)
    form: Any = None
    try:
        if action == "open-case":
            case = services.flag_case_open(flag, _user(request))
            messages.success(
                request, _("Case #%(number)s opened from flag #%(flag)s.") % {"number": case.pk, "flag": flag.pk}
            )
            return redirect("compliance:case", case_id=case.pk)
        if action == "add-to-case":
            form = forms.AddToCaseForm(request.POST)
            if form.is_valid():
                case = services.flag_case_add(flag, form.cleaned_data["case"], _user(request))
                messages.success(
                    request, _("Flag #%(flag)s added to case #%(number)s.") % {"flag": flag.pk, "number": case.pk}
                )
                return redirect("compliance:case", case_id=case.pk)
        elif action == "dismiss":
            form = forms.DismissForm(request.POST)
            if form.is_valid():
                services.flag_dismiss(flag, _user(request), form.cleaned_data["reason"])
                messages.success(request, _("Flag #%(flag)s dismissed.") % {"flag": flag.pk})
                return redirect("compliance:desk")
        else:
            raise Http404("No such action.")
    except REFUSALS as refusal:
        flag.refresh_from_db()
        return _flag_render(request, flag, error=str(refusal), form=form, status=400)
    return _flag_render(request, flag, form=form, status=400)


# --- Cases --------------------------------------------------------------------------------------------------------


@reviewer_required
@require_GET
def cases_page(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", "")
    cases = Case.objects.select_related("reviewer").order_by("-pk")
    if status in CaseStatus.values:
        cases = cases.filter(status=status)
    page = Paginator(cases, CASES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "compliance/cases.html", {"page": page, "status": status, "statuses": CaseStatus.choices})


@reviewer_required
def case_new(request: HttpRequest) -> HttpResponse:
    """Open a case by hand: title, subjects by username, hands and tournaments by id."""
    from poker_site.accounts.models import User

    form = forms.OpenCaseForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        names = form.cleaned_data["usernames"]
        found = dict(User.objects.filter(username__in=names).values_list("username", "pk"))
        missing = [name for name in names if name not in found]
        if missing:
            form.add_error("usernames", _("No player named %(names)s.") % {"names": ", ".join(missing)})
        else:
            try:
                case = services.case_open(
                    _user(request),
                    title=form.cleaned_data["title"],
                    subject_ids=list(found.values()),
                    hand_ids=form.cleaned_data["hands"],
                    tournament_ids=form.cleaned_data["tournaments"],
                    note=form.cleaned_data["note"],
                )
            except REFUSALS as refusal:
                error = str(refusal)
            else:
                return redirect("compliance:case", case_id=case.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "compliance/case_new.html", {"form": form, "error": error}, status=status)


CASE_FORMS: dict[str, Any] = {
    "note": forms.NoteForm,
    "link": forms.LinkForm,
    "hold": forms.HoldForm,
    "release": forms.HoldDecisionForm,
    "seize": forms.SeizeForm,
    "standing": forms.StandingForm,
    "banzai": forms.BanzaiForm,
    "disclose": forms.DisclosureForm,
    "disqualify": forms.DisqualifyForm,
    "video": forms.VideoRequestForm,
    "video_outcome": forms.VideoOutcomeForm,
    "close": forms.CloseForm,
}
"""The case page's action forms by action name (each with its name as prefix: several share field names)."""
CASE_FORMS_ABOUT_THE_CASE = frozenset({"hold", "release", "seize", "standing", "banzai", "disclose", "video"})


def _case_form(action: str, case: Case, data: Any = None) -> Any:
    form_class = CASE_FORMS[action]
    extra = {"case": case} if action in CASE_FORMS_ABOUT_THE_CASE else {}
    return form_class(data, prefix=action, **extra)


def _case_forms(case: Case, bound: dict[str, Any] | None = None) -> dict[str, Any]:
    made = {action: _case_form(action, case) for action in CASE_FORMS}
    made.update(bound or {})
    return made


@reviewer_required
@require_GET
def case_page(request: HttpRequest, case_id: int) -> HttpResponse:
    return _case_render(request, _case_of(request, case_id))


def _case_render(
    request: HttpRequest,
    case: Case,
    *,
    bound: dict[str, Any] | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    from games.models import Hand
    from tournaments.models import TournamentEntry
    from wallet.models import Hold, HoldStatus

    subjects: list[dict[str, Any]] = [
        {"user": user, "standing": standing_of(user.pk), "overview": player_overview(user, compliance_reasons=True)}
        for user in case.subjects.order_by("username")
    ]
    holds = list(Hold.objects.filter(review_reference=case.reference).select_related("player").order_by("pk"))
    seized_from = {hold.player_id for hold in holds if hold.status == HoldStatus.SEIZED}
    still_under_review = [  # QA report H, item 13: a seizure leaves the standing as it was; say so
        {"user": subject["user"], "lifted_by_closing": subject["standing"].case_id == case.pk}
        for subject in subjects
        if subject["user"].pk in seized_from and subject["standing"].state == Standing.UNDER_REVIEW
    ]
    return render(
        request,
        "compliance/case.html",
        {
            "case": case,
            "subjects": subjects,
            "hands": Hand.objects.filter(pk__in=case.hands.values("pk")).select_related("table").order_by("-pk"),
            "tournaments": case.tournaments.order_by("-pk"),
            "entries": TournamentEntry.objects.filter(
                tournament__in=case.tournaments.all(), user__in=case.subjects.all()
            ).select_related("user", "tournament"),
            "flags": [(flag, flag_title(flag)) for flag in case.flags.order_by("-severity", "-score")],
            "reports": PlayerReport.objects.filter(case=case).select_related("reporter", "hand"),
            "holds": holds,
            "still_under_review": still_under_review,
            "seizures": _pending_seizures(holds, request.user),
            "videos": case.video_requests.select_related("player").order_by("pk"),
            "actions": case.actions.select_related("actor", "subject").order_by("pk"),
            "forms": _case_forms(case, bound),
            "closed": case.status == CaseStatus.CLOSED,
            "error": error,
        },
        status=status,
    )


def _pending_seizures(holds: list[Any], viewer: Any) -> list[dict[str, Any]]:
    """The seizures of the case's holds awaiting a second reviewer (issue 30): each proposal, its hold, the links to
    its approval and rejection pages, and whether the viewer proposed it (then another reviewer decides)."""
    from compliance.seizure_changes import pending_seizures

    by_hold = {hold.pk: hold for hold in holds}
    return [
        {
            "proposal": proposal,
            "hold": by_hold[hold_id],
            "amount": proposal.changes.get("amount"),
            "approve_url": reverse("admin:core_rulechangeproposal_approve", args=[proposal.pk]),
            "reject_url": reverse("admin:core_rulechangeproposal_reject", args=[proposal.pk]),
            "own": proposal.proposed_by_id == viewer.pk,
        }
        for hold_id, proposal in pending_seizures(holds).items()
    ]


def _act(request: HttpRequest, case: Case, action: str) -> tuple[Any, str] | None:
    """Validate the action's form and run its service: (the bound form, the success message), or (the form with its
    errors, "") when the input is invalid. Raises the service's refusal."""
    actor = _user(request)
    data = request.POST
    if action == "review":
        services.case_review_start(case, actor)
        return None, _("You are reviewing the case.")
    if action not in CASE_FORMS:
        raise Http404("No such action.")
    form = _case_form(action, case, data)
    if not form.is_valid():
        return form, ""
    values = form.cleaned_data
    if action == "note":
        services.case_note_add(case, actor, values["text"])
        return form, _("Note added.")
    if action == "link":
        return form, _link(case, actor, values)
    if action == "hold":
        hold = services.case_hold_create(
            case, actor, values["player"], values["amount"], values["reason"], idempotency_key=values["idempotency_key"]
        )
        return form, _("Hold #%(hold)s made: %(player)s is under review.") % {
            "hold": hold.pk,
            "player": values["player"].username,
        }
    if action == "release":
        services.case_hold_release(case, actor, values["hold"], values["reason"])
        return form, _("Hold #%(hold)s released.") % {"hold": values["hold"].pk}
    if action == "seize":  # issue 30: proposes; the money moves when another reviewer approves
        proposal = services.case_hold_seizure_propose(
            case, actor, values["hold"], values["reason"], amount=values["amount"]
        )
        return form, _(
            "Seizure of hold #%(hold)s proposed (rule change #%(proposal)s): another reviewer approves it; nothing "
            "moves until then."
        ) % {"hold": values["hold"].pk, "proposal": proposal.pk}
    if action == "standing":
        services.account_standing_set(case, actor, values["player"], values["state"], values["reason"])
        return form, _("%(player)s's account is now %(state)s.") % {
            "player": values["player"].username,
            "state": values["state"].replace("_", " "),
        }
    if action == "banzai":
        services.banzai_exclusion_set(
            case, actor, values["player"], excluded=values["excluded"], reason=values["reason"]
        )
        return form, _("Banzai exclusion changed.")
    if action == "disclose":
        services.disclosure_record(
            case,
            actor,
            values["player"],
            recipient=values["recipient"],
            information=values["information"],
            reason=values["reason"],
        )
        return form, _("Disclosure recorded.")
    if action == "disqualify":
        services.tournament_disqualify(
            case,
            actor,
            values["entry"],
            reason=values["reason"],
            forfeit_prize=values["forfeit_prize"],
            forfeit_cents=form.forfeit_cents,
            bar=values["bar"],
        )
        return form, _("Entry #%(entry)s disqualified.") % {"entry": values["entry"]}
    if action == "video":
        services.video_request_create(
            case, actor, values["player"], deadline=values["deadline"], instructions=values["instructions"]
        )
        return form, _("Video recording requested.")
    if action == "video_outcome":
        if not VideoRecordingRequest.objects.filter(pk=values["request"], case=case).exists():
            form.add_error("request", _("This case has no such video request."))
            return form, ""
        services.video_request_decide(
            values["request"],
            actor,
            outcome=values["outcome"],
            file_reference=values["file_reference"],
            note=values["note"],
        )
        return form, _("Outcome recorded.")
    services.case_close(case, actor, outcome=values["outcome"], decision=values["decision"])
    return form, _("Case closed.")


def _link(case: Case, actor: Any, values: dict[str, Any]) -> str:
    from poker_site.accounts.models import User

    names = values["usernames"]
    found = dict(User.objects.filter(username__in=names).values_list("username", "pk"))
    missing = [name for name in names if name not in found]
    if missing:
        raise ComplianceError(_("No player named %(names)s.") % {"names": ", ".join(missing)})
    services.case_link(
        case, actor, subject_ids=list(found.values()), hand_ids=values["hands"], tournament_ids=values["tournaments"]
    )
    return _("Evidence linked.")


@reviewer_required
@require_POST
def case_action(request: HttpRequest, case_id: int, action: str) -> HttpResponse:
    case = _case_of(request, case_id)
    action = action.replace("-", "_")
    try:
        outcome = _act(request, case, action)
    except REFUSALS as refusal:
        case.refresh_from_db()
        return _case_render(request, case, error=str(refusal), status=400)
    if outcome is None:
        messages.success(request, _("You are reviewing the case."))
        return redirect("compliance:case", case_id=case.pk)
    form, done = outcome
    if not done:
        return _case_render(request, case, bound={action: form}, status=400)
    messages.success(request, done)
    return redirect(reverse("compliance:case", args=[case.pk]) + f"#{action.replace('_', '-')}")


# --- Hands and players --------------------------------------------------------------------------------------------


@reviewer_required
@require_GET
def hand_page(request: HttpRequest, hand_id: int) -> HttpResponse:
    """The reviewers' replayer: every hole card, the deck, decision times and equities per street."""
    from games.models import Hand

    hand = get_object_or_404(Hand.objects.select_related("table__stake__game_type", "game_rules"), pk=hand_id)
    _refuse_own(request, hand.players.filter(user=request.user.pk).exists(), "hand (you were dealt into it)")
    try:
        replay = review_replay(hand)
    except ComplianceError as refusal:
        return render(request, "compliance/hand_in_play.html", {"hand": hand, "error": str(refusal)}, status=409)
    cases = Case.objects.filter(hands=hand).order_by("-pk")
    from games.card_views import hole_cards_view_record

    hole_cards_view_record(request.user, hand.pk, "compliance desk replayer")  # issue 30: audited
    return render(
        request,
        "compliance/hand_replay.html",
        {"replay": replay, "hand": replay["hand"], "cases": cases},
    )


@reviewer_required
@require_GET
def player_page(request: HttpRequest, user_id: int) -> HttpResponse:
    from poker_site.accounts.models import User

    user = get_object_or_404(User, pk=user_id)
    _refuse_own(request, user.pk == request.user.pk, "player file")
    overview = player_overview(user, compliance_reasons=True)  # the desk: reviewers only
    return render(
        request,
        "compliance/player.html",
        {
            **overview,
            "cases": Case.objects.filter(subjects=user).order_by("-pk")[:50],
            "flags": _flags_of(user, retracted=False),
            "retracted_flags": _flags_of(user, retracted=True),
            "connections": ConnectionRecord.objects.filter(user=user).order_by("-pk")[:50],
            "shared": _sharing(user),
            "hands": _recent_hands(user),
            "ledger": _recent_legs(user),
            "programs": ProhibitedProgramReport.objects.filter(player=user).order_by("-pk")[:50],
        },
    )


PLAYER_PAGE_ROWS = 50


def _flags_of(user: Any, *, retracted: bool) -> list[tuple[Flag, str]]:
    """The player's flags with their indicators' titles (as the queue shows them), highest severity first: the
    retracted ones (their evidence no longer holds) or all the others (QA report H, item 13)."""
    flags = Flag.objects.filter(players=user).order_by("-severity", "-score", "pk")
    flags = flags.filter(status=FlagStatus.RETRACTED) if retracted else flags.exclude(status=FlagStatus.RETRACTED)
    return [(flag, flag_title(flag)) for flag in flags[:PLAYER_PAGE_ROWS]]


def _recent_hands(user: Any) -> list[Any]:
    """The player's latest hands (cash and tournament), each with its table and the player's stacks."""
    from games.models import HandPlayer

    return list(
        HandPlayer.objects.filter(user=user).select_related("hand__table").order_by("-hand_id")[:PLAYER_PAGE_ROWS]
    )


def _recent_legs(user: Any) -> list[Any]:
    """The latest legs of the player's cash account: what moved, when, and the balance after."""
    from wallet.models import Leg
    from wallet.services.accounts import player_cash_account

    account = player_cash_account(user)
    return list(Leg.objects.filter(account=account).select_related("transfer").order_by("-pk")[:PLAYER_PAGE_ROWS])


@reviewer_required
@require_GET
def players_page(request: HttpRequest) -> HttpResponse:
    """Find a player by name (a bare name or ``player:name``, as in the queue): at most 50, exact match first."""
    from poker_site.accounts.models import User

    query = str(request.GET.get("q") or "").strip().removeprefix("player:").strip()[:150]
    found: list[Any] = []
    if query:
        found = list(
            User.objects.filter(username__icontains=query)
            .annotate(exact=Count("pk", filter=Q(username__iexact=query)))
            .order_by("-exact", "username")[:PLAYER_PAGE_ROWS]
        )
    return render(request, "compliance/players.html", {"query": query, "found": found})


def _sharing(user: Any) -> list[dict[str, Any]]:
    """Other accounts seen on the player's last addresses and devices (FRD-15: multi-accounting). Addresses that say
    nothing about who is behind them are left out, as the shared-connection indicator leaves them out: loopback and
    the like, and addresses more accounts used than the indicator's ``maximum_players_per_ip`` as staff set it (a
    carrier's or a campus's). Staff accounts are not players and are not listed."""
    from compliance.detection.detector import parameters_for
    from compliance.detection.shared_connections import address_identifies
    from compliance.services.thresholds import detector_parameters
    from poker_site.accounts.models import User

    recent = ConnectionRecord.objects.filter(user=user).order_by("-pk")[:200]
    ips = {row.ip for row in recent if row.ip and address_identifies(row.ip)}
    devices = {row.device for row in recent if row.device}
    if ips:
        crowded = (
            ConnectionRecord.objects.filter(ip__in=ips)
            .values("ip")
            .annotate(accounts=Count("user_id", distinct=True))
            .filter(accounts__gt=parameters_for(detector_parameters())["shared_connection"].maximum_players_per_ip)
            .values_list("ip", flat=True)
        )
        ips -= set(crowded)
    if not (ips or devices):
        return []
    others = (
        User.objects.filter(
            pk__in=ConnectionRecord.objects.filter(Q(ip__in=ips) | Q(device__in=devices))
            .exclude(user=user)
            .values("user_id")
        )
        .filter(is_staff=False, is_superuser=False)
        .order_by("username")[:50]
    )
    return [{"user": other} for other in others]
