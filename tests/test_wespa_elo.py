"""WESPA's expected wins for the 2006 Trans-Tasman event, from our parser and Elo curve.

The rating program's statistics (`TT2006.ST1`, "WESPArat 3.02 (logit250)") print each
player's old rating and expected wins (Exp, one decimal; blank for provisional players).
Summing `expected_score` with the logistic curve of scale 250 over each player's games,
with every player at their old rating (provisional ones at their bracketed rating), and
printing it as the program does (one decimal) gives Exp to 0.1 for everyone: 9 of the 17
exactly, 8 one tenth apart (Peter Sinton: 10.80 → 10.8 against 10.9; the program rates
with unrounded ratings, we with the printed integers).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl

from pipelines.ingest.formats import aupair, player_key
from transforms.elo import EloCurve, expected_score

TT2006 = Path(__file__).parent / "fixtures" / "wespa" / "2006" / "NZL" / "TT2006"
# `| OS  Andrew Fisher        |   13    9 |  13   9 | 15.9 18.0 | 2050  +21 2071 |`
# `|&OS  Julian McKail        |   74   66 |  74  66 |      14.0 |(1925)     1945 |`
_ST1_ROW = re.compile(
    r"^\|.\S*\s+(?P<name>.+?)\s*\|[^|]*\|[^|]*\|\s*(?P<exp>\d+\.\d)?\s+\d+\.\d\s*\|"
    r"\s*\(?\s*(?P<old>\d+)\)?"
)


def st1_players(path: Path) -> dict[str, tuple[float, float | None]]:
    """player_id -> (old rating, expected wins or None)."""
    out: dict[str, tuple[float, float | None]] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        match = _ST1_ROW.match(line)
        if match:
            exp = match.group("exp")
            out[aupair.ID_PREFIX + player_key(match.group("name"))] = (
                float(match.group("old")),
                float(exp) if exp else None,
            )
    return out


def test_expected_wins_match_the_rating_program() -> None:
    players = st1_players(TT2006.with_suffix(".ST1"))
    assert len(players) == 24
    games = aupair.parse(TT2006.with_suffix(".tou").read_bytes(), "TT2006.tou")["games"]
    games = games.filter(pl.col("opponent_id").is_not_null())
    assert games.height == 288
    old = {pid: rating for pid, (rating, _) in players.items()}
    diff = np.array([old[a] - old[b] for a, b in games.select("player_id", "opponent_id").rows()])
    expected = expected_score(diff, EloCurve("logistic", 250))
    sums = dict.fromkeys(players, 0.0)
    for (a, b), e in zip(games.select("player_id", "opponent_id").rows(), expected, strict=True):
        sums[a] += float(e)
        sums[b] += 1.0 - float(e)
    checked = exact = 0
    for pid, (_, exp) in players.items():
        if exp is None:  # provisional: the program prints no Exp
            continue
        printed = round(sums[pid], 1)
        assert abs(printed - exp) <= 0.1 + 1e-9, (pid, sums[pid], exp)
        exact += printed == exp
        checked += 1
    assert checked == 17
    assert exact == 9


def test_the_elo_engine_with_the_wespa_preset_reproduces_exp() -> None:
    """The same check through the engine: the event ingested as the pipeline does, the
    ST1's old ratings as a rating list, the `wespa` preset of data/reference/elo.yaml."""
    import datetime as dt

    from pipelines.ingest.batch import ingest_files
    from pipelines.paths import REFERENCE_DIR
    from pipelines.reference.classique import load_elo_params
    from tests.support import PARAMETERS
    from transforms.elo import elo_history

    players = st1_players(TT2006.with_suffix(".ST1"))
    tables = ingest_files(
        {"TT2006.tou": TT2006.with_suffix(".tou").read_bytes()}, params=PARAMETERS
    ).tables
    ratings = pl.DataFrame(
        {
            "player_id": list(players),
            "as_of": [dt.date(2006, 9, 30)] * len(players),  # "prior data … (20060930)"
            "cote": [None] * len(players),
            "elo": [rating for rating, _ in players.values()],
            "elo_games": [100] * len(players),
            "series": [None] * len(players),
        },
        schema_overrides={"cote": pl.Int64, "elo_games": pl.Int64, "series": pl.String},
    )
    params = load_elo_params(REFERENCE_DIR, preset="wespa")
    history = elo_history(
        tables["tournaments"], tables["games"], ratings, tables["results"], params
    )
    expected = dict(history.select("player_id", "expected").iter_rows())
    before = dict(history.select("player_id", "rating_before").iter_rows())
    checked = 0
    for pid, (rating, exp) in players.items():
        assert before[pid] == rating
        if exp is None:
            continue
        assert abs(round(expected[pid], 1) - exp) <= 0.1 + 1e-9, (pid, expected[pid], exp)
        checked += 1
    assert checked == 17
