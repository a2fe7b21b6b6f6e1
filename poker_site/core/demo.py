"""Demo data registry: every capability adds its own idempotent seeding step.

An app lists a function in ``<app>/demo.py`` named ``seed_demo(write)``; ``manage.py seed_demo``
calls them in INSTALLED_APPS order. Each step must be safe to run any number of times.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from importlib.util import find_spec

from django.apps import apps

Writer = Callable[[str], None]


def seed_all(write: Writer) -> None:
    """Run every installed app's demo seeding step."""
    for config in apps.get_app_configs():
        module_name = f"{config.name}.demo"
        if find_spec(module_name) is None:
            continue
        step = getattr(import_module(module_name), "seed_demo", None)
        if callable(step):
            step(write)
