"""``manage.py hexapro_figures`` prints, computed from the product tables, each product's expected multiplier and rake
equivalent (6.853 %, HEX-08, HEX-24), every prize pool of HEX-07 / HEX-23 with its payout split in cents (HEX-09,
HEX-25) and the fee components (FEE-06); ``--draws N`` simulates N draws through the production draw function with a
chi-square test against HEX-06 / HEX-22 (HEX-31). The tables are the stored rows in force (a new version changes the
figures); ``--defaults`` prints the catalog's defaults and needs no database; bad arguments exit with status 2."""

from __future__ import annotations

import dataclasses
import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from poker_site.embedded import COMMAND_OPTIONS_WITHOUT_SERVICES, COMMANDS_WITHOUT_SERVICES
from tests.foundation.test_commands_without_a_database_start_no_embedded_server import manage_without_services
from tournaments.hexapro.models import HexaProProductVersion
from tournaments.management.commands import hexapro_figures
from tournaments.rules.hexapro import HEXAPRO, HEXAPRO_EXTREME

pytestmark = pytest.mark.django_db


def run(*arguments: str) -> str:
    output = StringIO()
    call_command("hexapro_figures", *arguments, stdout=output)
    return output.getvalue()


def test_hex_08_hex_24_both_products_print_the_expected_multiplier_and_6_853_percent() -> None:
    text = run()
    assert text.count("expected multiplier 2.79441 (279441/100000)") == 2
    assert text.count("rake equivalent 6.853 %; stated 6.853 %: matches") == 2
    assert "HexaPro (hexapro): 3 seats, weights out of 100,000" in text
    assert "HexaPro Extreme (hexapro_extreme): 3 seats" in text


def test_hex_07_hex_09_fee_06_each_buy_in_prints_its_fee_component_pools_and_splits_in_cents() -> None:
    text = run("--product", "hexapro")
    assert "€10.00 buy-in, fee component €0.69:" in text
    assert re.search(r"25x +pool +€250\.00 → 1st €200\.00, 2nd €30\.00, 3rd €20\.00", text)
    assert re.search(r"1000x +pool +€100,000\.00 → 1st €80,000\.00, 2nd €12,000\.00, 3rd €8,000\.00", text)
    assert re.search(r"1\.5x +pool +€1\.50 → 1st €1\.50\n", text)
    assert "HexaPro Extreme" not in text
    assert len(re.findall(r" pool ", text)) == 7 * 7


def test_hex_25_the_extreme_splits_are_printed_in_whole_cents() -> None:
    text = run("--product", "hexapro_extreme")
    assert re.search(r"125x +pool +€62\.50 → 1st €50\.00, 2nd €10\.00, 3rd €2\.50", text)
    assert re.search(r"1000x +pool +€200\.00 → 1st €160\.00, 2nd €24\.00, 3rd €16\.00", text)
    assert len(re.findall(r" pool ", text)) == 10 * 7


def test_the_figures_come_from_the_stored_rows_in_force() -> None:
    """A new version of HexaPro in the back office (one more ticket for 1.5x) changes the figures the command prints;
    ``--defaults`` still prints the catalog's."""
    seeded = HexaProProductVersion.objects.get(code="hexapro")
    edited = HexaProProductVersion.objects.get(pk=seeded.pk)
    edited.pk = None
    edited.effective_from = seeded.effective_from.replace(year=2001)
    edited.save()
    for related in ("buy_ins", "multipliers", "blind_levels"):
        for row in getattr(seeded, related).all():
            row.pk = None
            row.version = edited
            if related == "multipliers" and row.multiplier_tenths == 15:
                row.weight += 1
            row.save()
    text = run("--product", "hexapro")
    assert "weights out of 100,001" in text
    assert "stated 6.853 %: DIFFERS" in text
    assert "weights out of 100,000" in run("--product", "hexapro", "--defaults")


