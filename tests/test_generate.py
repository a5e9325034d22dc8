"""`classement generate`: a seeded simulator of federation exports."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import openpyxl
import pytest

from classement.cli import main
from pipelines.ingest.formats import detect_format, ffsc
from pipelines.ingest.kinds import export_kinds, plugins
from pipelines.ingest.read import read_export
from pipelines.ingest.schema import (
    GAMES,
    RATING_LIST,
    RESULTS,
    TOURNAMENT_COLUMNS,
    canonical_column,
)
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.federations import load_federations
from simulator import GenerateConfig, default_calendar, generate
from simulator.columns import (
    FFSC_HEADER,
    FRENCH_HEADERS,
    RATING_LIST_COLUMNS,
    RESULTS_CANONICAL,
    RESULTS_FRENCH,
    columns_led_by,
    french_headers,
)
from simulator.play import round_robin_pairs
from simulator.season import Simulator
from simulator.write import age_category
from tests.support import GENERATED, ingested
from transforms.calendar import SeasonCalendar
from transforms.ranking import competition_ranks

CONFIG = GenerateConfig(**GENERATED)  # seed 7, two seasons from 2021, 300 players

Row = dict[str, str]

# The kinds of export the rule families add: their files come from simulator extensions.
EXTENSION_KINDS = frozenset(p.kind.name for p in plugins())


def of_an_extension(path: Path) -> bool:
    """A file of a rule family's own kind (written by a simulator extension)."""
    if path.suffix not in {".csv", ".xlsx"} or path.name.startswith("classement_"):
        return False
    return bool(EXTENSION_KINDS & read_export(path.read_bytes(), path.name).keys())


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_csv(path: Path) -> tuple[str, str, list[str], list[Row]]:
    """(encoding, delimiter, raw header, rows keyed by canonical column)."""
    raw = path.read_bytes()
    try:
        text, encoding = raw.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        text, encoding = raw.decode("cp1252"), "cp1252"
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    header = [canonical_column(h) for h in rows[0]]
    return encoding, delimiter, rows[0], [dict(zip(header, r, strict=True)) for r in rows[1:]]


def read_xlsx(path: Path) -> dict[str, list[Row]]:
    workbook = openpyxl.load_workbook(path, read_only=True)
    sheets = {}
    for sheet in workbook.worksheets:
        rows = list(sheet.iter_rows(values_only=True))
        header = [canonical_column(str(h)) for h in rows[0]]
        sheets[sheet.title] = [
            {k: _cell(v) for k, v in zip(header, r, strict=True)} for r in rows[1:]
        ]
    workbook.close()
    return sheets


class Sample:
    """A generated folder, read back: the base simulation's files (the extensions' own
    files are only listed, in `extension_files`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.results: dict[str, list[Row]] = {}
        self.games: dict[str, list[Row]] = {}
        self.result_files: dict[str, list[Path]] = defaultdict(list)
        self.flavours: dict[Path, tuple[str, str]] = {}
        self.rankings: dict[str, Path] = {}
        self.workbooks: list[Path] = []
        self.extension_files: list[Path] = []
        for path in sorted(root.glob("*/*")):
            if path.name.startswith("classement_"):
                self.rankings[path.parent.name] = path
                continue
            if of_an_extension(path):
                self.extension_files.append(path)
                continue
            if path.suffix == ".xlsx":
                sheets = read_xlsx(path)
                self.workbooks.append(path)
                self._add_results(path, sheets["results"])
                if "games" in sheets:
                    self.games[sheets["games"][0]["tournament_id"]] = sheets["games"]
                continue
            encoding, delimiter, _, rows = read_csv(path)
            self.flavours[path] = (encoding, delimiter)
            if path.stem.endswith("_games"):
                self.games[rows[0]["tournament_id"]] = rows
            else:
                self._add_results(path, rows)
        (self.rating_path,) = root.glob("rating_list_*.csv")
        self.ratings = read_csv(self.rating_path)[3]

    def _add_results(self, path: Path, rows: list[Row]) -> None:
        for tid in {r["tournament_id"] for r in rows}:
            self.result_files[tid].append(path)
            self.results[tid] = [r for r in rows if r["tournament_id"] == tid]

    def of(self, discipline: str) -> dict[str, list[Row]]:
        return {t: rows for t, rows in self.results.items() if rows[0]["discipline"] == discipline}


@pytest.fixture(scope="module")
def out(generated: Path) -> Path:
    """`generate(root, CONFIG)`: the run's shared folder (conftest), only read."""
    return generated


