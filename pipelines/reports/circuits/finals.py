"""The page of a round-robin final's circuit in a year — Masters Grand Sud or Grand Est: the
crosstable, the standings with the tie-break that decided each place, a withdrawal's
annulled games, the Masters' pairing table check and the Grand Est qualifying ranking
(docs/rules.md §5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from pipelines.reports.charts import PALETTE, axis, base_layout
from pipelines.reports.circuits.common import (
    event_order,
    for_year,
    page_names,
    results_of,
    shared,
    tournament_labels,
    who,
)
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, esc, fmt_date, fmt_number, plotly_text, table, tag
from pipelines.reports.section import Chart, Fragment, Section
from transforms.round_robin.pairings import default_pairings, pairing_errors
from transforms.round_robin.standings import TIEBREAK_LABELS

WIN, DRAW, LOSS, ANNULLED = "#cfe8d5", "#fbe7b5", "#f4c7c3", "#e3e5ea"
MASTERS_CRITERIA = (
    "points, puis défense (coups concédés), attaque (coups pris), match(s) "
    "particulier(s), place au classement annuel — sauf une égalité pour la première place, "
    "départagée par un barrage"
)
GRAND_EST_CRITERIA = (
    "points, puis coups joués au top, coups marqués dans les matchs, "
    "match(s) particulier(s), plus petit total marqué par les adversaires, classement de la "
    "phase qualificative"
)


def _finals(data: ReportData, circuit: str, year: str) -> list[str]:
    """The circuit's finals ranked in `year`, in event order."""

    def build() -> list[str]:
        standings = for_year(data.table("round_robin_standings"), year).filter(
            pl.col("circuit") == circuit
        )
        ids = set(standings["tournament_id"].to_list())
        return [t for t in event_order(data) if t in ids]

    return shared(data, ("finals", circuit, year), build)


def _by_tournament(data: ReportData, name: str) -> dict[str, pl.DataFrame]:
    """The rows of the table `name` by tournament, in the table's order (built once)."""

    def build() -> dict[str, pl.DataFrame]:
        parts = data.table(name).partition_by("tournament_id", as_dict=True)
        return {key[0]: part for key, part in parts.items()}

    return shared(data, ("by_tournament", name), build)


def _standings(data: ReportData, tid: str) -> pl.DataFrame:
    def build() -> pl.DataFrame:
        rows = _by_tournament(data, "round_robin_standings").get(tid)
        if rows is None:
            rows = data.table("round_robin_standings").clear()
        return rows.sort("place", "player_id", nulls_last=True)

    return shared(data, ("standings", tid), build)


def _title(data: ReportData, tid: str) -> str:
    name, end = tournament_labels(data).get(tid, (tid, None))
    return f"{name} ({fmt_date(end)})"


def _none(year: str) -> list[Fragment]:
    return [Html(f'<p class="note">Aucune finale classée en {esc(year)}.</p>')]


def _heading(data: ReportData, tid: str, several: bool) -> list[Fragment]:
    return [tag("h3", _title(data, tid))] if several else []


# ---------------------------------------------------------------------------- standings


def _tiebreak(code: str | None) -> str | None:
    return None if code is None else TIEBREAK_LABELS.get(code, code)


def render_standings(
    data: ReportData, year: str, *, circuit: str, grand_est: bool
) -> Sequence[Fragment]:
    finals = _finals(data, circuit, year)
    if not finals:
        return _none(year)
    names = page_names(data)
    score = (data.params.grand_est if grand_est else data.params.masters).points
    out: list[Fragment] = [
        tag(
            "p",
            f"Victoire {score.win} points, nul {score.draw}, défaite {score.loss} ; à égalité : "
            f"{GRAND_EST_CRITERIA if grand_est else MASTERS_CRITERIA}.",
        ),
    ]
    for tid in finals:
        rows = _standings(data, tid)
        out += _heading(data, tid, len(finals) > 1)
        header = ["Place", "Joueur", "N°", "Pts", "V", "N", "D", "Coups pris", "Coups concédés"]
        if grand_est:
            header.append("Coups au top")
        header += ["Départagé par", "Parties annulées"]
        body = []
        for r in rows.iter_rows(named=True):
            cells: list[object] = [
                r["place"] if r["place"] is not None else "abandon",
                who(r["player_id"], names),
                r["seed"],
                r["points"],
                r["wins"],
                r["draws"],
                r["losses"],
                r["moves_won"],
                r["moves_conceded"],
            ]
            if grand_est:
                cells.append(r["top_moves"])
            cells += [
                _tiebreak(r["tiebreak_used"]),
                fmt_number(len(r["annulled_games"])) if r["annulled_games"] else None,
            ]
            body.append(cells)
        numeric = (0, 2, 3, 4, 5, 6, 7, 8, *((9,) if grand_est else ()))
        out.append(table(header, body, numeric=numeric, caption="Classement final"))
        playoff = rows.filter(pl.col("play_off_needed"))
        if playoff.height:
            out.append(
                tag(
                    "p",
                    "Égalité pour la première place après les matchs particuliers : "
                    + ", ".join(names.get(p, p) for p in playoff["player_id"].to_list())
                    + " partagent la 1re place en attendant le barrage (tirages préparés "
                    "par séries de 3 coups).",
                )
            )
    return out


