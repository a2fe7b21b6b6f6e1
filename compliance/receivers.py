"""The compliance app listening to the rest of the site (connected in ``ComplianceConfig.ready``):

* ``user_logged_in`` — record the log-in's address and device (FRD-03);
* ``poker_site.core.sockets.socket_connected`` — record a player's socket connect to a table (FRD-03, FRD-19);
* ``games.runtime.signals.hand_settled`` — queue the incremental detection (FRD-19).
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest

logger = logging.getLogger(__name__)


def log_in_recorded(sender: Any, request: HttpRequest | None, user: Any, **_kwargs: Any) -> None:
    from compliance.services import log_in_record

    if request is None or getattr(user, "pk", None) is None:
        return
    log_in_record(request, user.pk)


def table_socket_recorded(sender: Any, scope: dict[str, Any], user_id: int, table_id: int, **_kwargs: Any) -> None:
    from compliance.services import table_socket_record

    table_socket_record(scope, user_id, table_id)


def hand_settled(sender: Any, hand_id: int, **_kwargs: Any) -> None:
    from compliance.tasks import detection_soon

    detection_soon()
