"""A small hand-made federation for the what-if tests: two seasons of duplicate events
(regular players with a sum of weights of 11, occasional ones below 10) and a few classique
tournaments in which some players start from series 1, written as exports so that the
from-scratch builds read them as any raw folder."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from pipelines.paths import REFERENCE_DIR

SEASONS = ("2022-2023", "2023-2024")
SEASON = SEASONS[-1]
DUPLICATE_HEADER = (
    "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank,"
    "series,score,top_total,games,coefficient,federation,category"
)
CLASSIQUE_HEADER = (
    "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank,"
    "series,category,games,federation"
)
REGULARS = [f"p{i:02d}" for i in range(1, 25)]  # every event of a season: weight 11
OCCASIONALS = [f"p{i:02d}" for i in range(25, 41)]  # 2 to 6 events: weight below 10
PLAYERS = REGULARS + OCCASIONALS
# The series written on every duplicate row (the zones never read a classification).
TIERS = {1: "1", 2: "2", 4: "3", 7: "4", 15: "5", 27: "6"}
# Classique: k01 and k02 start from series 1 (no rating list), k03 from series 2;
# k04–k08 and k09–k10 from a rating list; k11–k14 never meet any of them.
SERIES_ONE = ("k01", "k02")
FIRST_NAMES = ("Anne", "Luc", "Zoé", "Paul", "Inès", "Marc", "Léa", "Yves", "Éva", "Noé")


def _series(player: str) -> str:
    index = int(player[1:])
    return [s for start, s in sorted(TIERS.items()) if index >= start][-1]


def _strength(player: str) -> float:
    """Regulars and the second half of the occasional players by licence; the first half of
    the occasional players as strong as the best regulars (few events, high percentages:
    what a minimum divisor is for)."""
    index = int(player[1:])
    return -1.5 * (index - 24) if 25 <= index <= 32 else -float(index)


def _name(player: str) -> tuple[str, str]:
    index = int(player[1:])
    prefix = "Classique" if player.startswith("k") else "Joueur"
    return f"{prefix}{index:02d}", FIRST_NAMES[index % len(FIRST_NAMES)]


def _duplicate_events(season: str, rng: random.Random) -> list[tuple[str, str]]:
    start = int(season[:4])
    files = []
    for k in range(1, 11):
        tid = f"D{start}-{k:02d}"
        month = 9 + k if k <= 3 else k - 3  # Oct…Dec, then Jan…Jul
        year = start if k <= 3 else start + 1
        date = f"{year}-{month:02d}-{10 + k:02d}"
        coefficient = 2 if k == 5 else 1
        present = list(REGULARS)
        for i, player in enumerate(OCCASIONALS):
            plays = 2 + (i % 5)  # 2 to 6 events
            if (k + i) % 10 < plays:
                present.append(player)
        strength = {p: _strength(p) + rng.gauss(0, 6) for p in present}
        order = sorted(present, key=lambda p: (-strength[p], p))
        lines = [DUPLICATE_HEADER]
        for rank, player in enumerate(order, start=1):
            last, first = _name(player)
            federation = "BEL" if int(player[1:]) % 6 == 0 else "FRA"
            score = 1000 - rank * 7
            lines.append(
                f"{tid},Festival {tid},duplicate,{date},{player},{last},{first},{rank},"
                f"{_series(player)},{score},1000,3,{coefficient},{federation},homologue"
            )
        files.append((f"{tid}.csv", "\n".join(lines) + "\n"))
    return files


def _classique(tid: str, date: str, rows: list[tuple[str, str]]) -> str:
    lines = [CLASSIQUE_HEADER]
    for rank, (player, series) in enumerate(rows, start=1):
        last, first = _name(player)
        lines.append(
            f"{tid},Open {tid},classique,{date},{player},{last},{first},{rank},{series},open,7,FRA"
        )
    return "\n".join(lines) + "\n"


def write_world(folder: Path) -> Path:
    """The raw folder of the what-if tests."""
    rng = random.Random(19)
    for season in SEASONS:
        target = folder / season
        target.mkdir(parents=True, exist_ok=True)
        for name, content in _duplicate_events(season, rng):
            (target / name).write_text(content, encoding="utf-8")
    first, second = folder / SEASONS[0], folder / SEASONS[1]
    # C1: k01, k02 (series 1) and k03 (series 2) meet k04–k08 (listed cotes).
    (first / "C2022-01.csv").write_text(
        _classique(
            "C2022-01",
            "2022-11-20",
            [
                ("k04", ""),
                ("k01", "1"),
                ("k05", ""),
                ("k03", "2"),
                ("k02", "1"),
                ("k06", ""),
                ("k07", ""),
                ("k08", ""),
            ],
        ),
        encoding="utf-8",
    )
    # C2: k04–k06, already affected through C1, meet k09 and k10 (listed, new).
    (second / "C2023-01.csv").write_text(
        _classique(
            "C2023-01",
            "2023-10-15",
            [("k09", ""), ("k05", ""), ("k10", ""), ("k04", ""), ("k06", "")],
        ),
        encoding="utf-8",
    )
    # C3: k11–k14 meet nobody affected.
    (second / "C2023-02.csv").write_text(
        _classique("C2023-02", "2024-03-17", [(f"k{i}", "") for i in (11, 12, 13, 14)]),
        encoding="utf-8",
    )
    # k04 (2600) wins C1 with the reference cote of k01 and k02; k09 (2700) wins C2 with
    # k04's: neither is clamped by PJmax, so both feel the change (the chain).
    listed = {"k04": 2600, "k05": 2400, "k06": 2300, "k07": 1900, "k08": 1800, "k09": 2700}
    listed |= {"k10": 2000, "k11": 1900, "k12": 1850, "k13": 1800, "k14": 1750}
    (folder / "liste_2022-08-31.csv").write_text(
        "player_id,as_of,cote\n"
        + "".join(f"{p},2022-08-31,{c}\n" for p, c in sorted(listed.items())),
        encoding="utf-8",
    )
    return folder


def changed_reference(target: Path, edits: dict[str, list[tuple[str, str]]]) -> Path:
    """A copy of data/reference with text replaced in some files, written by hand (never by
    the what-if's own code): {file: [(old, new), …]}, each `old` found exactly once (a whole
    line, or its start)."""
    shutil.copytree(REFERENCE_DIR, target)
    for file, replacements in edits.items():
        path = target / file
        lines = path.read_text(encoding="utf-8").splitlines()
        for old, new in replacements:
            found = [i for i, line in enumerate(lines) if line.startswith(old)]
            assert len(found) == 1, (file, old, found)
            lines[found[0]] = new
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target