@pytest.fixture(scope="module")
def sample(out: Path) -> Sample:
    return Sample(out)


def _files(root: Path) -> dict[str, bytes]:
    files = sorted(p for p in root.rglob("*") if p.is_file())
    return {str(p.relative_to(root)): p.read_bytes() for p in files}


def test_same_seed_gives_byte_identical_files(out: Path, tmp_path: Path) -> None:
    generate(tmp_path, CONFIG)
    first, second = _files(out), _files(tmp_path)
    assert first.keys() == second.keys()
    assert any(name.endswith(".xlsx") for name in first)
    for name in first:
        assert first[name] == second[name], name


def test_another_seed_gives_other_files(out: Path, tmp_path: Path) -> None:
    generate(tmp_path, GenerateConfig(seed=8, seasons=1, players=300, first_season=2021))
    mine = _files(tmp_path)
    theirs = _files(out)
    assert [n for n in mine if n in theirs and mine[n] == theirs[n]] == []


def test_first_seasons_do_not_depend_on_the_number_of_seasons(
    out: Path, generated_first_season: Path
) -> None:
    # `CONFIG` with one season (seed 7, 300 players from 2021), generated once a run
    shorter, longer = _files(generated_first_season), _files(out)
    assert shorter
    assert all(longer[name] == data for name, data in shorter.items())
    assert not any(name.startswith("2022-2023") for name in shorter)


def test_layout_and_counts(sample: Sample) -> None:
    assert sorted(p.name for p in sample.root.iterdir()) == [
        "2021-2022",
        "2022-2023",
        "rating_list_2021-08-31.csv",
    ]
    assert sorted(p.name for p in sample.root.glob("*/classement_*")) == [
        "classement_2022-08-31.csv",
        "classement_2023-08-31.csv",
    ]
    for tid, paths in sample.result_files.items():
        assert len(paths) == 1, (tid, paths)  # each tournament in exactly one results file
        assert paths[0].stem == tid
        assert paths[0].parent.name == f"{tid[1:5]}-{int(tid[1:5]) + 1}"
    kinds = Counter(rows[0]["discipline"] for rows in sample.results.values())
    # 300 players: about 0.3 x (48 duplicate, 11 classique, 6 DCDL) a season
    assert 20 <= kinds["duplicate"] <= 40
    assert kinds["classique"] >= 4
    assert kinds["dcdl"] >= 2
    prefixes = {"duplicate": "D", "classique": "C", "dcdl": "L"}
    for tid, rows in sample.results.items():
        assert tid.startswith(prefixes[rows[0]["discipline"]])


def test_headers_are_known_columns(sample: Sample) -> None:
    for path in sorted(sample.root.rglob("*.csv")):
        if path.name.startswith("classement_"):
            continue  # the FFSc ranking: test_ffsc_ranking
        if path in sample.extension_files:
            continue  # a family's own kind
        _, _, header, rows = read_csv(path)
        kinds = [
            k
            for k in export_kinds()
            if set(k.required) <= {k.canonical(h) for h in header} <= set(k.columns)
        ]
        assert len(kinds) == 1, (path, header)
        names = [kinds[0].canonical(h) for h in header]
        assert len(set(names)) == len(names)
        assert rows
    for label_set in FRENCH_HEADERS.values():
        canon = {canonical_column(label) for label in label_set}
        assert len(canon) == 1


def _is_subsequence(names: list[str], order: tuple[str, ...]) -> bool:
    positions = [order.index(n) for n in names]
    return positions == sorted(positions)


