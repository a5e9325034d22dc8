"""The season-wide facts of the player pages, in one shared file per season.

A player page shows facts that move with every tournament of the season though the player
did not play it: the end-of-season ranks (cote, Elo) and the duplicate classification
computed here (series, sub-series, movement, criterion), which the bars of the whole field
decide — and, from it, the series computed for the next season in the series history
(table, « Écart » and chart). Written in every page, they made one new tournament rewrite
the pages of thousands of players who did not play it (issue 25).

Decisions taken here (issue 25):
- These facts are in `joueurs/saisons/<season>.js`, one file per season, every player's
  record of the season keyed by licence; a page loads the files of its seasons with
  `<script src>` (the site opens from disk, offline: `fetch()` of a local file fails under
  file:// in Chromium, a script element does not) and `joueurs/fiche.js` fills its cells
  (`classementFiche.fill`), as text (never markup), and draws the series chart from them
  (`classementFiche.plot`). A season file is written only when its bytes change, and
  made only when its season's rows changed or it is missing (`player_pages`: the rows of
  `SEASON_TABLES` hashed by season in the warehouse; a new tournament reads and makes its
  season's file alone: 2,8 -> 0,1 CPU-s on 20 seasons × 20,000 players).
- The cells hold the texts `html.table` showed (« — » for no value): once the script ran,
  a page reads as before. Without script the cells are empty and a note says why.
- The page digest leaves these columns out (`UNSHOWN`): a page is rendered again only for
  what it writes itself.
- A page's scripts name the player and the chart in JSON written by `html.safe_json`
  (the json module's C encoder there where Plotly's would write the same text): a page
  writes five such texts (issue 25).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from pathlib import Path

import polars as pl

from pipelines.reports.html import Html, esc, fmt_number, safe_json, write_atomic
from pipelines.reports.labels import CRITERIA, MOVEMENT_LABELS, series_label
from transforms.series_labels import SERIES_ORDER

SEASONS_DIR = "saisons"  # in the players' folder
FILLER = "fiche.js"  # in the players' folder

# Per table a page reads, the columns the page shows from the season files (or not at all):
# left out of the page digest (`player_blocks.by_player`).
UNSHOWN: Mapping[str, tuple[str, ...]] = {
    "cote_ranking": ("rank", "as_of"),
    "elo_ranking": ("rank", "as_of"),
    "series_classification": (
        "series",
        "subseries",
        "super_serie",
        "criterion",
        "value",
        "federation",
        "super_serie_value",
    ),
    "series_movements": ("series", "movement"),
    # the page shows the FFSc's published series only, not its comparison with ours
    "series_comparison": ("computed_series", "agrees", "difference"),
    # the order of events over the whole warehouse: a page shows its rows in that order
    # (hashed with them), never the number, which every earlier new event shifts
    "history": ("event_order",),
}

# A record's fields (`classementFiche`): the texts of the cells, the computed series' code
# and its step (the series chart's y, « Écart »).
COTE_RANK = "c"
ELO_RANK = "e"
CODE = "s"  # the series computed here for the next season (SS for the super-série)
LABEL = "l"
STEP = "n"
SUBSERIES = "u"
MOVEMENT = "m"
CRITERION = "k"

SERIES_STEPS = {label: step for step, label in enumerate(SERIES_ORDER)}

# « Écart » between the official series of a season and the one computed here for it.
WHY = {
    "none": "Aucune série connue pour cette saison.",
    "no_computed": (
        "Pas de série calculée ici : le joueur n'a pas de résultat duplicate la saison "
        "précédente dans les exports reçus ; seule la série officielle compte."
    ),
    "no_official": (
        "Aucune série officielle connue (ni sur les résultats, ni dans une liste) : la "
        "série calculée ici s'applique."
    ),
    "same": "Identiques.",
    "differ": (
        "La série officielle ({source}) est celle que le joueur tient. Celle calculée ici, "
        "{side}, vient des barres d'accès de la saison précédente appliquées aux seuls "
        "exports reçus : un tournoi manquant, des quotas par fédération ou une décision de "
        "la fédération suffisent à les séparer."
    ),
    "lower": "plus basse",
    "higher": "plus haute",
}


def criterion_text(criterion: str | None, value: float | None) -> str | None:
    if value is None:
        return None
    unit = "" if criterion == "pc" else " %"
    return f"{CRITERIA.get(criterion or '', criterion)} {fmt_number(value, 2)}{unit}"


def season_records(
    cote_ranking: pl.DataFrame,
    elo_ranking: pl.DataFrame,
    classification: pl.DataFrame,
    movements: pl.DataFrame,
) -> pl.DataFrame:
    """(season, player_id, record): each player's season-wide facts of each season, the
    record a JSON object (fields above, those without value left out), sorted by season
    and licence."""
    ranks = (
        cote_ranking.select("season", "player_id", pl.col("rank").cast(pl.String).alias(COTE_RANK))
        .join(
            elo_ranking.select(
                "season", "player_id", pl.col("rank").cast(pl.String).alias(ELO_RANK)
            ),
            on=["season", "player_id"],
            how="full",
            coalesce=True,
        )
        .unique(["season", "player_id"], keep="first", maintain_order=True)
    )
    classified = classification.select(
        "season",
        "player_id",
        pl.when(pl.col("super_serie")).then(pl.lit("SS")).otherwise(pl.col("series")).alias(CODE),
        pl.col("subseries").alias(SUBSERIES),
        "criterion",
        "value",
    ).join(
        movements.select("season", "player_id", "movement"),
        on=["season", "player_id"],
        how="left",
    )
    codes = classified[CODE].drop_nulls().unique().sort().to_list()
    code_map = pl.DataFrame(
        {
            CODE: codes,
            LABEL: [series_label(c) for c in codes],
            STEP: [SERIES_STEPS.get(c) for c in codes],
        },
        schema={CODE: pl.String, LABEL: pl.String, STEP: pl.Int64},
    )
    criteria = classified.select("criterion", "value").unique(maintain_order=True)
    criteria = criteria.with_columns(
        pl.Series(
            CRITERION,
            [criterion_text(c, v) for c, v in criteria.iter_rows()],
            dtype=pl.String,
        ),
        # 0.0 and -0.0 are equal keys but not the same text
        pl.col("value").cast(pl.String).alias("_value_text"),
    )
    classified = (
        classified.with_columns(pl.col("value").cast(pl.String).alias("_value_text"))
        .join(code_map, on=CODE, how="left")
        .join(criteria, on=["criterion", "value", "_value_text"], how="left", nulls_equal=True)
        .with_columns(pl.col("movement").replace_strict(MOVEMENT_LABELS, default=None))
        .rename({"movement": MOVEMENT})
        .select("season", "player_id", CODE, LABEL, STEP, SUBSERIES, MOVEMENT, CRITERION)
    )
    fields = [COTE_RANK, ELO_RANK, CODE, LABEL, STEP, SUBSERIES, MOVEMENT, CRITERION]
    record = (
        pl.struct(fields)
        .struct.json_encode()
        # a field without value is left out (the filler reads it as none): smaller files
        .str.replace_all(r'"[a-z]":null,?', "")
        .str.replace(r",\}$", "}")
    )
    return (
        ranks.join(classified, on=["season", "player_id"], how="full", coalesce=True)
        .sort("season", "player_id")
        .select("season", "player_id", record.alias("record"))
    )


# a text JSON writes as it is between quotes (a licence, nearly always): no escape to make
_PLAIN = re.compile(r"[0-9A-Za-z _.-]*\Z")


def _js_string(text: str) -> str:
    """`json.dumps(text, ensure_ascii=False)`, without its cost for a plain text."""
    return f'"{text}"' if _PLAIN.match(text) else json.dumps(text, ensure_ascii=False)


def season_file_text(season: str, records: Iterable[tuple[str, str]]) -> str:
    """The JavaScript of a season file: its records (licence, JSON) added to
    `window.classementSaisons`."""
    body = ",\n".join(f"{_js_string(pid)}:{record}" for pid, record in records)
    return (
        "(window.classementSaisons = window.classementSaisons || {})"
        f"[{json.dumps(season, ensure_ascii=False)}] = {{\n{body}\n}};\n"
    )


def write_season_files(
    folder: Path, records: pl.DataFrame, wanted: Collection[str] | None = None
) -> int:
    """`folder/saisons/<season>.js` for every season of `records` whose text changed; the
    files of seasons not in `wanted` (by default those of `records`: the seasons gone) are
    removed; `folder/fiche.js` likewise. Returns the number of files written."""
    target = folder / SEASONS_DIR
    target.mkdir(parents=True, exist_ok=True)
    written = 0
    kept: set[str] = set() if wanted is None else {f"{season}.js" for season in wanted}
    for (season,), part in records.group_by("season", maintain_order=True):
        name = f"{season}.js"
        kept.add(name)
        text = season_file_text(str(season), part.select("player_id", "record").iter_rows())
        written += _write_if_changed(target / name, text)
    for stale in target.glob("*.js"):
        if stale.name not in kept:
            stale.unlink()
    written += _write_if_changed(folder / FILLER, filler_js())
    return written


def _write_if_changed(path: Path, text: str) -> int:
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return 0
    except OSError:
        pass
    write_atomic(path, data)
    return 1


# ------------------------------------------------------------------------- the page side


def season_scripts(seasons: Iterable[str]) -> str:
    """The `<script src>` of the season files a page reads, then the filler's."""
    return _season_scripts(tuple(sorted(seasons)))


