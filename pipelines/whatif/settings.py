"""The parameters a what-if may change, and the changed copy of the reference folder.

Keys name parameters as the reference files do (docs/rules.md §9):

- a YAML file: `<file stem>.<path>`, the path walking its mappings (`series.min_divisor`,
  `series.super_serie.size`, `cote.series_equivalence.SS`, `elo.preset`,
  `elo.presets.fide.k.k_new`); a list of scalars is one key whose value is written
  comma-separated (`cote.bonus_divisors=1,2,5,10`); a list of `[label, value]` pairs is
  addressed by label (`cote.ranking.series_shares.Joker`);
- `series_quotas.csv`: `series.quotas.<federation>.<series or sub-series>` (`series.quotas.*.4`,
  `series.quotas.FRA.4A`), the share in percent of N or `rest`;
- `cote_categories.csv`: `cote.categories.<category>.<column>` (`bonus_m`, `pj_min`,
  `pj_max`), set on every row of that category (one per `min_games`).

The registry is found by walking the files of the reference folder the what-if starts from,
never listed by hand. A changed series share of the `*` quotas is followed, in proportion, by
each federation's rows of that series that the what-if does not set itself (a federation's
shares of a series must add up to the `*` one: `SeriesQuotas.validate`).

The changes are applied to a copy of the reference folder, which the ordinary loaders then
read: the what-if runs the production code paths. Every message is French.
"""

from __future__ import annotations

import csv
import difflib
import fnmatch
import hashlib
import io
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from pipelines.reference.classique import load_cote_params, load_elo_params, load_ranking_params
from pipelines.reference.files import ReferenceDataError
from pipelines.reference.national import load_national_params
from pipelines.reference.series import load_series_params, load_series_quotas

# The files a what-if recomputes, each with the rule families it feeds (docs/rules.md §9).
# The other reference files (seasons, federations, circuits, Mort Subite, scoring) feed the
# ingest or families the what-if does not recompute: their keys are refused by name.
SUPPORTED_FILES: dict[str, tuple[str, ...]] = {
    "series.yaml": ("series",),
    "series_quotas.csv": ("series",),
    "cote.yaml": ("cote",),
    "cote_categories.csv": ("cote",),
    "elo.yaml": ("elo",),
    "national.yaml": ("national",),
}
QUOTAS_FILE = "series_quotas.csv"
CATEGORIES_FILE = "cote_categories.csv"
QUOTAS_PREFIX = "series.quotas"
CATEGORIES_PREFIX = "cote.categories"
CATEGORY_COLUMNS = ("bonus_m", "pj_min", "pj_max")
OTHERS = "*"
REST = "rest"

# Parameters the loaders read as whole numbers (`int(...)`): a decimal is refused for them,
# never rounded silently. Every other number may be decimal.
WHOLE_NUMBERS = (
    "cote.initial_cote",
    "cote.series_equivalence.*",
    "cote.bonus_divisors",
    "cote.ranking.activity_years",
    "cote.ranking.bar_step",
    f"{CATEGORIES_PREFIX}.*",
    "series.super_serie.size",
    "elo.presets.*.k.new_games",
    "elo.presets.*.k.junior_age",
    "national.switzerland.*",
)

# What each kind of value expects, in the messages.
EXPECTED = {
    "number": "un nombre",
    "whole": "un nombre entier",
    "fraction": "une fraction ou un nombre (2/3, 0.5)",
    "bool": "oui ou non",
    "optional": "un nombre, ou « aucun »",
    "share": "un pourcentage de N (un nombre) ou « rest »",
    "text": "un texte",
    "list": "une liste de valeurs séparées par des virgules",
}
TRUE_WORDS = {"oui", "true", "vrai", "yes", "1"}
FALSE_WORDS = {"non", "false", "faux", "no", "0"}
NONE_WORDS = {"", "aucun", "aucune", "null", "none", "~"}
NEAR_KEYS = 5
MIN_NEAR_KEYS = 3


class WhatIfError(ValueError):
    """A what-if that cannot run: an unknown key, a bad value, inconsistent parameters. The
    message is French and names what to correct."""


