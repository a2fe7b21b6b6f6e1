"""Estonian covers the words of the models that reach players (issue 28, after the catalogues' own test): a choice
label the player-facing code shows — a cashier transaction's status, a tournament's state or game, a bounty's kind, a
deposit-limit or self-exclusion period — is translated in ``django.po``, so an Estonian player never reads "completed"
or "failed and returned" on the cashier page or in the cashier API's ``status_label``. Fuzzy entries count as
untranslated: Django does not use them.

The labels are found in the code, not listed here. In every player-facing module (the catalogues' test's measure:
not the admin, the staff desks, the management commands, the migrations, the models themselves) and template:

* ``SomeChoices.choices`` (a form's choices), ``SomeChoices(value).label`` and ``SomeChoices.MEMBER.label`` name a
  choices class: all its labels can be shown;
* ``row.get_<field>_display()`` (``{{ row.get_<field>_display }}`` in a template) names a model field: the field of
  that name with choices on the model the receiver is named after (``tournament`` -> Tournament, ``ticket`` ->
  TournamentTicket) or, when no model is, on every model that has one;
* a ModelSerializer of the player API lists its models' choice fields: their labels are the fields' ``display_name``
  (an OPTIONS request, the API schema).

A label written into an f-string is a word of an English sentence (a staff refusal, a ledger description): the
sentence is not translated, so neither is its label, and it is not counted.

Beside what the scan finds, the states and kinds of a player's own things are always checked (``PLAYERS_OWN``): the
lobby, the cashier and the tournament pages send their codes and write their own words today, and the labels are
what the next page or client that names them by label shows.

The compliance desk is staff's, but some of its texts are a player's: the hand-report page (its form and its
messages) and what an account under review, suspended or closed is told at log-in and at a withdrawal.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.apps import apps
from django.db import models
from django.urls import get_resolver
from django.utils import translation
from django.utils.functional import Promise
from rest_framework import serializers

from games.models import HandStatus, SeatingRequestStatus
from poker_site.responsible_gaming.models import ExclusionPeriod, LimitPeriod
from tests.foundation.test_estonian_catalogues_cover_scripts_refusals_and_socket_messages import (
    PYTHON_GETTEXT,
    catalogue,
    untranslated,
)
from tests.foundation.test_players_are_never_shown_requirement_ids import (
    PYTHON_PACKAGES,
    ROOT,
    is_staff_module,
    player_templates,
    without_template_comments,
)
from tournaments.hexapro.models import RegistrationStatus
from tournaments.models import EntryStatus, TicketStatus, TournamentKind, TournamentStatus
from wallet.models import CashierDirection, CashierStatus

PROJECT_PACKAGES = {*PYTHON_PACKAGES, "compliance"}
# The states and kinds of a player's own things (see the module docstring): cashier transactions, tournaments and
# their entries, tickets and HexaPro registrations, hands and seating requests, limits and self-exclusions.
PLAYERS_OWN: tuple[type[models.Choices], ...] = (
    CashierDirection,
    CashierStatus,
    TournamentKind,
    TournamentStatus,
    EntryStatus,
    TicketStatus,
    RegistrationStatus,
    HandStatus,
    SeatingRequestStatus,
    LimitPeriod,
    ExclusionPeriod,
)
# Compliance modules players meet (the rest of compliance/ is the staff desk's): the log-in and withdrawal refusals
# of an account's standing, and the hand-report page a player opens from the hand history (with its form).
PLAYER_COMPLIANCE_MODULES = ("compliance/standing.py", "compliance/desk/reports.py")
PLAYER_COMPLIANCE_FORMS = {"compliance/desk/forms.py": "ReportForm"}

DISPLAY_CALL = re.compile(r"^get_(\w+)_display$")
TEMPLATE_DISPLAY = re.compile(r"(?:(\w+)\.)?get_(\w+)_display\b")


def player_modules() -> Iterator[Path]:
    for package in PYTHON_PACKAGES:
        for module in sorted((ROOT / package).rglob("*.py")):
            if not is_staff_module(module):
                yield module


def is_choices_class(value: Any) -> bool:
    return (
        isinstance(value, type)
        and issubclass(value, models.Choices)
        and value.__module__.split(".")[0] in PROJECT_PACKAGES
    )


def nameable_choices(tree: ast.Module, path: Path) -> dict[str, type[models.Choices]]:
    """The choices classes a module can name: the ones it imports (``from wallet.models import CashierStatus``) and
    the ones it defines."""
    names: dict[str, type[models.Choices]] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and not node.level
            and node.module.split(".")[0] in PROJECT_PACKAGES
        ):
            module = importlib.import_module(node.module)
            for alias in node.names:
                value = getattr(module, alias.name, None)
                if is_choices_class(value):
                    names[alias.asname or alias.name] = value
    own = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))
    names.update({name: value for name, value in vars(own).items() if is_choices_class(value)})
    return names


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def displayed_fields(field_name: str, receiver: str) -> list[models.Field[Any, Any]]:
    """The model fields ``<receiver>.get_<field_name>_display()`` can be: see the module docstring."""
    candidates = [
        field
        for model in apps.get_models()
        if model.__module__.split(".")[0] in PROJECT_PACKAGES
        for field in model._meta.get_fields()
        if field.name == field_name and getattr(field, "choices", None)
    ]
    named = [
        field
        for field in candidates
        if receiver
        and (snake(field.model.__name__) == receiver or snake(field.model.__name__).endswith("_" + receiver))
    ]
    return named or candidates


def receiver_name(node: ast.expr) -> str:
    """``tournament`` of ``tournament.get_status_display()``, ``entry`` of ``self.entry.get_status_display()``."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def module_choices(path: Path) -> dict[str, list[Any]]:
    """where -> labels, for what one player-facing module shows (see the module docstring)."""
    found: dict[str, list[Any]] = {}
    tree = ast.parse(path.read_text())
    classes = nameable_choices(tree, path)
    relative = path.relative_to(ROOT)
    in_english = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in in_english:
            continue
        if isinstance(node, ast.Attribute) and node.attr in {"choices", "label"}:
            named = node.value
            if node.attr == "label" and isinstance(named, ast.Call):
                named = named.func  # SomeChoices(value).label
            elif node.attr == "label" and isinstance(named, ast.Attribute):
                named = named.value  # SomeChoices.MEMBER.label
            if isinstance(named, ast.Name) and named.id in classes:
                found[f"{relative}:{node.lineno} {classes[named.id].__name__}"] = list(classes[named.id].labels)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            display = DISPLAY_CALL.match(node.func.attr)
            if display:
                for field in displayed_fields(display.group(1), receiver_name(node.func.value)):
                    found[f"{relative}:{node.lineno} {field.model.__name__}.{field.name}"] = [
                        label for _value, label in field.flatchoices
                    ]
    return found


