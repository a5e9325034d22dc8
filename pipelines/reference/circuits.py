"""Loaders of the regional circuits' reference data (docs/rules.md §5): the circuit names
(`circuits.csv`, an alias table) and the PACA parameters (`circuits.yaml` and the four points
tables it names in `data/reference/circuits/`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import polars as pl

from pipelines.reference.federations import load_alias_table
from pipelines.reference.files import ReferenceDataError, read_yaml, require
from transforms.circuits import CircuitParams
from transforms.federations import AliasTable

CIRCUITS_FILE = "circuits.yaml"
CIRCUIT_NAMES_FILE = "circuits.csv"
TABLE_KEYS = ("duplicate", "win", "draw", "final")


def _number(text: str | None, path: Path, where: str) -> Fraction:
    """A table value: an exact decimal or fraction, not negative."""
    value = (text or "").strip()
    try:
        number = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ReferenceDataError(f"{path}: {where}: {value!r} is not a number") from None
    if number < 0:
        raise ReferenceDataError(f"{path}: {where}: points must not be negative")
    return number


def _read_table(path: Path) -> pl.DataFrame:
    if not path.exists():
        raise ReferenceDataError(f"{path}: file not found")
    return pl.read_csv(path, comment_prefix="#", infer_schema=False)


def load_place_table(path: Path, places: int, seeds: int) -> tuple[tuple[Fraction, ...], ...]:
    """Table 1 or 4: one row per place 1..`places`, one column per seeds present 0..`seeds`."""
    frame = _read_table(path)
    wanted = ["place", *(str(s) for s in range(seeds + 1))]
    if frame.columns != wanted:
        raise ReferenceDataError(
            f"{path}: expected the columns {', '.join(wanted)} (place, then one column per "
            f"number of seeds present), found {', '.join(frame.columns)}"
        )
    found = [(r or "").strip() for r in frame["place"].to_list()]
    if found != [str(p) for p in range(1, places + 1)]:
        raise ReferenceDataError(f"{path}: expected one row per place 1..{places}, in order")
    return tuple(
        tuple(_number(row[str(s)], path, f"place {p}, {s} seeds") for s in range(seeds + 1))
        for p, row in enumerate(frame.iter_rows(named=True), start=1)
    )


def load_seed_table(path: Path, seeds: int) -> tuple[Fraction, ...]:
    """Table 2 or 3: one row per seed number 1..`seeds`, columns `seed, points`."""
    frame = _read_table(path)
    if frame.columns != ["seed", "points"]:
        raise ReferenceDataError(
            f"{path}: expected the columns seed, points, found {', '.join(frame.columns)}"
        )
    found = [(r or "").strip() for r in frame["seed"].to_list()]
    if found != [str(n) for n in range(1, seeds + 1)]:
        raise ReferenceDataError(f"{path}: expected one row per seed 1..{seeds}, in order")
    return tuple(
        _number(points, path, f"seed {n}")
        for n, points in enumerate(frame["points"].to_list(), start=1)
    )


def _positive(data: dict[str, object], key: str, path: Path) -> int:
    value = require(data, key, path)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ReferenceDataError(f"{path}: {key} must be a whole number of at least 1")
    return value


def load_circuit_params(reference_dir: Path) -> CircuitParams:
    """Every parameter of docs/rules.md §5 (PACA): circuits.yaml and its four tables."""
    path = Path(reference_dir) / CIRCUITS_FILE
    data = read_yaml(path)
    seeds = _positive(data, "seeds", path)
    places = _positive(data, "places_scored", path)
    tables = require(data, "tables", path)
    if not isinstance(tables, dict):
        raise ReferenceDataError(f"{path}: tables must map {', '.join(TABLE_KEYS)} to files")
    files = {key: path.parent / str(require(tables, key, path)) for key in TABLE_KEYS}
    return CircuitParams(
        circuit=str(require(data, "circuit", path)).strip(),
        seeds=seeds,
        places_scored=places,
        best_results=_positive(data, "best_results", path),
        club_best_players=_positive(data, "club_best_players", path),
        masters_invitees=_positive(data, "masters_invitees", path),
        duplicate_points=load_place_table(files["duplicate"], places, seeds),
        win_points=load_seed_table(files["win"], seeds),
        draw_points=load_seed_table(files["draw"], seeds),
        final_points=load_place_table(files["final"], places, seeds),
    )


def load_circuit_names(reference_dir: Path) -> AliasTable:
    """The circuits as organisers write them (`data/reference/circuits.csv`): written forms →
    one code each."""
    return load_alias_table(Path(reference_dir) / CIRCUIT_NAMES_FILE)


def load_circuit_codes(reference_dir: Path, *codes: str) -> AliasTable:
    """`load_circuit_names`, checked to hold each of `codes` (the circuits the rule files
    name)."""
    names = load_circuit_names(reference_dir)
    for code in codes:
        if code not in names.codes:
            raise ReferenceDataError(
                f"{Path(reference_dir) / CIRCUIT_NAMES_FILE}: no circuit with the code {code!r} "
                f"(named by the rule parameters)"
            )
    return names
