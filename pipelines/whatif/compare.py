"""A what-if's comparison: the season's tables before (the warehouse's) and after (with the
changed parameters), every difference found by `transforms.whatif`, and the French rows
of `changements.csv` (one per player and outcome that differs)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.reference.series import load_series_params
from pipelines.reports.html import fmt_number, fmt_signed
from pipelines.reports.labels import CRITERIA, NATIONAL_RULES, national_value
from pipelines.warehouse import Warehouse
from pipelines.whatif.compute import (
    Families,
    SeasonTables,
    families_for,
    recompute,
    seasons_up_to,
    stored,
)
from pipelines.whatif.settings.model import Scenario
from transforms import whatif

# `changements.csv`: one row per player and outcome that differs.
CSV_COLUMNS = ["licence", "nom", "changement", "avant", "après", "critère", "cause"]
# Outcomes, in the order of the file and of the report.
SERIES_CHANGE = "série"
SUPER_SERIE_CHANGE = "super-série"
NATIONAL_CHANGE = "série nationale"
COTE_RANK_CHANGE = "rang à la cote"
CLASSIQUE_SERIES_CHANGE = "série classique"
COTE_CHANGE = "cote"
ELO_CHANGE = "Elo"
OUTCOMES = (
    SERIES_CHANGE,
    SUPER_SERIE_CHANGE,
    NATIONAL_CHANGE,
    COTE_RANK_CHANGE,
    CLASSIQUE_SERIES_CHANGE,
    COTE_CHANGE,
    ELO_CHANGE,
)
BY_QUOTAS = "valeurs inchangées : par les quotas et les barres"
CHAIN_LABELS = {
    whatif.CHAIN_START: "cote de départ modifiée",
    whatif.CHAIN_RULES: "règles du tournoi modifiées",
    whatif.CHAIN_SHARED: "par un tournoi partagé",
}


def criterion_text(criterion: str | None, value: float | None) -> str:
    """« %N4 45,20 % », « PC 1 234,5 », « % super-série 62,10 % »; « — » without a value."""
    if criterion is None or value is None:
        return "—"
    label = CRITERIA.get(criterion, criterion)
    if criterion == "pc":
        return f"{label} {fmt_number(value, 1)}"
    return f"{label} {fmt_number(value, 2)} %"


def series_text(series: str | None, subseries: str | None = None) -> str:
    """`4B`, `SS`, `5`; « — » for none."""
    return subseries or series or "—"


@dataclass(frozen=True)
class Comparison:
    """Everything a what-if report and its CSV show."""

    season: str
    scenario: Scenario
    families: Families
    seasons: tuple[str, ...]
    before: SeasonTables
    after: SeasonTables
    names: dict[str, str]
    tournaments: pl.DataFrame  # every tournament (names, dates, event order)
    weights: pl.DataFrame  # player_id, weight (sum of event weights, after)

    # ------------------------------------------------------------------ series

    @cached_property
    def criteria(self) -> pl.DataFrame:
        return whatif.criterion_changes(self.before.standings, self.after.standings).join(
            self.weights, on="player_id", how="left"
        )

    @cached_property
    def series(self) -> pl.DataFrame:
        return whatif.series_changes(
            self.before.classification,
            self.after.classification,
            self.before.standings,
            self.after.standings,
        )

    @cached_property
    def counts(self) -> pl.DataFrame:
        return whatif.series_counts(self.before.classification, self.after.classification)

    @cached_property
    def transitions(self) -> pl.DataFrame:
        return whatif.series_transitions(self.before.classification, self.after.classification)

    @cached_property
    def bars(self) -> pl.DataFrame:
        return whatif.bar_changes(
            self.before.bars,
            self.after.bars,
            ("series", "subseries", "federation", "criterion"),
            ("bar", "admitted", "target"),
        )

    @cached_property
    def national(self) -> pl.DataFrame:
        return whatif.national_changes(self.before.national, self.after.national)

    @cached_property
    def national_bars(self) -> pl.DataFrame:
        return whatif.bar_changes(
            self.before.national_bars,
            self.after.national_bars,
            ("federation", "series", "subseries", "rule", "kind"),
            ("bar", "admitted", "target"),
        )

    # ------------------------------------------------------------------ classique

    @cached_property
    def classique_bars(self) -> pl.DataFrame:
        return whatif.bar_changes(
            self.before.classique_bars, self.after.classique_bars, ("series",), ("bar",)
        )

    @cached_property
    def cote_ranks(self) -> pl.DataFrame:
        return whatif.rank_changes(self.before.cote_ranking, self.after.cote_ranking)

    @cached_property
    def cote_values(self) -> pl.DataFrame:
        return whatif.value_changes(
            whatif.final_values(self.before.cote_history, self.tournaments, "cote_after"),
            whatif.final_values(self.after.cote_history, self.tournaments, "cote_after"),
        )

    @cached_property
    def chain(self) -> pl.DataFrame:
        return whatif.cote_chain(
            self.before.cote_history, self.after.cote_history, self.tournaments
        )

    @cached_property
    def elo_values(self) -> pl.DataFrame:
        return whatif.value_changes(
            whatif.final_values(self.before.elo_history, self.tournaments, "rating_after"),
            whatif.final_values(self.after.elo_history, self.tournaments, "rating_after"),
        )

    # ------------------------------------------------------------------ verdict

    @property
    def unchanged(self) -> bool:
        """Nothing a committee publishes differs: no player's outcome, no bar."""
        return self.rows().height == 0 and not any(
            bool(frame.get_column("changed").any())
            for frame in (self.bars, self.national_bars, self.classique_bars)
            if frame.height
        )

    def name(self, player_id: str | None) -> str:
        return self.names.get(player_id or "", player_id or "—")

    def tournament_label(self, tournament_id: str | None) -> str:
        """« Open de Vichy (14/01/2024) », else the id."""
        if tournament_id is None:
            return "—"
        row = self.tournaments.filter(pl.col("tournament_id") == tournament_id)
        if row.height == 0:
            return tournament_id
        name = row["tournament_name"][0] or tournament_id
        end = row["end_date"][0]
        return f"{name} ({end:%d/%m/%Y})" if end is not None else name

    # ------------------------------------------------------------------ rows

    @cached_property
    def _chain_rows(self) -> dict[str, dict[str, Any]]:
        return {r["player_id"]: r for r in self.chain.iter_rows(named=True)}

    @cached_property
    def _criteria_rows(self) -> dict[str, dict[str, Any]]:
        return {r["player_id"]: r for r in self.criteria.iter_rows(named=True)}

    def chain_text(self, player_id: str) -> tuple[str, str]:
        """(criterion, cause) of a player's cote change, from the chain."""
        r = self._chain_rows.get(player_id)
        if r is None:
            return "—", "—"
        where = self.tournament_label(r["tournament_id"])
        if r["cause"] == whatif.CHAIN_START:
            text = (
                f"départ {fmt_number(r['start_before'])} → {fmt_number(r['start_after'])} "
                f"au tournoi {where}"
            )
        elif r["cause"] == whatif.CHAIN_SHARED:
            through = [self.name(p) for p in (r["through"] or "").split(";") if p]
            text = f"tournoi {where} partagé avec : {', '.join(through)}"
        else:
            text = f"tournoi {where}"
        return text, CHAIN_LABELS[r["cause"]]

    def rows(self) -> pl.DataFrame:
        """The rows of `changements.csv`: every player and outcome that differs."""
        return self._rows

    @cached_property
    def _rows(self) -> pl.DataFrame:
        out: list[dict[str, object]] = []

        def add(kind: str, pid: str, before: str, after: str, criterion: str, cause: str) -> None:
            out.append(
                {
                    "licence": pid,
                    "nom": self.name(pid),
                    "changement": kind,
                    "avant": before,
                    "après": after,
                    "critère": criterion,
                    "cause": cause,
                }
            )

        for r in self.series.iter_rows(named=True):
            self_cause = self._cause(r["player_id"], r["values_changed"])
            if r["series_changed"]:
                add(
                    SERIES_CHANGE,
                    r["player_id"],
                    series_text(r["series_before"], r["subseries_before"]),
                    series_text(r["series_after"], r["subseries_after"]),
                    f"avant : {criterion_text(r['criterion_before'], r['value_before'])} ; "
                    f"après : {criterion_text(r['criterion_after'], r['value_after'])}",
                    self_cause,
                )
            if r["super_serie_changed"]:
                add(
                    SUPER_SERIE_CHANGE,
                    r["player_id"],
                    "oui" if r["super_serie_before"] else "non",
                    "oui" if r["super_serie_after"] else "non",
                    f"avant : {criterion_text('super_serie_pct', r['super_serie_value_before'])}"
                    f" ; après : {criterion_text('super_serie_pct', r['super_serie_value_after'])}",
                    self_cause,
                )
        for r in self.national.iter_rows(named=True):
            before = series_text(r["series_before"], r["subseries_before"])
            after = series_text(r["series_after"], r["subseries_after"])
            values = (
                f"avant : {national_value(r['rule_before'], r['value_before']) or '—'} ; "
                f"après : {national_value(r['rule_after'], r['value_after']) or '—'}"
            )
            rule = NATIONAL_RULES.get(r["rule_after"] or "", r["rule_after"] or "—")
            reason = r["reason_after"] or r["reason_before"]
            cause = self._national_cause(r)
            add(
                NATIONAL_CHANGE,
                r["player_id"],
                before,
                after,
                f"{r['federation']}, {rule} ; {values}" + (f" ; {reason}" if reason else ""),
                cause,
            )
        moved = set(self.cote_values.get_column("player_id").to_list())
        for r in self.cote_ranks.iter_rows(named=True):
            cause = (
                self.chain_text(r["player_id"])[1]
                if r["player_id"] in moved
                else ("cote inchangée : celles des autres joueurs ont changé")
            )
            cotes = f"cote {fmt_number(r['value_before'])} → {fmt_number(r['value_after'])}"
            if r["rank_changed"]:
                add(
                    COTE_RANK_CHANGE,
                    r["player_id"],
                    fmt_number(r["rank_before"]),
                    fmt_number(r["rank_after"]),
                    cotes,
                    cause,
                )
            if r["series_changed"]:
                add(
                    CLASSIQUE_SERIES_CHANGE,
                    r["player_id"],
                    r["classique_series_before"] or "—",
                    r["classique_series_after"] or "—",
                    cotes,
                    cause if r["player_id"] in moved else "cote inchangée : par les barres",
                )
        for r in self.cote_values.iter_rows(named=True):
            criterion, cause = self.chain_text(r["player_id"])
            add(
                COTE_CHANGE,
                r["player_id"],
                fmt_number(r["before"]),
                fmt_number(r["after"]),
                criterion,
                cause,
            )
        for r in self.elo_values.iter_rows(named=True):
            add(
                ELO_CHANGE,
                r["player_id"],
                fmt_number(r["before"], 1),
                fmt_number(r["after"], 1),
                f"écart {fmt_signed(r['change'], 1)}",
                "paramètres de l'Elo modifiés",
            )
        frame = pl.DataFrame(out, schema=dict.fromkeys(CSV_COLUMNS, pl.String))
        order = {k: i for i, k in enumerate(OUTCOMES)}
        return (
            frame.with_columns(
                pl.col("changement").replace_strict(order, return_dtype=pl.Int64).alias("_o")
            )
            .with_row_index("_i")
            .sort("_o", "_i")
            .drop("_o", "_i")
        )

    def _national_cause(self, r: dict[str, Any]) -> str:
        """Why a national series changed: the international cascade, another rule, the
        rule's value, or the bars alone."""
        international = "international"
        if international in (r["rule_before"], r["rule_after"]):
            return "par la cascade internationale (voir « série »)"
        if r["rule_before"] != r["rule_after"]:
            before = NATIONAL_RULES.get(r["rule_before"] or "", r["rule_before"] or "—")
            after = NATIONAL_RULES.get(r["rule_after"] or "", r["rule_after"] or "—")
            return f"autre règle : {before} → {after}"
        a, b = r["value_before"], r["value_after"]
        if a is not None and b is not None and abs(a - b) <= whatif.TOLERANCE:
            return "valeur inchangée : par les barres"
        return "valeur modifiée"

    def _cause(self, player_id: str, changed: str | None) -> str:
        """Why a player's series changed: their criteria (with both values) or the bars."""
        if not changed:
            return BY_QUOTAS
        row = self._criteria_rows.get(player_id)
        parts = []
        for c in changed.split(";"):
            if row is not None:
                before = criterion_text(c, row[f"{c}_before"])
                after = criterion_text(c, row[f"{c}_after"])
                label = CRITERIA.get(c, c)
                parts.append(f"{before} → {after.removeprefix(label + ' ')}")
        return "valeurs modifiées : " + ", ".join(parts)


def compare(wh: Warehouse, season: str, scenario: Scenario, names: dict[str, str]) -> Comparison:
    """Recompute the families the scenario's changed files feed and compare."""
    seasons = tuple(seasons_up_to(wh, season))
    families = families_for(scenario.files)
    before = stored(wh, season)
    after = recompute(wh, season, scenario.reference_dir, families, before)
    params = load_series_params(Path(scenario.reference_dir))
    events = wh.read(
        "SELECT * FROM tournaments WHERE season = ? AND discipline = 'duplicate'", [season]
    )
    return Comparison(
        season=season,
        scenario=scenario,
        families=families,
        seasons=seasons,
        before=before,
        after=after,
        names=names,
        tournaments=wh.table("tournaments"),
        weights=whatif.weight_sums(after.scores, events, params),
    )