@dataclass(frozen=True)
class Parameter:
    """One changeable parameter: its key, file, current value and the kind of value it takes.
    `path`: where it lives in its file (mapping keys and list indices for a YAML file; the
    row's address for a CSV table)."""

    key: str
    file: str
    value: Any
    kind: str
    path: tuple[Any, ...]
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Change:
    """A parameter's value before and after (`None` before: absent from the base folder).
    `derived`: not set by the what-if but following a set one (quota sub-shares)."""

    key: str
    file: str
    before: Any
    after: Any
    derived: bool = False


@dataclass(frozen=True)
class Scenario:
    """A prepared what-if: the base folder the warehouse was built with, the changed copy,
    the changes (sorted by key) and their short hash."""

    base_dir: Path
    reference_dir: Path
    changes: tuple[Change, ...]
    digest: str
    settings: tuple[str, ...] = field(default=())

    @property
    def files(self) -> frozenset[str]:
        """The reference files whose parameters differ."""
        return frozenset(c.file for c in self.changes)


# --------------------------------------------------------------------------- registry


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def _kind(key: str, value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "whole" if any(fnmatch.fnmatchcase(key, p) for p in WHOLE_NUMBERS) else "number"
    if value is None:
        return "optional"
    if isinstance(value, str) and "/" in value:
        try:
            Fraction(value)
        except (ValueError, ZeroDivisionError):
            return "text"
        return "fraction"
    return "text"


def _pairs(node: list[Any]) -> bool:
    return bool(node) and all(
        isinstance(i, list) and len(i) == 2 and isinstance(i[0], str) and _is_scalar(i[1])
        for i in node
    )


def _walk(
    file: str, prefix: str, node: Any, path: tuple[Any, ...], out: dict[str, Parameter]
) -> None:
    key = ".".join([prefix, *(str(p) for p in path)]) if path else prefix
    if isinstance(node, dict):
        for name, child in node.items():
            _walk(file, prefix, child, (*path, name), out)
    elif isinstance(node, list):
        if _pairs(node):
            for index, (label, value) in enumerate(node):
                sub = f"{key}.{label}"
                out[sub] = Parameter(sub, file, value, _kind(sub, value), (*path, index, 1))
        elif all(_is_scalar(i) for i in node):
            out[key] = Parameter(key, file, list(node), "list", path)
        # a list of mappings (none in the files the what-if recomputes) is not addressable
    elif path:
        out[key] = Parameter(key, file, node, _kind(key, node), path)


def _csv_rows(path: Path) -> list[dict[str, str]]:
    """The data rows of a reference CSV (comment and blank lines skipped), values trimmed."""
    lines = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    reader = csv.DictReader(lines)
    return [{k.strip(): (v or "").strip() for k, v in row.items() if k} for row in reader]


def _quota_address(row: Mapping[str, str]) -> str:
    return f"{row['federation']}.{row['series']}{row['subseries']}"


def _number_text(text: str) -> int | float | str:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def registry(reference_dir: Path) -> dict[str, Parameter]:
    """Every parameter a what-if may change, by key, read from the supported files of
    `reference_dir` (sorted by key)."""
    out: dict[str, Parameter] = {}
    for file in SUPPORTED_FILES:
        path = reference_dir / file
        if not path.exists() or not file.endswith((".yaml", ".yml")):
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        _walk(file, Path(file).stem, data, (), out)
    quotas = reference_dir / QUOTAS_FILE
    if quotas.exists():
        for row in _csv_rows(quotas):
            key = f"{QUOTAS_PREFIX}.{_quota_address(row)}"
            share = row["share"]
            current = REST if share.lower() == REST else _number_text(share)
            out[key] = Parameter(key, QUOTAS_FILE, current, "share", (_quota_address(row),))
    categories = reference_dir / CATEGORIES_FILE
    if categories.exists():
        by_category: dict[str, list[dict[str, str]]] = {}
        for row in _csv_rows(categories):
            by_category.setdefault(row["category"].lower(), []).append(row)
        for category, rows in by_category.items():
            for column in CATEGORY_COLUMNS:
                key = f"{CATEGORIES_PREFIX}.{category}.{column}"
                values = [_number_text(r[column]) for r in rows]
                value: Any = values[0] if len(set(values)) == 1 else values
                out[key] = Parameter(key, CATEGORIES_FILE, value, "whole", (category, column))
    # A preset's value that another preset leaves empty (`cap_difference: null`) may be
    # emptied in every preset.
    tails: dict[str, list[str]] = {}
    for key in out:
        if key.startswith("elo.presets."):
            tails.setdefault(key.split(".", 3)[3], []).append(key)
    for keys in tails.values():
        if any(out[k].kind == "optional" for k in keys):
            for k in keys:
                if out[k].kind in ("number", "whole"):
                    out[k] = Parameter(k, out[k].file, out[k].value, "optional", out[k].path)
    presets = out.get("elo.preset")
    if presets is not None:
        names = tuple(
            sorted({k.split(".")[2] for k in out if k.startswith("elo.presets.")}, key=str)
        )
        out["elo.preset"] = Parameter(
            presets.key, presets.file, presets.value, "preset", presets.path, names
        )
    return dict(sorted(out.items()))


# --------------------------------------------------------------------------- values


def show(value: Any) -> str:
    """A parameter value as a committee reads it: `0,75`, `reste`, `aucun`, `1, 2, 5, 10`."""
    if value is None:
        return "aucun"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, list):
        return ", ".join(show(v) for v in value)
    if isinstance(value, float):
        text = f"{value:.10g}"
        return text.replace(".", ",").replace("-", "−")
    if isinstance(value, int):
        return str(value).replace("-", "−")
    if value == REST:
        return "reste"
    return str(value)


