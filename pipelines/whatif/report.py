"""The what-if's comparison report (French): what changed, the series counts and bars
before and after, every player whose outcome differs with both values and what decided it,
the cote and Elo distributions and largest changes, and for the cote the chain from the
players affected directly to those affected through shared tournaments.

Same look and machinery as the season report (`pipelines.reports`: page shell, notice,
escaping, chart markup); self-contained (plotly.js embedded once), offline."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from pipelines.reference.federations import load_federations
from pipelines.reports.charts import PALETTE, axis, base_layout
from pipelines.reports.html import (
    Html,
    count_of,
    esc,
    fmt_number,
    fmt_signed,
    link,
    plotly_text,
    table,
    tag,
)
from pipelines.reports.labels import (
    BAR_KINDS,
    CRITERIA,
    NATIONAL_RULES,
    series_label,
    series_long,
)
from pipelines.reports.page import GLOSSARY_PAGE, Rejected, notice, page
from pipelines.reports.section import Chart, Fragment, chart_html, chart_id
from pipelines.whatif.compare import (
    BY_QUOTAS,
    CHAIN_LABELS,
    CLASSIQUE_SERIES_CHANGE,
    COTE_CHANGE,
    COTE_RANK_CHANGE,
    ELO_CHANGE,
    NATIONAL_CHANGE,
    SERIES_CHANGE,
    SUPER_SERIE_CHANGE,
    Comparison,
)
from pipelines.whatif.settings.labels import parameter_label
from pipelines.whatif.settings.values import show
from transforms import whatif
from transforms.federations import AliasTable

BEFORE_COLOUR = "#9aa3b2"
AFTER_COLOUR = PALETTE[0]
LARGEST = 20  # rows of the « largest changes » tables
NO_CHANGE = "Aucun changement"
# Each rule family's parameters as the report names them (never their files).
FAMILY_WORDS = {
    "series": "des séries duplicate",
    "national": "des classements nationaux",
    "cote": "de la cote",
    "elo": "de l'Elo",
}


def _title(c: Comparison) -> str:
    return f"Simulation de règles : saison {c.season}"


def _label(key: str, federations: AliasTable) -> str:
    """A parameter's French name (its key when no pattern knows it)."""
    return parameter_label(key, federations.name) or key


def _range(c: Comparison) -> str:
    first, last = c.seasons[0], c.seasons[-1]
    return f"saison {last}" if first == last else f"saisons {first} à {last}"


def _changes_block(kind: str, count: int, summary: str, body: Html) -> Html:
    """A list of changed players, folded (the PDF prints it open), marked for the tests."""
    return Html(
        f'<div class="changes" data-change="{esc(kind)}" data-rows="{count}">'
        f"<details><summary>{esc(summary)}</summary>{body}</details></div>"
    )


def _nothing(text: str) -> Html:
    return tag("p", text, class_="note")


# --------------------------------------------------------------------------- parameters


def _parameters(c: Comparison) -> list[Fragment]:
    scenario = c.scenario
    federations = load_federations(scenario.base_dir)
    parts: list[Fragment] = []
    if not scenario.changes:
        parts.append(
            tag(
                "p",
                f"{NO_CHANGE} de paramètre : les valeurs données sont celles des paramètres "
                "avec lesquels l'entrepôt a été calculé. Rien n'est recalculé.",
                class_="no-change",
            )
        )
    else:
        rows = []
        for change in scenario.changes:
            note = (
                "suit en proportion la part des autres fédérations de sa série"
                if change.derived
                else "réglé pour cette simulation"
            )
            rows.append(
                (
                    tag("span", _label(change.key, federations), data_key=change.key),
                    "—"
                    if change.before is None and change.after is not None
                    else show(change.before),
                    show(change.after),
                    note,
                )
            )
        parts.append(
            table(
                ["Paramètre", "Avant", "Après", "Origine"],
                rows,
                caption="Paramètres modifiés, valeur avant → après",
            )
        )
    given = []
    for setting in scenario.settings:
        key, _, value = setting.partition("=")
        given.append(f"{_label(key.strip(), federations)} = {value.strip()}")
    if given:
        parts.append(tag("p", "Réglages demandés : " + " ; ".join(given) + ".", class_="note"))
    if scenario.base_dir != scenario.reference_dir and scenario.changes:
        parts.append(
            tag(
                "p",
                "Les valeurs modifiées sont lues comme dans un calcul ordinaire, depuis une "
                "copie modifiée des paramètres avec lesquels l'entrepôt a été calculé.",
                class_="note",
            )
        )
    recomputed = []
    f = c.families
    if f.series:
        recomputed.append(f"séries duplicate ({_range(c)})")
    if f.national:
        recomputed.append(f"classements nationaux (saison {c.season})")
    if f.cote:
        recomputed.append(f"cote ({_range(c)}), classement et séries classiques")
    if f.elo:
        recomputed.append(f"Elo ({_range(c)}) et son classement")
    elif f.elo_ranking:
        recomputed.append("classement Elo (pour ses séries classiques)")
    if recomputed:
        parts.append(
            tag(
                "p",
                "Recalculé avec ces paramètres, à partir des données de l'entrepôt (qui reste "
                "inchangé) : " + " ; ".join(recomputed) + ". Le reste est celui de l'entrepôt.",
            )
        )
    return parts


