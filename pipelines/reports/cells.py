"""The rows of a table built for many players at once: each cell's function called once
per distinct combination of the columns it reads, not once per row, the rows joined in
Polars (the player pages' long tables, `pipelines.reports.player_pages`, and the player
blocks that render a chunk of players at once, `PlayerBlock.render_chunk`). The markup is
`html.table`'s, cell for cell."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import polars as pl

from pipelines.reports.html import Html, esc, table

# A cell of a vectorised table: the columns it reads and the function of their values
# that gives its content (escaped unless `Html`, « — » for None, as `html.table` does).
Cell = tuple[tuple[str, ...], Callable[..., object]]


def cell_html(value: object, numeric: bool) -> str:
    content = value if isinstance(value, Html) else esc("—" if value is None else value)
    return f'<td class="num">{content}</td>' if numeric else f"<td>{content}</td>"


# Up to this many rows, `with_cells` calls each cell's function row by row: a join per
# cell costs about as much for 5 rows as for 200, and a build of the tests' 4-player folder
# made ~110 of them for its pages (its pages 0,58 → 0,48 CPU-s, 6 December 2026).
ROW_BY_ROW = 200


def with_cells(
    frame: pl.DataFrame, cells: Sequence[Cell], numeric: Iterable[int], name: str, first: int = 0
) -> pl.DataFrame:
    """`frame` with a column `name`: each row's cells (`<td>…</td>`, as `html.table` writes
    them; `first` the table column of the first). Each cell's function is called once per
    distinct combination of the columns it reads, not once per row: the pages of every
    player are built with a few joins rather than a Python call per cell. A frame of at most
    `ROW_BY_ROW` rows is done row by row (`cells_row_by_row`: the same cells)."""
    if frame.height <= ROW_BY_ROW:
        return cells_row_by_row(frame, cells, numeric, name, first)
    return cells_by_distinct(frame, cells, numeric, name, first)


def cells_row_by_row(
    frame: pl.DataFrame, cells: Sequence[Cell], numeric: Iterable[int], name: str, first: int = 0
) -> pl.DataFrame:
    """`with_cells`, each cell's function called on each row."""
    right = set(numeric)
    read = list(dict.fromkeys(c for inputs, _ in cells for c in inputs))
    where = {c: i for i, c in enumerate(read)}
    plan = [
        ([where[c] for c in inputs], fn, first + i in right) for i, (inputs, fn) in enumerate(cells)
    ]
    rows = [
        "".join(cell_html(fn(*(row[j] for j in at)), num) for at, fn, num in plan)
        for row in frame.select(read).iter_rows()
    ]
    return frame.with_columns(pl.Series(name, rows, dtype=pl.String))


def cells_by_distinct(
    frame: pl.DataFrame, cells: Sequence[Cell], numeric: Iterable[int], name: str, first: int = 0
) -> pl.DataFrame:
    """`with_cells`, each cell's function called once per distinct combination of the
    columns it reads (`cell_html` written inline: a call less per value). A cell's texts
    are joined back to the rows on its own key columns only, not on a frame carrying the
    cells already made (the calls of s20's first two chunks of pages replayed, three times
    each: 0.86–1.11 → 0.83–0.92 CPU-s, 7 December 2026)."""
    right = set(numeric)
    read = list(dict.fromkeys(c for inputs, _ in cells for c in inputs))
    # a float is also keyed by its text: 0.0 and -0.0 are equal keys but not the same cell
    floats = {c for c in read if frame.schema[c].is_float()}
    work = frame.select(
        *read, *(pl.col(c).cast(pl.String).alias(f"_text_{c}") for c in sorted(floats))
    )
    pieces: list[pl.Series] = []
    for i, (inputs, fn) in enumerate(cells):
        keys = [*inputs, *(f"_text_{c}" for c in inputs if c in floats)]
        rows = work.select(keys)
        distinct = rows.unique(maintain_order=True)
        before, after = ('<td class="num">', "</td>") if first + i in right else ("<td>", "</td>")
        results: Iterable[object] = (
            map(fn, distinct.get_column(inputs[0]).to_list())
            if len(inputs) == 1
            else (fn(*row[: len(inputs)]) for row in distinct.iter_rows())
        )
        values = [
            before
            + (value if isinstance(value, Html) else esc("—" if value is None else value))
            + after
            for value in results
        ]
        column = f"_cell{i}"
        distinct = distinct.with_columns(pl.Series(column, values, dtype=pl.String))
        joined = rows.join(distinct, on=keys, how="left", nulls_equal=True, maintain_order="left")
        pieces.append(joined.get_column(column))
    return frame.with_columns(pl.DataFrame(pieces).select(pl.concat_str(pl.all()).alias(name)))


def table_shell(
    headers: list[str], numeric: tuple[int, ...], caption: str | None
) -> tuple[str, str]:
    """The markup of `html.table` before and after its rows."""
    return _shell(tuple(headers), numeric, caption)


@lru_cache(maxsize=64)
def _shell(
    headers: tuple[str, ...], numeric: tuple[int, ...], caption: str | None
) -> tuple[str, str]:
    """`table_shell`, made once per table."""
    empty = table(headers, [], numeric=numeric, caption=caption)
    before, after = empty.split("<tbody></tbody>")
    return before + "<tbody>", "</tbody>" + after
