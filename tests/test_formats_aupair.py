"""AUPAIR `.tou` parser: every WESPA fixture against its published results, plus quirks."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from pipelines.ingest.errors import ExportError
from pipelines.ingest.formats import aupair, detect_format
from pipelines.ingest.schema import GAMES, RATING_LIST, RESULTS

WESPA = Path(__file__).parent / "fixtures" / "wespa"
TOU_FILES = sorted(WESPA.rglob("*.tou"))
# The one real file that cannot be read: a round is missing from a player's row.
BROKEN_REAL = {
    "2016/USA/atlant16.tou": (
        "2016/USA/atlant16.tou, ligne 20 : la ligne de Jennifer Lee a 21 rondes mais la "
        "division S en a 22 : il manque une ronde dans la ligne"
    ),
}
# `  1   18 +1253  OS Andrew Fisher        2050  +21 2071`: rank, W, M (spread), a
# provisional/unrated flag, the country, the name (then ratings, sometimes misaligned).
_PUBLISHED_ROW = re.compile(r"^\s*\d+\s+(\d+(?:\.5)?)\s+([+-]\d+)[ &*]([ A-Z]{3}) (.*)$")


def _rel(path: Path) -> str:
    return path.relative_to(WESPA).as_posix()


def published(txt: Path) -> dict[str, tuple[float, int]]:
    """Name -> (wins, spread) of a published WESPA results page."""
    out: dict[str, tuple[float, int]] = {}
    for line in txt.read_text(encoding="latin-1").splitlines():
        match = _PUBLISHED_ROW.match(line)
        if match:
            name = re.split(r"\s{2,}|\(", match.group(4))[0].strip()
            assert name not in out, f"{txt.name}: {name} twice"
            out[name] = (float(match.group(1)), int(match.group(2)))
    return out


def _parse(path: Path) -> dict[str, pl.DataFrame]:
    return aupair.parse(path.read_bytes(), _rel(path))


def test_fixtures_are_all_there() -> None:
    assert len(TOU_FILES) == 30
    assert sum(1 for p in TOU_FILES if p.with_suffix(".txt").exists()) == 27


@pytest.mark.parametrize("tou", TOU_FILES, ids=_rel)
def test_wins_and_spread_match_published_results(tou: Path) -> None:
    if _rel(tou) in BROKEN_REAL:
        with pytest.raises(ExportError) as caught:
            _parse(tou)
        assert str(caught.value) == BROKEN_REAL[_rel(tou)]
        return
    frames = _parse(tou)
    results = frames["results"]
    has_scores = tou.read_bytes().startswith(b"*M")
    txt = tou.with_suffix(".txt")
    if not txt.exists():  # eurch131, india16: no published page; check internal sums
        per = results.group_by("tournament_id").agg(
            pl.col("spread").cast(pl.Int64).sum().alias("spread")
        )
        assert per["spread"].to_list() == [0] * per.height
        return
    expected = published(txt)
    computed = {
        f"{r['first_name']} {r['last_name']}": (float(r["wins"]), r["spread"])
        for r in results.iter_rows(named=True)
    }
    assert sorted(computed) == sorted(expected)
    for player, (wins, spread) in expected.items():
        assert computed[player][0] == wins, player
        if has_scores:
            assert computed[player][1] == str(spread), player
        else:
            assert computed[player][1] is None, player


@pytest.mark.parametrize("tou", [p for p in TOU_FILES if _rel(p) not in BROKEN_REAL], ids=_rel)
def test_frames_have_the_contract_shape(tou: Path) -> None:
    frames = _parse(tou)
    assert set(frames) == {"results", "games", "rating_list"}
    assert frames["results"].columns == [*RESULTS.columns, "_row"]
    assert frames["games"].columns == [*GAMES.columns, "_row"]
    assert frames["rating_list"].columns == [*RATING_LIST.columns, "_row"]
    assert frames["rating_list"].height == 0
    for frame in frames.values():
        for column, dtype in frame.schema.items():
            assert dtype == (pl.Int64 if column == "_row" else pl.String), column
    results = frames["results"]
    assert results["discipline"].unique().to_list() == ["classique"]
    assert results["player_id"].str.starts_with("WESPA:").all()
    assert results.select(pl.col("tournament_id", "player_id")).is_unique().all()
    # one row per game: each played game once, plus the byes
    games = frames["games"].filter(pl.col("opponent_id").is_not_null())
    pairs = games.select(
        "tournament_id",
        "round",
        pl.min_horizontal("player_id", "opponent_id").alias("a"),
        pl.max_horizontal("player_id", "opponent_id").alias("b"),
    )
    assert pairs.is_unique().all()
    assert assert_rounds(frames)


def assert_rounds(frames: dict[str, pl.DataFrame]) -> bool:
    """Every player appears once per round in the games frame."""
    games = frames["games"]
    seats = pl.concat(
        [
            games.select("tournament_id", "round", pl.col("player_id").alias("p")),
            games.filter(pl.col("opponent_id").is_not_null()).select(
                "tournament_id", "round", pl.col("opponent_id").alias("p")
            ),
        ]
    )
    counts = seats.group_by("tournament_id", "p").len()
    rounds = frames["results"].select("tournament_id", pl.col("games").cast(pl.UInt32))
    joined = counts.join(rounds.unique(), on="tournament_id")
    return bool((joined["len"] == joined["games"]).all())


def test_trans_tasman_2006_in_detail() -> None:
    frames = _parse(WESPA / "2006/NZL/TT2006.tou")
    results = frames["results"]
    assert results.height == 24
    first = results.filter(pl.col("rank") == "1").row(0, named=True)
    assert first == {
        **dict.fromkeys(RESULTS.columns),
        "tournament_id": "TT2006",
        "tournament_name": "6th Trans-Tasman Challenge",
        "discipline": "classique",
        "category": "wespa",
        "end_date": "2006-11-06",
        "player_id": "WESPA:ANDREW FISHER",
        "last_name": "Fisher",
        "first_name": "Andrew",
        "rank": "1",
        "games": "24",
        "wins": "18",
        "spread": "1253",
        "_row": 5,
    }
    lowden = results.filter(pl.col("last_name") == "Lowden").row(0, named=True)
    assert (lowden["wins"], lowden["spread"], lowden["rank"]) == ("13.5", "303", "7")
    games = frames["games"]
    assert games.height == 24 * 24 // 2
    assert games["opponent_id"].null_count() == 0
    # row 1 (Alistair Kane), round 1: 476 to Debbie Caldwell's 404, nobody marked first
    assert games.row(0, named=True) == {
        "tournament_id": "TT2006",
        "round": "1",
        "player_id": "WESPA:ALISTAIR KANE",
        "opponent_id": "WESPA:DEBBIE CALDWELL",
        "player_score": "476",
        "opponent_score": "404",
        "first_player_id": None,
        "player_result": "1",
        "_row": 4,
    }
    # the draw of round 7: David Lowden 420 - Mike Sigley 420
    draw = games.filter(
        (pl.col("round") == "7") & (pl.col("player_id") == "WESPA:DAVID LOWDEN")
    ).row(0, named=True)
    assert (draw["opponent_id"], draw["player_score"], draw["opponent_score"]) == (
        "WESPA:MIKE SIGLEY",
        "420",
        "420",
    )
    assert draw["player_result"] == "0.5"


def test_multi_division_file_gives_one_tournament_per_division() -> None:
    results = _parse(WESPA / "2014/AUS/14AMSC.tou")["results"]
    names = results.group_by("tournament_id", "tournament_name").len().sort("tournament_id")
    assert names.rows() == [
        ("14AMSC-MASTERS", "Australian Masters and State Challenge – Division MASTERS", 20),
        ("14AMSC-STATES", "Australian Masters and State Challenge – Division STATES", 21),
    ]


def test_event_without_scores_ranks_on_wins_and_shares_places() -> None:
    frames = _parse(WESPA / "2006/GBR/HOME2006.tou")
    results = frames["results"].sort(pl.col("rank").cast(pl.Int64), "last_name")
    assert results["spread"].null_count() == results.height
    assert results.select("last_name", "wins", "rank").head(5).rows() == [
        ("McColgan", "9", "1"),
        ("Philpotts", "9", "1"),
        ("Smitheram", "8", "3"),
        ("Grayson", "7", "4"),
        ("Kelly", "7", "4"),
    ]
    games = frames["games"]
    assert games["player_score"].null_count() == games.height
    assert games["opponent_score"].null_count() == games.height
    assert set(games["player_result"].unique()) == {"0", "1"}


def test_first_player_and_byes() -> None:
    games = _parse(WESPA / "2013/MLT/eurch131.tou")["games"]
    eldar = games.filter(pl.col("player_id") == "WESPA:DAVID ELDAR").sort(
        pl.col("round").cast(pl.Int64)
    )
    # rounds 1-2: paired with himself (a bye, `0000`); round 4: `2403 +39`, he went first
    assert eldar.head(2).select(
        "round", "opponent_id", "player_score", "opponent_score"
    ).rows() == [
        ("1", None, "0", None),
        ("2", None, "0", None),
    ]
    fourth = eldar.filter(pl.col("round") == "4").row(0, named=True)
    assert fourth["first_player_id"] == "WESPA:DAVID ELDAR"
    assert fourth["opponent_id"] == "WESPA:TADAO TAKEDA"
    # `2-10 45`: a win recorded with -10 points against Marion Loewenstein's -30
    odd = games.filter(
        (pl.col("player_id") == "WESPA:BREDA O'BRIEN")
        & (pl.col("opponent_id") == "WESPA:MARION LOEWENSTEIN")
    ).row(0, named=True)
    assert (odd["player_score"], odd["opponent_score"], odd["player_result"]) == ("-10", "-30", "1")


def test_byes_count_nothing_as_published() -> None:
    results = _parse(WESPA / "2013/USA/vegasm13.tou")["results"]
    barker = results.filter(pl.col("last_name") == "Barker").row(0, named=True)
    assert (barker["wins"], barker["spread"], barker["games"]) == ("7", "-1167", "21")


# --- small hand-made files and broken variants ------------------------------------------

SMALL = (
    "*M17.03.2024 Tournoi de Zoë\r\n"
    "*A\r\n"
    "                                      0\r\n"
    "Zoë Lefèvre          2400 +2 2420  3 2050  1\r\n"
    "Jean Dupont           350  1 2030  2 2410 +3\r\n"
    "Chloé Martin         2050  3  390 +1  300  2\r\n"
    "*** END OF FILE ***\r\n"
)


def test_windows_1252_and_utf8_decode_the_same() -> None:
    cp = aupair.parse(SMALL.encode("cp1252"), "zoe.tou")["results"]
    utf = aupair.parse(SMALL.encode("utf-8"), "zoe.tou")["results"]
    assert cp.equals(utf)
    assert cp.select("player_id", "first_name", "last_name", "wins", "spread", "rank").rows() == [
        ("WESPA:ZOE LEFEVRE", "Zoë", "Lefèvre", "2", "80", "1"),
        ("WESPA:JEAN DUPONT", "Jean", "Dupont", "1", "60", "2"),
        ("WESPA:CHLOE MARTIN", "Chloé", "Martin", "0", "-140", "3"),
    ]
    assert cp["end_date"].to_list() == ["2024-03-17"] * 3
    assert cp["_row"].to_list() == [4, 5, 6]


def test_detect() -> None:
    tt = (WESPA / "2006/NZL/TT2006.tou").read_bytes()
    assert aupair.detect(tt, "TT2006.tou")
    assert aupair.detect(tt, "export.txt")
    assert not aupair.detect(b"place;joueur;licence\n", "x.csv")
    assert detect_format(tt, "2006/NZL/TT2006.tou") == "aupair"


def _tt_lines() -> list[str]:
    return (WESPA / "2006/NZL/TT2006.tou").read_text(encoding="ascii").split("\n")


def test_truncated_file_is_refused() -> None:
    lines = _tt_lines()
    cut = "\n".join([*lines[:10], lines[10][:57]])  # stops in the middle of line 11
    with pytest.raises(ExportError) as caught:
        aupair.parse(cut.encode(), "TT2006.tou")
    assert str(caught.value) == (
        "TT2006.tou, ligne 11 : le fichier s'arrête sans la ligne « *** END OF FILE *** » : il "
        "est incomplet (coupé lors d'une copie ou d'un enregistrement ?) ; exportez-le de "
        "nouveau depuis AUPAIR"
    )
    assert caught.value.row == 11


def test_row_cut_mid_round_is_refused() -> None:
    lines = _tt_lines()
    lines[4] = lines[4][:34]  # Andrew Fisher: `310  12 2511` then nothing
    with pytest.raises(ExportError) as caught:
        aupair.parse("\n".join(lines).encode(), "TT2006.tou")
    assert str(caught.value) == (
        "TT2006.tou, ligne 5, colonne « ronde 2 » : la ligne d'Andrew Fisher se termine par "
        "un score sans adversaire : chaque ronde demande un score et un numéro d'adversaire"
    )


def test_short_row_is_refused() -> None:
    lines = _tt_lines()
    lines[4] = lines[4][:29]  # Andrew Fisher: one round only
    with pytest.raises(ExportError) as caught:
        aupair.parse("\n".join(lines).encode(), "TT2006.tou")
    assert str(caught.value) == (
        "TT2006.tou, ligne 5 : la ligne d'Andrew Fisher a 1 ronde mais la division MASTERS "
        "en a 24 : il manque une ronde dans la ligne"
    )


def test_opponent_beyond_the_division_is_refused() -> None:
    lines = _tt_lines()
    assert lines[3].startswith("Alistair Kane        2476   7")
    lines[3] = lines[3].replace("2476   7", "2476  25", 1)
    with pytest.raises(ExportError) as caught:
        aupair.parse("\n".join(lines).encode(), "TT2006.tou")
    assert str(caught.value) == (
        "TT2006.tou, ligne 4, colonne « ronde 1 » : l'adversaire 25 d'Alistair Kane n'existe "
        "pas : la division MASTERS a 24 joueurs (les adversaires sont numérotés par leur ligne "
        "dans la division, de 1 à 24)"
    )


def test_pairing_that_the_opponent_does_not_confirm_is_refused() -> None:
    lines = _tt_lines()
    lines[3] = lines[3].replace("2476   7", "2476   8", 1)
    with pytest.raises(ExportError) as caught:
        aupair.parse("\n".join(lines).encode(), "TT2006.tou")
    assert str(caught.value) == (
        "TT2006.tou, ligne 4, colonne « ronde 1 » : Alistair Kane (joueur n° 1) rencontre "
        "Glennis Hale (joueur n° 8) à la ronde 1, mais la ligne de Glennis Hale indique "
        "l'adversaire 22 à cette ronde"
    )


def test_utf16_file_is_refused() -> None:
    data = (WESPA / "2006/NZL/TT2006.tou").read_text(encoding="ascii").encode("utf-16")
    with pytest.raises(ExportError) as caught:
        aupair.parse(data, "TT2006.tou")
    assert str(caught.value) == (
        "TT2006.tou, ligne 1 : le fichier n'est pas un texte UTF-8, Windows-1252 ou "
        "Latin-1 (il semble être en UTF-16 ou binaire) : enregistrez-le de nouveau en "
        "texte UTF-8 (« CSV UTF-8 » dans un tableur)"
    )


def test_bad_first_line_and_bad_score() -> None:
    with pytest.raises(ExportError) as caught:
        aupair.parse(b"M06.11.2006 Event\n*A\n*** END OF FILE ***\n", "x.tou")
    assert str(caught.value) == (
        "x.tou, ligne 1 : la première ligne doit contenir « *M » (ou « *N » si aucun score "
        "n'a été noté), la date au format jj.mm.aaaa et le nom du tournoi, par exemple "
        "« *M06.11.2006 Trans-Tasman Challenge » ; trouvé : « M06.11.2006 Event »"
    )
    bad = SMALL.replace("2420  3", "2420  x3")
    with pytest.raises(ExportError) as caught:
        aupair.parse(bad.encode(), "zoe.tou")
    assert str(caught.value) == (
        "zoe.tou, ligne 4, colonne « ronde 2 » : « x3 » n'est pas un numéro d'adversaire (la "
        "ligne de l'adversaire dans la division, précédée de « + » si le joueur a joué en "
        "premier)"
    )


def _small(old: str, new: str) -> str:
    assert SMALL.count(old) == 1
    return SMALL.replace(old, new)


MALFORMED = [
    (b"", "zoe.tou, ligne 1 : le fichier est vide"),
    (
        _small("*M17.03.2024", "*M31.02.2024").encode(),
        "zoe.tou, ligne 1 : la date 31.02.2024 de la première ligne n'existe pas",
    ),
    (
        (SMALL + "encore\r\n").encode(),
        "zoe.tou, ligne 8 : du texte après la ligne « *** END OF FILE *** » : « encore » "
        "(supprimez-le)",
    ),
    (
        _small("*A\r\n", "*\r\n").encode(),
        "zoe.tou, ligne 2 : une ligne de division doit porter un nom après « * »",
    ),
    (
        _small("*A\r\n", "").encode(),
        "zoe.tou, ligne 2 : une ligne de joueur arrive avant toute ligne de division (une ligne "
        "comme « *A »)",
    ),
    (
        b"*M17.03.2024 Tournoi\r\n*** END OF FILE ***\r\n",
        "zoe.tou, ligne 2 : le fichier n'a aucune division (une ligne comme « *A »)",
    ),
    (
        _small("Zoë Lefèvre          2400", "2400").encode(),
        "zoe.tou, ligne 4 : une ligne de joueur doit commencer par le nom du joueur",
    ),
    (
        _small("Chloé Martin", "Zoe Lefevre").encode(),
        "zoe.tou, ligne 6 : deux joueurs s'appellent Zoe Lefevre dans la division A (lignes 4 "
        "et 6) : impossible de les distinguer",
    ),
    (
        _small("*** END", "*B\r\n*** END").encode(),
        "zoe.tou, ligne 7 : la division B n'a aucun joueur",
    ),
    (
        _small("2420", "2x20").encode(),
        "zoe.tou, ligne 4, colonne « ronde 2 » : « 2x20 » n'est pas un score (2000 + le score "
        "pour une victoire, 1000 + le score pour un nul, le score seul pour une défaite)",
    ),
    (
        _small("2050  1", "3050  1").encode(),
        "zoe.tou, ligne 4, colonne « ronde 3 » : « 3050 » n'est pas un score (2000 + le score "
        "pour une victoire, 1000 + le score pour un nul, le score seul pour une défaite)",
    ),
]


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_malformed_file_messages(data: bytes, message: str) -> None:
    with pytest.raises(ExportError) as caught:
        aupair.parse(data, "zoe.tou")
    assert str(caught.value) == message