def test_column_orders_come_from_the_schema(sample: Sample) -> None:
    assert sorted(RESULTS_CANONICAL) == sorted(RESULTS.columns)
    assert sorted(RESULTS_FRENCH) == sorted(RESULTS.columns)
    assert RESULTS_CANONICAL[: len(TOURNAMENT_COLUMNS)] == TOURNAMENT_COLUMNS
    assert RESULTS_FRENCH[-len(TOURNAMENT_COLUMNS) :] == TOURNAMENT_COLUMNS
    assert RESULTS_FRENCH[:5] == ("rank", "player_id", "last_name", "first_name", "series")
    # the rating list's columns shared with the results first, then its own, schema order
    assert RATING_LIST_COLUMNS == (
        "player_id",
        "last_name",
        "first_name",
        "federation",
        "club",
        "series",
        "as_of",
        "cote",
        "elo",
        "elo_games",
    )
    assert columns_led_by(("a", "b", "c", "d"), ("c", "a")) == ("c", "a", "b", "d")
    with pytest.raises(ValueError, match="not columns of the schema: e"):
        columns_led_by(("a", "b"), ("e",))
    header = sample.rating_path.read_text(encoding="utf-8").split("\n", 1)[0]
    assert header == ",".join(RATING_LIST_COLUMNS)
    for path in sorted(sample.root.glob("*/*.csv")):
        if path.name.startswith("classement_") or path.stem.endswith("_games"):
            continue
        if path in sample.extension_files:
            continue
        _, delimiter, raw, _ = read_csv(path)
        names = [canonical_column(h) for h in raw]
        order = RESULTS_FRENCH if delimiter == ";" else RESULTS_CANONICAL
        assert _is_subsequence(names, order), path


def test_french_headers_are_aliases_of_the_schema() -> None:
    assert FRENCH_HEADERS["rank"] == ("Rang", "Place", "Classement")
    assert FRENCH_HEADERS["player_id"] == ("Licence", "N° licence")
    assert FRENCH_HEADERS["start_date"] == ("Date de début", "Début")
    for column, labels in FRENCH_HEADERS.items():
        assert {canonical_column(label) for label in labels} == {column}
    with pytest.raises(ValueError, match="'Téléphone' is not a French header"):
        french_headers(("Rang", "Téléphone"))


def test_seasons_start_on_the_day_of_the_season_calendar(tmp_path: Path) -> None:
    # France's 2007 season started on 1 July (docs/rules.md §0)
    config = GenerateConfig(seed=7, seasons=1, players=100, first_season=2021)  # the least
    generate(tmp_path, config, SeasonCalendar(7, 1))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "2021-2022",
        "rating_list_2021-06-30.csv",
    ]
    assert [p.name for p in tmp_path.glob("*/classement_*")] == ["classement_2022-06-30.csv"]
    sample = Sample(tmp_path)
    assert sample.results
    for rows in sample.results.values():
        start = dt.date.fromisoformat(rows[0]["start_date"])
        end = dt.date.fromisoformat(rows[0]["end_date"])
        assert dt.date(2021, 7, 1) <= start <= end <= dt.date(2022, 6, 30)


def test_file_flavours(sample: Sample) -> None:
    french = [p for p, (_, delimiter) in sample.flavours.items() if delimiter == ";"]
    canonical = [p for p, (_, delimiter) in sample.flavours.items() if delimiter == ","]
    # About one tournament in five is written the French way (`season.FRENCH_FILES`, a
    # draw per tournament; a classique one writes its games the same way): well under half.
    french_tournaments = [p for p in french if not p.stem.endswith("_games")]
    tournaments = [p for p in sample.flavours if not p.stem.endswith("_games")]
    assert 0 < len(french_tournaments) < 0.4 * len(tournaments)
    assert all(sample.flavours[p][0] == "utf-8" for p in canonical)
    assert any(p.read_bytes().startswith(b"\xef\xbb\xbf") for p in canonical)  # a few BOMs
    raw = b"".join(p.read_bytes() for p in french)
    assert b"\r\n" in raw
    assert raw.count(b"\r\n") == raw.count(b"\n")
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")  # accented names really are Windows-1252
    assert sum(sample.flavours[p][0] == "cp1252" for p in french) > len(french) / 2
    headers = {h for p in french for h in read_csv(p)[2]}
    assert {"Rang", "Nom", "Prénom"} <= headers
    assert headers & {"Licence", "N° licence"}
    workbooks = sample.workbooks
    assert 2 <= len(workbooks) <= 4  # one or two a season
    with_games = [p for p in workbooks if "games" in read_xlsx(p)]
    assert with_games and all(p.stem.startswith("C") for p in with_games)
    for path in workbooks:
        workbook = openpyxl.load_workbook(path)
        assert workbook.sheetnames in (["results"], ["results", "games"])
        assert workbook.properties.created == dt.datetime(2020, 1, 1)
        assert isinstance(workbook["results"].cell(2, 1).value, int)  # the rank, a number
    assert not any(f"{p.stem}_games.csv" in str(q) for p in workbooks for q in sample.flavours)


