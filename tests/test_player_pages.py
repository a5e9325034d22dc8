"""The player pages (`pipelines.reports.player_pages`): the rows built for many players at
once are the rows `html.table` writes one by one, a player's rows are their own, and a
page links only to the seasons that have a report (issue 27, item 2)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipelines.reports import cells, player_pages
from pipelines.reports.cells import Cell
from pipelines.reports.html import Html, esc, fmt_number, fmt_signed, player_filename, table
from pipelines.reports.player_blocks import by_player, season_link
from pipelines.reports.player_pages import _bodies, _table_of
from pipelines.reports.player_seasons import (
    FILLER,
    SEASONS_DIR,
    WHY,
    season_file_text,
    season_records,
)

CELLS: tuple[Cell, ...] = (
    (("name",), lambda name: name),
    (("value",), fmt_number),
    (("value", "count"), lambda value, count: f"{fmt_signed(value, 1)} / {count}"),
    (("value",), lambda value: Html(f"<strong>{fmt_number(value, 2)}</strong>")),
)


def _frame() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "player_id": ["b", "a", "b", "a", "c", "b"],
            "name": ['<Dupont & "fils">', None, "Ève", "O'Neil", "Ève", '<Dupont & "fils">'],
            # 0.0 and -0.0 are equal keys but not the same text (« 0 » and « −0 »)
            "value": [0.0, -0.0, 1234.5, None, -7.25, 0.0],
            "count": [3, None, 0, 2, 3, 3],
        },
        schema_overrides={"count": pl.Int64},
    )


# `with_cells` calls the cells' functions row by row on small frames (`ROW_BY_ROW`), once per
# distinct combination on larger ones: both ways are checked against `html.table`
@pytest.mark.parametrize("row_by_row", [cells.ROW_BY_ROW, 0], ids=["row", "distinct"])
def test_rows_built_together_are_the_rows_of_html_table(
    row_by_row: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cells, "ROW_BY_ROW", row_by_row)
    frame = _frame()
    headers = ["Nom", "Valeur", "Écart", "Fort"]
    numeric = (1, 2, 3)
    bodies = _bodies(frame, pl.Series(["a", "b", "c"]), CELLS, numeric)
    assert sorted(bodies) == ["a", "b", "c"]
    for pid, body in bodies.items():
        rows = [
            tuple(fn(*(r[c] for c in inputs)) for inputs, fn in CELLS)
            for r in frame.filter(pl.col("player_id") == pid).iter_rows(named=True)
        ]
        expected = table(headers, rows, numeric=numeric, caption="Légende")
        assert _table_of((headers, numeric, "Légende"), body) == expected
    assert '<td class="num">−0</td>' in bodies["a"]
    assert "&lt;Dupont &amp; &quot;fils&quot;&gt;" in bodies["b"]
    assert _bodies(frame, pl.Series(["z"]), CELLS, numeric) == {}


def test_both_ways_of_making_cells_give_the_same_column() -> None:
    """Row by row and once per distinct value: the same cells, in the same order, for a
    frame of either size (the 0.0 and −0.0 of `_frame` included)."""
    for frame in (_frame(), pl.concat([_frame()] * 60), _frame().head(0)):
        made = [
            way(frame, CELLS, (1, 2, 3), "_cells")
            for way in (cells.cells_row_by_row, cells.cells_by_distinct)
        ]
        assert made[0].equals(made[1]), frame.height
        assert cells.with_cells(frame, CELLS, (1, 2, 3), "_cells").equals(made[0])


def test_a_players_rows_are_theirs_in_their_order() -> None:
    frame = _frame()
    split = by_player(frame)
    assert list(split) == ["a", "b", "c"]
    assert "z" not in split and split.get("z") is None
    for pid, part in frame.partition_by("player_id", as_dict=True).items():
        assert split[pid[0]].equals(part)
        assert split.digests[pid[0]] == by_player(part).digests[pid[0]]
    assert by_player(frame.head(0)).frame is None


def test_a_season_links_to_its_report_only_when_it_has_one() -> None:
    reported = ("2024-2025", "2025-2026")
    assert season_link("2025-2026", reported) == '<a href="../2025-2026/index.html">2025-2026</a>'
    assert (
        season_link("2024-2025", reported, "#national")
        == '<a href="../2024-2025/index.html#national">2024-2025</a>'
    )
    assert season_link("2026-2027", reported) == "2026-2027"
    assert season_link(None, reported) == "—"


SEASON_HREF = re.compile(r'href="\.\./(\d{4}-\d{4})/index\.html')


def test_player_pages_link_only_to_written_reports(sample_site: Path) -> None:
    """The sample's series for 2026-2027 (computed at the end of 2025-2026, or given by a
    rating list), a season without a tournament: their rows name the season, they do not
    link to a report never written."""
    reports = sample_site / "reports"
    linked: set[str] = set()
    named_only = 0
    for page in (reports / "joueurs").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        linked.update(SEASON_HREF.findall(text))
        named_only += text.count("<td>2026-2027</td>")
    assert linked, "no player page links to a season report"
    assert sorted(s for s in linked if not (reports / s / "index.html").is_file()) == []
    assert "2026-2027" not in linked and named_only > 0


# ---------------------------------------------------------------- the season files (issue 25)


def test_season_records_hold_the_texts_a_page_showed() -> None:
    """A player's record of a season: the ranks as the table wrote them, the series
    computed here (« Super-série » for the super-série) with its step, the sub-series, the
    movement and the criterion in French; no value: null (the page shows « — »)."""
    cote = pl.DataFrame(
        {"season": ["2024-2025"] * 2, "player_id": ["a", "b"], "rank": [12, 2350]},
        schema_overrides={"rank": pl.Int64},
    )
    elo = pl.DataFrame({"season": ["2024-2025"], "player_id": ["a"], "rank": [3]})
    classification = pl.DataFrame(
        {
            "season": ["2024-2025", "2024-2025", "2023-2024"],
            "player_id": ["a", "c", "a"],
            "series": ["1", "5", None],
            "subseries": ["1A", "5D", None],
            "super_serie": [True, False, False],
            "criterion": ["pct_n1", "pc", None],
            "value": [63.25, 717.5, None],
        }
    )
    movements = pl.DataFrame(
        {"season": ["2024-2025"], "player_id": ["c"], "movement": ["promoted"]}
    )
    records = season_records(cote, elo, classification, movements)
    got = {(season, pid): json.loads(record) for season, pid, record in records.iter_rows()}
    assert list(got) == [
        ("2023-2024", "a"),
        ("2024-2025", "a"),
        ("2024-2025", "b"),
        ("2024-2025", "c"),
    ]
    assert got["2024-2025", "a"] == {
        "c": "12",
        "e": "3",
        "s": "SS",
        "l": "Super-série",
        "n": 0,
        "u": "1A",
        "k": "%N1 63,25 %",
    }
    assert got["2024-2025", "b"] == {"c": "2350"}  # no value: left out
    assert got["2024-2025", "c"] == {
        "s": "5",
        "l": "Série 5",
        "n": 5,
        "u": "5D",
        "m": "Promu",
        "k": "PC 717,50",
    }
    assert got["2023-2024", "a"] == {}
    text = season_file_text("2024-2025", [("a", '{"c":"12"}'), ('x"y', "{}")])
    assert text == (
        '(window.classementSaisons = window.classementSaisons || {})["2024-2025"] = {\n'
        '"a":{"c":"12"},\n"x\\"y":{}\n};\n'
    )


def test_a_digest_leaves_out_the_columns_a_page_does_not_write() -> None:
    frame = _frame().with_columns(pl.Series("rank", [1, 2, 3, 4, 5, 6]))
    moved = frame.with_columns(pl.Series("rank", [6, 5, 4, 3, 2, 1]))
    assert by_player(frame, ("rank",)).digests == by_player(moved, ("rank",)).digests
    assert by_player(frame).digests["a"] != by_player(moved).digests["a"]
    edited = frame.with_columns(
        pl.when(pl.col("player_id") == "c").then(9.5).otherwise("value").alias("value")
    )
    changed = by_player(edited, ("rank",)).digests
    assert {p for p, h in by_player(frame, ("rank",)).digests.items() if changed[p] != h} == {"c"}


# « Écart » as the page wrote it before the season files, but « differ » (which names a source)
_WHY_TEXTS = {WHY[k] for k in ("none", "no_computed", "no_official", "same")}
EMPTY_CELLS = (
    "() => Array.from(document.querySelectorAll('span[data-champ]'))"
    ".filter(s => s.textContent === '').length"
)
WHY_CELLS = (
    "() => Array.from(document.querySelectorAll('span[data-ecart]')).map(s => s.textContent)"
)
FILLED = (
    '(season) => Array.from(document.querySelectorAll(`span[data-saison="${season}"]'
    '[data-champ="c"]`)).map(s => s.textContent)'
)


def test_a_player_page_shows_its_rank_from_the_season_file(
    sample_site: Path, tmp_path: Path
) -> None:
    """In Chromium, from disk: a page's end-of-season cote rank is the warehouse's, though
    its HTML does not hold it; the season's file does, and changing the number there
    changes the page. Every shared cell is filled, the « Écart » too."""
    from pipelines.reports.data import ReportData
    from tests.browser import Tab, launched

    reports = sample_site / "reports"
    ranking = ReportData.open(sample_site / "w.duckdb").table("cote_ranking")
    row = ranking.filter(pl.col("rank") == pl.col("rank").max().over("season")).row(0, named=True)
    season, pid, rank = row["season"], row["player_id"], str(row["rank"])
    markup = (reports / "joueurs" / player_filename(pid)).read_text(encoding="utf-8")
    cell = f'<span data-saison="{season}" data-champ="c"></span>'
    assert cell in markup and f'<script src="saisons/{season}.js"></script>' in markup
    with_history = next(
        p
        for p in sorted((reports / "joueurs").glob("*.html"))
        if "data-ecart" in p.read_text(encoding="utf-8")
    )
    # the two pages with what they load, in a copy whose season file this test changes
    site = tmp_path / "site"
    shutil.copytree(reports / "assets", site / "assets")
    shutil.copytree(reports / "joueurs" / SEASONS_DIR, site / "joueurs" / SEASONS_DIR)
    for name in (FILLER, player_filename(pid), with_history.name):
        shutil.copy2(reports / "joueurs" / name, site / "joueurs" / name)
    with_history = site / "joueurs" / with_history.name
    season_file = site / "joueurs" / SEASONS_DIR / f"{season}.js"
    assert f'"{pid}":{{"c":"{rank}"' in season_file.read_text(encoding="utf-8")
    chromium = launched()
    tab = Tab(next(chromium))
    try:
        page = tab.open(site / "joueurs" / player_filename(pid), tmp_path / "rank.png")
        assert page.evaluate(FILLED, season) == [rank]
        assert page.evaluate(EMPTY_CELLS) == 0
        text = season_file.read_text(encoding="utf-8")
        moved = text.replace(f'"{pid}":{{"c":"{rank}"', f'"{pid}":{{"c":"9999"')
        season_file.write_text(moved, encoding="utf-8")
        page = tab.open(site / "joueurs" / player_filename(pid), tmp_path / "moved.png")
        assert page.evaluate(FILLED, season) == ["9999"]
        page = tab.open(with_history, tmp_path / "history.png")
        why = page.evaluate(WHY_CELLS)
        assert why and all(w in _WHY_TEXTS or w.startswith("La série officielle (") for w in why), (
            why
        )
    finally:
        next(chromium, None)


# ------------------------------------------------------ the worker processes (issue 25)


def test_pages_written_by_worker_processes_are_the_builds_pages(
    sample_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages written by two worker processes (spawned, each given a chunk's rows cut
    down to its players) are the bytes the build wrote in one process. The pages go to
    the workers from `PARALLEL_FROM` pages to examine (their sources changed); here from
    one, the sample's 120 largest pages missing from a copy of the built folder (the others
    unchanged: neither read nor rendered again), by chunks of 40 (each read from the
    warehouse alone)."""
    from pipelines.reports.data import ReportData

    built = sample_site / "reports" / "joueurs"
    shutil.copytree(built, tmp_path / "joueurs")
    largest = sorted(built.glob("*.html"), key=lambda p: (-p.stat().st_size, p.name))[:120]
    for page in largest:
        (tmp_path / "joueurs" / page.name).unlink()
    monkeypatch.setattr(player_pages, "CHUNK", 40)
    monkeypatch.setattr(player_pages, "PARALLEL_FROM", 1)
    progress: list[tuple[int, int]] = []
    written = player_pages.write_player_pages(
        ReportData.open(sample_site / "w.duckdb"),
        tmp_path,
        lambda done, total: progress.append((done, total)),
        workers=2,
    )
    # only the missing pages are examined (the others' sources unchanged), 40 at a time
    assert written.rendered == 120 and progress == [(40, 120), (80, 120), (120, 120)]
    expected = {p.relative_to(built): p.read_bytes() for p in built.rglob("*") if p.is_file()}
    got = {
        p.relative_to(tmp_path / "joueurs"): p.read_bytes()
        for p in (tmp_path / "joueurs").rglob("*")
        if p.is_file()
    }
    assert sorted(got) == sorted(expected) and written.total == len(list(built.glob("*.html")))
    assert [name for name in sorted(expected) if got[name] != expected[name]] == []


