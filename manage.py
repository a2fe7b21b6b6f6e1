#!/usr/bin/env python
"""Django's command-line utility.

When DATABASE_URL or REDIS_URL is not set, the command runs with the project's embedded
PostgreSQL and Redis (started for the command, stopped after it unless they were already running).
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
    from django.core.management import execute_from_command_line

    from poker_site.embedded import embedded_services

    with embedded_services():
        execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
