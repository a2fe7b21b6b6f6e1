"""A transactional test ends by emptying the database (Django's flush); the rows the data migrations seeded (the
cash-game catalogue, the HexaPro products) are stored again after it (``tests/conftest.py``), so a later test on the
same worker that reads them passes whichever tests ran before it (found when pytest-xdist changed the order)."""

from __future__ import annotations

import pytest


@pytest.mark.django_db(transaction=True)
def test_after_the_flush_that_ends_a_transactional_test_the_catalogue_and_hexapro_products_are_stored_again() -> None:
    from django.test import TransactionTestCase

    from games.models import GameType, Stake
    from tournaments.hexapro.models import HexaProProductVersion

    TransactionTestCase()._fixture_teardown()  # the flush every transactional test ends with
    assert GameType.objects.exists()
    assert Stake.objects.exists()
    assert HexaProProductVersion.objects.filter(code="hexapro").exists()
    assert HexaProProductVersion.objects.filter(code="hexapro_extreme").exists()
