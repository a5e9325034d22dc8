"""The rule tests never load Dagster (it is heavy: a second of imports in every process
that runs them): neither they, nor the shared fixtures and helpers they import do. Only the
pipeline tests (assets, builds) import it, through `tests/builds.py` or the fixtures that
need it."""

from __future__ import annotations

import subprocess
import sys

from tests.support import PROJECT_ROOT

# The tests of the pure rules, the export formats, the ingest and the simulator.
RULE_TESTS = [
    "tests.test_check_command",
    "tests.test_circuits",
    "tests.test_cote",
    "tests.test_elo",
    "tests.test_federations",
    "tests.test_formats_aupair",
    "tests.test_formats_ffsc",
    "tests.test_formats_tsh",
    "tests.test_generate",
    "tests.test_ingest",
    "tests.test_mort_subite",
    "tests.test_national",
    "tests.test_round_robin",
    "tests.test_scoring",
    "tests.test_series",
    "tests.test_vocabulary",
    "tests.test_wespa_elo",
]
# What every test process imports (pytest loads conftest first) and the Dagster-free helpers.
SHARED = ["tests.conftest", "tests.support", "tests.broken_exports", "tests.whatif_world"]


def test_the_rule_tests_and_the_shared_helpers_never_import_dagster() -> None:
    script = (
        "import importlib, sys\n"
        f"for name in {SHARED + RULE_TESTS!r}:\n"
        "    importlib.import_module(name)\n"
        "    assert 'dagster' not in sys.modules, name + ' loaded Dagster'\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_pipeline_helpers_do_load_it() -> None:
    """The check above would pass vacuously if nothing could load Dagster."""
    script = "import sys, tests.builds; assert 'dagster' in sys.modules; print('ok')"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
