"""A raw folder that lost its exports is not built in silence.

An empty raw folder (an unmounted network share) is refused unless the build is told so
(`EmptyRawFolder`, `classement build --allow-empty`): built, it would wipe every table and
page. A build that reads no export of a season the last build read, or fewer than half of
the exports the last build read, says so (`shrink_warnings`): in its summary and in the
data-quality notice of the site's home page. The last build's exports are the previous
warehouse's `ingest_log`, read before the build.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.ingest.raw import Listing, listing
from pipelines.warehouse import Warehouse


class EmptyRawFolder(ValueError):
    """The raw folder holds no export at all."""


def refuse_empty(raw_dir: Path, seen: Listing | None = None) -> None:
    """Raise EmptyRawFolder when `raw_dir` holds no export (nor any file the ingest would
    name as refused)."""
    seen = seen if seen is not None else listing(raw_dir)
    if seen.exports or seen.refused:
        return
    raise EmptyRawFolder(
        f"le dossier des exports {raw_dir} ne contient aucun export : la construction "
        "effacerait tous les classements et toutes les pages. Vérifiez que le dossier est "
        "bien monté ; pour construire quand même à partir de rien, relancez avec "
        "--allow-empty"
    )


def previous_exports(warehouse: Path) -> pl.DataFrame | None:
    """The exports the last build read (`path`, `season` of its `ingest_log`); None
    without a previous warehouse."""
    if not warehouse.exists():
        return None
    try:
        return Warehouse(warehouse).read('SELECT path, season FROM "ingest_log"')
    except Exception:  # an older warehouse without this table or column: nothing to compare
        return None


def _exports(n: int) -> str:
    """« 0 export », « 1 export », « 2 exports » (French: the singular below two)."""
    return f"{n} export" if n < 2 else f"{n} exports"


def shrink_warnings(previous: pl.DataFrame | None, current: pl.DataFrame) -> list[str]:
    """French sentences for a raw folder that shrank since the last build: each season with
    no export any more, and fewer than half of the exports the last build read."""
    if previous is None or previous.height == 0:
        return []
    warnings = []
    now = set(current["season"].drop_nulls().to_list())
    before = previous["season"].drop_nulls().value_counts(sort=False)
    for season, count in sorted(before.rows()):
        if season not in now:
            warnings.append(
                f"Attention : la saison {season} n'a plus aucun export (la construction "
                f"précédente en avait lu {count}). Si ce n'est pas voulu, vérifiez le dossier "
                "des exports."
            )
    if 2 * current.height < previous.height:
        warnings.append(
            f"Attention : cette construction a lu {_exports(current.height)} contre "
            f"{previous.height} la fois précédente. Si ce n'est pas voulu, vérifiez le "
            "dossier des exports."
        )
    return warnings


__all__ = ["EmptyRawFolder", "previous_exports", "refuse_empty", "shrink_warnings"]
