"""The REST API's JSON parser: DRF's, strict about what it reads. Each of these bodies is a 400 with a message for a
person, where DRF's parser read it or failed in its own words:

- nested too deeply for the decoder: Python's decoder raises ``RecursionError`` (not ``ValueError``) past about a
  thousand levels (``'{"a":' * 5000``); DRF's parser catches only ``ValueError``, so such a body was a 500. The
  sockets' parsers catch both already (``games.runtime.protocol``, ``games.uth.protocol``);
- an object with the same key twice: the decoder keeps the last, so ``{"amount_cents": -5, "amount_cents": 1000}``
  deposited €10 while a reader keeping the first (a log, a proxy, a person) saw -5;
- a number longer than :data:`MAXIMUM_NUMBER_DIGITS`: no field takes one (PostgreSQL's bigint has 19 digits), and
  past 4,300 digits Python's ``int`` refused it with a message about ``sys.set_int_max_str_digits()``.

NaN and Infinity are refused as DRF's parser refuses them (``STRICT_JSON``).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import IO, Any, Final

from rest_framework import parsers as drf_parsers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAXIMUM_NUMBER_DIGITS: Final[int] = 100
"""The most characters a JSON number in a request body may have (its sign, point and exponent included)."""


def _refuse_constant(name: str) -> Any:
    raise ParseError(f"JSON parse error - {name} is not a JSON number.")


def _object_without_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise ParseError(f"JSON parse error - the key {key[:40]!r} appears more than once in one object.")
            seen.add(key)
    return result


def _checked_number(text: str) -> str:
    if len(text) > MAXIMUM_NUMBER_DIGITS:
        raise ParseError(
            f"JSON parse error - number too long: a number may have at most {MAXIMUM_NUMBER_DIGITS} digits, "
            f"this one has {len(text)}."
        )
    return text


def _integer(text: str) -> int:
    return int(_checked_number(text))


def _float(text: str) -> float:
    return float(_checked_number(text))


def strict_json_loads(text: str) -> Any:
    """``text`` decoded as JSON, refusing what :class:`StrictJSONParser` refuses (a repeated key, a number too long,
    NaN or Infinity, nesting beyond the decoder's recursion) with a :class:`ParseError`."""
    try:
        return json.loads(
            text,
            object_pairs_hook=_object_without_repeated_keys,
            parse_int=_integer,
            parse_float=_float,
            parse_constant=_refuse_constant,
        )
    except RecursionError as error:
        raise ParseError("JSON parse error - the body is nested too deeply.") from error
    except ValueError as error:
        raise ParseError(f"JSON parse error - {error}") from error


class StrictJSONParser(JSONParser):
    """``application/json`` bodies, decoded by :func:`strict_json_loads`."""

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        # DRF's own check of the charset: only text encodings (a bytes-to-bytes codec would decompress the body).
        encoding = drf_parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined,unused-ignore]
        try:
            text = codecs.getreader(encoding)(stream).read()
        except ValueError as error:  # UnicodeDecodeError
            raise ParseError(f"JSON parse error - {error}") from error
        return strict_json_loads(text)