class _DiesWhenUnpickled:
    """A chunk's rows that end the worker process receiving them (as the kernel's
    out-of-memory killer would)."""

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (os._exit, (9,))


def test_a_worker_that_dies_fails_the_build_instead_of_hanging(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker process that dies while holding a chunk fails the build at once, with
    `BrokenProcessPool`: its chunk is never waited for (a CI run once hung at its end)."""
    from concurrent.futures.process import BrokenProcessPool

    monkeypatch.setattr(player_pages, "_part", lambda *_: _DiesWhenUnpickled())
    with pytest.raises(BrokenProcessPool), player_pages._Pool(2) as pool:
        pool.render(None, ["A1"], [Path("A1.html")])  # type: ignore[arg-type]
        pool.reap(wait=True)


def test_a_page_is_the_same_whatever_chunk_builds_it(sample_site: Path) -> None:
    """A page built in a chunk of one player is the page built among 60 (the chunk-wide
    tables hold nothing of the other players), and a chunk renders when a table has no row
    for any of its players (a chunk whose players all have an official series, no rating
    list, no published ranking…)."""
    import dataclasses

    from pipelines.reports.data import ReportData
    from pipelines.reports.player_blocks import PlayerRows

    d = player_pages._load(ReportData.open(sample_site / "w.duckdb"))
    ids = d.players["player_id"].to_list()[:60]
    together = player_pages._chunk(d, pl.Series(ids, dtype=pl.String))
    for pid in (ids[0], ids[29], ids[-1]):
        alone = player_pages._chunk(d, pl.Series([pid], dtype=pl.String))
        assert player_pages.render_player(pid, d, alone) == player_pages.render_player(
            pid, d, together
        )
    tables = ["cote", "elo", "results", "duplicate", "classification", "movements"]
    tables += ["cote_ranking", "elo_ranking", "listed", "standings", "published"]
    empty: dict[str, Any] = {name: PlayerRows(None, {}, {}) for name in tables}
    bare = dataclasses.replace(d, **empty)
    chunk = player_pages._chunk(bare, pl.Series(ids, dtype=pl.String))
    page = player_pages.render_player(ids[0], bare, chunk)
    assert "<h2>Tournois</h2>" not in page and "<h2>Listes de classement</h2>" not in page
    name = d.player_rows[ids[0]].row(0, named=True)["name"]
    assert f'<header class="page"><h1>{esc(name)}</h1></header>' in page


def test_a_block_built_for_a_chunk_is_the_block_built_player_by_player(
    sample_site: Path,
) -> None:
    """A block with `render_chunk` (the national classifications) writes for a chunk of
    players the markup its `render` writes for each of them, the players without rows
    left out; the sample's pages show it."""
    from pipelines.reports.data import ReportData
    from pipelines.reports.player_blocks import discover

    d = player_pages._load(ReportData.open(sample_site / "w.duckdb"))
    ids = d.players["player_id"].to_list()
    chunked = [(block, loaded) for block, loaded in d.blocks if block.render_chunk is not None]
    assert [block.key for block, _ in chunked] == ["national"]
    assert {block.key for block in discover()} >= {"national"}
    for block, loaded in chunked:
        assert block.render_chunk is not None
        together = block.render_chunk(pl.Series(ids, dtype=pl.String), loaded)
        one_by_one = {pid: block.render(pid, loaded) for pid in ids}
        assert together == {pid: m for pid, m in one_by_one.items() if m is not None}
        assert 100 < len(together) <= len(ids)
        some = sorted(together)[0]
        assert block.render_chunk(pl.Series([some], dtype=pl.String), loaded) == {
            some: together[some]
        }
        page = (sample_site / "reports" / "joueurs" / player_filename(some)).read_text("utf-8")
        assert f"<h2>{block.title}</h2>{together[some]}" in page


# ------------------------------------------- what a page is made from (issue 25, item 2)


def test_the_pages_read_no_table_their_sources_leave_out(
    sample_site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every table a chunk's pages read (their own and the blocks') is fingerprinted
    (`_sources`): read for the chunk's players, or whole and counted for every page,
    or counted where it shows (players, events, rejected exports). A block reading a new
    table fails here until the fingerprints count it."""
    import duckdb

    from pipelines.reports.data import ReportData

    read: list[str] = []
    for cls in (ReportData, player_pages._PlayersData):
        real = cls.table

        def spy(self: ReportData, name: str, real: Any = real) -> pl.DataFrame:
            read.append(name)
            return real(self, name)

        monkeypatch.setattr(cls, "table", spy)
    whole = ReportData.open(sample_site / "w.duckdb")
    common = player_pages._shared(whole)
    ids = sorted(common.players["player_id"].to_list())[:30]
    with duckdb.connect(str(sample_site / "w.duckdb"), read_only=True) as connection:
        reader = player_pages._Reader(sample_site / "w.duckdb", connection)
        d = player_pages._load(player_pages._PlayersData(whole, reader, ids), common)
    counted = {*player_pages.PLAYER_TABLES, *player_pages.WHOLE_TABLES}
    counted |= set(player_pages.OTHER_TABLES)
    assert set(read) - counted == set()
    assert {"results", "circuit_points", "mort_subite_results"} <= set(read)
    assert sorted(d.players["player_id"].to_list()) == ids


def test_a_chunk_read_from_its_slab_has_the_rows_of_its_own_read(sample_site: Path) -> None:
    """A chunk's rows of every long table taken from its slab (`_Slab`: the rows of more
    players, read once) are those the chunk reads alone: the same rows, in the same
    order, the same columns and types; and the slab reads each table once."""
    import duckdb

    from pipelines.reports.data import ReportData

    whole = ReportData.open(sample_site / "w.duckdb")
    ids = sorted(player_pages._shared(whole).players["player_id"].to_list())
    slab_players, group = ids[100:700], ids[300:500]
    with duckdb.connect(str(sample_site / "w.duckdb"), read_only=True) as connection:
        reader = player_pages._Reader(sample_site / "w.duckdb", connection)
        slab = player_pages._Slab(slab_players)
        alone = player_pages._PlayersData(whole, reader, group)
        from_slab = player_pages._PlayersData(whole, reader, group, slab)
        second = player_pages._PlayersData(whole, reader, ids[500:700], slab)
        rows = 0
        for name in sorted(player_pages.PLAYER_TABLES):
            expected = alone.table(name)
            assert_frame_equal(from_slab.table(name), expected)
            assert set(expected["player_id"]) <= set(group)
            rows += expected.height
            assert_frame_equal(
                second.table(name),
                player_pages._PlayersData(whole, reader, ids[500:700]).table(name),
            )
        read_once = dict(slab._rows)
        for name in player_pages.PLAYER_TABLES:
            assert second.table(name) is not None and slab._rows[name] is read_once[name]
    assert rows > 1000  # the sample's chunk holds rows in the long tables


def test_a_players_sources_move_with_what_their_page_shows_only(
    sample_site: Path, tmp_path: Path
) -> None:
    """The players whose sources changed (`_sources`, against the sources last kept): those
    of an event renamed, the one whose cote a page writes changed; none for a rank the page
    reads from the season file nor for the same warehouse; every player (None) when a table
    the blocks read whole changes, or when a season's rows of a table moved after another
    season's (a player's rows in another order)."""
    import duckdb

    from pipelines.reports.data import ReportData

    copy = tmp_path / "w.duckdb"
    shutil.copy2(sample_site / "w.duckdb", copy)
    common = player_pages._shared(ReportData.open(copy))
    kept: dict[str, Any] = {}

    def changed() -> set[str] | None:
        nonlocal kept
        with duckdb.connect(str(copy), read_only=True) as connection:
            state, flagged = player_pages._sources(connection, common, "code", kept)
        kept = json.loads(json.dumps(state))  # as read back from the file
        return flagged

    def change(sql: str, *params: object) -> None:
        with duckdb.connect(str(copy)) as connection:
            connection.execute(sql, list(params))

    assert changed() is None  # nothing kept: every player
    assert changed() == set()  # the same warehouse, the same sources
    with duckdb.connect(str(copy)) as connection:
        pid, tid = connection.sql(
            "SELECT player_id, tournament_id FROM cote_history ORDER BY rowid LIMIT 1"
        ).fetchall()[0]
        played = {
            r[0]
            for r in connection.sql(
                "SELECT DISTINCT player_id FROM results WHERE tournament_id = ?", params=[tid]
            ).fetchall()
        }
        other = connection.sql(
            "SELECT player_id FROM cote_ranking WHERE player_id <> ? ORDER BY rowid LIMIT 1",
            params=[pid],
        ).fetchall()[0][0]
        first = connection.sql("SELECT season FROM cote_history ORDER BY rowid LIMIT 1").fetchall()
    change("UPDATE cote_ranking SET rank = rank + 1000 WHERE player_id = ?", other)
    assert changed() == set()  # a rank: shown from the season file
    change("UPDATE tournaments SET tournament_name = 'Autre nom' WHERE tournament_id = ?", tid)
    assert pid in played and changed() == played
    change(
        "UPDATE cote_history SET cote_after = cote_after + 1 WHERE player_id = ? "
        "AND tournament_id = ?",
        pid,
        tid,
    )
    assert changed() == {pid}
    season = first[0][0]
    assert season.replace("-", "").isdigit()
    change(
        f"CREATE TEMP TABLE moved AS SELECT * FROM cote_history WHERE season = '{season}';"
        f"DELETE FROM cote_history WHERE season = '{season}';"
        "INSERT INTO cote_history SELECT * FROM moved"
    )
    assert changed() is None  # the first season's rows now after the others'
    assert changed() == set()
    change("DELETE FROM mort_subite_standings WHERE rowid = 0")
    assert changed() is None


def test_a_season_files_licences_are_written_as_json_writes_them() -> None:
    """A season file names each licence as `json.dumps` does (`_js_string` skips its
    cost for a plain licence only)."""
    from pipelines.reports.player_seasons import _js_string

    texts = ["123456", "AB-12.x", "", "a b", 'a"b', "x\\y", "Élodie", "tab\there", "</script>"]
    assert [_js_string(t) for t in texts] == [json.dumps(t, ensure_ascii=False) for t in texts]
    assert season_file_text("2023-2024", [("12", '{"c":"1"}'), ('"', "{}")]) == (
        '(window.classementSaisons = window.classementSaisons || {})["2023-2024"] = {\n'
        '"12":{"c":"1"},\n"\\"":{}\n};\n'
    )


def test_safe_json_writes_what_plotlys_encoder_writes() -> None:
    """`html.safe_json` (the json module's C encoder where it can) writes the text of
    Plotly's encoder with the `JSON_UNSAFE` escapes: escapes, non-ASCII, floats, and the
    values where Plotly's encoder writes something else (« NaN » or « Infinity » in the
    text: it dumps it again, in ASCII; numpy values and dates: its `default`)."""
    import datetime as dt
    import json

    import numpy as np
    from plotly.utils import PlotlyJSONEncoder

    from pipelines.reports.html import JSON_UNSAFE, safe_json

    def plotly(value: object) -> str:
        encoded = json.dumps(
            value, cls=PlotlyJSONEncoder, ensure_ascii=False, separators=(",", ":")
        )
        for unsafe, escaped in JSON_UNSAFE:
            encoded = encoded.replace(unsafe, escaped)
        return encoded

    values: list[object] = [
        "123456",
        "</script><script>alert(1)</script>&é\u2028\u2029",
        'a"b\\c',
        "Zoé Ünal-Łukasz 李",
        "NaNé",
        "Infinity ∞",
        {"x": ["2023-01-05", None], "y": [1234.5, -0.0, 1e20, 1e-7, 3], "t": True},
        {"name": "Zoé </script>", "values": [float("nan"), 1.0]},
        [float("inf"), float("-inf")],
        [dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 3, 4, 5)],
        {"trace": 1, "from": ["2023-2024", None]},
        {"y": np.array([1.5, np.nan]), "n": np.int64(3), "f": np.float64(2.25)},
        [np.float32(0.1), np.bool_(True), np.array(["é", "<b>"])],
        (1, ("a", 2.5)),
        {1: "a", 2.5: "b", None: "c"},
    ]
    assert [safe_json(v) for v in values] == [plotly(v) for v in values]
    # what the escapes are for: nothing in the text can end the script element
    assert "<" not in safe_json(values[1]) and "&" not in safe_json(values[1])


def test_a_workers_chunk_keeps_the_rows_read_for_its_players() -> None:
    """`_restricted` keeps a table read for the chunk's players alone as it is (no
    filter), and still cuts down one holding other players (a block's whole table); no
    digest goes to the worker."""
    from pipelines.reports.player_pages import _restricted

    split = by_player(_frame())
    players = pl.Series(["a", "b", "c"])
    kept = _restricted(split, players, frozenset(["a", "b", "c"]))
    assert kept.frame is split.frame and kept.digests == {}
    assert {pid: kept.rows_of(pid) for pid in "abc"} == {pid: split.rows_of(pid) for pid in "abc"}
    cut = _restricted(split, pl.Series(["b"]), frozenset(["b"]))
    assert list(cut) == ["b"] and cut.rows_of("b") == split.rows_of("b")
    assert cut.frame is not None and cut.frame.height == 3


def test_a_season_file_is_written_again_only_when_its_sources_changed(
    sample_site: Path, tmp_path: Path
) -> None:
    """A season file (`player_seasons`) is made again when its season's rows changed or it
    is missing, not otherwise: its season's rows are not even read (a file changed by hand
    stays so, as a page does); the file made then is the one made from every season's
    records."""
    import duckdb

    from pipelines.reports.data import ReportData
    from pipelines.reports.player_seasons import SEASONS_DIR

    copy = tmp_path / "w.duckdb"
    shutil.copy2(sample_site / "w.duckdb", copy)
    shutil.copytree(sample_site / "reports" / "joueurs", tmp_path / "joueurs")
    folder = tmp_path / "joueurs" / SEASONS_DIR

    def write() -> int:
        return player_pages.write_player_pages(ReportData.open(copy), tmp_path).shared_files

    def files() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(folder.glob("*.js"))}

    built = files()
    assert write() == 0 and files() == built  # as built
    first = sorted(built)[0]
    (folder / first).unlink()
    assert write() == 1 and files() == built
    (folder / first).write_bytes(b"// changed by hand")
    assert write() == 0 and (folder / first).read_bytes() == b"// changed by hand"
    (folder / first).write_bytes(built[first])
    with duckdb.connect(str(copy)) as connection:
        season = connection.sql("SELECT max(season) FROM cote_ranking").fetchall()[0][0]
        connection.execute("UPDATE cote_ranking SET rank = rank + 1000 WHERE season = ?", [season])
    assert write() == 1
    now = files()
    assert [name for name in built if now[name] != built[name]] == [f"{season}.js"]
    data = ReportData.open(copy)
    records = season_records(
        data.table("cote_ranking"),
        data.table("elo_ranking"),
        data.table("series_classification"),
        data.table("series_movements"),
    ).filter(pl.col("season") == season)
    text = season_file_text(season, records.select("player_id", "record").iter_rows())
    assert now[f"{season}.js"] == text.encode("utf-8")


def test_a_players_rows_sent_to_a_worker_arrive_whole_and_compressed() -> None:
    """A `PlayerRows` pickled for a page worker (`PlayerRows.__reduce__`: its frame as
    LZ4-compressed Arrow) arrives with the same rows, column types, spans and digests; its
    repetitive rows (a chunk's results repeat each tournament's and player's columns) take
    a fraction of what Polars' own pickle of the frame takes; an empty one stays empty."""
    import datetime as dt
    import pickle

    from pipelines.reports.player_blocks import PlayerRows

    n = 3_000
    frame = pl.DataFrame(
        {
            "player_id": [f"P{i % 300:04d}" for i in range(n)],
            "tournament_name": ["Festival de Vichy"] * n,
            "end_date": [dt.date(2043, 1, 1) + dt.timedelta(days=i % 40) for i in range(n)],
            "score": list(range(n)),
            "wins": [None if i % 7 == 0 else i / 2 for i in range(n)],
            "series": pl.Series(["1A", "2B", "3C"] * (n // 3), dtype=pl.Categorical),
        }
    ).sort("player_id", maintain_order=True)
    rows = by_player(frame)
    back = pickle.loads(pickle.dumps(rows))
    assert isinstance(back, PlayerRows) and back.frame is not None
    assert_frame_equal(back.frame, frame)
    assert dict(back._spans) == dict(rows._spans) and back.digests == rows.digests
    assert_frame_equal(back["P0042"], rows["P0042"])
    assert len(pickle.dumps(rows)) < len(pickle.dumps(frame)) / 3
    empty = pickle.loads(pickle.dumps(PlayerRows(None, {}, {})))
    assert empty.frame is None and len(empty) == 0 and empty.digests == {}


def test_an_events_name_date_and_weight_are_those_of_its_row(
    sample_site: Path, tmp_path: Path
) -> None:
    """What a page writes of an event (`_event_weights`): its name, else its id (no name, or
    an empty one), its last day, and its coefficient (the export's, else its category's,
    else the default): made column by column, the mapping of the events' rows read one by
    one."""
    import duckdb

    from pipelines.reports.data import ReportData
    from transforms.series import event_coefficients

    copy = tmp_path / "w.duckdb"
    shutil.copy2(sample_site / "w.duckdb", copy)
    with duckdb.connect(str(copy)) as connection:
        ids = [r[0] for r in connection.sql("SELECT tournament_id FROM tournaments").fetchall()]
        connection.execute(
            "UPDATE tournaments SET tournament_name = NULL WHERE tournament_id = ?", [ids[0]]
        )
        connection.execute(
            "UPDATE tournaments SET tournament_name = '' WHERE tournament_id = ?", [ids[1]]
        )
    data = ReportData.open(copy)
    events = data.tournaments()
    params = data.params.series
    weights = dict(event_coefficients(events, params).iter_rows())
    expected = {
        r["tournament_id"]: (
            r["tournament_name"] or r["tournament_id"],
            r["end_date"],
            float(weights[r["tournament_id"]]),
        )
        for r in events.iter_rows(named=True)
    }
    made = player_pages._event_weights(data)
    assert made == expected
    assert made[ids[0]][0] == ids[0] and made[ids[1]][0] == ids[1]
    assert {type(w) for _, _, w in made.values()} == {float}
    assert len({w for _, _, w in made.values()}) > 1  # the sample's events weigh differently


def test_a_page_is_written_in_place_when_new_and_replaced_when_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a new page: written under its own name, no temporary file left
    new = tmp_path / "100.html"
    player_pages._write_page(new, "<p>Élodie</p>")
    assert new.read_text(encoding="utf-8") == "<p>Élodie</p>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["100.html"]
    # a page there, hard-linked from the published reports (a staging copy): replaced,
    # the published page untouched
    published = tmp_path / "published.html"
    published.write_text("<p>avant</p>", encoding="utf-8")
    staged = tmp_path / "200.html"
    os.link(published, staged)
    player_pages._write_page(staged, "<p>après</p>")
    assert staged.read_text(encoding="utf-8") == "<p>après</p>"
    assert published.read_text(encoding="utf-8") == "<p>avant</p>"
    assert staged.stat().st_ino != published.stat().st_ino
    # a new page whose writing fails (a full disk) leaves no half page under its name
    real_open = open

    class _Full:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> _Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            self.handle.write(data[:5])
            raise OSError(28, "No space left on device")

    def opening(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, mode, *args, **kwargs)
        return _Full(handle) if isinstance(file, int) else handle

    monkeypatch.setattr("builtins.open", opening)
    failed = tmp_path / "300.html"
    with pytest.raises(OSError, match="No space"):
        player_pages._write_page(failed, "<p>" + "x" * 100 + "</p>")
    assert not failed.exists()