def _canonical(value: Any) -> str:
    """A stable text of a value, for the hash of the changes."""
    if isinstance(value, list):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, str) else str(value)


def _bad(param: Parameter, text: str, reason: str) -> WhatIfError:
    if param.choices:
        expected = f"{', '.join(param.choices[:-1])} ou {param.choices[-1]}"
    else:
        expected = EXPECTED.get(param.kind, "")
    return WhatIfError(
        f"valeur refusée pour « {param.key} » : « {text} » {reason} "
        f"(attendu : {expected} ; valeur actuelle : {show(param.value)})"
    )


def _parse_number(param: Parameter, text: str) -> int | float:
    cleaned = text.strip().replace("\u202f", "").replace(" ", "").replace("−", "-")
    if cleaned.count(",") == 1 and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")  # French decimal comma
    try:
        number: int | float = int(cleaned)
    except ValueError:
        try:
            number = float(cleaned)
        except ValueError:
            raise _bad(param, text, "n'est pas un nombre") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise _bad(param, text, "n'est pas un nombre") from None
    if param.kind == "whole" and not float(number).is_integer():
        raise _bad(param, text, "n'est pas un nombre entier")
    if param.kind == "whole":
        return int(number)
    return number


def parse_value(param: Parameter, text: str) -> Any:
    """The value `text` gives `param`, or a `WhatIfError` naming the key, the value and what
    is expected."""
    raw = text.strip()
    kind = param.kind
    if kind in ("number", "whole"):
        return _parse_number(param, raw)
    if kind == "optional":
        return None if raw.lower() in NONE_WORDS else _parse_number(param, raw)
    if kind == "share":
        if raw.lower() in (REST, "reste"):
            return REST
        share = _parse_number(param, raw)
        if share < 0:
            raise _bad(param, text, "est négatif")
        return share
    if kind == "fraction":
        try:
            Fraction(raw.replace(",", "."))
        except (ValueError, ZeroDivisionError):
            raise _bad(param, text, "n'est ni une fraction ni un nombre") from None
        return raw.replace(",", ".")
    if kind == "bool":
        if raw.lower() in TRUE_WORDS:
            return True
        if raw.lower() in FALSE_WORDS:
            return False
        raise _bad(param, text, "n'est ni oui ni non")
    if kind == "preset":
        if raw not in param.choices:
            raise _bad(param, text, "n'est pas un préréglage de elo.yaml")
        return raw
    if kind == "list":
        items = [i.strip() for i in raw.split(",") if i.strip()]
        if not items:
            raise _bad(param, text, "est une liste vide")
        current = param.value if isinstance(param.value, list) else []
        if current and all(isinstance(v, int) and not isinstance(v, bool) for v in current):
            whole = Parameter(param.key, param.file, param.value, "whole", param.path)
            return [_parse_number(whole, i) for i in items]
        if current and all(isinstance(v, int | float) for v in current):
            number = Parameter(param.key, param.file, param.value, "number", param.path)
            return [_parse_number(number, i) for i in items]
        return items
    return raw