def template_choices(where: str, source: str) -> dict[str, list[Any]]:
    """where -> labels, for the ``get_<field>_display`` of one template's source."""
    found: dict[str, list[Any]] = {}
    for match in TEMPLATE_DISPLAY.finditer(source):
        line = source.count("\n", 0, match.start()) + 1
        for field in displayed_fields(match.group(2), match.group(1) or ""):
            found[f"{where}:{line} {field.model.__name__}.{field.name}"] = [label for _v, label in field.flatchoices]
    return found


def player_model_serializers() -> list[type[serializers.ModelSerializer[Any]]]:
    get_resolver().url_patterns  # noqa: B018 - imports every API module, and with them their serializers
    found = []
    pending = list(serializers.ModelSerializer.__subclasses__())
    while pending:
        serializer = pending.pop()
        pending += serializer.__subclasses__()
        source = Path(importlib.import_module(serializer.__module__).__file__ or "")
        if (
            source.is_relative_to(ROOT)
            and source.relative_to(ROOT).parts[0] in PYTHON_PACKAGES
            and not is_staff_module(source)
        ):
            found.append(serializer)
    return found


def shown_choices() -> dict[str, list[Any]]:
    """where -> the labels shown there, for everything the scan finds and the players' own states and kinds."""
    found: dict[str, list[Any]] = {}
    for path in player_modules():
        found.update(module_choices(path))
    for template in player_templates():
        found.update(template_choices(str(template.relative_to(ROOT)), without_template_comments(template.read_text())))
    for serializer in player_model_serializers():
        for name, field in serializer().get_fields().items():
            if isinstance(field, serializers.ChoiceField):
                found[f"{serializer.__module__}.{serializer.__name__}.{name}"] = list(field.choices.values())
    for choices in PLAYERS_OWN:
        found[f"{choices.__module__}.{choices.__name__} (a player's own)"] = list(choices.labels)
    return found