def test_the_figures_come_through_stored_products(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command reads the products through ``stored_products``: other tables, other figures."""
    rows = list(HEXAPRO.multipliers)
    rows[-1] = dataclasses.replace(rows[-1], weight=rows[-1].weight + 1)
    edited = dataclasses.replace(HEXAPRO, multipliers=tuple(rows))
    monkeypatch.setattr(hexapro_figures, "stored_products", lambda: (edited,))
    text = run()
    assert "weights out of 100,001" in text
    assert "stated 6.853 %: DIFFERS" in text


def test_hex_31_a_seeded_simulation_prints_counts_chi_square_and_p_value() -> None:
    text = run("--product", "hexapro", "--draws", "20000", "--seed", "11")
    assert "simulation: 20,000 draws through draw_multiplier from random.Random(11)" in text
    assert re.search(r"1\.5x +\d{1,3},\d{3} +11,258\.80", text)
    statistic = re.search(r"chi-square ([\d.]+) with (\d) degrees of freedom.*; p-value ([\d.]+)", text)
    assert statistic is not None
    assert 0.001 < float(statistic[3]) <= 1
    assert "realised rake equivalent" in text
    assert text == run("--product", "hexapro", "--draws", "20000", "--seed", "11")


def test_hex_31_json_output_carries_the_tables_the_pools_and_the_simulation() -> None:
    record: dict[str, Any] = json.loads(run("--json", "--draws", "5000", "--seed", "3"))
    hexapro, extreme = record["products"]
    assert (hexapro["code"], extreme["code"]) == ("hexapro", "hexapro_extreme")
    for product in (hexapro, extreme):
        assert product["expected_multiplier"] == "279441/100000"
        assert product["rake_equivalent"] == "6853/100000"
        assert product["rake_equivalent_percent"] == "6.853 %"
        assert product["rake_equivalent_matches_statement"] is True
        assert product["total_weight"] == 100_000
        simulation = product["simulation"]
        assert simulation["draws"] == 5_000
        assert simulation["seed"] == 3
        assert sum(count["observed"] for count in simulation["counts"]) == 5_000
        assert simulation["chi_square"]["degrees_of_freedom"] >= 1
        assert 0 <= simulation["chi_square"]["p_value"] <= 1
    ten_euros = next(level for level in hexapro["buy_ins"] if level["buy_in_cents"] == 1_000)
    assert ten_euros["fee_component_cents"] == 69
    assert ten_euros["prize_pools"][2] == {
        "multiplier": "25x",
        "prize_pool_cents": 25_000,
        "payout_cents": [20_000, 3_000, 2_000],
    }
    assert [row["weight"] for row in extreme["multipliers"]] == [row.weight for row in HEXAPRO_EXTREME.multipliers]
    assert extreme["multipliers"][1]["timebank"] == {
        "first_hand_seconds": 30,
        "replenish_seconds": 5,
        "replenish_every_hands": 5,
        "cap_seconds": 60,
    }


def test_without_a_seed_the_simulation_draws_from_the_production_source() -> None:
    record = json.loads(run("--json", "--product", "hexapro", "--draws", "50"))
    simulation = record["products"][0]["simulation"]
    assert simulation["seed"] is None
    assert simulation["random_source"] == "secrets.SystemRandom (production)"
    assert "simulation" not in json.loads(run("--json", "--product", "hexapro"))["products"][0]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--draws", "0"), "--draws must be from 1 to 10,000,000, not 0"),
        (("--draws", "-5"), "--draws must be from 1 to 10,000,000"),
        (("--draws", "100000000000"), "--draws must be from 1 to 10,000,000"),
        (("--seed", "4"), "--seed only seeds a simulation: give --draws too"),
        (("--product", "hexapro_banzai"), "no HexaPro product 'hexapro_banzai'"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(arguments: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)) as refused:
        run(*arguments)
    assert refused.value.returncode == 2


@pytest.mark.slow
def test_with_defaults_the_command_runs_without_a_database_and_bad_arguments_exit_with_status_2(
    tmp_path: Path,
) -> None:
    assert "hexapro_figures" not in COMMANDS_WITHOUT_SERVICES  # the stored tables are in the database
    assert COMMAND_OPTIONS_WITHOUT_SERVICES["hexapro_figures"] == "--defaults"
    completed = manage_without_services(
        tmp_path, "hexapro_figures", "--defaults", "--json", "--draws", "1000", "--seed", "1"
    )
    assert completed.returncode == 0, completed.stderr
    assert [product["rake_equivalent_percent"] for product in json.loads(completed.stdout)["products"]] == [
        "6.853 %",
        "6.853 %",
    ]
    assert not (tmp_path / "postgres").exists(), "no embedded PostgreSQL was started"
    assert not (tmp_path / "redis").exists(), "no embedded Redis was started"
    for arguments, message in ((("--draws", "0"), "--draws must be from 1"), (("--draws", "many"), "invalid int")):
        refused = manage_without_services(tmp_path, "hexapro_figures", "--defaults", *arguments)
        assert refused.returncode == 2
        assert message in refused.stderr
        assert refused.stdout == ""
