"""Fuzzing each importer with mutated real files: no input stops the ingest (so none makes
the build exit 2), and every rejection names its file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pipelines.ingest.batch import ingest_files
from tests.support import FIXTURES, PARAMETERS, PLAYERS, results_csv, write_evil_raw
from tests.support import SAMPLE as SAMPLE_FOLDER

SAMPLE = SAMPLE_FOLDER / "2023-2024"
MUTANTS = 25


def _sample(suffix: str) -> Path:
    return sorted(SAMPLE.glob(f"*{suffix}"))[0]


# One real file per importer: (name it is ingested under, its bytes, companion files).
IMPORTERS = {
    "csv": ("2024/r.csv", lambda: _sample("_games.csv").with_name(
        _sample("_games.csv").name.replace("_games", "")).read_bytes(), {}),
    "xlsx": ("2024/r.xlsx", lambda: _sample(".xlsx").read_bytes(), {}),
    "tou": ("2024/e.tou", lambda: (FIXTURES / "wespa/2006/NZL/TT2006.tou").read_bytes(), {}),
    "tsh": ("2024/lyon/a.t", lambda: (FIXTURES / "tsh/open-lyon-2024/a.t").read_bytes(),
            {"2024/lyon/config.tsh": (FIXTURES / "tsh/open-lyon-2024/config.tsh").read_bytes()}),
    "ffsc": ("2024/classement_2019-06-30.csv",
             lambda: (FIXTURES / "ffsc/classement_2019-06-30.csv").read_bytes(), {}),
}  # fmt: skip


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random edits of the kinds a hand, a copy or a disk makes."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(max(len(out), 1))
        kind = rng.randrange(8)
        if kind == 0:  # flip a byte
            if out:
                out[at] = rng.randrange(256)
        elif kind == 1:  # cut the file short
            del out[at:]
        elif kind == 2:  # delete a line
            start = out.rfind(b"\n", 0, at) + 1
            end = out.find(b"\n", at)
            del out[start : end + 1 if end >= 0 else len(out)]
        elif kind == 3:  # duplicate a line
            start = out.rfind(b"\n", 0, at) + 1
            end = out.find(b"\n", at)
            line = bytes(out[start : end + 1 if end >= 0 else len(out)])
            out[start:start] = line
        elif kind == 4:  # insert random bytes
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 5:  # a separator changed
            for i in range(at, min(at + 200, len(out))):
                if out[i] in b",;":
                    out[i] = rng.choice(b",;\t|")
                    break
        elif kind == 6:  # a digit changed into a letter or a sign
            for i in range(at, min(at + 200, len(out))):
                if chr(out[i]).isdigit():
                    out[i] = rng.choice(b"x-+.,O ")
                    break
        else:  # an empty cell
            for i in range(at, min(at + 200, len(out)) - 1):
                if out[i] in b",;" and out[i + 1] not in b",;\r\n":
                    j = i + 1
                    while j < len(out) and out[j] not in b",;\r\n":
                        j += 1
                    del out[i + 1 : j]
                    break
    return bytes(out)


@pytest.mark.slow
@pytest.mark.parametrize("importer", sorted(IMPORTERS))
def test_mutated_files_never_stop_the_ingest(importer: str) -> None:
    name, original, companions = IMPORTERS[importer]
    data = original()
    good = results_csv("G1", PLAYERS).encode()
    rng = random.Random(f"fuzz-{importer}")
    rejected = 0
    for _ in range(MUTANTS):
        files = {name: mutate(data, rng), "2024/good.csv": good, **companions}
        result = ingest_files(files, params=PARAMETERS)  # never raises
        assert "2024/good.csv" not in result.rejected
        assert "G1" in result.tables["tournaments"]["tournament_id"].to_list()
        for path, message in result.rejected.items():
            assert path == name and message.startswith(name), message
        rejected += name in result.rejected
    assert rejected > 0  # the mutations do break files


@pytest.mark.slow
def test_a_build_with_mutated_files_never_fails(tmp_path: Path) -> None:
    """Mutated files of every importer in one raw folder, with good ones: the build rejects
    what it must and builds the rest (exit status 0 or 1, never 2)."""
    from tests.builds import build  # Dagster: this test only, not the ingest's fuzzing

    raw = write_evil_raw(tmp_path / "raw")
    rng = random.Random("fuzz-build")
    for importer, (name, original, companions) in sorted(IMPORTERS.items()):
        data = original()
        for k in range(3):
            path = raw / importer / f"{k}-{Path(name).name}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(mutate(data, rng))
        for companion, content in companions.items():
            (raw / importer / Path(companion).name).write_bytes(content)
    summary = build(raw, tmp_path)
    assert summary.exit_status in (0, 1)
    assert all(message.startswith(path) for path, message in summary.rejected)