def test_accented_names_survive_every_encoding(sample: Sample) -> None:
    names = {r["first_name"] for rows in sample.results.values() for r in rows}
    names |= {r["last_name"] for rows in sample.results.values() for r in rows}
    assert any(ch in "".join(names) for ch in "éèëïô")


def test_tournament_columns_repeat_identically(sample: Sample) -> None:
    for tid, rows in sample.results.items():
        for column in TOURNAMENT_COLUMNS[1:]:
            assert len({r.get(column) for r in rows}) == 1, (tid, column)
        start = dt.date.fromisoformat(rows[0]["start_date"])
        end = dt.date.fromisoformat(rows[0]["end_date"])
        assert start <= end
        year = int(tid[1:5])
        assert dt.date(year, 9, 1) <= start and end <= dt.date(year + 1, 8, 31)
        assert rows[0]["discipline"] in ("duplicate", "classique", "dcdl")
        ids = [r["player_id"] for r in rows]
        assert len(set(ids)) == len(ids)
        assert all(i.isdigit() for i in ids)


def _check_ranks(rank: list[int], keys: list[tuple[float, ...]]) -> None:
    """Ranks are 1 + the number of strictly better keys (ties share the best place)."""
    for r, key in zip(rank, keys, strict=True):
        assert r == 1 + sum(1 for other in keys if other > key)


def test_duplicate_scores_and_ranks(sample: Sample) -> None:
    ties = 0
    # a tournament with a game sheet has the sum of its sheet's tops: moves searched among
    # the words of a list of 20 000 score less than a real master game (about 550 a game)
    sheets = {p.name.removesuffix("_game_sheet.csv") for p in sample.root.rglob("*_game_sheet.csv")}
    assert sheets
    for tid, rows in sample.of("duplicate").items():
        assert 20 <= len(rows) <= 500, tid
        top = int(rows[0]["top_total"])
        games = int(rows[0]["games"])
        assert 2 <= games <= 7
        assert (400 if tid in sheets else 880) * games <= top <= 1120 * games, tid
        scores = [int(r["score"]) for r in rows]
        assert all(0 < s < top for s in scores)
        rank = [int(r["rank"]) for r in rows]
        _check_ranks(rank, [(s,) for s in scores])
        assert rank == sorted(rank)  # rows are written in rank order
        ties += len(rank) - len(set(rank))
        assert float(rows[0]["coefficient"]) in (0.5, 1.0, 2.0)
        assert rows[0]["category"] in ("open", "championnat", "club", "regional")
    assert ties > 0


def test_matches_games_and_results_agree(sample: Sample) -> None:
    for discipline in ("classique", "dcdl"):
        for tid, rows in sample.of(discipline).items():
            if tid not in sample.games:
                # a round-robin final of a circuit: its matches export instead of games
                # (tests/test_circuits_pipeline.py)
                assert any(p.name == f"{tid}_matches.csv" for p in sample.extension_files)
                continue
            games = sample.games[tid]
            players = {r["player_id"] for r in rows}
            wins: dict[str, float] = defaultdict(float)
            spread: dict[str, int] = defaultdict(int)
            per_round: dict[str, list[str]] = defaultdict(list)
            bye_spread = 50 if discipline == "classique" else 0
            for g in games:
                assert g["tournament_id"] == tid
                assert g["player_id"] in players
                per_round[g["round"]].append(g["player_id"])
                if g["opponent_id"] == "":
                    assert g["opponent_score"] == ""
                    wins[g["player_id"]] += 1
                    spread[g["player_id"]] += bye_spread
                    continue
                assert g["opponent_id"] in players
                per_round[g["round"]].append(g["opponent_id"])
                a, b = int(g["player_score"]), int(g["opponent_score"])
                lo, hi = (250, 650) if discipline == "classique" else (30, 140)
                assert lo <= a <= hi and lo <= b <= hi
                wins[g["player_id"]] += 1.0 if a > b else 0.5 if a == b else 0.0
                wins[g["opponent_id"]] += 1.0 if b > a else 0.5 if a == b else 0.0
                spread[g["player_id"]] += a - b
                spread[g["opponent_id"]] += b - a
            # everybody plays (or has a bye) exactly once a round
            assert len(per_round) == int(rows[0]["games"])
            for listed in per_round.values():
                assert sorted(listed) == sorted(players)
            for r in rows:
                assert float(r["wins"]) == wins[r["player_id"]], (tid, r["player_id"])
                assert int(r["spread"]) == spread[r["player_id"]]
            _check_ranks(
                [int(r["rank"]) for r in rows], [(float(r["wins"]), int(r["spread"])) for r in rows]
            )
            lo, hi = (10, 80) if discipline == "classique" else (8, 32)
            assert lo <= len(rows) <= hi