def _file_of_key(key: str) -> str | None:
    """The reference file a key's first part names (`circuits.seeds` → `circuits.yaml`)."""
    return key.split(".", 1)[0]


def unknown_key(key: str, known: Iterable[str], reference_dir: Path) -> WhatIfError:
    """« clé inconnue … clés proches : … », or, for a key of a reference file the what-if
    does not recompute, which files it does."""
    stem = _file_of_key(key)
    stems = {Path(f).stem for f in SUPPORTED_FILES}
    others = sorted(
        (
            p.name
            for p in reference_dir.glob(f"{stem}.*")
            if p.suffix in (".yaml", ".yml", ".csv") and p.name not in SUPPORTED_FILES
        ),
        key=lambda name: (not name.endswith((".yaml", ".yml")), name),
    )
    if stem not in stems and others:
        supported = ", ".join(
            f"{f} (clés {QUOTAS_PREFIX}.…)"
            if f == QUOTAS_FILE
            else f"{f} (clés {CATEGORIES_PREFIX}.…)"
            if f == CATEGORIES_FILE
            else f
            for f in SUPPORTED_FILES
        )
        return WhatIfError(
            f"clé « {key} » : le what-if ne recalcule pas les règles de {others[0]} ; "
            f"fichiers pris en charge : {supported}"
        )
    keys = list(known)
    near = difflib.get_close_matches(key, keys, n=NEAR_KEYS, cutoff=0.6)
    if len(near) < MIN_NEAR_KEYS:  # always a few to choose from, the closest first
        others = difflib.get_close_matches(key, keys, n=NEAR_KEYS, cutoff=0.0)
        near += [k for k in others if k not in near][: MIN_NEAR_KEYS - len(near)]
    return WhatIfError(f"clé inconnue : « {key} » ; clés proches : {', '.join(near)}")


def parse_settings(
    settings: Sequence[str], params: Mapping[str, Parameter], reference_dir: Path
) -> dict[str, Any]:
    """`KEY=VALUE` settings → {key: value}, each key known and each value valid."""
    chosen: dict[str, Any] = {}
    written: dict[str, str] = {}
    for setting in settings:
        key, sep, text = setting.partition("=")
        key = key.strip()
        if not sep or not key:
            example = key or "series.min_divisor"
            raise WhatIfError(
                f"réglage « {setting} » sans valeur : écrivez CLÉ=VALEUR, par exemple {example}=10"
            )
        param = params.get(key)
        if param is None:
            raise unknown_key(key, params, reference_dir)
        if key in chosen:
            raise WhatIfError(
                f"la clé « {key} » est réglée deux fois ({written[key]} puis {text.strip()}) : "
                "gardez-en une"
            )
        chosen[key] = parse_value(param, text)
        written[key] = text.strip()
    return chosen


# --------------------------------------------------------------------------- quotas


def _fraction(value: Any) -> Fraction | None:
    if value == REST or value is None:
        return None
    return Fraction(str(value))


def _share_text(value: Fraction) -> str:
    """A share as the loader reads it: a decimal when exact, else `a/b`."""
    as_float = float(value)
    if Fraction(repr(as_float)) == value:
        return f"{as_float:g}" if as_float.is_integer() else repr(as_float)
    return f"{value.numerator}/{value.denominator}"


def _share_value(value: Fraction) -> int | float | str:
    text = _share_text(value)
    return _number_text(text)


def _quota_rows(params: Mapping[str, Parameter]) -> dict[str, tuple[str, str, str]]:
    """key → (federation, series, sub-series) of every quota row."""
    rows: dict[str, tuple[str, str, str]] = {}
    for key in params:
        if key.startswith(QUOTAS_PREFIX + "."):
            federation, _, label = key[len(QUOTAS_PREFIX) + 1 :].rpartition(".")
            rows[key] = (federation, label[:1], label[1:])
    return rows