# --------------------------------------------------------------------------- series


def _counts_chart(c: Comparison) -> Chart:
    counts = c.counts
    labels = [plotly_text(series_label(s)) for s in counts["series"]]
    traces = [
        {
            "type": "bar",
            "name": name,
            "x": labels,
            "y": counts[column].to_list(),
            "marker": {"color": colour},
            "hovertemplate": f"%{{x}}<br>{name.lower()} : %{{y}} joueurs<extra></extra>",
        }
        for name, column, colour in (
            ("Avant", "before", BEFORE_COLOUR),
            ("Après", "after", AFTER_COLOUR),
        )
    ]
    layout = base_layout(
        barmode="group", xaxis=axis("Série de la saison suivante"), yaxis=axis("Joueurs")
    )
    return Chart(
        "series",
        {"data": traces, "layout": layout},
        f"Joueurs par série à la fin de la saison {c.season}, avant et après le changement.",
        height=380,
    )


def _series_counts(c: Comparison) -> list[Fragment]:
    if not c.families.series:
        return [
            _nothing(
                "Les séries duplicate ne sont pas recalculées : aucun paramètre "
                f"{FAMILY_WORDS['series']} ne change."
            )
        ]
    counts = c.counts
    rows = [
        (series_long(r["series"]), r["before"], r["after"], fmt_signed(r["after"] - r["before"]))
        for r in counts.iter_rows(named=True)
    ]
    total = counts["before"].sum()
    moved = c.series.filter(pl.col("series_changed")).height
    parts: list[Fragment] = [
        tag(
            "p",
            f"{count_of(int(total), 'joueur classé', 'joueurs classés')} ; "
            f"{count_of(moved, 'joueur change', 'joueurs changent')} de série ou de "
            "sous-série.",
        ),
        _counts_chart(c),
        table(
            ["Série", "Avant", "Après", "Écart"],
            rows,
            numeric=(1, 2, 3),
            caption="Effectifs par série (super-série à part)",
        ),
    ]
    transitions = c.transitions.filter(pl.col("series_before").ne_missing(pl.col("series_after")))
    if transitions.height:
        parts.append(
            table(
                ["Série avant", "Série après", "Joueurs"],
                [
                    (
                        series_label(r["series_before"]),
                        series_label(r["series_after"]),
                        r["players"],
                    )
                    for r in transitions.iter_rows(named=True)
                ],
                numeric=(2,),
                caption="Mouvements : d'une série avant à une autre après",
            )
        )
    return parts


def _bar_text(criterion: str | None, bar: float | None) -> str:
    if bar is None or (isinstance(bar, float) and math.isnan(bar)):
        return "—"
    if criterion == "pc":
        return fmt_number(bar, 1)
    return f"{fmt_number(bar, 2)} %" if criterion else fmt_number(bar, 2)


def _count(value: object) -> str:
    return "—" if value is None else fmt_number(value)