def test_classique_details(sample: Sample) -> None:
    classique = sample.of("classique")
    assert {rows[0]["category"] for rows in classique.values()} <= {
        "national",
        "open",
        "homologue",
        "mondial",
    }
    international = [rows for rows in classique.values() if rows[0]["category"] == "mondial"]
    assert len(international) == CONFIG.seasons
    for rows in international:
        assert (rows[0]["bonus_m"], rows[0]["pj_min"], rows[0]["pj_max"]) == ("250", "-200", "400")
    for tid, rows in classique.items():
        assert 5 <= int(rows[0]["games"]) <= 11, tid
        if "duplicate_rank" in rows[0]:
            dup = [int(r["duplicate_rank"]) for r in rows]
            assert min(dup) == 1 and max(dup) <= len(rows)
    assert any("duplicate_rank" in rows[0] for rows in classique.values())


def test_masters_is_a_round_robin_of_sixteen(sample: Sample) -> None:
    masters = [
        t
        for t, rows in sample.of("dcdl").items()
        if rows[0]["tournament_name"] == "Masters Grand Sud"
    ]
    assert masters
    for tid in masters:
        games = sample.games[tid]
        assert len(games) == 15 * 8
        pairs = {frozenset((g["player_id"], g["opponent_id"])) for g in games}
        assert len(pairs) == 120  # everyone met everyone once


def test_round_robin_table_of_rules_section_5() -> None:
    # match 3, table 2: the 2nd of the annual ranking meets the 13th (0-based: 1 and 12)
    pairs, bye = round_robin_pairs(16, 3)
    assert bye is None and (1, 12) in pairs
    seen = set()
    for r in range(1, 16):
        pairs, _ = round_robin_pairs(16, r)
        assert sorted(i for p in pairs for i in p) == list(range(16))
        seen |= {frozenset(p) for p in pairs}
    assert len(seen) == 120
    pairs, bye = round_robin_pairs(7, 1)
    assert bye is not None and len(pairs) == 3


def test_competition_ranks_of_the_results() -> None:
    # the simulator ranks with the project's competition ranks: by score, by wins then spread
    assert competition_ranks(np.array([10, 30, 20, 30])).tolist() == [4, 1, 3, 1]
    wins = np.array([3.0, 3.0, 2.5, 3.0])
    spread = np.array([10, 50, 90, 10])
    assert competition_ranks(wins, spread).tolist() == [2, 1, 4, 2]


def test_rating_list(sample: Sample) -> None:
    rows = sample.ratings
    assert sample.rating_path.name == "rating_list_2021-08-31.csv"
    assert set(rows[0]) == set(RATING_LIST.columns)
    assert len(rows) == CONFIG.players
    assert all(r["as_of"] == "2021-08-31" for r in rows)
    series = Counter(r["series"] for r in rows)
    assert set(series) == {"1", "2", "3", "4", "5", "6"}  # nobody new yet
    assert series["6"] == pytest.approx(0.62 * CONFIG.players, abs=2)
    assert series["1"] == pytest.approx(0.01 * CONFIG.players, abs=1)
    rated = [r for r in rows if r["cote"]]
    assert 0 < len(rated) < len(rows)  # only classique players have a cote
    assert all(1200 <= int(r["cote"]) <= 2600 for r in rated)
    assert all(1200 <= float(r["elo"]) <= 2200 and int(r["elo_games"]) > 0 for r in rated)
    assert [r["player_id"] for r in rows] == sorted(r["player_id"] for r in rows)


