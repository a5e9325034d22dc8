"""A warning raised from the project's own code fails the test (issue 27, item 10).

`tests/conftest.py` installs the three hooks below: the setup, the call and the teardown of
every test run with the warnings of the project's packages (`OWN_PACKAGES`, matched on the
module the warning is attributed to) recorded rather than shown, and the phase fails when
one was raised, naming it and where.

Why not only an `error::DeprecationWarning:pipelines` line in pyproject's filterwarnings:
Polars issues its deprecation warnings from Rust (`polars._warnings._polars_warn`, called
by the engine with the caller's stack level). Turned into an exception by an `error`
filter, such a warning is swallowed by the engine (printed on stderr): the test passes
and the warning no longer even appears in pytest's summary. Recorded, it is seen.
Warnings from elsewhere (a dependency, a test module itself) are handed back to pytest
unchanged, under the filters of pyproject.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Generator
from pathlib import Path

import pytest

OWN_PACKAGES = ("pipelines", "transforms", "classement", "simulator", "benchmarks")
# A module of one of the packages (the package itself or any submodule), as the `module`
# field of a warnings filter reads it (re.match on the module's `__name__`).
OWN_MODULE = rf"({'|'.join(OWN_PACKAGES)})(\..*)?\Z"


ROOT = Path(__file__).resolve().parent.parent
OWN_FOLDERS = tuple(f"{ROOT / package}{os.sep}" for package in OWN_PACKAGES)


def own_warnings(caught: list[warnings.WarningMessage]) -> list[warnings.WarningMessage]:
    """The warnings of `caught` attributed to a file of the project's packages."""
    return [w for w in caught if w.filename.startswith(OWN_FOLDERS)]


def _guarded(phase: str) -> Generator[None, object, object]:
    recorded: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            # the project's warnings are recorded whatever the other filters say (even
            # -W error: an exception would be swallowed by Polars' engine)
            warnings.filterwarnings("always", module=OWN_MODULE)
            try:
                result = yield
            finally:
                recorded = list(caught)
    finally:
        mine = own_warnings(recorded)
        for w in recorded:  # the others back to pytest's recording, as if never caught
            if w not in mine:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if mine:
        listed = "\n".join(
            f"  {w.filename}:{w.lineno}: {w.category.__name__}: {w.message}" for w in mine
        )
        pytest.fail(
            f"{len(mine)} avertissement(s) levé(s) par le code du projet pendant le {phase} "
            f"du test (les avertissements du projet sont des erreurs) :\n{listed}",
            pytrace=False,
        )
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded("setup"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded("call"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded("teardown"))