def follow_quotas(
    chosen: Mapping[str, Any], params: Mapping[str, Parameter]
) -> dict[str, tuple[Any, Any]]:
    """The quota rows that follow a changed `*` series share: each other federation's rows
    of that series, scaled in proportion, unless the what-if sets one of them itself
    (`key → (before, after)`)."""
    rows = _quota_rows(params)
    followed: dict[str, tuple[Any, Any]] = {}
    for key, value in chosen.items():
        if key not in rows or rows[key][0] != OTHERS:
            continue
        series = rows[key][1]
        old, new = _fraction(params[key].value), _fraction(value)
        if old is None or new is None or old == new or old == 0:
            continue
        federations = sorted({f for f, s, _ in rows.values() if f != OTHERS and s == series})
        for federation in federations:
            mine = [k for k, (f, s, _) in rows.items() if f == federation and s == series]
            if any(k in chosen for k in mine):
                continue
            shares = [_fraction(params[k].value) for k in mine]
            if any(s is None for s in shares):
                continue  # a rest cannot follow: the consistency check says so
            for k, share in zip(mine, shares, strict=True):
                assert share is not None
                followed[k] = (params[k].value, _share_value(share * new / old))
    return followed


def check_quotas(
    values: Mapping[str, Any], params: Mapping[str, Parameter], chosen: Iterable[str] = ()
) -> None:
    """Each federation's shares of a series add up to the `*` share of that series (`rest`
    rows only where `*` is the rest), as the loader requires; a French error otherwise."""
    rows = _quota_rows(params)
    totals: dict[tuple[str, str], Fraction | None] = {}
    for key, (federation, series, _) in rows.items():
        share = _fraction(values[key])
        current = totals.get((federation, series), Fraction(0))
        totals[(federation, series)] = None if share is None or current is None else current + share
    for (federation, series), total in sorted(totals.items()):
        if federation == OTHERS:
            continue
        expected = totals.get((OTHERS, series), Fraction(0))
        if total == expected:
            continue
        set_here = set(chosen)
        mine = sorted(
            k
            for k, (f, s, _) in rows.items()
            if f == federation and s == series and k not in set_here
        )
        what = "le reste" if total is None else f"{show(_share_value(total))} %"
        wanted = "le reste" if expected is None else f"{show(_share_value(expected))} %"
        hint = f"{', '.join(mine[:-1])} ou {mine[-1]}" if len(mine) > 1 else "".join(mine)
        raise WhatIfError(
            f"quotas incohérents : la série {series} de {federation} ferait {what}, celle de "
            f"« * » fait {wanted} ; les parts d'une fédération dans une série doivent faire "
            f"celle de « * » : réglez aussi {hint or 'ses autres sous-séries'} (ou "
            f"{QUOTAS_PREFIX}.*.{series}, que les autres fédérations suivent en proportion)"
        )


# --------------------------------------------------------------------------- writing


def _set_path(data: Any, path: tuple[Any, ...], value: Any) -> None:
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def _write_yaml(path: Path, changes: Mapping[tuple[Any, ...], Any]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for where, value in changes.items():
        _set_path(data, where, value)
    header = "# Written by `classement whatif` from the reference folder, with changed values.\n"
    path.write_text(
        header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100),
        encoding="utf-8",
    )


def _write_csv(path: Path, address: Any, changes: Mapping[str, Any]) -> None:
    """Rewrite the data rows of a reference CSV whose address (`address(row)`) is changed;
    comment lines are kept. `changes`: address → {column: value}."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    header: list[str] | None = None
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            out.append(line)
            continue
        cells = next(csv.reader([line]))
        if header is None:
            header = [c.strip() for c in cells]
            out.append(line)
            continue
        row = dict(zip(header, (c.strip() for c in cells), strict=False))
        updates = changes.get(address(row))
        if updates:
            for column, value in updates.items():
                cells[header.index(column)] = value
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="").writerow(cells)
            line = buffer.getvalue()
        out.append(line)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _cell(value: Any) -> str:
    if value == REST:
        return REST
    if isinstance(value, float):
        return _share_text(Fraction(repr(value)))
    return str(value)


def write_reference(
    source: Path, target: Path, values: Mapping[str, Any], params: Mapping[str, Parameter]
) -> None:
    """`target` as a copy of the reference folder `source` with `values` (key → new value)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    yaml_changes: dict[str, dict[tuple[Any, ...], Any]] = {}
    quota_changes: dict[str, dict[str, str]] = {}
    category_changes: dict[str, dict[str, str]] = {}
    for key, value in values.items():
        param = params[key]
        if param.file == QUOTAS_FILE:
            quota_changes[param.path[0]] = {"share": _cell(value)}
        elif param.file == CATEGORIES_FILE:
            category, column = param.path
            category_changes.setdefault(category, {})[column] = _cell(value)
        else:
            yaml_changes.setdefault(param.file, {})[param.path] = value
    for file, changes in yaml_changes.items():
        _write_yaml(target / file, changes)
    if quota_changes:
        _write_csv(target / QUOTAS_FILE, _quota_address, quota_changes)
    if category_changes:
        _write_csv(target / CATEGORIES_FILE, lambda row: row["category"].lower(), category_changes)


