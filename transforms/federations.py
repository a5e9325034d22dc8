"""Federations and countries however organisers write them (docs/rules.md §4): one code each.

Organisers write a player's federation and an event's country in many ways: ISO 3166 codes
(`CH`, `CHE`), FISF codes (`SUI`), federation acronyms (`FSSc`), French or English names
(`Suisse`, `Switzerland`). An *alias table* (`data/reference/federations.csv`, loaded by
`pipelines.reference.federations`) lists, for each federation or country, its canonical
code, its French name and the ways it is written. The mechanism is generic: any other table
of the same shape (the regional circuits' names, say) is an `AliasTable` too, and the same
expressions map its columns.

Pure functions: Polars expressions and frames in and out, no I/O.

Decisions taken here:

- **Matching** ignores case, accents and every character that is not a letter or a digit
  (spaces, dots, hyphens, apostrophes): `Côte-d'Ivoire`, `COTE D IVOIRE` and `cote d'ivoire`
  are one key, `COTEDIVOIRE`; `Œ`/`Æ` count as `OE`/`AE`. A table in which two codes share
  a key is refused (`AliasTableError`), so a match is never ambiguous. An entry's code and
  its French name are aliases of it without being listed.
- **Unknown values** are kept as written (surrounding spaces trimmed) and flagged: the code
  column holds the written text and the `known` flag is false, so nothing is lost and
  `unknown_values` lists each unknown text once per season for the data-quality annex.
- **Empty values** (null, or nothing left once spaces and punctuation are dropped) are no
  value: null code, null flag, never listed as unknown.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import polars as pl

_LIGATURES = {"Œ": "OE", "Æ": "AE"}
_NOT_KEY = re.compile(r"[^A-Z0-9]")


class AliasTableError(ValueError):
    """An alias table whose entries clash (one key for two codes, a code twice, a blank)."""


def normalise_key(text: str) -> str:
    """The matching key of one written value: accents dropped, upper case, letters and
    digits only (`Côte d'Ivoire` → `COTEDIVOIRE`)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).upper()
    for ligature, letters in _LIGATURES.items():
        plain = plain.replace(ligature, letters)
    return _NOT_KEY.sub("", plain)


def normalise_key_expr(value: pl.Expr) -> pl.Expr:
    """`normalise_key` of each value of a column (null stays null)."""
    text = (
        value.cast(pl.String).str.normalize("NFKD").str.replace_all(r"\p{M}", "").str.to_uppercase()
    )
    for ligature, letters in _LIGATURES.items():
        text = text.str.replace_all(ligature, letters, literal=True)
    return text.str.replace_all(r"[^A-Z0-9]", "")


@dataclass(frozen=True)
class AliasEntry:
    """One federation or country (or circuit): its code, French name and written forms."""

    code: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class AliasTable:
    """Entries mapping written forms to one code each; `source` names the file in errors."""

    entries: tuple[AliasEntry, ...]
    source: str = "alias table"

    def __post_init__(self) -> None:
        codes: set[str] = set()
        for entry in self.entries:
            if not entry.code.strip() or entry.code != entry.code.strip():
                raise AliasTableError(f"{self.source}: blank or padded code {entry.code!r}")
            if not entry.name.strip():
                raise AliasTableError(f"{self.source}: code {entry.code} has no name")
            if entry.code in codes:
                raise AliasTableError(f"{self.source}: code {entry.code} is listed twice")
            codes.add(entry.code)
        self.lookup  # noqa: B018 - builds the key map now, so a clash fails at load time

    @cached_property
    def lookup(self) -> dict[str, str]:
        """Matching key → code, for every code, French name and alias."""
        keys: dict[str, str] = {}
        for entry in self.entries:
            for written in (entry.code, entry.name, *entry.aliases):
                key = normalise_key(written)
                if not key:
                    raise AliasTableError(
                        f"{self.source}: alias {written!r} of {entry.code} has no letter or digit"
                    )
                other = keys.setdefault(key, entry.code)
                if other != entry.code:
                    raise AliasTableError(
                        f"{self.source}: {written!r} matches both {other} and {entry.code}"
                    )
        return keys

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(e.code for e in self.entries)

    def name(self, code: str) -> str:
        """French name of a code (the code itself when it is not in the table)."""
        return next((e.name for e in self.entries if e.code == code), code)

    def code_of(self, written: str | None) -> str | None:
        """Canonical code of one written value; None when empty or unknown."""
        if written is None:
            return None
        return self.lookup.get(normalise_key(written))

    def names(self) -> pl.DataFrame:
        """`code, name` of every entry, in table order (for reports)."""
        return pl.DataFrame(
            {"code": list(self.codes), "name": [e.name for e in self.entries]},
            schema={"code": pl.String, "name": pl.String},
        )


def _expr(value: pl.Expr | str) -> pl.Expr:
    return pl.col(value) if isinstance(value, str) else value


def known_expr(value: pl.Expr | str, table: AliasTable) -> pl.Expr:
    """True when a written value is in the table, false when unknown, null when empty."""
    key = normalise_key_expr(_expr(value))
    return pl.when(key != "").then(key.is_in(list(table.lookup)))


def canonical_expr(value: pl.Expr | str, table: AliasTable) -> pl.Expr:
    """The code of each written value; an unknown value as written (trimmed); null when
    empty."""
    expr = _expr(value)
    key = normalise_key_expr(expr)
    code = key.replace_strict(table.lookup, default=None, return_dtype=pl.String)
    written = expr.cast(pl.String).str.strip_chars()
    return pl.when(key != "").then(pl.coalesce(code, written))


def with_codes(
    frame: pl.DataFrame,
    column: str,
    table: AliasTable,
    *,
    code: str | None = None,
    known: str | None = None,
) -> pl.DataFrame:
    """`frame` with `<column>_code` (the canonical code, or the value as written) and
    `<column>_known` (false for a value not in the table) added."""
    return frame.with_columns(
        canonical_expr(column, table).alias(code or f"{column}_code"),
        known_expr(column, table).alias(known or f"{column}_known"),
    )


def unknown_values(
    frame: pl.DataFrame,
    column: str,
    table: AliasTable,
    by: Sequence[str] = ("season",),
) -> pl.DataFrame:
    """Each value of `column` not in the table, once per group of `by` (the season): `*by,
    column, value` (as written, trimmed) and `rows` (how many rows wrote it), sorted."""
    keys = list(by)
    flagged = frame.select(
        *keys,
        pl.col(column).cast(pl.String).str.strip_chars().alias("value"),
        known_expr(column, table).alias("_known"),
    ).filter(pl.col("_known").not_())
    return (
        flagged.group_by([*keys, "value"])
        .agg(pl.len().cast(pl.Int64).alias("rows"))
        .select(*keys, pl.lit(column, dtype=pl.String).alias("column"), "value", "rows")
        .sort([*keys, "value"])
    )
