"""The player pages (`pipelines.reports.player_pages`): the rows built for many players at
once are the rows `html.table` writes one by one, a player's rows are their own, and a
page links only to the seasons that have a report (issue 27, item 2)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from pipelines.reports.html import Html, fmt_number, fmt_signed, table
from pipelines.reports.player_blocks import by_player, season_link
from pipelines.reports.player_pages import _bodies, _Cell, _table_of

CELLS: tuple[_Cell, ...] = (
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


def test_rows_built_together_are_the_rows_of_html_table() -> None:
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
