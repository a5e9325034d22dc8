"""A what-if prepared (`prepare`): its settings parsed, the quotas followed, the changed
reference folder written and loaded, and the changes' short hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from pipelines.whatif.settings.model import SUPPORTED_FILES, Change, Scenario, WhatIfError
from pipelines.whatif.settings.quotas import check_quotas, follow_quotas
from pipelines.whatif.settings.registry import registry
from pipelines.whatif.settings.values import _canonical, parse_settings
from pipelines.whatif.settings.writing import check_loads, write_reference


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