def test_series_of_new_licensees_and_the_following_seasons(sample: Sample) -> None:
    listed = {r["player_id"]: r["series"] for r in sample.ratings}
    first_season: dict[str, str] = {}
    by_season: dict[tuple[str, str], set[str]] = defaultdict(set)
    for tid in sorted(sample.of("duplicate"), key=lambda t: (t[1:5], t)):
        for r in sample.results[tid]:
            first_season.setdefault(r["player_id"], r["series"])
            by_season[(tid[1:5], r["player_id"])].add(r["series"])
    new = {p: s for p, s in first_season.items() if p not in listed}
    assert len(new) >= 5
    assert set(new.values()) == {"7"}
    assert all(len(s) == 1 for s in by_season.values())  # series fixed for a season
    for (season, player), (series,) in by_season.items():
        if season == str(CONFIG.first_season) and player in listed:
            assert series == listed[player]
    # after a season, new licensees who played are classified in series 1..6
    second = {p for (season, p) in by_season if season == str(CONFIG.first_season + 1)}
    first = {p for (season, p) in by_season if season == str(CONFIG.first_season)}
    moved = [
        next(iter(by_season[(str(CONFIG.first_season + 1), p)])) for p in second & first if p in new
    ]
    assert moved and "7" not in moved
    assert (
        Counter(
            next(iter(s))
            for (season, _), s in by_season.items()
            if season == str(CONFIG.first_season + 1)
        )["1"]
        > 0
    )


def test_every_player_belongs_to_one_federation_and_club(sample: Sample) -> None:
    # Organisers write a federation their own way (`CH`, `FSSc`, `Suisse`: the national
    # extension): one federation is one code of the alias table.
    federation_codes = load_federations(REFERENCE_DIR)
    clubs: dict[str, set[tuple[str | None, str]]] = defaultdict(set)
    for rows in sample.results.values():
        for r in rows:
            code = federation_codes.code_of(r["federation"])
            clubs[r["player_id"]].add((code, r["club"]))
    assert all(len(c) == 1 for c in clubs.values())
    federations = Counter(next(iter(c))[0] for c in clubs.values())
    assert federations.most_common(1)[0][0] == "FRA"
    assert len(federations) >= 6
    club_feds: dict[str, set[str | None]] = defaultdict(set)
    for c in clubs.values():
        fed, club = next(iter(c))
        club_feds[club].add(fed)
    assert all(len(f) == 1 for f in club_feds.values())


def test_the_rating_list_gives_every_player_a_federation_and_club(sample: Sample) -> None:
    """Issue 27, item 9: a player known only from the list once showed « — » for both in
    the directory; the list says each player's federation and club, those of their
    results."""
    listed = {r["player_id"]: (r["federation"], r["club"]) for r in sample.ratings}
    assert all(fed and club for fed, club in listed.values())
    federation_codes = load_federations(REFERENCE_DIR)
    for rows in sample.results.values():
        for r in rows:
            if r["player_id"] in listed:
                fed, club = listed[r["player_id"]]
                assert federation_codes.code_of(r["federation"]) == federation_codes.code_of(fed)
                assert r["club"] == club, r


def test_a_player_known_only_from_a_list_takes_its_federation_and_club() -> None:
    result = ingested(
        {
            "liste_2024-06-30.csv": "Licence;Date liste;Cote;Elo;Nom;Prénom;Fédération;Club\n"
            "901;30/06/2024;1500;1700;Dupont;Anne;BEL;Scrabble Club de Liège\n"
            "902;30/06/2024;1600;1650;Martin;Paul;;\n"
        }
    )
    assert result.rejected == {}
    players = result.tables["players"].sort("player_id")
    assert players.select("player_id", "federation", "club").rows() == [
        ("901", "BEL", "Scrabble Club de Liège"),
        ("902", None, None),
    ]
    assert result.tables["rating_lists"]["federation"].to_list() == ["BEL", None]


def test_paca_tournaments_are_played_by_paca_clubs(sample: Sample) -> None:
    """Issue 27, item 9: the PACA club ranking once held clubs of Reims, Pau, Lille."""
    world = Simulator(CONFIG, default_calendar()).world
    regions = np.array(world.regions)[world.city_region[world.club_city]]
    region_of = dict(zip(world.club_name, regions.tolist(), strict=True))
    paca = {
        t: rows for t, rows in sample.results.items() if "PACA" in (rows[0].get("circuit") or "")
    }
    assert paca
    clubs = {r["club"] for rows in paca.values() for r in rows}
    assert {region_of[c] for c in clubs} == {"PACA"}, sorted(clubs)


