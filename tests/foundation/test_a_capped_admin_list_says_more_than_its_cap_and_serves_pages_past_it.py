"""QA finding 11 (admin lists on huge tables): a list whose count stops at the paginator's cap says "more than
10,000", never a capped number as if it were exact, and a page past the cap is served (with a "next" link while pages
are full) instead of a redirect to page 1 or Django's "Database error" page. The count stays capped (no full count).
The cap is lowered here to 4 rows and pages to 2 rows, so a dozen audit entries stand for a huge table."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.test import Client

from poker_site.core.admin_lists import CappedCountPaginator
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

AUDIT_LOG = "/admin/wallet/auditentry/"


@pytest.fixture
def administrator_browser(monkeypatch: pytest.MonkeyPatch) -> Client:
    from poker_site.accounts.models import User

    monkeypatch.setattr(CappedCountPaginator, "cap", 4)
    monkeypatch.setattr(admin.site._registry[AuditEntry], "list_per_page", 2)
    client = Client()
    client.force_login(User.objects.create_superuser("lists-admin", "lists-admin@example.com", None))
    return client


def entries(count: int) -> list[int]:
    """``count`` audit entries, newest first (the list's order)."""
    made = AuditEntry.objects.bulk_create(
        [AuditEntry(action="deposit", target=f"test:{number}", details={}) for number in range(count)]
    )
    return sorted((entry.pk for entry in made), reverse=True)


def shown(page: str, ids: list[int]) -> list[int]:
    return [pk for pk in ids if f"/admin/wallet/auditentry/{pk}/change/" in page]


def test_a_capped_count_reads_more_than_the_cap(administrator_browser: Client) -> None:
    entries(11)

    page = administrator_browser.get(AUDIT_LOG).content.decode()
    searched = administrator_browser.get(AUDIT_LOG + "?action=deposit").content.decode()

    assert "more than 4 audit entries" in page
    assert "4 audit entries" not in page.replace("more than 4 audit entries", "")
    assert "more than 4 results" in searched


def test_a_count_under_the_cap_is_exact(administrator_browser: Client) -> None:
    entries(3)

    page = administrator_browser.get(AUDIT_LOG).content.decode()

    assert "3 audit entries" in page
    assert "more than" not in page


def test_a_page_past_the_cap_is_served_with_a_link_to_the_next(administrator_browser: Client) -> None:
    ids = entries(11)

    answer = administrator_browser.get(AUDIT_LOG + "?p=3")

    assert answer.status_code == 200  # not a redirect to page 1 ("?e=1")
    page = answer.content.decode()
    assert shown(page, ids) == ids[4:6]
    assert 'href="?p=4"' in page
    last = administrator_browser.get(AUDIT_LOG + "?p=6").content.decode()
    assert shown(last, ids) == ids[10:]
    assert 'href="?p=7"' not in last  # the page is not full: the list ends here


def test_a_page_past_the_end_is_empty_not_a_database_error(administrator_browser: Client) -> None:
    entries(11)

    for url in (AUDIT_LOG + "?p=500", AUDIT_LOG + "?e=1&p=500"):
        answer = administrator_browser.get(url)
        assert answer.status_code == 200
        assert "Database error" not in answer.content.decode()
        assert "database installation" not in answer.content.decode()


def test_refused_filters_say_so_instead_of_blaming_the_database(administrator_browser: Client) -> None:
    answer = administrator_browser.get(AUDIT_LOG + "?e=1&created_at_from=not-a-date")

    page = answer.content.decode()
    assert "database installation" not in page
    assert "cannot be shown with these filters" in page


def test_the_capped_count_reads_one_row_past_the_cap_and_no_more(django_assert_max_num_queries: Any) -> None:
    entries(7)
    paginator = CappedCountPaginator(AuditEntry.objects.order_by("-pk"), 2)
    paginator.cap = 4

    with django_assert_max_num_queries(1):
        assert (paginator.count, paginator.capped, paginator.count_text) == (4, True, "more than 4")
