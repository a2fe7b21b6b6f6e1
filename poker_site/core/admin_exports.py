"""CSV exports of the back office's lists and reports, streamed (LOB-09, issue 30).

:class:`CsvExportMixin` gives an admin list an "Export CSV" link: the list's own URL with ``_export=csv`` added, so
the export holds exactly the rows the list shows with its current filters, search and ordering (the admin's own
``ChangeList`` builds the queryset), all pages of it. Whoever may open the list may export it (the model's view
permission, as the role table gives it); anyone else is refused (403). The columns are the list's columns
(``list_display``, or ``csv_columns`` where an admin names others), each as the list shows it, links and markup
stripped: money in euros as on the page.

:func:`csv_response` streams rows: a :class:`CsvStreamingResponse` over a generator that reads the queryset with
``.iterator(chunk_size=...)``, so a year of ledger legs is never held in memory — the database cursor hands the rows
over a chunk at a time and each becomes a line as it is sent. Under WSGI (and the test client) the server iterates
the generator. Under ASGI (daphne) Django would consume a synchronous iterator whole before sending a byte
(``StreamingHttpResponse.__aiter__`` runs ``sync_to_async(list)``; QA finding 6), so the response's own ``__aiter__``
pulls :data:`LINES_PER_HOP` lines at a time through ``sync_to_async`` (the request's one thread, so the database
cursor stays on its connection): the header goes out at once, memory holds one batch, and when the client goes away
the handler cancels the send and the generator is closed (the cursor with it), so no more rows are read.

Every export is written to the audit log (who, which
list, which filters): it takes players' data out of the back office.
"""

from __future__ import annotations

import csv
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import date, datetime
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import label_for_field, lookup_field
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.html import strip_tags

EXPORT_PARAMETER = "_export"
LINES_PER_HOP = 500
"""CSV lines made per trip to the synchronous thread while an export streams under ASGI."""
CHUNK_SIZE = 2_000
"""Rows fetched from the database at a time while an export streams."""
FORMULA_STARTS = ("=", "+", "@", "\t", "\r")


class _Lines:
    """A file-like object whose ``write`` returns the line instead of storing it (for ``csv.writer``)."""

    def write(self, value: str) -> str:
        return value


