"""The REST API's JSON parser: DRF's, with a body nested too deeply for the decoder answered 400 like any other JSON
that cannot be read.

Python's decoder raises ``RecursionError`` (not ``ValueError``) past about a thousand levels (``'{"a":' * 5000``);
DRF's parser catches only ``ValueError``, so such a body was a 500. The sockets' parsers catch both already
(``games.runtime.protocol``, ``games.uth.protocol``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class DepthSafeJSONParser(JSONParser):
    """``application/json`` bodies; one nested deeper than the decoder's recursion allows is a :class:`ParseError`."""

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise ParseError("JSON parse error - the body is nested too deeply.") from error