def _bars(c: Comparison) -> list[Fragment]:
    parts: list[Fragment] = []
    if c.families.series:
        bars = c.bars
        changed = int(bars["changed"].sum()) if bars.height else 0
        parts.append(
            tag(
                "p",
                f"Barres d'accès des séries duplicate : "
                f"{count_of(changed, 'ligne modifiée', 'lignes modifiées')} "
                f"sur {bars.height}.",
            )
        )
        parts.append(
            table(
                [
                    "Série",
                    "Sous-série",
                    "Fédération",
                    "Critère",
                    "Barre avant",
                    "Barre après",
                    "Admis avant",
                    "Admis après",
                    "Modifiée",
                ],
                [
                    (
                        series_label(r["series"]),
                        r["subseries"],
                        "Autres fédérations" if r["federation"] == "*" else r["federation"],
                        CRITERIA.get(r["criterion"] or "", r["criterion"]),
                        _bar_text(r["criterion"], r["bar_before"]),
                        _bar_text(r["criterion"], r["bar_after"]),
                        _count(r["admitted_before"]),
                        _count(r["admitted_after"]),
                        "oui" if r["changed"] else "non",
                    )
                    for r in bars.iter_rows(named=True)
                ],
                numeric=(4, 5, 6, 7),
                caption="Barres d'accès (valeur du dernier admis), avant et après",
            )
        )
    if c.families.national and c.national_bars.height:
        nb = c.national_bars
        parts.append(
            table(
                [
                    "Fédération",
                    "Série",
                    "Sous-série",
                    "Règle",
                    "Nature",
                    "Barre avant",
                    "Barre après",
                    "Admis avant",
                    "Admis après",
                    "Modifiée",
                ],
                [
                    (
                        r["federation"],
                        series_label(r["series"]),
                        r["subseries"],
                        NATIONAL_RULES.get(r["rule"] or "", r["rule"]),
                        BAR_KINDS.get(r["kind"] or "", r["kind"]),
                        fmt_number(r["bar_before"], 2),
                        fmt_number(r["bar_after"], 2),
                        _count(r["admitted_before"]),
                        _count(r["admitted_after"]),
                        "oui" if r["changed"] else "non",
                    )
                    for r in nb.iter_rows(named=True)
                ],
                numeric=(5, 6, 7, 8),
                caption="Barres des classements nationaux, avant et après",
            )
        )
    if c.families.cote and c.classique_bars.height:
        cb = c.classique_bars
        parts.append(
            table(
                ["Série classique", "Barre avant", "Barre après", "Modifiée"],
                [
                    (
                        r["series"],
                        _count(r["bar_before"]),
                        _count(r["bar_after"]),
                        "oui" if r["changed"] else "non",
                    )
                    for r in cb.iter_rows(named=True)
                ],
                numeric=(1, 2),
                caption="Barres des séries classiques (cote), avant et après",
            )
        )
    if not parts:
        parts.append(
            _nothing(
                "Aucune barre n'est recalculée : ni les séries duplicate, ni les classements "
                "nationaux, ni la cote ne changent de paramètres."
            )
        )
    return parts


# --------------------------------------------------------------------------- players


def _rows_of(c: Comparison, kind: str) -> pl.DataFrame:
    return c.rows().filter(pl.col("changement") == kind)


def _player_table(rows: pl.DataFrame, before: str, after: str) -> Html:
    def capital(text: str) -> str:
        return text[:1].upper() + text[1:]

    return table(
        ["Joueur", "Licence", capital(before), capital(after), "Critère", "Cause"],
        [
            (r["nom"], r["licence"], r["avant"], r["après"], r["critère"], r["cause"])
            for r in rows.iter_rows(named=True)
        ],
    )


