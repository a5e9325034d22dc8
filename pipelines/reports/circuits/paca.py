"""The PACA page of a year: the calendar, the ranking after each tournament (players), the
top 16 over the year, the club ranking, the Masters PACA invitees and each tournament's
points (docs/rules.md §5)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import polars as pl

from pipelines.reports.charts import PALETTE, axis, base_layout
from pipelines.reports.circuits.common import (
    circuit_names,
    for_year,
    movement,
    page_names,
    points,
    results_of,
    shared,
    tournament_labels,
    who,
)
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, esc, fmt_date, fmt_number, plotly_text, table, tag
from pipelines.reports.section import Chart, Fragment, Section
from transforms.circuits import LIST_SEPARATOR, calendar_editions, with_circuit_codes

STATUS_LABELS = {"held": "joué", "announced": "annoncé", "cancelled": "annulé"}


def _strong(text: str) -> Html:
    return Html(f"<strong>{esc(text)}</strong>")


def _of(data: ReportData, name: str, circuit: str) -> pl.DataFrame:
    """The rows of the circuit in the table `name` (built once per report data)."""
    return shared(
        data, ("of", name, circuit), lambda: data.table(name).filter(pl.col("circuit") == circuit)
    )


def _rankings(data: ReportData, circuit: str, year: str) -> pl.DataFrame:
    """The year's rankings in publication order: `after_tournament_id, as_of,
    last_of_year`, with their position `k` (1, 2, …)."""

    def build() -> pl.DataFrame:
        windows = for_year(_of(data, "circuit_ranking_windows", circuit), year)
        return (
            windows.select("after_tournament_id", "as_of", "last_of_year")
            .unique("after_tournament_id", keep="first", maintain_order=True)
            .with_row_index("k", offset=1)
        )

    return shared(data, ("rankings", circuit, year), build)


def _by_ranking(data: ReportData, name: str, circuit: str) -> dict[str, pl.DataFrame]:
    """The circuit's rows of `name` (a table with `after_tournament_id`) by ranking, in the
    table's order."""

    def build() -> dict[str, pl.DataFrame]:
        parts = _of(data, name, circuit).partition_by("after_tournament_id", as_dict=True)
        return {key[0]: part for key, part in parts.items()}

    return shared(data, ("by_ranking", name, circuit), build)


def _no_data(year: str) -> list[Fragment]:
    return [Html(f'<p class="note">Aucun tournoi du circuit en {esc(year)}.</p>')]


# ---------------------------------------------------------------------------- the year


def render_year(data: ReportData, year: str, *, circuit: str) -> Sequence[Fragment]:
    calendar = with_circuit_codes(data.table("circuit_calendar"), circuit_names(data))
    editions = for_year(calendar_editions(calendar, circuit), year)
    year_points = for_year(_of(data, "circuit_points", circuit), year)
    if editions.height == 0 and year_points.height == 0:
        return _no_data(year)
    labels = tournament_labels(data)
    played = dict(year_points.group_by("tournament_id").len().iter_rows())
    seeds = dict(
        year_points.group_by("tournament_id").agg(pl.col("seeds_present").first()).iter_rows()
    )
    rows = [
        (
            r["event_key"],
            fmt_date(r["date"]),
            STATUS_LABELS.get(r["status"], r["status"]),
            fmt_date(r["announced_on"]),
            labels.get(r["tournament_id"] or "", (None, None))[0]
            if r["tournament_id"] in played
            else ("résultats absents" if r["status"] == "held" else None),
            played.get(r["tournament_id"]),
            seeds.get(r["tournament_id"]),
        )
        for r in editions.iter_rows(named=True)
    ]
    rankings = _rankings(data, circuit, year)
    last = rankings.filter(pl.col("last_of_year"))
    facts = (
        f"{fmt_number(len(played))} tournoi(s) joué(s) avec résultats, "
        f"{fmt_number(year_points['player_id'].n_unique())} joueur(s) classé(s) aux points. "
    )
    facts += (
        "Le dernier classement de l'année est publié (il ne compte que les tournois de l'année)."
        if last.height
        else "Le dernier classement de l'année n'est pas encore publié : le calendrier annonce "
        "encore une édition, ou une édition jouée attend ses résultats."
    )
    return [
        Html(
            "<p>Après chaque tournoi du circuit, un classement des joueurs et un des clubs "
            "retiennent les 5 meilleurs résultats des tournois de la période : ceux de l'année, "
            "et ceux de l'année précédente pas encore rejoués (une nouvelle édition remplace "
            "l'ancienne ; les points d'une édition ni rejouée ni annoncée tombent au premier "
            "classement qui suit son anniversaire). Les 16 premiers d'un classement sont les "
            "têtes de série du tournoi suivant.</p>"
        ),
        tag("p", facts),
        table(
            [
                "Tournoi",
                "Date",
                "Statut",
                "Annoncé le",
                "Résultats",
                "Joueurs classés",
                "Têtes de série présentes",
            ],
            rows,
            numeric=(5, 6),
            caption="Calendrier du circuit (export « calendrier de circuit »)",
        ),
    ]


# ---------------------------------------------------------------------------- rankings


def _window(data: ReportData, circuit: str, after: str) -> list[tuple[str, str, int]]:
    """The tournaments a ranking counts, in event order: (tournament id, event, year)."""
    rows = _by_ranking(data, "circuit_ranking_windows", circuit).get(after)
    if rows is None:
        return []
    return list(rows.select("tournament_id", "event_key", "edition_year").iter_rows())


def _cell(content: object, numeric: bool) -> str:
    text = content if isinstance(content, Html) else esc("—" if content is None else content)
    return f'<td class="num">{text}</td>' if numeric else f"<td>{text}</td>"


def _ranking_table(
    rows: pl.DataFrame,
    key: str,
    columns: list[tuple[str, str, int]],
    totals: dict[tuple[str, str], float],
    label: Any,
    caption: str,
) -> Html:
    """A published ranking: place, movement, who, the points of each tournament of the window
    (the counted ones in bold), tournaments played, total and best-5 total. Compact: the
    tournaments' headers on two lines, names kept on one. A tournament of the window
    without results (held before the data starts) scores nothing and is not shown."""
    scored = {t for t, _ in totals}
    columns = [c for c in columns if c[0] in scored]
    heads = [
        '<th class="num">Place</th>',
        '<th class="num">Évol.</th>',
        f"<th>{'Joueur' if key == 'player_id' else 'Club'}</th>",
        *(f'<th class="num">{esc(event)}<br>{esc(edition)}</th>' for _, event, edition in columns),
        '<th class="num">Joués</th>',
        '<th class="num">Total</th>',
        '<th class="num">5 meilleurs</th>',
    ]
    # one pass over the rows; every cell as `_cell` writes it (points formatted once)
    shown: dict[float, str] = {}

    def cell(value: float | None, strong: bool = False) -> str:
        if value is None:
            text = "—"
        elif value in shown:
            text = shown[value]
        else:
            text = shown[value] = esc(points(value))
        if strong:
            return f'<td class="num"><strong>{text}</strong></td>'
        return f'<td class="num">{text}</td>'

    tids = [tid for tid, _, _ in columns]
    body = []
    for place, move, who_, counted_tournaments, played, total, best5 in (
        rows.sort("place", key)
        .select("place", "movement", key, "counted_tournaments", "played", "total", "best5_total")
        .iter_rows()
    ):
        counted = set((counted_tournaments or "").split(LIST_SEPARATOR))
        cells = [
            _cell(place, True),
            _cell(movement(move), True),
            f'<td style="white-space:nowrap">{label(who_)}</td>',
        ]
        for tid in tids:
            value = totals.get((tid, who_))
            cells.append(cell(value, value is not None and tid in counted))
        cells += [_cell(played, True), cell(total), cell(best5, True)]
        body.append(f"<tr>{''.join(cells)}</tr>")
    # in a box of its own that scrolls sideways on a phone (never the page)
    return Html(
        '<div class="scroll">'
        f'<table class="ranking" style="font-size:.78rem"><caption>{esc(caption)}</caption>'
        f"<thead><tr>{''.join(heads)}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def render_rankings(data: ReportData, year: str, *, circuit: str) -> Sequence[Fragment]:
    rankings = _rankings(data, circuit, year)
    if rankings.height == 0:
        return _no_data(year)
    names = page_names(data)
    labels = tournament_labels(data)
    windows = {a: _window(data, circuit, a) for a in rankings["after_tournament_id"].to_list()}
    counted = pl.Series([t for window in windows.values() for t, _, _ in window], dtype=pl.String)
    totals = {
        (t, p): v
        for t, p, v in _of(data, "circuit_points", circuit)
        .filter(pl.col("tournament_id").is_in(counted.implode()))
        .select("tournament_id", "player_id", "total")
        .iter_rows()
    }
    ranked = _by_ranking(data, "circuit_rankings", circuit)
    none = _of(data, "circuit_rankings", circuit).clear()
    out: list[Fragment] = [
        Html(
            "<p>En gras, les résultats retenus (les 5 meilleurs) ; « Évol. » : places "
            "gagnées ou perdues depuis le classement précédent. Les tournois de la période "
            "joués avant le début des données (sans résultats) ne comptent pour personne et "
            "ne sont pas montrés.</p>"
        )
    ]
    for r in rankings.iter_rows(named=True):
        after = r["after_tournament_id"]
        name, end = labels.get(after, (after, None))
        title = f"Classement après {name} ({fmt_date(end)})"
        out.append(tag("h3", title))
        if r["last_of_year"]:
            out.append(Html('<p class="note">Dernier classement de l\'année.</p>'))
        out.append(
            _ranking_table(
                ranked.get(after, none),
                "player_id",
                windows[after],
                totals,
                lambda pid: who(pid, names),
                f"{r['k']}e classement de {year}" if r["k"] > 1 else f"1er classement de {year}",
            )
        )
    return out


# ---------------------------------------------------------------------------- top 16


def render_top(data: ReportData, year: str, *, circuit: str) -> Sequence[Fragment]:
    rankings = _rankings(data, circuit, year)
    if rankings.height == 0:
        return _no_data(year)
    names = page_names(data)
    labels = tournament_labels(data)
    x = [
        f"{k}. {labels.get(t, (t, None))[0]}"
        for k, t in rankings.select("k", "after_tournament_id").iter_rows()
    ]
    order = {t: i for i, t in enumerate(rankings["after_tournament_id"].to_list())}
    ranked = _of(data, "circuit_rankings", circuit).filter(
        pl.col("after_tournament_id").is_in(list(order))
    )
    top = ranked.filter(pl.col("place") <= 16)
    last = rankings["after_tournament_id"][-1]
    final_place = dict(
        ranked.filter(pl.col("after_tournament_id") == last)
        .select("player_id", "place")
        .iter_rows()
    )
    players = sorted(
        top["player_id"].unique().to_list(), key=lambda p: (final_place.get(p, 10**6), p)
    )
    # each shown player's (place, best-5 total) by ranking, in one pass
    by_player: dict[str, dict[str, tuple[int, float]]] = {p: {} for p in players}
    for t, pid, place, best in (
        ranked.filter(pl.col("player_id").is_in(pl.Series(players, dtype=pl.String).implode()))
        .select("after_tournament_id", "player_id", "place", "best5_total")
        .iter_rows()
    ):
        by_player[pid][t] = (place, best)
    traces = []
    for i, pid in enumerate(players):
        mine = by_player[pid]
        ys: list[int | None] = []
        texts: list[str] = []
        for t in order:
            place, best = mine.get(t, (None, None))
            ys.append(place if place is not None and place <= 16 else None)
            texts.append(
                f"<b>{plotly_text(names.get(pid, pid))}</b><br>"
                + (
                    f"{place}e, {points(best)} points (5 meilleurs)"
                    if place is not None
                    else "non classé"
                )
            )
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": plotly_text(names.get(pid, pid)),
                "x": x,
                "y": ys,
                "text": texts,
                "connectgaps": False,
                "hovertemplate": "%{text}<extra></extra>",
                "line": {"width": 2, "color": PALETTE[i % len(PALETTE)]},
                "marker": {"size": 6},
            }
        )
    layout = base_layout(
        xaxis=axis("Classement publié après…", type="category"),
        yaxis=axis("Place", range=[16.5, 0.5], dtick=1),
        legend={"orientation": "v", "x": 1.02, "y": 1, "font": {"size": 10}},
        margin={"l": 50, "r": 160, "t": 20, "b": 80},
    )
    return [
        Html(
            "<p>Place de chaque joueur passé par les 16 premiers dans les classements de "
            "l'année (hors des 16, la ligne s'interrompt).</p>"
        ),
        Chart(
            "top16",
            {"data": traces, "layout": layout},
            f"Les 16 premiers du classement PACA au fil de l'année {year}",
            height=520,
        ),
    ]


# ---------------------------------------------------------------------------- clubs


def render_clubs(data: ReportData, year: str, *, circuit: str) -> Sequence[Fragment]:
    rankings = _rankings(data, circuit, year)
    if rankings.height == 0:
        return _no_data(year)
    last = rankings.row(-1, named=True)
    labels = tournament_labels(data)
    club_points = _of(data, "circuit_club_points", circuit)
    window = _window(data, circuit, last["after_tournament_id"])
    counted = pl.Series([t for t, _, _ in window], dtype=pl.String)
    totals = {
        (t, c): v
        for t, c, v in club_points.filter(pl.col("tournament_id").is_in(counted.implode()))
        .select("tournament_id", "club", "total")
        .iter_rows()
    }
    clubs = _by_ranking(data, "circuit_club_rankings", circuit).get(
        last["after_tournament_id"], _of(data, "circuit_club_rankings", circuit).clear()
    )
    if clubs.height == 0:
        return [
            Html('<p class="note">Aucun club classé (les résultats ne donnent pas de club).</p>')
        ]
    name, end = labels.get(last["after_tournament_id"], (last["after_tournament_id"], None))
    names = page_names(data)
    year_points = for_year(club_points, year)
    counted_rows = [
        (
            fmt_date(labels.get(r["tournament_id"], (None, None))[1]),
            labels.get(r["tournament_id"], (r["tournament_id"], None))[0],
            r["club"],
            points(r["total"]),
            ", ".join(names.get(p, p) for p in r["counted_players"].split(LIST_SEPARATOR)),
        )
        for r in year_points.iter_rows(named=True)
    ]
    return [
        Html(
            "<p>À chaque tournoi, un club marque la somme des trois meilleurs totaux de ses "
            "joueurs ; son classement retient, comme celui des joueurs, ses 5 meilleurs "
            "résultats de la période.</p>"
        ),
        _ranking_table(
            clubs,
            "club",
            window,
            totals,
            esc,
            f"Classement des clubs après {name} ({fmt_date(end)})",
        ),
        table(
            ["Date", "Tournoi", "Club", "Points", "Joueurs retenus"],
            counted_rows,
            numeric=(3,),
            caption=f"Points des clubs aux tournois de {year}",
        ),
    ]


# ---------------------------------------------------------------------------- Masters PACA


def render_masters(data: ReportData, year: str, *, circuit: str) -> Sequence[Fragment]:
    invited = for_year(_of(data, "circuit_masters_invitees", circuit), year)
    if invited.height == 0:
        return [
            Html(
                "<p class=\"note\">Pas encore d'invités : le dernier classement de l'année "
                "n'est pas publié.</p>"
            )
        ]
    names = page_names(data)
    ids = invited["player_id"].implode()
    clubs = dict(
        data.table("players")
        .filter(pl.col("player_id").is_in(ids))
        .select("player_id", "club")
        .iter_rows()
    )
    as_of: dt.date = invited["as_of"][0]
    return [
        tag(
            "p",
            f"Les 16 premiers du dernier classement de l'année (au {fmt_date(as_of)}) sont "
            "invités au Masters PACA (ex æquo à la 16e place compris ; un joueur sans point "
            "n'est pas invité).",
        ),
        table(
            ["Place", "Joueur", "Club", "5 meilleurs"],
            [
                (
                    r["place"],
                    who(r["player_id"], names),
                    clubs.get(r["player_id"]),
                    points(r["best5_total"]),
                )
                for r in invited.sort("place", "player_id").iter_rows(named=True)
            ],
            numeric=(0, 3),
        ),
    ]


# ---------------------------------------------------------------------------- points


def render_points(data: ReportData, year: str, *, circuit: str) -> Sequence[Fragment]:
    year_points = for_year(_of(data, "circuit_points", circuit), year)
    if year_points.height == 0:
        return _no_data(year)
    names = page_names(data)
    labels = tournament_labels(data)
    tournaments = year_points["tournament_id"].unique(maintain_order=True).to_list()
    results = results_of(data, tournaments).select(
        "tournament_id", "player_id", "rank", "duplicate_rank", "club"
    )
    detail = year_points.join(results, on=["tournament_id", "player_id"], how="left")
    by_tournament = {
        key[0]: part for key, part in detail.partition_by("tournament_id", as_dict=True).items()
    }
    out: list[Fragment] = [
        Html(
            "<p>Points de chaque joueur : tableau 1 selon la place au duplicate et le nombre "
            "de têtes de série présentes, tableau 2 pour chaque victoire sur une tête de "
            "série (selon son numéro), tableau 3 pour chaque match nul avec une tête de "
            "série, tableau 4 selon la place finale ; le total est leur somme. Les tableaux "
            "sont des reconstitutions (règlement du classement régional PACA, chapitre 2)."
            "</p>"
        )
    ]
    for tid in tournaments:
        mine = by_tournament[tid].sort("rank", "player_id")
        name, end = labels.get(tid, (tid, None))
        out.append(tag("h3", f"{name} ({fmt_date(end)})"))
        out.append(
            table(
                [
                    "Place",
                    "Place dupl.",
                    "Joueur",
                    "Club",
                    "Tête de série",
                    "Duplicate",
                    "Victoires",
                    "Nuls",
                    "Classement final",
                    "Total",
                ],
                [
                    (
                        r["rank"],
                        r["duplicate_rank"],
                        who(r["player_id"], names),
                        r["club"],
                        r["seed"],
                        points(r["duplicate_points"]),
                        points(r["win_points"]),
                        points(r["draw_points"]),
                        points(r["final_points"]),
                        _strong(points(r["total"])),
                    )
                    for r in mine.iter_rows(named=True)
                ],
                numeric=(0, 1, 4, 5, 6, 7, 8, 9),
                caption=f"{fmt_number(mine['seeds_present'][0])} tête(s) de série présente(s)",
            )
        )
    return out


def sections(circuit: str) -> list[Section]:
    """The PACA page's sections for the circuit `circuit` (its code)."""

    def bind(render: Any) -> Any:
        return lambda data, year: render(data, year, circuit=circuit)

    return [
        Section("paca-year", "Le circuit dans l'année", 0, bind(render_year)),
        Section("paca-rankings", "Classement après chaque tournoi", 10, bind(render_rankings)),
        Section("paca-top", "Les 16 premiers au fil de l'année", 20, bind(render_top)),
        Section("paca-clubs", "Classement des clubs", 30, bind(render_clubs)),
        Section("paca-masters", "Invités au Masters PACA", 40, bind(render_masters)),
        Section("paca-points", "Points de chaque tournoi", 50, bind(render_points)),
    ]
