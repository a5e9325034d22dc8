"""Escaping and HTML building blocks of the reports.

Everything that comes from the exports (names, clubs, tournament names) goes through
`text`/`esc` before it reaches a page, through `plotly_text` before it reaches a chart (Plotly
reads a subset of HTML in its labels) and through `safe_json` before it reaches a script.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import polars as pl
from plotly.utils import PlotlyJSONEncoder


class Html(str):
    """A piece of markup that is already safe to insert as is."""

    __slots__ = ()


def esc(value: object) -> str:
    """The value as HTML text (quotes escaped too, so it also fits in an attribute).

    `html.escape` replaces its five characters in turn even in a text that holds none of
    them, as almost every name, number and date does: such a text is returned as it is
    (s20's player pages call this ~5 million times; 0.30 → 0.19 µs a call)."""
    text = "" if value is None else str(value)
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return html.escape(text, quote=True)
    return text


def text(value: object) -> Html:
    return Html(esc(value))


def join(parts: Iterable[str]) -> Html:
    """Concatenate fragments, escaping every one that is not already `Html`."""
    return Html("".join(p if isinstance(p, Html) else esc(p) for p in parts))


def tag(name: str, content: object = "", **attrs: object) -> Html:
    """`<name attrs>content</name>`; `content` escaped unless it is `Html`."""
    rendered = "".join(
        f' {k.rstrip("_").replace("_", "-")}="{esc(v)}"'
        for k, v in attrs.items()
        if v is not None and v is not False
    )
    inner = content if isinstance(content, Html) else esc(content)
    return Html(f"<{name}{rendered}>{inner}</{name}>")


def link(href: str, label: object, **attrs: object) -> Html:
    return tag("a", label, href=href, **attrs)


def plotly_text(value: object) -> str:
    """A string for a Plotly label or hover text: Plotly interprets `<b>`, `<br>`, `<a>` and
    entities in them, so `<`, `>` and `&` are written as entities and shown literally."""
    return html.escape("" if value is None else str(value), quote=False)


# Each character and its escape, replaced in turn (no escape holds a character of the
# list: one `str.replace` per character, not a Python call per match).
JSON_UNSAFE = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


# `safe_json`'s fast path: the json module's C encoder, Plotly's encoder's own settings
_PLAIN_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def safe_json(value: object) -> str:
    """JSON that can sit inside a `<script>` element: no `<`, `>` or `&` left raw, so a
    `</script>` in a name cannot end the element (Plotly's own encoder is not relied on).

    The text is Plotly's encoder's (`PlotlyJSONEncoder`: numpy values, dates, « NaN » as
    null…), written by the json module's C encoder when Plotly's would add nothing: a value
    of JSON's own types (Plotly's `default` never called) whose text holds neither « NaN »
    nor « Infinity » (only then does Plotly's encoder load and dump its text again, in
    ASCII). A call through Plotly's encoder makes the encoder anew: 3.0 µs for a licence
    where the fast path takes 0.7 (a player page writes five such texts; a chart's long
    payload costs the same either way; issue 25)."""
    try:
        encoded = _PLAIN_JSON.encode(value)
    except (TypeError, ValueError):
        encoded = None
    if encoded is None or "NaN" in encoded or "Infinity" in encoded:
        encoded = json.dumps(
            value,
            cls=PlotlyJSONEncoder,
            ensure_ascii=False,
            separators=(",", ":"),
            sort_keys=False,
        )
    for unsafe, escaped in JSON_UNSAFE:
        if unsafe in encoded:
            encoded = encoded.replace(unsafe, escaped)
    return encoded


def fmt_number(value: object, decimals: int = 0) -> str:
    """French number format: thin non-breaking space between thousands, decimal comma."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    number = float(value)  # type: ignore[arg-type]
    if number == 0.0:  # -0.0 and 0.0: one key for the cache, two texts
        return _french_number(number, decimals)
    return _french_number_cached(number, decimals)


def _french_number(number: float, decimals: int) -> str:
    body = f"{number:,.{decimals}f}".replace(",", "\u202f").replace(".", ",")
    return body.replace("-", "−")


# The texts of the numbers already written (issue 25): the player pages write the same
# ranks, scores and ratings again and again (`fmt_number`: 5.8 of the 67 CPU-s of s20's
# page workers, py-spy, 7 December 2026); bounded, per process.
_french_number_cached = lru_cache(maxsize=1 << 16)(_french_number)


def fmt_signed(value: object, decimals: int = 0) -> str:
    if value is None:
        return "—"
    number = float(value)  # type: ignore[arg-type]
    sign = "+" if number > 0 else ""
    return sign + fmt_number(number, decimals)


def count_of(count: int, singular: str, plural: str | None = None) -> str:
    """`1 tournoi`, `3 tournois`, `0 tournoi`, `1 234 joueurs`: a count in French format and
    its noun agreed (0 and 1 take the singular; `plural` when not singular + « s »)."""
    noun = singular if abs(count) <= 1 else (plural or singular + "s")
    return f"{fmt_number(count)} {noun}"


def fmt_date(value: dt.date | None) -> str:
    return _french_date(value) if value is not None else "—"


@lru_cache(maxsize=1 << 14)
def _french_date(value: dt.date) -> str:
    """A date's text, once per date and process (the pages write the same event dates again
    and again: `strftime` was 3.2 of the 67 CPU-s of s20's page workers)."""
    return value.strftime("%d/%m/%Y")


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    numeric: Iterable[int] = (),
    class_: str | None = None,
    caption: str | None = None,
) -> Html:
    """An HTML table; cells that are not `Html` are escaped, `numeric` columns right-aligned."""
    right = set(numeric)
    num = ' class="num"'
    head = "".join(f"<th{num if i in right else ''}>{esc(h)}</th>" for i, h in enumerate(headers))
    body: list[str] = []
    for row in rows:  # esc of each cell, with its common cases written directly
        cells = ["<tr>"]
        for i, cell in enumerate(row):
            if isinstance(cell, Html):
                content: str = cell
            elif cell is None:
                content = "—"
            elif type(cell) is int:  # digits and a minus sign: nothing to escape
                content = str(cell)
            else:
                content = esc(cell)
            cells.append(f"<td{num}>{content}</td>" if i in right else f"<td>{content}</td>")
        cells.append("</tr>")
        body.append("".join(cells))
    return _table_box(head, "".join(body), class_, caption)


