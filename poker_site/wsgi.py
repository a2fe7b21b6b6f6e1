"""WSGI entry point (HTTP only; the site is normally served by daphne through asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
application = get_wsgi_application()
