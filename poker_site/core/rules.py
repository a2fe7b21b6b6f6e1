"""The published rules (LOB-06, GEN-09): a summary of the poker rules v2.7 (seeds 002/004) and of the Ultimate Texas
Hold'em rules (seed 003), in English and Estonian.

Each page is one template per language, ``templates/rules/<language>/<slug>.html``: long legal-style prose reads
better (and is reviewed more easily) as a whole page per language than as hundreds of translated sentences. The page
list, titles and the version are data here; a page missing in a language falls back to English.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

RULES_VERSION = "2.7"
RULES_DATE = "2023-07-30"


@dataclass(frozen=True)
class RulePage:
    slug: str
    title: str | Promise
    poker_rules: bool = True
    """Part of the poker rules document (v2.7); the UTH rules are a document of their own."""


PAGES: tuple[RulePage, ...] = (
    RulePage("cash-games", _("Cash games")),
    RulePage("texas-holdem", _("Texas Hold'em")),
    RulePage("omaha", _("Omaha")),
    RulePage("banzai", _("Banzai")),
    RulePage("tournaments", _("Tournaments")),
    RulePage("hexapro", _("HexaPro")),
    RulePage("poker-hands", _("Poker hands")),
    RulePage("rake-and-fees", _("Rake and fees")),
    RulePage("ultimate-texas-holdem", _("Ultimate Texas Hold'em"), poker_rules=False),
)
PAGES_BY_SLUG = {page.slug: page for page in PAGES}


def rules_index(request: HttpRequest) -> HttpResponse:
    """The rules start with the cash-game page; the index is only an address to link to."""
    return redirect("rules:page", slug=PAGES[0].slug)


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    page = PAGES_BY_SLUG.get(slug)
    if page is None:
        raise Http404(_("No such rules page."))
    language = (get_language() or "en").split("-")[0]
    body = select_template([f"rules/{language}/{slug}.html", f"rules/en/{slug}.html"])
    return render(
        request,
        "rules/page.html",
        {
            "page": page,
            "pages": PAGES,
            "body_template": body.template.name,
            "rules_version": RULES_VERSION,
            "rules_date": RULES_DATE,
        },
    )
