"""Every parameter a what-if may change has a French name for the committee's report
(issue 27, item 4): `quota de la série 4A (Belgique)`, never `series.quotas.BEL.4A`."""

from __future__ import annotations

import pytest

from pipelines.paths import REFERENCE_DIR
from pipelines.reference.federations import load_federations
from pipelines.whatif.settings.labels import parameter_label
from pipelines.whatif.settings.registry import registry

FEDERATIONS = load_federations(REFERENCE_DIR)


def test_every_key_of_the_reference_folder_has_a_french_name() -> None:
    keys = registry(REFERENCE_DIR)
    assert len(keys) > 100
    assert [k for k in keys if parameter_label(k, FEDERATIONS.name) is None] == []


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("series.quotas.BEL.4A", "quota de la série 4A (Belgique)"),
        ("series.quotas.*.1", "quota de la série 1 (autres fédérations)"),
        ("series.min_divisor", "diviseur minimal des quotas des séries"),
        ("cote.series_equivalence.SS", "cote de départ équivalente (super-série)"),
        ("cote.categories.open.pj_max", "PJ maximal (catégorie Open)"),
        ("elo.preset", "préréglage Elo retenu"),
        ("elo.presets.fide.k.k_new", "K d'un nouveau joueur (Elo FIDE)"),
        ("national.rules.GBR", "règle du classement national (Royaume-Uni)"),
        ("circuits.seeds", None),
    ],
)
def test_names(key: str, name: str | None) -> None:
    assert parameter_label(key, FEDERATIONS.name) == name
