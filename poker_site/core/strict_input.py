"""Request bodies of the REST API take only the fields they declare, as the socket protocol does.

DRF drops fields a serializer does not declare, so ``{"amount": "10", "currency": "USD"}`` deposited euros and
``{"buy_in": 1000, "user": 1}`` seated the caller, each as if the extra field had been honoured. Every serializer
that reads a request body derives from :class:`StrictSerializer`, which refuses such a body and names each unknown
field; a request that takes no body validates it with :class:`NoFieldsSerializer`. Every integer a body takes is a
:class:`StrictIntegerField`: DRF's own IntegerField turns ``"2"``, ``2.0`` and ``true`` into 2 and 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

LARGEST_INTEGER = 2**63 - 1
"""PostgreSQL's bigint: the widest integer column; no integer beyond it means anything here."""


class StrictIntegerField(serializers.IntegerField):
    """An integer that must arrive as a JSON integer: booleans, floats (``2.0`` too) and strings (``"2"``, ``"1e3"``)
    are refused, and so is a value outside ``min_value`` .. ``max_value`` (PostgreSQL's bigint range unless given)."""

    default_error_messages = {"strict": "Must be a whole number (a JSON integer), not {kind}."}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -LARGEST_INTEGER - 1)
        kwargs.setdefault("max_value", LARGEST_INTEGER)
        super().__init__(**kwargs)

    def to_internal_value(self, data: object) -> int:
        if type(data) is not int:
            self.fail("strict", kind=type(data).__name__)
        return int(super().to_internal_value(data))


class StrictSerializer(serializers.Serializer):  # type: ignore[type-arg,unused-ignore]
    """A request-body serializer that refuses fields it does not declare (the error is keyed by each such field)."""

    def accepted_fields(self) -> list[str]:
        return [name for name, field in self.fields.items() if not field.read_only]

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            accepted = self.accepted_fields()
            unknown = sorted(str(name) for name in data if name not in accepted)
            if unknown:
                takes = f"takes only {', '.join(accepted)}" if accepted else "takes no fields"
                raise serializers.ValidationError(
                    {name: [f"Unknown field {name!r}: this request {takes}."] for name in unknown},
                    code="unknown_field",
                )
        return super().to_internal_value(data)


class NoFieldsSerializer(StrictSerializer):
    """The body of a request that takes none: absent, or an empty JSON object."""


def errors_in_words(detail: Any) -> str:
    """A validation error's detail as one line for a person: ``"currency: Unknown field 'currency': ..."``."""
    if isinstance(detail, Mapping):
        return "; ".join(
            f"{message}" if name == "non_field_errors" else f"{name}: {message}"
            for name, messages in detail.items()
            for message in (messages if isinstance(messages, list) else [messages])
        )
    if isinstance(detail, list):
        return "; ".join(str(message) for message in detail)
    return str(detail)
