"""An incremental build always equals a fresh build of the same raw folder: a property test
over random sequences of exports added, removed, changed, re-dated and rewritten in place at
the same size with their old date (`cp -p`, `rsync -t`, `touch -r`)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.builds import build
from tests.support import C1_GAMES, PLAYERS, games_csv, results_csv, snapshot

pytestmark = pytest.mark.slow

DUPLICATE = (
    "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank,"
    "series,games\n"
)


def _duplicate(tid: str, date: str, order: list[int]) -> str:
    rows = [
        f"{tid},Simultané,duplicate,{date},{p},{last},{first},{rank},{1 + i % 6},3"
        for i, ((p, last, first, _), rank) in enumerate(zip(PLAYERS, order, strict=True))
    ]
    return DUPLICATE + "\n".join(rows) + "\n"


# Every export the sequences may hold: name → content, in two versions (the second a
# correction of the first, of the same size: `rewrite` writes it in place), each at one of
# two dates (two seasons).
DATES = ("2024-01-14", "2024-11-17")
EXPORTS = {
    "C1.csv": lambda v, d: results_csv("C1", PLAYERS if v == 0 else PLAYERS[::-1], date=d),
    "C1_games.csv": lambda v, d: games_csv("C1", C1_GAMES),
    "D1.csv": lambda v, d: _duplicate("D1", d, [1, 2, 3, 4] if v == 0 else [2, 1, 3, 3]),
    "D2.csv": lambda v, d: _duplicate("D2", d, [4, 3, 2, 1] if v == 0 else [1, 1, 1, 4]),
    "liste.csv": lambda v, d: (
        "player_id,as_of,cote,elo,elo_games,series\n"
        f"100,2023-08-31,{1800 + 100 * v},1650,40,3\n101,2023-08-31,1500,1500,0,{5 - v}\n"
    ),
}
STEP = st.tuples(
    st.sampled_from(["add", "remove", "change", "redate", "rewrite"]),
    st.sampled_from(sorted(EXPORTS)),
)


def _write(folder: Path, state: dict[str, tuple[int, int]]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, (version, date) in state.items():
        (folder / name).write_text(EXPORTS[name](version, DATES[date]), encoding="utf-8")


def _rewrite(path: Path, content: str) -> None:
    """Write `content` into the file (same inode) and give it back its size and date."""
    info = os.stat(path)
    data = content.encode("utf-8")
    assert len(data) == info.st_size
    with open(path, "r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


# A fresh build is the oracle, and the same raw folder always builds the same (the builds
# are deterministic: tests/test_reports.py, tests/test_pipeline.py). Each raw state's fresh
# build is made once per run, its snapshot reused by every step and example that reaches
# that state again; the raw folder is one path for every example, so the fresh builds of a
# state differ in nothing.
FRESH: dict[tuple[tuple[str, tuple[int, int]], ...], object] = {}


def _fresh(raw: Path, root: Path, state: dict[str, tuple[int, int]]) -> object:
    key = tuple(sorted(state.items()))
    if key not in FRESH:
        out = root / f"fresh-{len(FRESH)}"
        build(raw, out)
        FRESH[key] = snapshot(out)
    return FRESH[key]


@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(STEP, min_size=2, max_size=3))
@example(steps=[("rewrite", "D1.csv"), ("rewrite", "liste.csv")])
def test_an_incremental_build_equals_a_fresh_one(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str]]
) -> None:
    root = tmp_path_factory.mktemp("incremental")
    state = {"C1.csv": (0, 0), "C1_games.csv": (0, 0), "D1.csv": (0, 0), "liste.csv": (0, 0)}
    raw = tmp_path_factory.getbasetemp() / "incremental-raw"
    _write(raw, state)
    build(raw, root / "incremental")
    # the first build of an empty warehouse is a fresh build of this state
    if tuple(sorted(state.items())) not in FRESH:
        FRESH[tuple(sorted(state.items()))] = snapshot(root / "incremental")
    for k, (operation, name) in enumerate(steps):
        version, date = state.get(name, (0, 0))
        if operation == "add":
            state[name] = (version, date)
        elif operation == "remove":
            state.pop(name, None)
        elif operation == "change" and name in state:
            state[name] = (1 - version, date)
        elif operation == "redate" and name in state:
            state[name] = (version, 1 - date)
        if operation == "rewrite" and name in state:
            state[name] = (1 - version, date)
            _rewrite(raw / name, EXPORTS[name](1 - version, DATES[date]))
        else:
            _write(raw, state)
        build(raw, root / "incremental")
        fresh = _fresh(raw, root, state)
        assert snapshot(root / "incremental") == fresh, (k, operation, name, state)
