"""Read-only access to the warehouse tables the reports and notebooks read."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

from pipelines.reference.seasons import load_season_start
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.resources import REFERENCE_DIR
from pipelines.warehouse import Warehouse
from transforms.seasons import EVENT_ORDER, season_bounds
from transforms.series import DEFAULT_FEDERATION, federation_key_expr

_S, _I, _F, _D, _B = pl.String, pl.Int64, pl.Float64, pl.Date, pl.Boolean

# The tables read, with their schema: a table absent from the warehouse reads as empty.
TABLES: dict[str, dict[str, type[pl.DataType]]] = {
    "tournaments": {
        "tournament_id": _S,
        "tournament_name": _S,
        "discipline": _S,
        "start_date": _D,
        "end_date": _D,
        "season": _S,
        "city": _S,
        "country": _S,
        "category": _S,
        "games": _I,
        "coefficient": _F,
        "top_total": _I,
        "bonus_m": _I,
        "pj_min": _I,
        "pj_max": _I,
        "players": _I,
        "source_file": _S,
    },
    "players": {
        "player_id": _S,
        "last_name": _S,
        "first_name": _S,
        "federation": _S,
        "club": _S,
        "birth_year": _I,
        "series": _S,
        "first_tournament_date": _D,
        "last_tournament_date": _D,
        "tournaments": _I,
    },
    "results": {
        "tournament_id": _S,
        "player_id": _S,
        "rank": _I,
        "federation": _S,
        "club": _S,
        "series": _S,
        "birth_year": _I,
        "score": _I,
        "wins": _F,
        "spread": _I,
        "duplicate_rank": _I,
    },
    "cote_history": {
        "tournament_id": _S,
        "player_id": _S,
        "cote_before": _I,
        "initial_place": _I,
        "rank": _I,
        "pe": _I,
        "bonus": _I,
        "pj_raw": _I,
        "pj": _I,
        "cote_after": _I,
    },
    "elo_history": {
        "tournament_id": _S,
        "player_id": _S,
        "rating_before": _F,
        "k": _F,
        "games": _I,
        "score": _F,
        "expected": _F,
        "delta": _F,
        "rating_after": _F,
    },
    "cote_ranking": {
        "season": _S,
        "as_of": _D,
        "player_id": _S,
        "rank": _I,
        "value": _I,
        "classique_series": _S,
        "tournaments": _I,
    },
    "elo_ranking": {
        "season": _S,
        "as_of": _D,
        "player_id": _S,
        "rank": _I,
        "value": _F,
        "classique_series": _S,
        "games": _I,
    },
    "classique_series_bars": {"season": _S, "set_on": _D, "series": _S, "bar": _I},
    "duplicate_event_scores": {
        "season": _S,
        "tournament_id": _S,
        "player_id": _S,
        "series": _S,
        "place": _I,
        "pct_n1": _F,
        "pct_n2": _F,
        "pct_n3": _F,
        "pct_n4": _F,
        "pc": _F,
        "series_source": _S,
    },
    "series_standings": {
        "season": _S,
        "player_id": _S,
        "federation": _S,
        "events": _I,
        "pct_n1": _F,
        "pct_n2": _F,
        "pct_n3": _F,
        "pct_n4": _F,
        "pc": _F,
        "super_serie_pct": _F,
        "super_serie_season": _F,
        "super_serie_previous": _F,
        "weight": _F,
    },
    "series_bars": {
        "season": _S,
        "series": _S,
        "subseries": _S,
        "federation": _S,
        "criterion": _S,
        "bar": _F,
        "admitted": _I,
        "target": _I,
    },
    "series_classification": {
        "season": _S,
        "player_id": _S,
        "series": _S,
        "subseries": _S,
        "super_serie": _B,
        "criterion": _S,
        "value": _F,
        "federation": _S,
        "super_serie_value": _F,
    },
    "series_movements": {
        "season": _S,
        "player_id": _S,
        "previous_series": _S,
        "series": _S,
        "movement": _S,
    },
    "series_comparison": {
        "season": _S,
        "as_of": _D,
        "player_id": _S,
        "last_name": _S,
        "first_name": _S,
        "place": _I,
        "published_series": _S,
        "published_potential_series": _S,
        "computed_series": _S,
        "agrees": _B,
        "difference": _I,
    },
}

# Series in display order (SS above 1); classique series in order of their bars.
SERIES_ORDER = ("SS", "1", "2", "3", "4", "5", "6", "7")


def series_sort_key(series: str | None) -> int:
    return SERIES_ORDER.index(series) if series in SERIES_ORDER else len(SERIES_ORDER)


class ReportData:
    """The warehouse tables, each read once through a read-only connection and kept.

    Frames handed out are Polars frames (immutable); nothing here writes the warehouse.
    """

    def __init__(self, warehouse: Warehouse, reference_dir: Path = REFERENCE_DIR) -> None:
        self._warehouse = warehouse
        self.reference_dir = reference_dir
        self._season_start = load_season_start(reference_dir)
        self._cache: dict[str, pl.DataFrame] = {}
        self._present: set[str] | None = None

    @classmethod
    def open(cls, path: Path | str, reference_dir: Path = REFERENCE_DIR) -> ReportData:
        """Data of the warehouse file at `path`."""
        return cls(Warehouse(Path(path)), reference_dir)

    # ------------------------------------------------------------------ tables

    def table(self, name: str) -> pl.DataFrame:
        """A whole table (columns as in `TABLES`); empty when the warehouse lacks it."""
        if name not in self._cache:
            if self._present is None:
                self._present = set(self._warehouse.tables())
            schema = TABLES.get(name)
            if name in self._present:
                frame = self._warehouse.table(name)
                if schema is not None:
                    frame = frame.with_columns(
                        pl.lit(None, dtype=t).alias(c)
                        for c, t in schema.items()
                        if c not in frame.columns
                    )
            elif schema is not None:
                frame = pl.DataFrame(schema=schema)
            else:
                raise KeyError(f"table {name} is not in the warehouse")
            self._cache[name] = frame
        return self._cache[name]

    def for_season(self, name: str, season: str) -> pl.DataFrame:
        return self.table(name).filter(pl.col("season") == season)

    # ------------------------------------------------------------------ seasons

    def seasons(self) -> list[str]:
        """Seasons holding at least one tournament, in order."""
        return sorted(self.table("tournaments")["season"].drop_nulls().unique().to_list())

    def season_bounds(self, season: str) -> tuple[dt.date, dt.date]:
        return season_bounds(season, *self._season_start)

    def tournaments(self, season: str | None = None) -> pl.DataFrame:
        """Tournaments in event order, optionally those of one season."""
        frame = self.table("tournaments").sort(EVENT_ORDER, nulls_last=True)
        return frame if season is None else frame.filter(pl.col("season") == season)

    # ------------------------------------------------------------------ players

    def player_names(self) -> pl.DataFrame:
        """`player_id, name, federation, club`: name is « NOM Prénom », else the licence."""
        players = self.table("players")
        name = pl.concat_str(
            [pl.col("last_name").fill_null(""), pl.col("first_name").fill_null("")],
            separator=" ",
        ).str.strip_chars()
        return players.select(
            "player_id",
            pl.when(name == "").then(pl.col("player_id")).otherwise(name).alias("name"),
            "federation",
            "club",
        )

    def names(self) -> dict[str, str]:
        frame = self.player_names()
        return dict(zip(frame["player_id"].to_list(), frame["name"].to_list(), strict=True))

    def quota_federation(self, column: str) -> pl.Expr:
        """The quota federation code (`FRA`, …, `*` for the others) of a federation name,
        as the series classification maps it (`series.yaml` aliases)."""
        params = load_series_params(self.reference_dir)
        known = load_series_quotas(self.reference_dir).federations()
        return federation_key_expr(column, params.federation_aliases, known).fill_null(
            DEFAULT_FEDERATION
        )

    # ------------------------------------------------------------------ histories

    def _history(self, name: str) -> pl.DataFrame:
        key = f"_history:{name}"
        if key in self._cache:
            return self._cache[key]
        events = (
            self.tournaments()
            .select(
                "tournament_id",
                "tournament_name",
                "discipline",
                "start_date",
                "end_date",
                "season",
                "city",
                "players",
            )
            .with_row_index("event_order")
        )
        frame = (
            self.table(name)
            .join(events, on="tournament_id", how="left")
            .sort("event_order", "player_id", nulls_last=True)
        )
        self._cache[key] = frame
        return frame

    def cote_history(self) -> pl.DataFrame:
        """`cote_history` with each tournament's name, dates, season, in event order."""
        return self._history("cote_history")

    def elo_history(self) -> pl.DataFrame:
        """`elo_history` with each tournament's name, dates, season, in event order."""
        return self._history("elo_history")

    def player_results(self) -> pl.DataFrame:
        """`results` with each tournament's details, in event order."""
        return self._history("results")
