"""QA finding 9 (LOB-10): the audit log's "action" filter offers a fixed, complete list of the actions the code base
records (:data:`poker_site.core.admin_audit.AUDIT_LOG_ACTIONS`), not the actions among the latest rows. The list is
checked against the code: every ``audit_record(action=...)`` (and the desk's ``action_record(audit_action=...)``, the
admin's and the rule changes' ``_audit("...")``) names an action of the list, so a new action cannot be forgotten, and
every action of the list is still recorded somewhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from compliance.models import Standing
from poker_site.core.admin_audit import AUDIT_LOG_ACTIONS, HISTORICAL_ACTIONS
from wallet.models import AuditEntry
from wallet.services.audit import audit_record

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "tournaments", "wallet", "compliance", "poker_site")
RECORDERS = {"audit_record": "action", "action_record": "audit_action", "_audit": "action"}
"""The functions that write an audit entry, and the argument that names its action."""


def sources() -> list[Path]:
    return [path for app in APPS for path in sorted((ROOT / app).rglob("*.py")) if "migrations" not in path.parts]


def module_constants(tree: ast.Module) -> dict[str, str]:
    return {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


class Recorded:
    """What the code records: action names, f-string patterns, and the places whose action could not be read."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.patterns: set[str] = set()
        self.unreadable: list[str] = []
        self.trees = {path: ast.parse(path.read_text(), str(path)) for path in sources()}
        self.constants = {path: module_constants(tree) for path, tree in self.trees.items()}
        for path, tree in self.trees.items():
            self.read_module(path, tree)

    def imported_constant(self, tree: ast.Module, name: str) -> str | None:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and any(alias.name == name for alias in node.names):
                path = ROOT / (node.module.replace(".", "/") + ".py")
                if path in self.constants and name in self.constants[path]:
                    return self.constants[path][name]
        return None

    def values(self, expr: ast.expr, path: Path, function: Any, calls: list[ast.Call]) -> list[str] | None:
        """The action names ``expr`` can be (None: unreadable); f-strings go to :attr:`patterns`."""
        tree = self.trees[path]
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return [expr.value]
        if isinstance(expr, ast.IfExp):
            body, orelse = (
                self.values(expr.body, path, function, calls),
                self.values(expr.orelse, path, function, calls),
            )
            return None if body is None or orelse is None else body + orelse
        if isinstance(expr, ast.JoinedStr):
            parts = [re.escape(part.value) if isinstance(part, ast.Constant) else ".+" for part in expr.values]
            self.patterns.add("".join(parts))
            return []
        if not isinstance(expr, ast.Name):
            return None
        name = expr.id
        if function is not None:
            parameters = [argument.arg for argument in (*function.args.args, *function.args.kwonlyargs)]
            if name in parameters:
                if function.name in RECORDERS:
                    return []  # a recorder's own parameter: its callers are read one by one
                found: list[str] = []
                for call in calls:
                    if getattr(call.func, "id", getattr(call.func, "attr", None)) != function.name:
                        continue
                    given = [keyword.value for keyword in call.keywords if keyword.arg == name]
                    index = function.args.args.index(expr.id) if name in [a.arg for a in function.args.args] else None
                    if not given and index is not None and len(call.args) > index:
                        given = [call.args[index]]
                    for value in given:
                        read = self.values(value, path, None, calls)
                        if read is None:
                            return None
                        found += read
                return found or None
            assigned: list[str] = []
            for node in ast.walk(function):
                if not isinstance(node, ast.Assign):
                    continue
                for target in node.targets:
                    pairs: list[tuple[ast.expr, ast.expr]] = [(target, node.value)]
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        pairs = list(zip(target.elts, node.value.elts, strict=True))
                    for left, right in pairs:
                        if isinstance(left, ast.Name) and left.id == name:
                            read = self.values(right, path, None, calls)
                            if read is None:
                                return None
                            assigned += read
            if assigned:
                return assigned
        if name in self.constants[path]:
            return [self.constants[path][name]]
        return [found] if (found := self.imported_constant(tree, name)) is not None else None

    def read_module(self, path: Path, tree: ast.Module) -> None:
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
        functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
        for function in [None, *functions]:
            scope = tree if function is None else function
            for node in ast.walk(scope):
                if not isinstance(node, ast.Call):
                    continue
                recorder = getattr(node.func, "id", getattr(node.func, "attr", None))
                if recorder not in RECORDERS or self.inner_function(node, function, functions):
                    continue
                given = [keyword.value for keyword in node.keywords if keyword.arg == RECORDERS[recorder]]
                if not given and recorder == "_audit" and node.args:
                    given = [node.args[0]]
                read = self.values(given[0], path, function, calls) if given else None
                if read is None:
                    self.unreadable.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                else:
                    self.names.update(read)

    @staticmethod
    def inner_function(call: ast.Call, function: Any, functions: list[Any]) -> bool:
        """Whether ``call`` belongs to a function nested in ``function`` (read with that one), or to any function
        when ``function`` is the module."""
        for other in functions:
            if other is function:
                continue
            inside = any(node is call for node in ast.walk(other))
            if inside and (function is None or any(node is other for node in ast.walk(function))):
                return True
        return False


@pytest.fixture(scope="module")
def recorded() -> Recorded:
    return Recorded()


def test_every_action_the_code_records_is_in_the_list(recorded: Recorded) -> None:
    assert recorded.unreadable == [], "name the action with a literal or a module constant"
    assert "case_hold_seized" in recorded.names
    assert "rule_change_approved" in recorded.names
    assert sorted(recorded.names - set(AUDIT_LOG_ACTIONS)) == []


def test_every_action_an_f_string_records_is_in_the_list(recorded: Recorded) -> None:
    assert recorded.patterns == {"account_.+"}
    assert {f"account_{state}" for state in Standing.values} <= set(AUDIT_LOG_ACTIONS)


def test_every_action_in_the_list_is_still_recorded_somewhere(recorded: Recorded) -> None:
    def recorded_by_a_pattern(action: str) -> bool:
        return any(re.fullmatch(pattern, action) for pattern in recorded.patterns)

    forgotten = [
        action for action in AUDIT_LOG_ACTIONS if action not in recorded.names and not recorded_by_a_pattern(action)
    ]
    assert sorted(set(forgotten) - HISTORICAL_ACTIONS) == []


@pytest.mark.django_db
def test_the_filter_offers_every_action_however_many_rows_were_written_since(administrator_client: Client) -> None:
    audit_record(action="case_hold_seized", actor=None, reason="long ago")
    AuditEntry.objects.bulk_create([AuditEntry(action="csv_exported", details={}) for _ in range(1_001)])

    page = administrator_client.get("/admin/wallet/auditentry/").content.decode()

    for action in (
        "case_hold_seized",
        "case_opened",
        "flag_dismissed",
        "account_terminated",
        "tournament_prize_credited",
    ):
        assert f"?action={action}" in page


@pytest.fixture
def administrator_client(db: Any) -> Client:
    from poker_site.accounts.models import User

    client = Client()
    client.force_login(User.objects.create_superuser("audit-admin", "audit-admin@example.com", None))
    return client