def _players(c: Comparison) -> list[Fragment]:
    parts: list[Fragment] = []
    lists: list[tuple[str, str, str, str, str, bool]] = [
        (
            SERIES_CHANGE,
            "Série",
            "série avant",
            "série après",
            "change de série",
            c.families.series,
        ),
        (
            SUPER_SERIE_CHANGE,
            "Super-série",
            "super-série avant",
            "super-série après",
            "entre ou sort de la super-série",
            c.families.series,
        ),
        (
            NATIONAL_CHANGE,
            "Série nationale",
            "série nationale avant",
            "série nationale après",
            "change de série nationale",
            c.families.national,
        ),
        (
            COTE_RANK_CHANGE,
            "Rang à la cote",
            "rang avant",
            "rang après",
            "change de rang à la cote",
            c.families.cote,
        ),
        (
            CLASSIQUE_SERIES_CHANGE,
            "Série classique",
            "série classique avant",
            "série classique après",
            "change de série classique",
            c.families.cote,
        ),
    ]
    for kind, title, before, after, verb, computed in lists:
        parts.append(tag("h3", title))
        if not computed:
            parts.append(_nothing("Non recalculé : ses paramètres ne changent pas."))
            continue
        rows = _rows_of(c, kind)
        if rows.height == 0:
            parts.append(_nothing(f"{NO_CHANGE} : aucun joueur ne {verb}."))
            continue
        if kind in (SERIES_CHANGE, SUPER_SERIE_CHANGE):
            by_quotas = rows.filter(pl.col("cause") == BY_QUOTAS).height
            parts.append(
                tag(
                    "p",
                    f"{count_of(rows.height, 'joueur')} : "
                    f"{fmt_number(rows.height - by_quotas)} par leurs propres valeurs (un "
                    f"critère au moins a changé), {fmt_number(by_quotas)} par les quotas et les "
                    "barres seuls (valeurs inchangées, barres déplacées).",
                )
            )
        summary = f"{count_of(rows.height, 'joueur')} : {title.lower()} avant et après"
        parts.append(_changes_block(kind, rows.height, summary, _player_table(rows, before, after)))
    if c.families.series:
        parts.extend(_criteria(c))
    return parts


def _criteria(c: Comparison) -> list[Fragment]:
    """The players whose own criteria changed, with their sum of weights (the minimum
    divisor replaces it when it is smaller)."""
    criteria = c.criteria
    parts: list[Fragment] = [tag("h3", "Valeurs des critères modifiées")]
    divisor = next((ch for ch in c.scenario.changes if ch.key == "series.min_divisor"), None)
    if divisor is not None:
        after = float(divisor.after or 0)
        below = criteria.filter(pl.col("weight") < after).height
        parts.append(
            tag(
                "p",
                f"Diviseur minimum {show(divisor.before)} → {show(divisor.after)} : la somme des "
                "poids d'un joueur qui est plus petite est remplacée par lui. "
                f"{count_of(below, 'joueur')} dont la somme des poids est inférieure à "
                f"{show(divisor.after)} {'voit' if below <= 1 else 'voient'} "
                "leurs %N changer de ce fait ; "
                f"{count_of(criteria.height - below, 'autre joueur', 'autres joueurs')} "
                "(somme des poids au moins égale) "
                f"{'a' if criteria.height - below <= 1 else 'ont'} d'autres valeurs par les "
                "séries tenues dans les épreuves (classement de la saison précédente).",
            )
        )
    if criteria.height == 0:
        parts.append(
            _nothing(
                f"{NO_CHANGE} : les %N1–%N4, PC et % super-série de chaque joueur sont les "
                "mêmes ; ceux qui changent de série le doivent aux quotas et aux barres."
            )
        )
        return parts
    columns = [c_ for c_ in whatif.CRITERIA]

    def pair(row: dict[str, Any], name: str) -> str:
        a, b = row[f"{name}_before"], row[f"{name}_after"]
        decimals = 1 if name == "pc" else 2
        if a is not None and b is not None and abs(a - b) <= whatif.TOLERANCE:
            return fmt_number(a, decimals)
        return f"{fmt_number(a, decimals)} → {fmt_number(b, decimals)}"

    body = table(
        ["Joueur", "Licence", "Somme des poids", *(CRITERIA[n] for n in columns)],
        [
            (
                c.name(r["player_id"]),
                r["player_id"],
                fmt_number(r["weight"], 2),
                *(pair(r, n) for n in columns),
            )
            for r in criteria.iter_rows(named=True)
        ],
        numeric=(2,),
    )
    parts.append(
        _changes_block(
            "valeurs",
            criteria.height,
            f"{count_of(criteria.height, 'joueur')} : valeurs avant → après",
            body,
        )
    )
    return parts


