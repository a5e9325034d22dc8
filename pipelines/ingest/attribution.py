"""Which season an export belongs to, read from the file alone (its path, then its text).

A rejected export loads nothing, so no tournament tells its season; the reports still name
it in the data-quality notice of its season. Decision (docs/rules.md, « Avis sur les
données »), in this order:

1. a folder of its path named like a season (`2023-2024/C2.csv`): that season;
2. a date in its path (`liste_2023-08-31.csv`): the season holding it;
3. the first date written in its text (ISO `2024-03-10` or French `10/03/2024`), the
   text decoded as UTF-8 or Windows-1252 (a workbook is compressed: no date is read);
4. otherwise none: the export is of an unknown season, named in every report.

Every export of the log gets its season this way (a loaded one too), so the rule is the
same for all. Pure functions: bytes and frames in, values and frames out.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterable

import polars as pl

from transforms.calendar import SeasonCalendar

SEASON_FOLDER = re.compile(r"^(\d{4})-(\d{4})$")
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_FRENCH = re.compile(r"(?<!\d)(\d{1,2})/(\d{1,2})/(\d{4})(?!\d)")
TEXT_BYTES = 65_536  # a date is looked for in the first 64 KiB of a file


def _dates(text: str) -> Iterable[dt.date]:
    """The valid dates written in `text`, in order of appearance (both formats)."""
    found: list[tuple[int, dt.date]] = []
    for match in _ISO.finditer(text):
        year, month, day = (int(g) for g in match.groups())
        found.extend(_valid(match.start(), year, month, day))
    for match in _FRENCH.finditer(text):
        day, month, year = (int(g) for g in match.groups())
        found.extend(_valid(match.start(), year, month, day))
    return [date for _, date in sorted(found, key=lambda x: x[0])]


def _valid(at: int, year: int, month: int, day: int) -> list[tuple[int, dt.date]]:
    try:
        return [(at, dt.date(year, month, day))]
    except ValueError:
        return []


def _text(data: bytes) -> str:
    head = data[:TEXT_BYTES]
    if head.startswith(b"PK"):  # a workbook (zip): its text is compressed
        return ""
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError:
        return head.decode("cp1252", errors="replace")


def export_mark(path: str, data: bytes | None) -> str | None:
    """What tells an export's season, read from the file alone (see the module's
    decision): a season folder of its path (`2023-2024`), else the first date of its path
    or of its text (ISO), else None. Kept with the file's cached reading."""
    parts = path.split("/")
    for part in reversed(parts[:-1]):
        match = SEASON_FOLDER.match(part)
        if match and int(match.group(2)) == int(match.group(1)) + 1:
            return part
    for date in _dates(path):
        return date.isoformat()
    if data:
        for date in _dates(_text(data)):
            return date.isoformat()
    return None


def season_of_mark(mark: str | None, calendar: SeasonCalendar) -> str | None:
    """The season `export_mark` tells: the folder's season, or the season holding the date."""
    if mark is None or SEASON_FOLDER.match(mark):
        return mark
    return calendar.season_of(dt.date.fromisoformat(mark))


def export_season(path: str, data: bytes | None, calendar: SeasonCalendar) -> str | None:
    """The season an export belongs to (see the module's decision), None when unknown."""
    return season_of_mark(export_mark(path, data), calendar)


def with_rejections(fingerprints: pl.DataFrame, log: pl.DataFrame) -> pl.DataFrame:
    """The season fingerprints with the rejected exports folded in: a season's hash also
    covers the path and message of each export rejected in it, and of each export of an
    unknown season (named in every report), so that a season whose notice changes is
    built again. `log`: `ingest_log` rows (path, status, message, season)."""
    rejected = log.filter(pl.col("status") == "rejected").sort("path")
    unknown = rejected.filter(pl.col("season").is_null())
    common = "".join(f"{p}\0{m}\n" for p, m in unknown.select("path", "message").iter_rows())
    hashed = []
    for season, fingerprint in fingerprints.select("season", "fingerprint").iter_rows():
        own = rejected.filter(pl.col("season") == season)
        if own.height == 0 and not common:
            hashed.append(fingerprint)
            continue
        listed = "".join(f"{p}\0{m}\n" for p, m in own.select("path", "message").iter_rows())
        digest = hashlib.sha256(f"{fingerprint}\0{listed}\0{common}".encode())
        hashed.append(digest.hexdigest())
    return fingerprints.with_columns(pl.Series("fingerprint", hashed, dtype=pl.String))
