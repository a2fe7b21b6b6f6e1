"""Logging filters of the site's ``LOGGING`` configuration."""

from __future__ import annotations

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """A 403 is a refusal working as intended (a role without a permission, a forged request), not a fault: Django's
    ``django.request`` logger writes it with the exception's traceback, which buries the one line that matters (who
    was refused what) under a stack that says nothing. Keep the record, drop the traceback (issue 30)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
