"""Lobby tabs for games other than the cash tables: what exists so far, read from the apps that own it."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Count, Q

register = template.Library()


@register.simple_tag
def open_uth_tables() -> list[Any]:
    """The open Ultimate Texas Hold'em tables with how many players sit at each (the /uth/ page's list)."""
    from games.uth.models import UthTable

    return list(
        UthTable.objects.filter(is_open=True)
        .annotate(players=Count("seats", filter=Q(seats__left_at__isnull=True)))
        .order_by("name")
    )