# ---------------------------------------------------------------------------- crosstable


def _matches(data: ReportData, tid: str) -> pl.DataFrame:
    rows = _by_tournament(data, "matches").get(tid)
    return data.table("matches").clear() if rows is None else rows


def render_crosstable(
    data: ReportData, year: str, *, circuit: str, grand_est: bool
) -> Sequence[Fragment]:
    finals = _finals(data, circuit, year)
    if not finals:
        return _none(year)
    names = page_names(data)
    out: list[Fragment] = [
        Html(
            "<p>Coups pris par le joueur de la ligne contre celui de la colonne (rondes entre "
            "parenthèses). "
            f'<span style="background:{WIN};padding:0 .3em">victoire</span> '
            f'<span style="background:{DRAW};padding:0 .3em">nul</span> '
            f'<span style="background:{LOSS};padding:0 .3em">défaite</span> '
            f'<span style="background:{ANNULLED};padding:0 .3em"><s>annulée</s></span> '
            "(partie annulée pour le classement de ce joueur).</p>"
        )
    ]
    for tid in finals:
        standings = _standings(data, tid)
        order = standings["player_id"].to_list()
        annulled = {
            r["player_id"]: set(r["annulled_games"]) for r in standings.iter_rows(named=True)
        }
        games = {
            (p, o): (pm, om, rnd)
            for p, o, pm, om, rnd in _matches(data, tid)
            .select("player_id", "opponent_id", "player_moves", "opponent_moves", "round")
            .iter_rows()
        }
        head = "".join(f'<th class="num">{i}</th>' for i in range(1, len(order) + 1))
        body = []
        for i, p in enumerate(order, 1):
            cells = []
            for o in order:
                if o == p:
                    cells.append('<td style="background:#9aa3b2"></td>')
                    continue
                game = games.get((p, o))
                if game is None:
                    cells.append('<td class="num">·</td>')
                    continue
                pm, om, rnd = game
                colour = WIN if pm > om else DRAW if pm == om else LOSS
                text = f"{pm}-{om}"
                if o in annulled.get(p, set()):
                    colour, text = ANNULLED, f"<s>{text}</s>"
                cells.append(
                    f'<td class="num" style="background:{colour}" '
                    f'title="ronde {rnd}">{text}<br><small>({rnd})</small></td>'
                )
            place = standings.row(i - 1, named=True)["place"]
            body.append(
                f'<tr><td class="num">{i}</td><td>{esc(place) if place else "ab."}</td>'
                f"<td>{who(p, names)}</td>{''.join(cells)}</tr>"
            )
        out += _heading(data, tid, len(finals) > 1)
        out.append(
            Html(
                '<div class="scroll"><table class="crosstable" style="font-size:.72rem">'
                "<caption>Tableau croisé (joueurs dans l'ordre du classement)</caption>"
                f"<thead><tr><th>#</th><th>Place</th><th>Joueur</th>{head}</tr></thead>"
                f"<tbody>{''.join(body)}</tbody></table></div>"
            )
        )
    return out


