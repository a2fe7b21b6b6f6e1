"""Admin list pages for tables of millions of rows: counts that stop at a cap, and a search box that uses indexes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
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


class PlayerSearch:
    """One search syntax for every admin list (issue 30): ``player:<username>`` or a bare username finds the player's
    rows (through ``player_lookup``, or :meth:`player_filter` where an admin defines what "the player's rows" are); a
    number is an exact match on ``number_lookup`` (an indexed id; the admin's own ``=id`` search casts the column to
    text and so cannot use its index) where the list has one; any other term goes to the admin's ``search_fields``.
    A bare term that is nobody's username is searched as before, so a table or tournament name still works."""

    number_lookup = ""
    player_lookup = ""

    def player_filter(self, queryset: QuerySet[Any], username: str) -> QuerySet[Any]:
        return queryset.filter(**{self.player_lookup: username})

    def searches_players(self) -> bool:
        return bool(self.player_lookup) or type(self).player_filter is not PlayerSearch.player_filter

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        term = search_term.strip()
        if self.number_lookup and term.isdigit():
            return queryset.filter(**{self.number_lookup: int(term)}), False
        if self.searches_players():
            if term.lower().startswith("player:"):
                return self.player_filter(queryset, term.split(":", 1)[1].strip()), False
            if term and get_user_model().objects.filter(username=term).exists():
                return self.player_filter(queryset, term), False
        return super().get_search_results(request, queryset, search_term)  # type: ignore[misc]


class NumberOrPlayerSearch(PlayerSearch):
    """:class:`PlayerSearch` for a huge list whose numbers are primary keys unless ``number_lookup`` says otherwise."""

    number_lookup = "pk"