# --------------------------------------------------------------------------- ratings


def _histogram(
    key: str, caption: str, before: Sequence[float], after: Sequence[float], step: float, label: str
) -> Chart:
    values = [*before, *after]
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step + step
    traces = [
        {
            "type": "histogram",
            "name": name,
            "x": sorted(data),
            "xbins": {"start": low, "end": high, "size": step},
            "marker": {"color": colour},
            "opacity": 0.6,
            "hovertemplate": f"{label} %{{x}}<br>{name.lower()} : %{{y}} joueurs<extra></extra>",
        }
        for name, data, colour in (("Avant", before, BEFORE_COLOUR), ("Après", after, AFTER_COLOUR))
    ]
    layout = base_layout(barmode="overlay", xaxis=axis(label), yaxis=axis("Joueurs"))
    return Chart(key, {"data": traces, "layout": layout}, caption, height=360)


def _largest(
    c: Comparison, values: pl.DataFrame, decimals: int, cause: Callable[[str], str]
) -> Html:
    rows = values.head(LARGEST)
    return table(
        ["Joueur", "Licence", "Avant", "Après", "Écart", "Pourquoi"],
        [
            (
                c.name(r["player_id"]),
                r["player_id"],
                fmt_number(r["before"], decimals),
                fmt_number(r["after"], decimals),
                fmt_signed(r["change"], decimals),
                cause(r["player_id"]),
            )
            for r in rows.iter_rows(named=True)
        ],
        numeric=(2, 3, 4),
        caption=f"Les {min(LARGEST, values.height)} plus grands changements (valeur à la fin "
        f"de la saison {c.season})",
    )


def _cote(c: Comparison) -> list[Fragment]:
    if not c.families.cote:
        return [
            _nothing(
                f"La cote n'est pas recalculée : aucun paramètre {FAMILY_WORDS['cote']} ni "
                "des séries duplicate (qui donnent les cotes de départ) ne change."
            )
        ]
    values = c.cote_values
    parts: list[Fragment] = []
    before = c.before.cote_ranking["value"].to_list()
    after = c.after.cote_ranking["value"].to_list()
    if before or after:
        parts.append(
            _histogram(
                "distribution",
                f"Cotes des joueurs actifs à la fin de la saison {c.season}, avant et après "
                "(tranches de 50).",
                before,
                after,
                50,
                "cote",
            )
        )
    if values.height == 0:
        parts.append(_nothing(f"{NO_CHANGE} : la cote de chaque joueur reste la même."))
        return parts
    mean_shift = values["change"].mean()
    parts.append(
        tag(
            "p",
            f"{count_of(values.height, 'joueur')} "
            f"{'change' if values.height == 1 else 'changent'} de cote ; écart moyen "
            f"{fmt_signed(mean_shift, 1)}.",
        )
    )
    parts.append(_largest(c, values, 0, lambda pid: c.chain_text(pid)[1]))
    parts.extend(_chain(c))
    rows = _rows_of(c, COTE_CHANGE)
    parts.append(
        _changes_block(
            COTE_CHANGE,
            rows.height,
            f"{count_of(rows.height, 'joueur')} : cote avant et après",
            _player_table(rows, "cote avant", "cote après"),
        )
    )
    return parts