def render_progress(
    data: ReportData, year: str, *, circuit: str, grand_est: bool
) -> Sequence[Fragment]:
    finals = _finals(data, circuit, year)
    if not finals:
        return _none(year)
    names = page_names(data)
    out: list[Fragment] = []
    for k, tid in enumerate(finals, 1):
        standings = _standings(data, tid)
        played = _matches(data, tid).with_columns(
            pts=pl.when(pl.col("player_moves") > pl.col("opponent_moves"))
            .then(2)
            .when(pl.col("player_moves") == pl.col("opponent_moves"))
            .then(1)
            .otherwise(0)
        )
        rounds = sorted(played["round"].unique().to_list())
        traces = []
        for i, pid in enumerate(standings["player_id"].to_list()):
            by_round = dict(
                played.filter(pl.col("player_id") == pid).select("round", "pts").iter_rows()
            )
            total, ys = 0, []
            for r in rounds:
                if r in by_round:
                    total += by_round[r]
                    ys.append(total)
                else:
                    ys.append(None)
            traces.append(
                {
                    "type": "scatter",
                    "mode": "lines+markers",
                    "name": plotly_text(names.get(pid, pid)),
                    "x": rounds,
                    "y": ys,
                    "line": {"width": 1.5, "color": PALETTE[i % len(PALETTE)]},
                    "marker": {"size": 4},
                    "hovertemplate": f"<b>{plotly_text(names.get(pid, pid))}</b><br>"
                    "ronde %{x} : %{y} points<extra></extra>",
                }
            )
        layout = base_layout(
            xaxis=axis("Ronde", dtick=1),
            yaxis=axis("Points (victoire 2, nul 1)"),
            legend={"orientation": "v", "x": 1.02, "y": 1, "font": {"size": 10}},
            margin={"l": 50, "r": 160, "t": 20, "b": 50},
        )
        out.append(
            Chart(
                f"points-{k}",
                {"data": traces, "layout": layout},
                f"Points cumulés ronde après ronde — {_title(data, tid)} (parties telles que "
                "jouées, avant toute annulation)",
                height=420,
            )
        )
    return out


# ---------------------------------------------------------------------------- tie-breaks


def render_tiebreaks(
    data: ReportData, year: str, *, circuit: str, grand_est: bool
) -> Sequence[Fragment]:
    finals = _finals(data, circuit, year)
    if not finals:
        return _none(year)
    names = page_names(data)
    out: list[Fragment] = []
    for tid in finals:
        # players sharing their points with another, highest points first, in standings order
        tied = (
            _standings(data, tid)
            .filter(pl.col("place").is_not_null())
            .with_row_index("_order")
            .filter(pl.col("points").is_not_null() & (pl.len().over("points") > 1))
            .sort(["points", "_order"], descending=[True, False])
        )
        out += _heading(data, tid, len(finals) > 1)
        rows = [
            (
                r["place"],
                who(r["player_id"], names),
                r["points"],
                _tiebreak(r["tiebreak_used"]) or "—",
            )
            for r in tied.iter_rows(named=True)
        ]
        if not rows:
            out.append(Html('<p class="note">Aucune égalité de points : les points suffisent.</p>'))
            continue
        out.append(
            table(
                ["Place", "Joueur", "Pts", "Critère qui a fixé la place"],
                rows,
                numeric=(0, 2),
                caption="Joueurs à égalité de points et le critère qui les a départagés",
            )
        )
    return out


# ---------------------------------------------------------------------------- withdrawal


def render_withdrawals(
    data: ReportData, year: str, *, circuit: str, grand_est: bool
) -> Sequence[Fragment]:
    finals = _finals(data, circuit, year)
    if not finals:
        return _none(year)
    names = page_names(data)
    results = results_of(data, finals)
    out: list[Fragment] = []
    for tid in finals:
        standings = _standings(data, tid)
        gone = results.filter(
            (pl.col("tournament_id") == tid) & pl.col("withdrawn_after_round").is_not_null()
        )
        out += _heading(data, tid, len(finals) > 1)
        if gone.height == 0:
            out.append(Html('<p class="note">Aucun abandon : toutes les parties comptent.</p>'))
            continue
        matches = _matches(data, tid)
        for w, after in gone.select("player_id", "withdrawn_after_round").iter_rows():
            met = set(matches.filter(pl.col("opponent_id") == w)["player_id"].to_list())
            kept = [
                r["player_id"]
                for r in standings.iter_rows(named=True)
                if r["player_id"] in met and w not in r["annulled_games"] and r["place"]
            ]
            text = (
                f"{names.get(w, w)} abandonne après la ronde {after} : ses parties sont "
                "annulées (points et départages) et il n'est pas classé."
            )
            if kept:
                text += (
                    " L'abandon intervient près de la fin et les joueurs pouvant encore "
                    "rattraper le premier l'avaient déjà rencontré : les premières places "
                    f"({', '.join(names.get(p, p) for p in kept)}) sont établies avec ses "
                    "parties, la suite du classement sans elles."
                )
            out.append(tag("p", text))
        rows = [
            (
                r["place"] if r["place"] is not None else "abandon",
                who(r["player_id"], names),
                ", ".join(names.get(o, o) for o in r["annulled_games"]),
            )
            for r in standings.iter_rows(named=True)
            if r["annulled_games"]
        ]
        out.append(
            table(
                ["Place", "Joueur", "Parties annulées pour son classement (adversaires)"],
                rows,
                numeric=(0,),
            )
        )
    return out