def _table_box(head: str, body: str, class_: str | None, caption: str | None) -> Html:
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    cls = f' class="{esc(class_)}"' if class_ else ""
    # in a box of its own that scrolls sideways on a narrow screen (never the page)
    return Html(
        f'<div class="scroll"><table{cls}>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def esc_expr(expr: pl.Expr) -> pl.Expr:
    """`esc` of a text column, column-wise (a missing value as "")."""
    for unsafe, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        expr = expr.str.replace_all(unsafe, entity, literal=True)
    expr = expr.str.replace_all('"', "&quot;", literal=True)
    return expr.str.replace_all("'", "&#x27;", literal=True).fill_null("")


def frame_table(
    headers: Sequence[str],
    cells: pl.DataFrame,
    *,
    numeric: Iterable[int] = (),
    class_: str | None = None,
    caption: str | None = None,
) -> Html:
    """`table(headers, rows)` of a whole field at once: each column of `cells` holds its
    cells already written as markup (`esc_expr`, `player_link_expr`…), a missing cell shown
    « — »; the rows are joined column-wise, the same markup as `table`'s."""
    right = set(numeric)
    num = ' class="num"'
    head = "".join(f"<th{num if i in right else ''}>{esc(h)}</th>" for i, h in enumerate(headers))
    parts: list[pl.Expr] = [pl.lit("<tr>")]
    for i, column in enumerate(cells.columns):
        parts += [
            pl.lit(f"<td{num}>" if i in right else "<td>"),
            pl.col(column).fill_null("—"),
            pl.lit("</td>"),
        ]
    parts.append(pl.lit("</tr>"))
    rows = cells.select(pl.concat_str(parts).alias("row"))["row"]
    return _table_box(head, "".join(rows.to_list()), class_, caption)


def per_value(values: pl.Series, write: Callable[[Any], str | None]) -> pl.Series:
    """`write` of each value of a column (a label, a French number…), called once per
    distinct value (and once for a missing one)."""
    distinct = values.unique().drop_nulls()
    written = pl.Series([write(v) for v in distinct.to_list()], dtype=pl.String)
    frame = pl.DataFrame({"value": values})
    missing = write(None) if values.null_count() else None
    return frame.select(
        pl.when(pl.col("value").is_null())
        .then(pl.lit(missing, dtype=pl.String))
        .otherwise(pl.col("value").replace_strict(distinct, written, return_dtype=pl.String))
        .alias(values.name)
    ).to_series()


def player_link_expr(
    player_id: pl.Expr, name: pl.Expr, ids: pl.Series, prefix: str = "../joueurs/"
) -> pl.Expr:
    """`player_link` column-wise: `ids` holds the licences the column may hold. A licence
    `player_filename` keeps as is (letters, digits, dots, dashes, no leading dot, not too
    long) is its file name; the others are written by `player_filename`, once each."""
    kept = player_id.str.contains(_KEPT_LICENCE) & (player_id.str.len_chars() <= MAX_FILENAME)
    distinct = ids.unique().drop_nulls()
    others = distinct.filter(
        ~distinct.str.contains(_KEPT_LICENCE) | (distinct.str.len_chars() > MAX_FILENAME)
    )
    files = pl.Series([player_filename(p) for p in others.to_list()], dtype=pl.String)
    file = (
        pl.when(kept)
        .then(player_id + ".html")
        .otherwise(player_id.replace_strict(others, files, default=None))
    )
    href = esc_expr(pl.lit(prefix) + file)
    return pl.concat_str(pl.lit('<a href="'), href, pl.lit('">'), esc_expr(name), pl.lit("</a>"))


def definition_list(items: Mapping[str, object]) -> Html:
    parts = [
        f"<dt>{esc(k)}</dt><dd>{v if isinstance(v, Html) else esc(v)}</dd>"
        for k, v in items.items()
    ]
    return Html(f'<dl class="facts">{"".join(parts)}</dl>')


_ESCAPED = re.compile(r"[^A-Za-z0-9.-]|^\.")
MAX_FILENAME = 120  # characters before `.html`; the longest names end with a hash
# A licence `player_filename` keeps as it is (nothing escaped).
_KEPT_LICENCE = r"^[A-Za-z0-9-][A-Za-z0-9.-]*$"


def player_filename(player_id: str) -> str:
    """The file name of a player's page: the licence, every other character (the escape
    `_` itself included, and a leading dot) written `_<hex>_`, so that two licences never
    share a file; a name too long for a file system keeps its start and gets a hash of the
    whole licence."""
    safe = _ESCAPED.sub(lambda m: f"_{ord(m.group(0)):x}_", player_id)
    if len(safe) > MAX_FILENAME:
        digest = hashlib.sha256(player_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        safe = f"{safe[: MAX_FILENAME - 17]}~{digest}"
    return f"{safe}.html"


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write a file through a temporary sibling and a rename (readers never see half)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    if isinstance(content, str):
        tmp.write_text(content, encoding="utf-8", newline="\n")
    else:
        tmp.write_bytes(content)
    os.replace(tmp, path)


def player_link(player_id: str, name: str, prefix: str = "../joueurs/") -> Html:
    """A link to a player's page (from a season report by default): `link(…)` written
    directly (thousands per report)."""
    label = name if isinstance(name, Html) else esc(name)
    return Html(f'<a href="{esc(prefix + player_filename(player_id))}">{label}</a>')