def _chain(c: Comparison) -> list[Fragment]:
    """Players affected directly (starting cote, rules of a tournament) and those affected
    only through tournaments shared with them."""
    chain = c.chain
    direct = chain.filter(pl.col("cause") == whatif.CHAIN_START)
    rules = chain.filter(pl.col("cause") == whatif.CHAIN_RULES)
    shared = chain.filter(pl.col("cause") == whatif.CHAIN_SHARED)
    starters = set(direct["player_id"].to_list())
    parts: list[Fragment] = [
        tag("h3", "La chaîne des changements"),
        tag(
            "p",
            f"{count_of(direct.height, 'joueur')} "
            f"{'a' if direct.height <= 1 else 'ont'} une cote de départ modifiée (touchés "
            f"directement) ; {count_of(rules.height, 'joueur')} "
            f"{'est touché' if rules.height <= 1 else 'sont touchés'} par les règles d'un "
            f"tournoi ; {count_of(shared.height, 'joueur')} "
            f"{'ne l’est' if shared.height <= 1 else 'ne le sont'} que par les tournois "
            "partagés avec des joueurs déjà touchés (la place de référence de chacun dépend "
            "des cotes des autres).",
        ),
    ]
    if direct.height:
        parts.append(
            _changes_block(
                "départ",
                direct.height,
                f"{count_of(direct.height, 'joueur')} : cote de départ modifiée",
                table(
                    ["Joueur", "Licence", "Premier tournoi", "Départ avant", "Départ après"],
                    [
                        (
                            c.name(r["player_id"]),
                            r["player_id"],
                            c.tournament_label(r["tournament_id"]),
                            fmt_number(r["start_before"]),
                            fmt_number(r["start_after"]),
                        )
                        for r in direct.iter_rows(named=True)
                    ],
                    numeric=(3, 4),
                ),
            )
        )
    if rules.height:
        parts.append(
            _changes_block(
                "règles",
                rules.height,
                f"{count_of(rules.height, 'joueur')} : règles d'un tournoi modifiées",
                table(
                    ["Joueur", "Licence", "Premier tournoi touché"],
                    [
                        (
                            c.name(r["player_id"]),
                            r["player_id"],
                            c.tournament_label(r["tournament_id"]),
                        )
                        for r in rules.iter_rows(named=True)
                    ],
                ),
            )
        )
    if shared.height:

        def through(ids: str | None) -> str:
            names = []
            for pid in (ids or "").split(";"):
                if pid:
                    mark = " (départ modifié)" if pid in starters else ""
                    names.append(f"{c.name(pid)}{mark}")
            return ", ".join(names)

        parts.append(
            _changes_block(
                "chaîne",
                shared.height,
                f"{count_of(shared.height, 'joueur')} : touchés par un tournoi partagé",
                table(
                    ["Joueur", "Licence", "Tournoi", "Joueurs déjà touchés dans ce tournoi"],
                    [
                        (
                            c.name(r["player_id"]),
                            r["player_id"],
                            c.tournament_label(r["tournament_id"]),
                            through(r["through"]),
                        )
                        for r in shared.iter_rows(named=True)
                    ],
                ),
            )
        )
    return parts


def _elo(c: Comparison) -> list[Fragment]:
    if not c.families.elo:
        return [
            _nothing(
                f"L'Elo n'est pas recalculé : aucun paramètre {FAMILY_WORDS['elo']} ne change."
            )
        ]
    values = c.elo_values
    parts: list[Fragment] = []
    before = c.before.elo_ranking["value"].to_list()
    after = c.after.elo_ranking["value"].to_list()
    if before or after:
        parts.append(
            _histogram(
                "distribution",
                f"Elo des joueurs actifs à la fin de la saison {c.season}, avant et après "
                "(tranches de 25).",
                before,
                after,
                25,
                "Elo",
            )
        )
    if values.height == 0:
        parts.append(_nothing(f"{NO_CHANGE} : l'Elo de chaque joueur reste le même."))
        return parts
    parts.append(
        tag(
            "p",
            f"{count_of(values.height, 'joueur')} "
            f"{'change' if values.height == 1 else 'changent'} d'Elo ; écart moyen "
            f"{fmt_signed(values['change'].mean(), 1)}.",
        )
    )
    parts.append(_largest(c, values, 1, lambda _pid: "paramètres de l'Elo modifiés"))
    rows = _rows_of(c, ELO_CHANGE)
    parts.append(
        _changes_block(
            ELO_CHANGE,
            rows.height,
            f"{count_of(rows.height, 'joueur')} : Elo avant et après",
            _player_table(rows, "Elo avant", "Elo après"),
        )
    )
    return parts


# --------------------------------------------------------------------------- page