# ---------------------------------------------------------------------------- pairings


def render_pairings(
    data: ReportData, year: str, *, circuit: str, grand_est: bool
) -> Sequence[Fragment]:
    finals = _finals(data, circuit, year)
    if not finals:
        return _none(year)
    pairings = data.params.masters.pairings
    out: list[Fragment] = [
        Html(
            "<p>L'ordre des matchs suit le tableau du règlement du Masters Grand Sud "
            "(chapitre 2, « Ordre des matchs » ; reconstitution : au 3e match, en table 2, "
            "le 2e du classement annuel rencontre le 13e). Un match joué hors de la table compte "
            "quand même.</p>"
        )
    ]
    if len(pairings) == len(default_pairings()) and set(pairings) == set(default_pairings()):
        out.append(Html('<p class="note">Table par défaut du projet.</p>'))
    for tid in finals:
        field = _standings(data, tid).select("player_id", "seed").drop_nulls()
        matches = _matches(data, tid)
        issues = pairing_errors(matches, field, pairings)
        out += _heading(data, tid, len(finals) > 1)
        if issues.height == 0:
            out.append(tag("p", "Tous les matchs suivent la table des matchs."))
            continue
        located = matches.with_row_index("row").with_columns(pl.col("row").cast(pl.Int64))
        shown = (
            issues.join(located, on="row")
            .filter(pl.col("player_id") < pl.col("opponent_id"))
            .sort("round", "table")
        )
        out.append(
            table(
                ["Ronde", "Table", "Écart à la table des matchs"],
                [(r["round"], r["table"], r["message"]) for r in shown.iter_rows(named=True)],
                numeric=(0, 1),
            )
        )
    return out


# ---------------------------------------------------------------------------- qualifying


def render_qualifying(
    data: ReportData, year: str, *, circuit: str, grand_est: bool
) -> Sequence[Fragment]:
    qualifying = for_year(data.table("grand_est_qualifying"), year)
    if qualifying.height == 0:
        return [Html(f'<p class="note">Aucun tournoi qualificatif en {esc(year)}.</p>')]
    names = page_names(data)

    def podiums(histogram: list[int]) -> str:
        parts = [
            f"{'1er' if k == 1 else f'{k}e'} ×{n}"
            for k, n in enumerate(histogram, 1)
            if n and k <= 8
        ]
        return " · ".join(parts)

    return [
        Html(
            "<p>Chaque tournoi qualificatif attribue les mêmes points pour la même place "
            "(barème du règlement du Championnat du Grand Est, point 2, reconstitution) ; "
            "tous les points sont gardés ; à égalité, le nombre de 1res "
            "places, puis de 2es, … jusqu'à la 32e, puis de même pour les places au "
            "duplicate. Les 16 premiers sont qualifiés pour la finale.</p>"
        ),
        table(
            ["Place", "Joueur", "Points", "Tournois", "Places obtenues (8 premières)"],
            [
                (
                    r["place"],
                    who(r["player_id"], names),
                    fmt_number(r["points"], 0 if float(r["points"]).is_integer() else 1),
                    r["tournaments"],
                    podiums(r["places_histogram"]),
                )
                for r in qualifying.sort("place", "player_id").iter_rows(named=True)
            ],
            numeric=(0, 2, 3),
            caption=f"Classement de la phase qualificative {year}",
        ),
    ]


def sections(circuit: str, *, grand_est: bool) -> list[Section]:
    """The sections of a final's page for the circuit `circuit` (its code)."""

    def bind(render: Any) -> Any:
        return lambda data, year: render(data, year, circuit=circuit, grand_est=grand_est)

    found = [
        Section("final-standings", "Classement de la finale", 0, bind(render_standings)),
        Section("final-crosstable", "Tableau croisé", 10, bind(render_crosstable)),
        Section("final-progress", "Ronde après ronde", 15, bind(render_progress)),
        Section("final-tiebreaks", "Départages", 20, bind(render_tiebreaks)),
        Section("final-withdrawals", "Abandons et parties annulées", 30, bind(render_withdrawals)),
    ]
    if grand_est:
        found.append(
            Section("grand-est-qualifying", "Phase qualificative", 40, bind(render_qualifying))
        )
    else:
        found.append(Section("masters-pairings", "Ordre des matchs", 40, bind(render_pairings)))
    return found