@lru_cache(maxsize=4096)
def _season_scripts(seasons: tuple[str, ...]) -> str:
    """`season_scripts`, made once per set of seasons (many pages read the same ones)."""
    tags = [f'<script src="{esc(SEASONS_DIR)}/{esc(season)}.js"></script>' for season in seasons]
    return "".join(tags) + f'<script src="{esc(FILLER)}"></script>'


NO_SCRIPT = Html(
    '<noscript><p class="note">Les rangs de fin de saison et les séries calculées ici '
    "s'affichent quand JavaScript est activé.</p></noscript>"
)


@lru_cache(maxsize=4096)
def shared(season: str, field: str) -> Html:
    """A cell's content read from the season file: `field` of the player's record."""
    return Html(f'<span data-saison="{esc(season)}" data-champ="{esc(field)}"></span>')


def why_cell(season: str | None, official: str | None, source: str | None) -> Html:
    """« Écart » of a series history row: the official series (the page's own) against the
    one computed here for the season (`season`: the previous season's classification, read
    from its file; None: none computed)."""
    attrs = [
        f'data-officielle="{esc(official or "")}"',
        f'data-rang-officiel="{SERIES_STEPS.get(official or "", 0)}"',
        f'data-source="{esc(source or "")}"',
    ]
    if season is not None:
        attrs.append(f'data-saison="{esc(season)}"')
    return Html(f"<span data-ecart {' '.join(attrs)}></span>")