SECTIONS: tuple[tuple[str, str, Callable[[Comparison], list[Fragment]]], ...] = (
    ("parametres", "Paramètres modifiés", _parameters),
    ("effectifs", "Effectifs par série", _series_counts),
    ("barres", "Barres d'accès", _bars),
    ("joueurs", "Joueurs qui changent", _players),
    ("cote", "Cote : distribution, plus grands changements et chaîne", _cote),
    ("elo", "Elo : distribution et plus grands changements", _elo),
)


def _verdict(c: Comparison) -> Html:
    if c.unchanged:
        return tag(
            "p",
            f"{NO_CHANGE} : avec ces paramètres, aucun joueur ne change de série, de "
            "super-série, de série nationale, de rang ni de série à la cote, de cote ni "
            "d'Elo, et les barres restent les mêmes.",
            class_="verdict no-change",
        )
    rows = c.rows()
    counts = rows.group_by("changement").agg(pl.len().alias("n"))
    by_kind = dict(counts.iter_rows())
    players = rows["licence"].n_unique()
    parts = [
        f"{kind} : {fmt_number(by_kind[kind])}"
        for kind in (
            SERIES_CHANGE,
            SUPER_SERIE_CHANGE,
            NATIONAL_CHANGE,
            COTE_RANK_CHANGE,
            CLASSIQUE_SERIES_CHANGE,
            COTE_CHANGE,
            ELO_CHANGE,
        )
        if kind in by_kind
    ]
    return tag(
        "p",
        f"{count_of(players, 'joueur')} "
        f"{'voit' if players <= 1 else 'voient'} un résultat changer ("
        + ", ".join(parts)
        + ") ; la liste complète est dans la liste des changements (CSV, lien en haut de "
        "page).",
        class_="verdict",
    )


def render_report(
    c: Comparison,
    *,
    as_of: Any,
    rejected: Sequence[Rejected],
    stale: bool,
    pdf_name: str,
    csv_name: str,
) -> str:
    """The report's HTML; the same comparison gives the same bytes."""
    parts: list[str] = []
    number = 0
    for key, title, render in SECTIONS:
        body: list[str] = []
        for fragment in render(c):
            if isinstance(fragment, Chart):
                number += 1
                body.append(chart_html(chart_id(key, fragment.key), fragment, number))
            else:
                body.append(fragment)
        parts.append(
            f'<section class="report-section" id="{esc(key)}" data-title="{esc(title)}">'
            f"<h2>{esc(title)}</h2>{''.join(body)}</section>"
        )
    toc = "".join(f"<li>{link('#' + key, title)}</li>" for key, title, _ in SECTIONS)
    warning = (
        Html(
            '<aside class="notice warn" id="stale-notice"><p><strong>L\'entrepôt n\'est pas à '
            f"jour pour la saison {esc(c.season)}</strong> : ses données, le code ou les "
            "paramètres ont changé depuis son calcul. La colonne « avant » est ce que "
            "l'entrepôt contient ; relancez « classement build » pour comparer à jour.</p>"
            "</aside>"
        )
        if stale
        else Html("")
    )
    header = Html(
        '<nav class="breadcrumb no-print">'
        f"{link(pdf_name, 'Version PDF')} · {link(csv_name, 'Liste des changements (CSV)')} · "
        f"{link(GLOSSARY_PAGE, 'Glossaire')}</nav>"
        '<header class="page">'
        f"<h1>{esc(_title(c))}</h1>"
        "<p>Les classements de la saison recalculés avec des paramètres modifiés, comparés à "
        "ceux de l'entrepôt de données, qui n'est pas modifié : une simulation pour la "
        "commission, rien n'est adopté.</p></header>"
        + notice(as_of, rejected, scope="pour cette saison", glossary=GLOSSARY_PAGE)
        + warning
        + _verdict(c)
        + f'<nav class="toc"><strong>Sommaire</strong><ol>{toc}</ol></nav>'
    )
    footer = Html(
        f"<footer><p>Simulation de règles de la saison {esc(c.season)}, calculée à partir de "
        "l'entrepôt de "
        f"données du classement (empreinte des changements {esc(c.scenario.digest)}). Les "
        "noms sont ceux transmis par les organisateurs.</p></footer>"
    )
    return page(_title(c), Html(header + "".join(parts) + footer))


__all__ = ["CHAIN_LABELS", "render_report"]
