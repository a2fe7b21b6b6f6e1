#!/usr/bin/env python
"""Django's command-line utility.

When DATABASE_URL or REDIS_URL is not set, the command runs with the project's embedded
PostgreSQL and Redis (started for the command, stopped after it unless they were already running),
except the commands that need neither (``poker_site.embedded.COMMANDS_WITHOUT_SERVICES``: replay_phh, uth_rtp).
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
    from django.core.management import execute_from_command_line

    from poker_site.embedded import services_for_command

    with services_for_command(sys.argv[1:]):
        execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