def fill_call(player_id: str) -> Html:
    return Html(f"<script>classementFiche.fill({safe_json(player_id)});</script>")


def plot_call(div_id: str, payload: str, player_id: str) -> str:
    """The script drawing a chart filled from the season files (`payload`: its JSON, as
    `html.safe_json` writes it)."""
    return f"classementFiche.plot({safe_json(div_id)},{payload},{safe_json(player_id)});"


_FILLER_JS = """// The season-wide facts of a player page (pipelines/reports/player_seasons.py): the
// season files (saisons/<season>.js) define window.classementSaisons[season][licence].
(function () {
  var seasons = window.classementSaisons = window.classementSaisons || {};
  var WHY = __WHY__;
  function record(season, pid) {
    var s = seasons[season];
    return s && Object.prototype.hasOwnProperty.call(s, pid) ? s[pid] : null;
  }
  function field(season, pid, name) {
    var r = season ? record(season, pid) : null;
    var v = r ? r[name] : null;
    return v === undefined ? null : v;
  }
  function why(cell, pid) {
    var official = cell.getAttribute("data-officielle");
    var season = cell.getAttribute("data-saison");
    var computed = field(season, pid, "s");
    if (!official && computed === null) { return WHY.none; }
    if (computed === null) { return WHY.no_computed; }
    if (!official) { return WHY.no_official; }
    if (official === computed) { return WHY.same; }
    var step = field(season, pid, "n");
    var steps = (step === null ? 0 : step) - Number(cell.getAttribute("data-rang-officiel"));
    var source = cell.getAttribute("data-source");
    var side = steps > 0 ? WHY.lower : WHY.higher;
    return WHY.differ.replace("{side}", function () { return side; })
      .replace("{source}", function () { return source; });
  }
  window.classementFiche = {
    fill: function (pid) {
      Array.prototype.forEach.call(document.querySelectorAll("span[data-champ]"), function (c) {
        var v = field(c.getAttribute("data-saison"), pid, c.getAttribute("data-champ"));
        c.textContent = v === null ? "\\u2014" : String(v);
      });
      Array.prototype.forEach.call(document.querySelectorAll("span[data-ecart]"), function (c) {
        c.textContent = why(c, pid);
      });
    },
    // the series chart: the trace `fill.trace` takes, per point, the series computed in
    // the season `fill.from[i]` (its step, its label; none: null and « — »)
    plot: function (id, spec, pid) {
      var fill = spec.fill;
      delete spec.fill;
      var trace = spec.data[fill.trace];
      trace.y = fill.from.map(function (s) { return field(s, pid, "n"); });
      trace.text = fill.from.map(function (s) {
        var label = field(s, pid, "l");
        return label === null ? "\\u2014" : label;
      });
      window.classementPlot(id, spec);
    }
  };
})();
"""


def filler_js() -> str:
    return _FILLER_JS.replace("__WHY__", safe_json(WHY))
