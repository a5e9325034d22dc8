"""The checks across files, incremental (issue 25): a build that only adds files touching
no old one checks the new files alone and takes up the last build's fingerprints before
their dates; anything else (a tournament shared with an old file, a file changed or
removed, another reference date) checks every file again. Either way the ingest equals
a fresh ingest of the folder."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipelines.ingest import batch, cache
from pipelines.ingest.batch import IngestResult, season_fingerprints, year_fingerprints
from tests.support import PARAMETERS, PLAYERS, games_csv, ingested, results_csv

AS_OF = dt.date(2025, 6, 30)


def _ingest(raw: Path, folder: Path, as_of: dt.date = AS_OF) -> IngestResult:
    """The ingest with its cache, checked against a fresh ingest of the same folder."""
    result = cache.ingest_folder(raw, params=PARAMETERS, cache_dir=folder, as_of=as_of)
    fresh = ingested(raw)
    assert result.tables.keys() == fresh.tables.keys()
    for name, frame in fresh.tables.items():
        assert result.tables[name].equals(frame), name
    assert result.log.equals(fresh.log)
    assert result.rejected == fresh.rejected
    assert result.partitions["season"].equals(
        season_fingerprints(fresh.tables, PARAMETERS.calendar)
    )
    assert result.partitions["year"].equals(year_fingerprints(fresh.tables))
    return result


def _status(result: IngestResult, path: str) -> str:
    return result.log.filter(pl.col("path") == path)["status"].item()


def test_an_added_tournament_is_checked_alone_and_the_earlier_seasons_kept(
    raw: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "cache"
    first = _ingest(raw, folder)
    assert first.added is None  # no last build: every file checked
    later = raw / "2024-2025"
    later.mkdir()
    (later / "D7.csv").write_text(
        results_csv("D7", PLAYERS, date="2025-01-19", discipline="duplicate"), encoding="utf-8"
    )
    second = _ingest(raw, folder)
    assert second.added is not None
    assert second.added.paths == {"2024-2025/D7.csv"}
    assert second.added.since == dt.date(2025, 1, 19)
    # the season before it kept its fingerprint; the new season has one of its own
    assert second.partitions["season"]["season"].to_list() == ["2023-2024", "2024-2025"]
    assert second.partitions["season"].row(0) == first.partitions["season"].row(0)
    # an added file with a problem of its own is rejected as in a fresh ingest
    (later / "D8.csv").write_text(
        results_csv("D8", [*PLAYERS, PLAYERS[0]], date="2025-02-02", discipline="duplicate"),
        encoding="utf-8",
    )
    third = _ingest(raw, folder)
    assert third.added is not None and third.added.paths == {"2024-2025/D8.csv"}
    assert _status(third, "2024-2025/D8.csv") == "rejected"


def test_added_tournaments_take_their_places_in_the_last_build_s_tables(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files that only add tournaments put their rows in the last build's tables, in event
    order (before, between and after the old tournaments), their players made again: the
    same tables as a fresh ingest (`_ingest`), without making every table again."""
    folder = tmp_path / "cache"
    _ingest(raw, folder)
    season = raw / "2023-2024"
    newcomer = ("105", "Nouveau", "Paul", 3)
    renamed = ("101", "Martin-Roy", "Hélène", 1)
    between = [PLAYERS[0], renamed, newcomer, PLAYERS[3]]
    (season / "C5.csv").write_text(results_csv("C5", between, date="2024-01-28"), "utf-8")
    (season / "C5_games.csv").write_text(
        games_csv("C5", [(1, "101", "100", 410, 400), (1, "105", "103", 380, 370)]), "utf-8"
    )
    later = [(pid, last, first, rank - 1) for pid, last, first, rank in PLAYERS[1:]]
    (season / "C0.csv").write_text(results_csv("C0", PLAYERS[:2], date="2023-10-01"), "utf-8")
    (season / "D9.csv").write_text(
        results_csv("D9", later, date="2024-05-05", discipline="duplicate"), "utf-8"
    )
    # rejected by itself (a player twice): its rows go nowhere
    (season / "C6.csv").write_text(
        results_csv("C6", [*PLAYERS, PLAYERS[0]], date="2024-03-03"), "utf-8"
    )

    taken_up: list[int] = []
    with_added = batch._with_added

    def counted(*args: Any) -> dict[str, pl.DataFrame]:
        taken_up.append(1)
        return with_added(*args)

    monkeypatch.setattr(batch, "_with_added", counted)
    result = _ingest(raw, folder)
    assert taken_up == [1]  # not every table made again
    assert result.added is not None and len(result.added.paths) == 5
    assert result.tables["tournaments"]["tournament_id"].to_list() == ["C0", "C1", "C5", "D1", "D9"]
    players = result.tables["players"].filter(pl.col("player_id").is_in(["101", "105"]))
    # the latest details by event date: D9 after C5
    assert players.select("last_name", "tournaments").rows() == [("Martin", 4), ("Nouveau", 1)]
    assert _status(result, "2023-2024/C6.csv") == "rejected"
    # and the build after it takes up these tables as well
    (season / "D10.csv").write_text(
        results_csv("D10", PLAYERS, date="2024-06-02", discipline="duplicate"), "utf-8"
    )
    assert _ingest(raw, folder).tables["results"]["tournament_id"].tail(1).item() == "D10"
    assert taken_up == [1, 1]


