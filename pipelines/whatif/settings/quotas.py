"""Series quotas: a changed share of the `*` quotas followed, in proportion, by each
federation's rows of that series the what-if does not set itself, and the shares checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from pipelines.whatif.settings.model import OTHERS, QUOTAS_PREFIX, REST, Parameter, WhatIfError
from pipelines.whatif.settings.registry import _number_text
from pipelines.whatif.settings.values import show


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
