"""Helpers for the tournament back-office tests: staff of each role, the admin's pages, and forms filled in the way a
browser submits them (every field as the page shows it, then the test's changes)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from django.test import Client

from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

TOURNAMENTS = "/admin/tournaments/tournament/"
ENTRIES = "/admin/tournaments/tournamententry/"
TABLES = "/admin/tournaments/tournamenttable/"
BREAKS = "/admin/tournaments/tournamentbreak/"
PAYOUT_STRUCTURES = "/admin/tournaments/payoutstructure/"
FEE_REPORT = "/admin/tournaments/tournament/fees/"


def client_of(role: str, username: str | None = None) -> Client:
    """A logged-in client of a new staff member of ``role`` (see ``tests.foundation.staff_roles``)."""
    return logged_in(staff_member(role, username))


class _FormFields(HTMLParser):
    """The values a browser would submit from the form with id ``form_id``: inputs (checked boxes and radios only),
    selects (the selected options) and text areas."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.values: dict[str, list[str]] = {}
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        attrs = {name: value or "" for name, value in attributes}
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
            return
        if not self.inside or "name" not in attrs:
            if tag == "option" and self.select is not None and "selected" in attrs:
                self.values.setdefault(self.select, []).append(attrs.get("value", ""))
            return
        name = attrs["name"]
        if tag == "input":
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.values.setdefault(name, []).append(attrs.get("value", "on"))
            elif kind not in ("submit", "button", "file"):
                self.values.setdefault(name, []).append(attrs.get("value", ""))
        elif tag == "select":
            self.select = name
            self.values.setdefault(name, [])
        elif tag == "textarea":
            self.textarea = name
            self.values[name] = [""]

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.values[self.textarea][0] += data


def form_values(html: str, form_id: str) -> dict[str, Any]:
    """What the page's form ``form_id`` submits as it is shown: name -> value (a list where there are several)."""
    parser = _FormFields(form_id)
    parser.feed(html)
    return {name: values[0] if len(values) == 1 else values for name, values in parser.values.items()}


def submit(client: Client, url: str, form_id: str, **changes: Any) -> Any:
    """Open ``url``, fill in its form ``form_id`` as shown with ``changes`` on top (``None`` removes a value, as an
    unticked box), and post it."""
    page = client.get(url)
    assert page.status_code == 200, f"{url} answered {page.status_code}"
    data = form_values(page.content.decode(), form_id)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return client.post(url, data)


def audit_rows(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("pk"))


def form_errors(response: Any) -> str:
    """Every error the admin's change form shows (the form's, its fields' and the inline formsets')."""
    assert response.status_code == 200, f"expected the form again, got {response.status_code}"
    return " ".join(str(error) for error in response.context["errors"])


def run_action(client: Client, changelist: str, action: str, ids: list[int], **fields: Any) -> Any:
    """Select ``ids`` on the list and run ``action``: its confirmation page, then the page confirmed with ``fields``
    (the reason and the action's own values). Returns the last response (the page when the action shows none)."""
    page = client.post(changelist, {"action": action, "_selected_action": ids, "index": 0})
    if page.status_code != 200:
        return page
    return client.post(changelist, {"action": action, "_selected_action": ids, "confirm": "yes", **fields})


def messages_after(client: Client, response: Any) -> list[str]:
    """The messages the admin queued with ``response`` (shown on the page it redirects to)."""
    if response.status_code == 302:
        response = client.get(response.url)
    return [str(message) for message in response.context["messages"]]
