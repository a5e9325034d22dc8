"""The rule parameters of one reference folder, resolved once and passed everywhere.

Every reader of the rules — the ingest's checks, `classement check`, the assets, the
what-if, the reports, the benchmark — takes a `Parameters`: one frozen object for one
folder, chosen in one place (`reference_dir`: the argument given, else
`CLASSEMENT_REFERENCE_DIR`, else the project's `data/reference/`). Each family's values
are read from its files the first time they are asked for (a folder missing a family's
files serves the other families), and `digest` hashes every file of the folder: the
season fingerprint and the ingest's cache key use it, so a build under other parameters
recomputes what they touch.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pipelines.paths import REFERENCE_DIR
from pipelines.reference.circuits import load_circuit_names, load_circuit_params
from pipelines.reference.classique import (
    CoteBounds,
    load_cote_bounds,
    load_cote_params,
    load_elo_params,
    load_elo_presets,
    load_ranking_params,
)
from pipelines.reference.federations import load_federations
from pipelines.reference.files import ReferenceDataError
from pipelines.reference.mort_subite import load_mort_subite_params
from pipelines.reference.national import load_national_params
from pipelines.reference.round_robin import (
    load_final_categories,
    load_grand_est_params,
    load_masters_params,
)
from pipelines.reference.scoring import load_scoring_params
from pipelines.reference.seasons import load_calendar
from pipelines.reference.series import load_series_params, load_series_quotas

if TYPE_CHECKING:  # the values' types only; the loaders above build them
    from transforms.calendar import SeasonCalendar
    from transforms.circuits import CircuitParams
    from transforms.classique_series import RankingParams
    from transforms.cote import CoteParams
    from transforms.elo import EloParams
    from transforms.federations import AliasTable
    from transforms.mort_subite.params import MortSubiteParams
    from transforms.national import NationalParams
    from transforms.round_robin.params import GrandEstParams, MastersParams
    from transforms.scoring import ScoringParams
    from transforms.series import SeriesParams, SeriesQuotas

ENVIRONMENT_VARIABLE = "CLASSEMENT_REFERENCE_DIR"
# The files of a reference folder that hold parameters (any depth).
PARAMETER_SUFFIXES = frozenset({".csv", ".yaml", ".yml"})


def reference_dir(folder: Path | str | None = None) -> Path:
    """The rule parameters' folder: `folder` when given, else `CLASSEMENT_REFERENCE_DIR`,
    else the project's `data/reference/`."""
    chosen = folder or os.environ.get(ENVIRONMENT_VARIABLE) or REFERENCE_DIR
    return Path(chosen).resolve()


def folder_digest(folder: Path) -> str:
    """A hash of every parameter file of `folder`, by its path within it and its bytes."""
    if not folder.is_dir():
        raise ReferenceDataError(f"{folder}: dossier des paramètres introuvable")
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.suffix in PARAMETER_SUFFIXES and path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@dataclass(frozen=True, eq=False)
class Parameters:
    """Every rule parameter of one reference folder (`load_parameters`). Two bundles of
    folders with the same files have the same `digest`."""

    folder: Path
    digest: str = field(repr=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Parameters) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    @cached_property
    def calendar(self) -> SeasonCalendar:
        return load_calendar(self.folder)

    @cached_property
    def cote(self) -> CoteParams:
        return load_cote_params(self.folder)

    @cached_property
    def cote_bounds(self) -> CoteBounds:
        """The cotes a rating list may give (`cote.yaml`, `bounds`)."""
        return load_cote_bounds(self.folder)

    @property
    def categories(self) -> frozenset[str]:
        """The classique tournament categories the cote knows (`cote_categories.csv`)."""
        return frozenset(c.category for c in self.cote.categories)

    @cached_property
    def ranking(self) -> RankingParams:
        return load_ranking_params(self.folder)

    @cached_property
    def elo(self) -> EloParams:
        return load_elo_params(self.folder)

    @cached_property
    def elo_presets(self) -> dict[str, EloParams]:
        return load_elo_presets(self.folder)

    @cached_property
    def series(self) -> SeriesParams:
        return load_series_params(self.folder)

    @cached_property
    def quotas(self) -> SeriesQuotas:
        return load_series_quotas(self.folder)

    @cached_property
    def federations(self) -> AliasTable:
        return load_federations(self.folder)

    @cached_property
    def national(self) -> NationalParams:
        return load_national_params(self.folder)

    @cached_property
    def mort_subite(self) -> MortSubiteParams:
        return load_mort_subite_params(self.folder)

    @cached_property
    def scoring(self) -> ScoringParams:
        return load_scoring_params(self.folder)

    @cached_property
    def paca(self) -> CircuitParams:
        return load_circuit_params(self.folder)

    @cached_property
    def circuit_names(self) -> AliasTable:
        return load_circuit_names(self.folder)

    @cached_property
    def masters(self) -> MastersParams:
        return load_masters_params(self.folder)

    @cached_property
    def grand_est(self) -> GrandEstParams:
        return load_grand_est_params(self.folder)

    @cached_property
    def final_categories(self) -> tuple[str, ...]:
        return load_final_categories(self.folder)


def load_parameters(folder: Path | str | None = None) -> Parameters:
    """The parameters of `reference_dir(folder)`; the same object while its files are
    unchanged (each family read once per process)."""
    resolved = reference_dir(folder)
    return _bundle(resolved, folder_digest(resolved))


@lru_cache(maxsize=16)
def _bundle(folder: Path, digest: str) -> Parameters:
    return Parameters(folder, digest)