def cell(value: Any) -> str:
    """A value as CSV text: dates in ISO form, None empty, markup stripped; text a spreadsheet would run as a formula
    (``=…``, ``+…``, ``@…``, ``-`` not followed by a digit) is quoted with a leading apostrophe."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return timezone.localtime(value).isoformat() if timezone.is_aware(value) else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = strip_tags(str(value))
    if text.startswith(FORMULA_STARTS) or (text.startswith("-") and not text[1:2].isdigit()):
        return "'" + text
    return text


def _next_lines(lines: Iterator[str], most: int) -> list[str]:
    """Up to ``most`` more lines of ``lines`` (fewer at its end; none once it is done)."""
    taken: list[str] = []
    for line in lines:
        taken.append(line)
        if len(taken) >= most:
            break
    return taken


class CsvStreamingResponse(StreamingHttpResponse):
    """A ``StreamingHttpResponse`` over a synchronous generator of CSV lines that also streams under ASGI (module
    docstring): ``__aiter__`` sends the header alone, then batches of :data:`LINES_PER_HOP` lines, each made by one
    ``sync_to_async`` call, and closes the generator however the sending ends (the client gone included)."""

    lines_per_hop = LINES_PER_HOP

    def __init__(self, lines: Iterator[str], **kwargs: Any) -> None:
        super().__init__(lines, **kwargs)
        self._lines = lines

    async def __aiter__(self) -> AsyncIterator[bytes]:
        take = sync_to_async(_next_lines, thread_sensitive=True)
        most = 1  # the header alone first: the download starts before the first row is read
        try:
            while batch := await take(self._lines, most):
                yield b"".join(self.make_bytes(line) for line in batch)
                most = self.lines_per_hop
        finally:
            close = getattr(self._lines, "close", None)
            if close is not None:
                await sync_to_async(close, thread_sensitive=True)()


def csv_response(filename: str, header: list[str], rows: Iterable[Iterable[Any]]) -> StreamingHttpResponse:
    """A streamed CSV download: ``header``, then each of ``rows`` (consumed lazily, as the response is sent)."""
    writer = csv.writer(_Lines())

    def lines() -> Iterator[str]:
        yield "\ufeff" + writer.writerow(header)  # the byte order mark makes spreadsheets read UTF-8 (€)
        for row in rows:
            yield writer.writerow([cell(value) for value in row])

    response = CsvStreamingResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export_audit(request: HttpRequest, what: str) -> None:
    """Record who exported which list or report with which filters (LOB-10)."""
    from wallet.services.audit import audit_record

    query = request.GET.copy()
    query.pop(EXPORT_PARAMETER, None)
    audit_record(
        action="csv_exported",
        actor=request.user,  # type: ignore[arg-type]
        target=what,
        details={"filters": query.urlencode()},
    )


class CsvExportMixin:
    """Put before ``admin.ModelAdmin`` in the bases: the list exports CSV with its current filters (module docstring).
    ``csv_columns`` names the columns (field names or the admin's display methods); empty: the list's columns."""

    csv_columns: tuple[str, ...] = ()
    csv_chunk_size = CHUNK_SIZE

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if request.GET.get(EXPORT_PARAMETER) == "csv":
            # A streamed response, not an HttpResponse: the admin's view returns whatever its caller sends on.
            return self.csv_export(request)  # type: ignore[return-value]
        query = request.GET.copy()
        query[EXPORT_PARAMETER] = "csv"
        context = {**(extra_context or {}), "csv_export_url": f"?{query.urlencode()}"}
        return super().changelist_view(request, context)  # type: ignore[misc]

    def csv_column_names(self, request: HttpRequest) -> list[str]:
        names = self.csv_columns or self.get_list_display(request)  # type: ignore[attr-defined]
        return [name for name in names if name != "action_checkbox"]

    def csv_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        """The rows the list shows with the request's filters, search and ordering (every page)."""
        query = request.GET.copy()
        query.pop(EXPORT_PARAMETER, None)
        request.GET = query  # type: ignore[assignment]  # the admin's ChangeList refuses parameters it does not know
        changelist = self.get_changelist_instance(request)  # type: ignore[attr-defined]
        return changelist.queryset

    def csv_export(self, request: HttpRequest) -> HttpResponseBase:
        """The list as CSV, streamed; 403 without the permission to view the list, 400 for filters it refuses."""
        if not self.has_view_or_change_permission(request):  # type: ignore[attr-defined]
            raise PermissionDenied
        opts = self.model._meta  # type: ignore[attr-defined]
        try:
            queryset = self.csv_queryset(request)
        except IncorrectLookupParameters:
            return HttpResponseBadRequest("The list's filters are not valid: nothing was exported.")
        names = self.csv_column_names(request)
        admin_self: Any = self  # a ModelAdmin: the mixin is one of its bases
        header = [strip_tags(str(label_for_field(name, opts.model, admin_self))) for name in names]
        export_audit(request, f"{opts.app_label}.{opts.model_name}")

        def rows() -> Iterator[list[Any]]:
            for row in queryset.iterator(chunk_size=self.csv_chunk_size):
                yield [self.csv_value(row, name) for name in names]

        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        return csv_response(f"{opts.app_label}-{opts.model_name}-{stamp}.csv", header, rows())

    def csv_value(self, row: Model, name: str) -> Any:
        """One column of one row, as the list shows it."""
        admin_self: Any = self
        field, _attribute, value = lookup_field(name, row, admin_self)
        choices = getattr(field, "flatchoices", None)
        if choices and value is not None:
            return dict(choices).get(value, value)
        return value


def amount(cents: int) -> str:
    """Cents as a plain decimal amount for a CSV column headed with its currency ("12.50", "-0.05")."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def report_csv(
    request: HttpRequest, what: str, header: list[str], rows: Iterable[Iterable[Any]]
) -> StreamingHttpResponse:
    """A report page's lines as a streamed CSV download, audited like a list's export (``what`` names the report)."""
    export_audit(request, what)
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    return csv_response(f"{what.replace('.', '-')}-{stamp}.csv", header, rows)


def wants_csv(request: HttpRequest) -> str:
    """Which CSV a report page is asked for (the ``_export`` parameter's value), "" for the page itself."""
    return request.GET.get(EXPORT_PARAMETER, "")
