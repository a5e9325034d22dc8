"""Warnings from the project's own code are errors (issue 27, item 10; tests/own_warnings.py).

The mort subite ingest called Polars' `is_in` with a Series of the same type (deprecated:
29 of the suite's 33 warnings); a Polars deprecation is issued from its Rust engine, which
swallows it when a filter turns it into an exception, so the suite records the project's
warnings and fails the test instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Generator

import polars as pl
import pytest

from tests.own_warnings import ROOT, _guarded, own_warnings
from tests.support import ingested

EXAMPLES = ROOT / "docs" / "examples" / "mort_subite"


def _example_exports() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(EXAMPLES.glob("*.csv"))}


def test_the_mort_subite_ingest_raises_no_warning() -> None:
    """The example exports (today's format: no `penalty` column) load, and the ingest's
    checks (the host tournaments' results, the rule engine) raise no warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ingested(_example_exports())
    assert result.rejected == {}
    assert result.tables["mort_subite_moves"].height > 0
    assert own_warnings(caught) == [], [str(w.message) for w in caught]


def _probe(code: str, module: str) -> None:
    """Run `code` as if written in `module` (a file of the project's packages)."""
    path = ROOT / module.replace(".", "/")
    exec(compile(code, f"{path}.py", "exec"), {"__name__": module, "pl": pl})


DEPRECATED = "pl.DataFrame({'a': ['x']}).filter(pl.col('a').is_in(pl.Series(['x'])))"


def _run(guard: Generator[None, object, object], code: str, module: str) -> None:
    next(guard)
    _probe(code, module)
    with pytest.raises(StopIteration):
        guard.send(None)


def test_a_polars_deprecation_in_the_project_s_code_fails_even_under_w_error() -> None:
    """Under `-W error` Polars' engine would swallow the exception: the guard records the
    warning and fails the test, naming the file."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(pytest.fail.Exception, match=r"transforms/_probe\.py:1: Deprec"):
            _run(_guarded("call"), DEPRECATED, "transforms._probe")


def test_a_warning_from_elsewhere_is_handed_back_to_pytest() -> None:
    """The same call written in a test module is not the project's code: the test passes
    and the warning reaches the filters around it (here, a record)."""
    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        _run(_guarded("call"), DEPRECATED, "tests._probe")
    assert [w.category for w in outer] == [DeprecationWarning]
    assert outer[0].filename.endswith("tests/_probe.py")
