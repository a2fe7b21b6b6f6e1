"""``manage.py role_table``: print what each staff role may do in the back office; ``--write`` puts it into
docs/roles.md (between its markers), ``--check`` exits non-zero when that page is out of date."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from poker_site.accounts.role_table import markdown_table, page_with_table

ROLES_PAGE = Path(settings.BASE_DIR) / "docs" / "roles.md"


class Command(BaseCommand):
    help = "Print the role table (poker_site/accounts/role_table.py), or write it into docs/roles.md."

    def add_arguments(self, parser: Any) -> None:
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--write", action="store_true", help="rewrite the table in docs/roles.md")
        what.add_argument("--check", action="store_true", help="fail if docs/roles.md states another table")

    def handle(self, *args: Any, write: bool, check: bool, **options: Any) -> None:
        if not (write or check):
            self.stdout.write(markdown_table(), ending="")
            return
        page = ROLES_PAGE.read_text(encoding="utf-8")
        try:
            updated = page_with_table(page)
        except ValueError as error:
            raise CommandError(f"{ROLES_PAGE}: {error}") from error
        if check:
            if updated != page:
                raise CommandError(f"{ROLES_PAGE} is out of date: run `manage.py role_table --write`.")
            self.stdout.write(f"{ROLES_PAGE} states the role table.")
        elif updated != page:
            ROLES_PAGE.write_text(updated, encoding="utf-8")
            self.stdout.write(f"Wrote the role table into {ROLES_PAGE}.")
        else:
            self.stdout.write(f"{ROLES_PAGE} already states the role table.")