def msgid_of(label: Any) -> str | None:
    """The English of a translatable label (its msgid); ``None`` for a plain string (a code shown as it is)."""
    if not isinstance(label, Promise):
        return None
    with translation.override("en"):
        return str(label)


def compliance_strings() -> list[tuple[str, str]]:
    """(where, msgid) of what the compliance code players meet translates."""
    scanned: list[tuple[str, ast.AST]] = [
        (relative, ast.parse((ROOT / relative).read_text())) for relative in PLAYER_COMPLIANCE_MODULES
    ]
    for relative, form in PLAYER_COMPLIANCE_FORMS.items():
        tree = ast.parse((ROOT / relative).read_text())
        scanned += [(relative, node) for node in tree.body if isinstance(node, ast.ClassDef) and node.name == form]
    found = []
    for relative, tree in scanned:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in PYTHON_GETTEXT:
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.append((f"{relative}:{node.lineno}", first.value))
    return found


def test_the_scan_finds_the_labels_players_see_and_not_the_staffs() -> None:
    """The check can fail: the scan sees what it is meant to see, each way, and leaves the staff's enumerations."""
    scanned: dict[str, list[Any]] = {}
    for path in player_modules():
        scanned.update(module_choices(path))
    named = {where.rsplit(" ", 1)[-1] for where in scanned}
    assert {"CashierStatus", "LimitPeriod", "ExclusionPeriod"} <= named  # .label and .choices
    assert {"Tournament.status", "Tournament.variant", "Tournament.bounty_kind"} <= named  # get_<field>_display()
    assert "tournaments/hexapro/readside.py" in next(where for where in scanned if where.endswith("Tournament.status"))
    # The receiver picks the model: a ticket's status is TournamentTicket's, not every model's status.
    assert {field.model.__name__ for field in displayed_fields("status", "ticket")} == {"TournamentTicket"}
    assert len(displayed_fields("status", "row")) > 5
    assert set(template_choices("t.html", "{{ ticket.get_status_display }}")) == {"t.html:1 TournamentTicket.status"}
    # The staff's refusals put labels into English f-strings (a hold "already seized"): those are not counted.
    assert not named & {"HoldStatus", "Hold.status", "RuleChangeProposal.status", "AdjustmentProposal.status"}
    serialized = {
        f"{serializer.__name__}.{name}"
        for serializer in player_model_serializers()
        for name, field in serializer().get_fields().items()
        if isinstance(field, serializers.ChoiceField)
    }
    assert "CashierTransactionSerializer.direction" in serialized  # the cashier API
    assert msgid_of(CashierStatus.COMPLETED.label) == "completed"
    assert msgid_of("completed") is None
    assert untranslated(catalogue("django.po"), "a label no one translated")
    compliance = {msgid for _where, msgid in compliance_strings()}
    assert "Players you report" in compliance  # the report form
    assert "This account has been closed. Contact support if you have questions." in compliance


def test_every_model_label_a_player_can_be_shown_is_in_estonian() -> None:
    entries = catalogue("django.po")
    missing = sorted(
        {
            f"{where}: {msgid}"
            for where, labels in shown_choices().items()
            for msgid in map(msgid_of, labels)
            if msgid is not None and untranslated(entries, msgid)
        }
    )
    assert missing == []


def test_the_compliance_texts_a_player_meets_are_in_estonian() -> None:
    """The hand-report page (form and messages) and the refusals of an account under review, suspended or closed."""
    entries = catalogue("django.po")
    missing = [f"{where}: {msgid}" for where, msgid in compliance_strings() if untranslated(entries, msgid)]
    assert missing == []
