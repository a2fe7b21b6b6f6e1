"""The UTH pages: the list of tables (/uth/) and a table (/uth/<id>/). The table page is a Django template with plain
JavaScript over the table socket (no build step); it renders the first snapshot on the server so it reads even
before the socket connects."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from games.uth import readside
from games.uth.models import UthTable


def uth_tables(request: HttpRequest) -> HttpResponse:
    tables = UthTable.objects.filter(is_open=True).annotate(
        players=Count("seats", filter=Q(seats__left_at__isnull=True))
    )
    return render(request, "uth/tables.html", {"tables": tables})


def uth_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = UthTable.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404(gettext("There is no such Ultimate Texas Hold'em table."))
    user = request.user if request.user.is_authenticated else None
    snapshot = readside.snapshot(table, user)
    return render(
        request,
        "uth/table.html",
        {"table": table, "snapshot": snapshot, "socket_path": f"/ws/uth/{table.pk}/"},
    )
