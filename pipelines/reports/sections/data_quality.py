"""The data-quality annex, last in the report: what the season's exports write that the
reference data does not know or that looks wrong (`data_quality_notes`), each once."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, table, tag
from pipelines.reports.labels import NOTICES
from pipelines.reports.section import Fragment, Section

KEY = "data_quality"


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    notes = data.for_season("data_quality_notes", season).sort("notice", "subject")
    out: list[Fragment] = [
        tag(
            "p",
            "Valeurs des exports de la saison que les données de référence ne connaissent pas, "
            "ou qui semblent erronées (nom mal encodé, licence écrite sous plusieurs noms), "
            "chacune une seule fois. Elles sont gardées telles qu'écrites ; pour reconnaître "
            "une fédération ou un pays, il suffit d'ajouter l'écriture à la table des "
            "fédérations et pays du classement et de recalculer la saison ; un nom se corrige "
            "dans l'export.",
        )
    ]
    if notes.height == 0:
        out.append(Html('<p class="note">Rien à signaler pour cette saison.</p>'))
        return out
    counts = notes.group_by("notice").agg(pl.len()).sort("notice").rows()
    out.append(
        tag(
            "p",
            " ; ".join(f"{NOTICES.get(code, code)} : {n}" for code, n in counts) + ".",
            class_="note",
        )
    )
    out.append(
        table(
            ["Constat", "Valeur écrite", "Lignes", "Détail"],
            [
                (NOTICES.get(r["notice"], r["notice"]), r["subject"], r["rows"], r["detail"])
                for r in notes.iter_rows(named=True)
            ],
            numeric=(2,),
            caption="Constats de la saison",
        )
    )
    return out


SECTION = Section(
    key=KEY,
    title="Annexe : qualité des données",
    order=1000,
    render=render,
    description="Fédérations et pays écrits dans les exports que la table de référence ne "
    "connaît pas, noms mal encodés et licences écrites sous plusieurs noms, une fois par "
    "saison.",
)