def test_an_added_file_re_decides_an_old_one(raw: Path, tmp_path: Path) -> None:
    """Games of a tournament without results are refused; once its results arrive, the
    old games file loads: the new file shares its tournament, every file is checked."""
    folder = tmp_path / "cache"
    season = raw / "2023-2024"
    (season / "C9_games.csv").write_text(
        games_csv("C9", [(1, "100", "101", 400, 380)]), encoding="utf-8"
    )
    first = _ingest(raw, folder)
    assert _status(first, "2023-2024/C9_games.csv") == "rejected"
    assert "C9 n'a pas de résultats" in first.rejected["2023-2024/C9_games.csv"]
    (season / "C9.csv").write_text(results_csv("C9", PLAYERS), encoding="utf-8")
    second = _ingest(raw, folder)
    assert second.added is None  # a shared tournament: every file checked again
    assert _status(second, "2023-2024/C9_games.csv") == "ingested"
    # and a file earlier by name giving the same tournament takes it from the old one
    (season / "A9.csv").write_text(results_csv("C9", PLAYERS), encoding="utf-8")
    third = _ingest(raw, folder)
    assert third.added is None
    assert _status(third, "2023-2024/A9.csv") == "ingested"
    assert _status(third, "2023-2024/C9.csv") == "rejected"


def test_a_removed_file_or_another_date_checks_every_file(raw: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    season = raw / "2023-2024"
    (season / "D7.csv").write_text(
        results_csv("D7", PLAYERS, date="2024-03-10", discipline="duplicate"), encoding="utf-8"
    )
    _ingest(raw, folder)
    (season / "D7.csv").unlink()
    assert _ingest(raw, folder).added is None
    (season / "D7.csv").write_text(
        results_csv("D7", PLAYERS, date="2024-03-10", discipline="duplicate"), encoding="utf-8"
    )
    assert _ingest(raw, folder).added is not None
    # a reference date before the new tournament: refused for its date, every file checked
    (season / "D8.csv").write_text(
        results_csv("D8", PLAYERS, date="2024-05-12", discipline="duplicate"), encoding="utf-8"
    )
    before = cache.ingest_folder(
        raw, params=PARAMETERS, cache_dir=folder, as_of=dt.date(2024, 4, 1)
    )
    assert before.added is None
    assert "2023-2024/D8.csv" in before.rejected


def test_the_cache_read_ahead_is_taken_up_once_and_only_for_its_folder(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build reads the ingest's cache ahead while it starts (`reading_ahead`): its
    ingest takes that read up rather than reading the cache again, with the same result;
    an ingest of another folder reads its own."""
    folder = tmp_path / "cache"
    _ingest(raw, folder)  # the cache written
    later = raw / "2024-2025"
    later.mkdir()
    (later / "D7.csv").write_text(
        results_csv("D7", PLAYERS, date="2025-01-19", discipline="duplicate"), encoding="utf-8"
    )
    reads: list[Path] = []
    load = cache._load

    def counted(where: Path, version: str) -> object:
        reads.append(where)
        return load(where, version)

    monkeypatch.setattr(cache, "_load", counted)
    with cache.reading_ahead(folder, PARAMETERS):
        result = _ingest(raw, folder)  # equal to a fresh ingest (`_ingest`)
        assert reads == [folder]  # the read ahead, not a second one
        assert result.added is not None and result.added.paths == {"2024-2025/D7.csv"}
        other = tmp_path / "other"
        _ingest(raw, other)
        assert reads == [folder, other]
        _ingest(raw, folder)  # the read ahead was taken: this one reads the cache itself
        assert reads == [folder, other, folder]


def test_the_tables_kept_are_read_only_for_the_code_that_kept_them(
    raw: Path, tmp_path: Path
) -> None:
    """A build keeps its base tables with its decisions; another code's ingest (another
    version of the cache) never reads them (ahead of the build: 0.24 GiB on s20)."""
    folder = tmp_path / "cache"
    result = _ingest(raw, folder)
    version = cache.code_version(PARAMETERS)
    kept = cache._kept_tables(folder, version)
    assert kept is not None and kept.keys() == result.tables.keys()
    assert all(kept[name].equals(frame) for name, frame in result.tables.items())
    assert cache._kept_tables(folder, "another code") is None
