"""What the circuit pages share: circuit names and slugs, labels, the year's tournaments."""

from __future__ import annotations

import datetime as dt

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, fmt_number, player_link
from transforms.federations import AliasTable

# From a page of `circuits/<year>/` to the player pages.
PLAYERS_PREFIX = "../../joueurs/"


def circuit_names(data: ReportData) -> AliasTable:
    """The circuits' alias table (`data/reference/circuits.csv`) of the report's reference."""
    return data.params.circuit_names


def slug(code: str) -> str:
    """The page name of a circuit: its code in lower case with dashes (`grand-est`)."""
    return code.lower().replace("_", "-")


def points(value: float | None) -> str:
    """Circuit points, exact: whole numbers without decimals, halves with one (27,5)."""
    if value is None:
        return "—"
    return fmt_number(value, 0 if float(value).is_integer() else 1)


def movement(value: int | None) -> str:
    """Places gained (+3) or lost (−2) since the previous ranking; « nouveau » when absent
    from it, « = » when unchanged."""
    if value is None:
        return "nouveau"
    if value == 0:
        return "="
    return f"+{value}" if value > 0 else f"−{-value}"


def who(pid: str, names: dict[str, str]) -> Html:
    """A player's name linking to their page (from a circuit page)."""
    return player_link(pid, names.get(pid, pid), prefix=PLAYERS_PREFIX)


def tournament_labels(data: ReportData) -> dict[str, tuple[str, dt.date | None]]:
    """Each tournament's (name, end date)."""
    events = data.tournaments()
    return {
        tid: (name or tid, end)
        for tid, name, end in events.select(
            "tournament_id", "tournament_name", "end_date"
        ).iter_rows()
    }


def for_year(frame: pl.DataFrame, year: str) -> pl.DataFrame:
    return frame.filter(pl.col("year") == int(year))