def check_loads(reference_dir: Path, files: Iterable[str]) -> None:
    """Load the changed files with the ordinary loaders: a value they refuse stops the
    what-if with their reason."""
    loaders: dict[str, Any] = {
        "series.yaml": load_series_params,
        "series_quotas.csv": load_series_quotas,
        "cote.yaml": lambda d: (load_cote_params(d), load_ranking_params(d)),
        "cote_categories.csv": load_cote_params,
        "elo.yaml": load_elo_params,
        "national.yaml": load_national_params,
    }
    for file in sorted(set(files)):
        try:
            loaders[file](reference_dir)
        except (ReferenceDataError, ValueError, KeyError, TypeError) as err:
            raise WhatIfError(f"paramètres refusés par le chargeur de {file} : {err}") from None


# --------------------------------------------------------------------------- scenario


def _unsupported_differences(base: Path, other: Path) -> list[str]:
    """The files outside `SUPPORTED_FILES` that differ between two reference folders."""
    names = {
        p.relative_to(folder).as_posix()
        for folder in (base, other)
        for p in folder.rglob("*")
        if p.is_file()
    }
    differ = []
    for name in sorted(names - set(SUPPORTED_FILES)):
        a, b = base / name, other / name
        if not (a.is_file() and b.is_file() and a.read_bytes() == b.read_bytes()):
            differ.append(name)
    return differ


def digest_of(changes: Sequence[Change]) -> str:
    """The short hash naming a what-if's output folder: 10 hex digits of its changes."""
    text = "\n".join(f"{c.key}={_canonical(c.after)}" for c in sorted(changes, key=lambda c: c.key))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def prepare(
    settings: Sequence[str],
    base_dir: Path,
    target_dir: Path,
    alternative: Path | None = None,
) -> Scenario:
    """Check the settings (`KEY=VALUE`) and write the changed reference folder in
    `target_dir`: a copy of `alternative` (a whole other reference folder) when given, else
    of `base_dir` (the folder the warehouse was built with), with the settings applied.
    The changes are every parameter whose value differs from `base_dir`'s."""
    base_dir, start = Path(base_dir), Path(alternative or base_dir)
    if alternative is not None:
        if not start.is_dir():
            raise WhatIfError(f"dossier de paramètres introuvable : {start}")
        differ = _unsupported_differences(base_dir, start)
        if differ:
            raise WhatIfError(
                f"le dossier {start} diffère de {base_dir} dans {', '.join(differ)}, que le "
                f"what-if ne recalcule pas ; fichiers pris en charge : {', '.join(SUPPORTED_FILES)}"
            )
    base_params = registry(base_dir)
    params = registry(start)
    chosen = parse_settings(settings, params, start)
    followed = follow_quotas(chosen, params)
    values = (
        {k: p.value for k, p in params.items()}
        | chosen
        | {k: after for k, (_, after) in followed.items()}
    )
    check_quotas(values, params, chosen)
    written = {k: v for k, v in values.items() if _canonical(v) != _canonical(params[k].value)}
    write_reference(start, target_dir, written, params)
    after_params = registry(target_dir)
    changes: list[Change] = []
    for key in sorted(set(base_params) | set(after_params)):
        before = base_params[key].value if key in base_params else None
        after = after_params[key].value if key in after_params else None
        if _canonical(before) != _canonical(after):
            file = (after_params.get(key) or base_params[key]).file
            changes.append(Change(key, file, before, after, derived=key in followed))
    check_loads(target_dir, {c.file for c in changes})
    return Scenario(
        base_dir=base_dir,
        reference_dir=target_dir,
        changes=tuple(changes),
        digest=digest_of(changes),
        settings=tuple(settings),
    )