def test_schema_columns_only(sample: Sample) -> None:
    for rows in sample.results.values():
        assert set(RESULTS.required) <= set(rows[0]) <= set(RESULTS.columns)
    for rows in sample.games.values():
        assert set(GAMES.required) <= set(rows[0]) <= set(GAMES.columns)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sample"
    argv = [
        "generate",
        "--out",
        str(out),
        "--seed",
        "7",
        "--seasons",
        "1",
        "--players",
        "100",  # the least accepted (~4 CPU-s a generation here; ~5.4 at 200)
        "--first-season",
        "2021",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"{printed.split()[0]} fichiers écrits (")  # in French
    assert "\n  tournois : " in printed and "\n  lignes : " in printed
    assert (out / "rating_list_2021-08-31.csv").exists()
    assert main(argv) == 1  # not empty
    (out / "notes.txt").write_text("keep me")
    assert main([*argv, "--force"]) == 0
    assert (out / "notes.txt").read_text() == "keep me"
    assert sorted(p.name for p in out.iterdir()) == [
        "2021-2022",
        "notes.txt",
        "rating_list_2021-08-31.csv",
    ]
    assert main([*argv[:-4], "--players", "99", "--force"]) == 2  # one fewer: refused


def _season_players(sample: Sample, season: str) -> dict[str, Row]:
    """Each player's row in the season's duplicate results (one row per player)."""
    players: dict[str, Row] = {}
    for rows in sample.of("duplicate").values():
        if f"{rows[0]['tournament_id'][1:5]}-{int(rows[0]['tournament_id'][1:5]) + 1}" != season:
            continue
        for r in rows:
            players.setdefault(r["player_id"], r)
    return players


def test_ffsc_ranking(sample: Sample) -> None:
    assert sorted(sample.rankings) == ["2021-2022", "2022-2023"]
    seasons = sorted(sample.rankings)
    for k, season in enumerate(seasons):
        path = sample.rankings[season]
        end = int(season[5:])
        assert path.name == f"classement_{end}-08-31.csv"
        raw = path.read_bytes()
        with pytest.raises(UnicodeDecodeError):
            raw.decode("utf-8")  # accented names in Windows-1252
        assert raw.count(b"\r\n") == raw.count(b"\n")
        text = raw.decode("cp1252")
        lines = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
        assert tuple(lines[0]) == FFSC_HEADER
        assert detect_format(raw, path.name) == "ffsc"
        published = ffsc.parse(raw, path.name)["published_series"]
        assert published.height == len(lines) - 1
        # the French players who played duplicate that season, each once
        played = _season_players(sample, season)
        french = {p for p, r in played.items() if r["federation"] == "FRA"}
        assert set(published["player_id"]) == french
        assert published["player_id"].n_unique() == published.height
        for row in published.iter_rows(named=True):
            result = played[row["player_id"]]
            assert row["last_name"] == result["last_name"].upper()
            assert row["first_name"] == result["first_name"]
            assert row["club"] == result["club"]
            assert row["series"] == result["series"]  # the series held that season
            assert row["category"] == age_category(end - int(result["birth_year"]))
            values = [float(row[c]) for c in ("ps1", "ps2", "ps3", "pp4")]
            assert all(0 <= v <= 100 for v in values)
            assert float(row["ps3"]) <= float(row["ps1"]) <= float(row["ps2"])
            assert float(row["points"]) >= float(row["ps1"]) * 0.5 - 0.01  # one event at least
            assert row["potential_series"] in {"1", "2", "3", "4", "5", "6"}
        # places follow ps1, ties share the best place and say so
        places = [int(p) for p in published["place"]]
        assert places == sorted(places) and places[0] == 1
        ps1 = [float(v) for v in published["ps1"]]
        _check_ranks(places, [(v,) for v in ps1])
        cells = [line[0] for line in lines[1:]]
        assert all(c.endswith("ex") == (places.count(int(c.rstrip("ex"))) > 1) for c in cells)
        assert all("," in line[7] and "." not in line[7] for line in lines[1:])
        # the potential series is the series held next season by those who play it
        if k + 1 < len(seasons):
            following = _season_players(sample, seasons[k + 1])
            potential = dict(published.select("player_id", "potential_series").iter_rows())
            common = [p for p in potential if p in following]
            assert common
            assert all(following[p]["series"] == potential[p] for p in common)


def test_age_categories() -> None:
    assert [age_category(a) for a in (9, 17, 18, 59, 60, 69, 70, 95)] == [
        "Jeunes",
        "Jeunes",
        "Seniors",
        "Seniors",
        "Vermeil",
        "Vermeil",
        "Diamant",
        "Diamant",
    ]
