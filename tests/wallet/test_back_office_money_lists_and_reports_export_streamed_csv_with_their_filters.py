"""LOB-09, LOB-10: every admin list staff use for money (ledger legs, transfers, accounts, holds, adjustments, cashier
transactions, tournaments and entries, compliance cases and flags, the audit log) and the reports export CSV with the
list's current filters and search applied, streamed (a ``StreamingHttpResponse`` reading the rows a chunk at a time),
to whoever may open the list — per the role table — and to nobody else. Each export is audited."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from django.utils import timezone

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.admin_exports import cell
from tests.foundation.staff_roles import ADMINISTRATORS, WITHOUT_A_ROLE
from tests.tables.support import player
from tests.tournaments.back_office import client_of
from wallet.models import AuditEntry, Leg

pytestmark = pytest.mark.django_db

LEGS = "/admin/wallet/leg/"
MONEY_LISTS = [
    "/admin/wallet/leg/",
    "/admin/wallet/transfer/",
    "/admin/wallet/account/",
    "/admin/wallet/hold/",
    "/admin/wallet/staffadjustment/",
    "/admin/wallet/cashiertransaction/",
    "/admin/wallet/unresolvedgamefunds/",
    "/admin/wallet/auditentry/",
    "/admin/tournaments/tournament/",
    "/admin/tournaments/tournamententry/",
    "/admin/compliance/case/",
    "/admin/compliance/flag/",
]


def rows_of(response: Any) -> list[list[str]]:
    assert isinstance(response, StreamingHttpResponse)
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_the_legs_export_holds_exactly_the_filtered_and_searched_rows_of_every_page() -> None:
    alice, _bob = player("alice", cash=1_250), player("bob", cash=700)
    for _ in range(3):
        player(cash=100)  # more legs, on other accounts

    response = client_of(SUPPORT_STAFF).get(
        LEGS, {"account__kind__exact": "player_cash", "q": "player:alice", "_export": "csv"}
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    header, *rows = rows_of(response)
    assert header == ["ID", "transfer", "kind", "account", "amount", "balance after", "at"]
    (leg,) = Leg.objects.filter(account__owner=alice)
    assert rows == [[str(leg.pk), f"#{leg.transfer_id}", "deposit", str(leg.account), "€12.50", "€12.50", rows[0][6]]]


def test_without_filters_the_export_has_every_row_not_only_the_first_page(monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(3):
        player(cash=100)
    monkeypatch.setattr("wallet.admin.LegAdmin.list_per_page", 2)

    rows = rows_of(client_of(COMPLIANCE_REVIEWERS).get(LEGS, {"_export": "csv"}))

    assert len(rows) - 1 == Leg.objects.count() == 6


def test_the_export_streams_the_rows_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    player(cash=100)
    chunk_sizes: list[int | None] = []
    real_iterator = QuerySet.iterator

    def spying_iterator(self: QuerySet[Any], chunk_size: int | None = None) -> Any:
        chunk_sizes.append(chunk_size)
        return real_iterator(self, chunk_size=chunk_size)

    monkeypatch.setattr(QuerySet, "iterator", spying_iterator)
    response = client_of(SUPPORT_STAFF).get(LEGS, {"_export": "csv"})

    assert response.streaming
    assert chunk_sizes == []  # nothing read yet: the rows are read while the response is sent
    assert len(rows_of(response)) == 3
    assert chunk_sizes == [2_000]


@pytest.mark.parametrize(
    ("role", "changelist", "status"),
    [
        (SUPPORT_STAFF, "/admin/wallet/leg/", 200),
        (SUPPORT_STAFF, "/admin/wallet/auditentry/", 200),
        (SUPPORT_STAFF, "/admin/compliance/case/", 403),
        (SUPPORT_STAFF, "/admin/compliance/flag/", 403),
        (COMPLIANCE_REVIEWERS, "/admin/compliance/case/", 200),
        (COMPLIANCE_REVIEWERS, "/admin/compliance/flag/", 200),
        (COMPLIANCE_REVIEWERS, "/admin/wallet/hold/", 200),
        (WITHOUT_A_ROLE, "/admin/wallet/leg/", 403),
        (WITHOUT_A_ROLE, "/admin/tournaments/tournament/", 403),
    ],
)
def test_lob_10_a_list_is_exported_only_by_a_role_that_may_open_it(role: str, changelist: str, status: int) -> None:
    assert client_of(role).get(changelist, {"_export": "csv"}).status_code == status


@pytest.mark.parametrize("changelist", MONEY_LISTS)
def test_every_money_list_offers_the_export_of_what_it_shows(changelist: str) -> None:
    administrator = client_of(ADMINISTRATORS)

    page = administrator.get(changelist, {"o": "1"})
    export = administrator.get(changelist, {"o": "1", "_export": "csv"})

    assert page.status_code == 200
    assert 'href="?o=1&amp;_export=csv"' in page.content.decode()
    assert export.status_code == 200
    assert rows_of(export)[0]  # the list's column names


def test_an_export_is_written_to_the_audit_log_with_its_filters() -> None:
    support = client_of(SUPPORT_STAFF, "exporter")

    rows_of(support.get(LEGS, {"account__kind__exact": "player_cash", "_export": "csv"}))

    entry = AuditEntry.objects.get(action="csv_exported")
    assert (entry.actor.username, entry.target, entry.details) == (
        "exporter",
        "wallet.leg",
        {"filters": "account__kind__exact=player_cash"},
    )


def test_a_filter_the_list_refuses_exports_nothing() -> None:
    response = client_of(SUPPORT_STAFF).get(LEGS, {"no_such_field": "1", "_export": "csv"})

    assert response.status_code == 400
    assert not AuditEntry.objects.filter(action="csv_exported").exists()


def test_the_fee_report_exports_its_lines_for_the_chosen_period() -> None:
    day = timezone.localdate().isoformat()
    response = client_of(COMPLIANCE_REVIEWERS).get(
        "/admin/tournaments/tournament/fees/", {"first_day": day, "last_day": day, "_export": "csv"}
    )

    header, *rows = rows_of(response)
    assert header[:4] == ["day", "kind", "currency", "fees received"]
    assert rows == []


def test_text_a_spreadsheet_would_run_as_a_formula_is_quoted_and_amounts_are_not() -> None:
    assert cell("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert cell("@SUM(A1)") == "'@SUM(A1)"
    assert cell("-x") == "'-x"
    assert cell("-0.05") == "-0.05"
    assert cell("<a href='/x'>#12</a>") == "#12"
    assert cell(None) == ""
