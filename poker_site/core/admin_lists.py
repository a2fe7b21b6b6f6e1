"""Admin list pages for tables of millions of rows: counts that stop at a cap, and a search box that uses indexes."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property


class CappedCountPaginator(Paginator):
    """Counts at most ``cap`` rows (``SELECT COUNT(*) FROM (... LIMIT cap)``), so paging a huge table stays cheap.
    Beyond the cap, narrow the list with a filter or search."""

    cap = 10_000

    @cached_property
    def count(self) -> int:
        object_list: Any = self.object_list
        if isinstance(object_list, QuerySet):
            return object_list[: self.cap].count()
        return min(len(object_list), self.cap)


class NumberOrPlayerSearch:
    """The search box of a huge list: a number is an exact match on ``number_lookup`` (an indexed id), and
    ``player:<username>`` the player's rows through ``player_lookup``; any other term goes to the admin's
    ``search_fields``. (The admin's own ``=id`` search casts the column to text and so cannot use its index.)"""

    number_lookup = "pk"
    player_lookup = ""

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        term = search_term.strip()
        if term.isdigit():
            return queryset.filter(**{self.number_lookup: int(term)}), False
        if self.player_lookup and term.lower().startswith("player:"):
            return queryset.filter(**{self.player_lookup: term.split(":", 1)[1].strip()}), False
        return super().get_search_results(request, queryset, search_term)  # type: ignore[misc]
