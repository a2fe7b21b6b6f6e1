"""Admin list pages for tables of millions of rows: counts that stop at a cap, and a search box that uses indexes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.auth import get_user_model
from django.core.paginator import EmptyPage, Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property
from django.utils.translation import gettext as _


class CappedCountPaginator(Paginator):
    """Counts at most ``cap`` rows (``SELECT COUNT(*) FROM (... LIMIT cap + 1)``), so paging a huge table stays cheap.

    A list with more rows than the cap is :attr:`capped`: its count reads "more than 10,000" (the admin's templates
    ask :attr:`count_text`; QA finding 11), never as if exact, and a page past the cap is served all the same (an
    OFFSET page of ``per_page`` rows, with a "next" link while pages are full) instead of the admin's "Database
    error" page. A page past the last row is an empty page. Narrowing the list with a filter or search stays faster
    than paging deep."""

    cap = 10_000

    @cached_property
    def _counted(self) -> int:
        """The rows up to one past the cap: more than ``cap`` means the list goes on beyond it."""
        object_list: Any = self.object_list
        if isinstance(object_list, QuerySet):
            return int(object_list[: self.cap + 1].count())
        return len(object_list)

    @cached_property
    def count(self) -> int:
        return min(self._counted, self.cap)

    @cached_property
    def capped(self) -> bool:
        """Whether the list has more rows than it counted."""
        return self._counted > self.cap

    @cached_property
    def count_text(self) -> str:
        """The count as a list page says it: "more than 10,000" when capped, else the number."""
        if self.capped:
            return _("more than %(cap)s") % {"cap": f"{self.cap:,}"}
        return f"{self.count:,}"

    def validate_number(self, number: Any) -> int:
        try:
            return int(super().validate_number(number))
        except EmptyPage:
            if not self.capped or int(number) < 1:
                raise
            return int(number)  # past the counted pages of a capped list: served (see the class)

    def page(self, number: Any) -> Page:
        number = self.validate_number(number)
        if number <= self.num_pages:
            return super().page(number)
        bottom = (number - 1) * self.per_page
        return Page(self.object_list[bottom : bottom + self.per_page], number, self)


class PlayerSearch:
    """One search syntax for every admin list (issue 30): ``player:<username>`` or a bare username finds the player's
    rows (through ``player_lookup``, or :meth:`player_filter` where an admin defines what "the player's rows" are); a
    number is an exact match on ``number_lookup`` (an indexed id; the admin's own ``=id`` search casts the column to
    text and so cannot use its index) where the list has one; any other term goes to the admin's ``search_fields``.
    A username is found in any case ("Pat" finds "pat": a username belongs to one account whatever its case), and
    :meth:`player_filter` is given the account's own spelling. A bare term that is nobody's username is searched as
    before, so a table or tournament name still works."""

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
                named = term.split(":", 1)[1].strip()
                return self.player_filter(queryset, account_username(named) or named), False
            username = account_username(term) if term else None
            if username is not None:
                return self.player_filter(queryset, username), False
        return super().get_search_results(request, queryset, search_term)  # type: ignore[misc]


def account_username(typed: str) -> str | None:
    """The username, as the account spells it, of the account whose username is ``typed`` in any case (one account
    at most: the username index compares without case), or ``None``."""
    from poker_site.accounts.models import username_without_case

    found: str | None = (
        get_user_model().objects.filter(username_without_case(typed)).values_list("username", flat=True).first()
    )
    return found


class NumberOrPlayerSearch(PlayerSearch):
    """:class:`PlayerSearch` for a huge list whose numbers are primary keys unless ``number_lookup`` says otherwise."""

    number_lookup = "pk"


class DateRangeFilter(admin.ListFilter):
    """A "from" and a "to" date (both included, either may be left empty) on one date-time column: the list sidebar
    shows two date inputs. Subclass with ``field_name`` (the column) and ``title``; the query parameters are
    ``<field_name>_from`` and ``<field_name>_to`` (``YYYY-MM-DD``). A date that is not one is refused the way the admin
    refuses any bad filter (the list again, with "?e=1")."""

    field_name = ""
    template = "admin/date_range_filter.html"

    def __init__(self, request: HttpRequest, params: dict[str, Any], model: Any, model_admin: Any) -> None:
        super().__init__(request, params, model, model_admin)
        for name in self.names():
            if name in params:
                value = params.pop(name)
                text = (value[-1] if isinstance(value, list) else value).strip()
                if text:
                    self.used_parameters[name] = text

    def names(self) -> tuple[str, str]:
        return f"{self.field_name}_from", f"{self.field_name}_to"

    def expected_parameters(self) -> list[str | None]:
        return list(self.names())

    def has_output(self) -> bool:
        return True

    def dates(self) -> tuple[date | None, date | None]:
        start, end = (str(self.used_parameters.get(name) or "") for name in self.names())
        try:
            return (date.fromisoformat(start) if start else None, date.fromisoformat(end) if end else None)
        except ValueError as error:
            raise IncorrectLookupParameters(error) from error

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        start, end = self.dates()
        if start is not None:
            queryset = queryset.filter(**{f"{self.field_name}__date__gte": start})
        if end is not None:
            queryset = queryset.filter(**{f"{self.field_name}__date__lte": end})
        return queryset

    def choices(self, changelist: Any) -> Iterator[dict[str, Any]]:
        """One "choice" for the template: the two inputs' names and values, the other parameters of the list (kept as
        hidden inputs) and the link that clears this filter."""
        start_name, end_name = self.names()
        kept = [
            (name, value)
            for name, values in self.request.GET.lists()
            if name not in (start_name, end_name, "p", "e")
            for value in values
        ]
        yield {
            "start_name": start_name,
            "end_name": end_name,
            "start": self.used_parameters.get(start_name, ""),
            "end": self.used_parameters.get(end_name, ""),
            "kept": kept,
            "selected": bool(self.used_parameters),
            "clear_query_string": changelist.get_query_string(remove=[start_name, end_name]),
        }
