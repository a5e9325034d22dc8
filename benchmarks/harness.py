"""The federation-scale benchmark run by `classement bench` (issue 18).

Every figure is measured in the same run as its reference, on the same files:

- the workload, generated once per (seasons, players, seed) under
  `benchmarks/workloads/s{S}-p{P}-seed{N}/raw` and reused (the generator is seeded);
- the bare read: every export read by Polars, separator and encoding sniffed, no check;
- a full build without PDFs, in a child process (its peak RSS is the build's, read by
  `os.wait4`), its steps timed by the build itself (`BuildSummary.timings`);
- the PDFs printed after it (one Chromium for all), a rebuild with nothing changed
  (`classement build`, the statistician's own command, interpreter start included), one
  new tournament export added;
- cote + Elo + duplicate series (provisional classification included) of every season,
  recomputed from the warehouse by the transforms alone (`benchmarks.season`), and the
  plain per-row implementation of the same rules (`benchmarks.naive`) on one season,
  checked to give the same numbers.

The build works on a hard-linked copy of the workload (`run/raw`): the generated files are
never modified, and a new tournament is added to the copy only. Timings are printed and
written as JSON under `benchmarks/results/`; no test asserts any of them.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

import polars as pl

from pipelines.ingest.schema import RESULTS as RESULT_ROWS

BENCH_ROOT = Path(__file__).resolve().parent
WORKLOADS = BENCH_ROOT / "workloads"
RESULTS = BENCH_ROOT / "results"
_COMPLETE = ".complete"  # written once a workload is fully generated


@dataclass
class Figure:
    """One line of the table: what was measured against what, and the target."""

    key: str
    label: str
    measured: float
    unit: str
    reference: float | None = None
    reference_label: str = ""
    ratio: float | None = None
    target: str = ""
    met: bool | None = None


@dataclass
class BenchResult:
    seasons: int
    players: int
    seed: int
    workload: dict[str, int | float]
    figures: list[Figure] = field(default_factory=list)
    build_steps: dict[str, float] = field(default_factory=dict)
    machine: dict[str, str | int | float] = field(default_factory=dict)
    started: str = ""
    notes: list[str] = field(default_factory=list)

    def figure(self, key: str) -> Figure:
        return next(f for f in self.figures if f.key == key)


def workload_dir(seasons: int, players: int, seed: int, root: Path = WORKLOADS) -> Path:
    return root / f"s{seasons}-p{players}-seed{seed}"


def workload_as_of(seasons: int, players: int, seed: int) -> date:
    """The reference date of the workload's builds (`--as-of`): its seasons run into the
    future (20 seasons from 2023 end in 2043), and no export dated after it is refused."""
    from simulator import GenerateConfig

    return GenerateConfig(seed=seed, seasons=seasons, players=players).last_day


def ensure_workload(
    seasons: int, players: int, seed: int, root: Path = WORKLOADS, say=print
) -> tuple[Path, float | None]:
    """The workload's raw folder, generated unless a complete one is there; (folder,
    seconds spent generating it, None when reused)."""
    from simulator import GenerateConfig, generate

    base = workload_dir(seasons, players, seed, root)
    raw = base / "raw"
    if (base / _COMPLETE).exists() and raw.is_dir():
        say(f"Jeu de données réutilisé : {raw}")
        return raw, None
    shutil.rmtree(base, ignore_errors=True)
    raw.mkdir(parents=True)
    say(f"Génération du jeu de données ({seasons} saisons, {players} joueurs) dans {raw} …")
    started = time.perf_counter()
    generate(raw, GenerateConfig(seed=seed, seasons=seasons, players=players))
    seconds = time.perf_counter() - started
    (base / _COMPLETE).write_text(f"{seconds:.1f}\n", encoding="utf-8")
    return raw, seconds


def export_files(raw: Path) -> list[Path]:
    """The exports of a raw folder (what the ingest reads), in a stable order."""
    return sorted(
        p
        for p in raw.rglob("*")
        if p.is_file() and p.suffix.lower() in (".csv", ".xlsx") and not p.name.startswith(".")
    )


def _decoded(data: bytes, errors: str = "strict") -> tuple[str, str]:
    """An export's text and encoding: UTF-8 (a byte-order mark dropped), else Windows-1252."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors=errors), "cp1252"


def _decode(data: bytes) -> str:
    return _decoded(data, errors="replace")[0]


def bare_read(raw: Path) -> tuple[float, int, int]:
    """Read every export with Polars only (encoding and separator sniffed, every column as
    text, no check): (seconds, files, rows). The reference the ingest is measured against."""
    files = export_files(raw)
    started = time.perf_counter()
    rows = 0
    for path in files:
        if path.suffix.lower() == ".xlsx":
            for frame in pl.read_excel(path, sheet_id=0, engine="openpyxl").values():
                rows += frame.height
            continue
        text = _decode(path.read_bytes())
        header = text.split("\n", 1)[0]
        separator = ";" if header.count(";") > header.count(",") else ","
        frame = pl.read_csv(io.StringIO(text), separator=separator, infer_schema=False)
        rows += frame.height
    return time.perf_counter() - started, len(files), rows


def hardlink_copy(source: Path, target: Path) -> None:
    """`target` as a copy of `source` made of hard links (the workload is never written)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, copy_function=os.link)


_DUPLICATE = re.compile(r"^D(\d{4})-(\d{3,})\.csv$")


def add_tournament(raw: Path) -> Path:
    """Add one new duplicate tournament to the last season of `raw`: a copy of its last
    duplicate export under the next free tournament number. Returns the new file."""
    season = sorted(p for p in raw.iterdir() if p.is_dir())[-1]
    numbered = sorted(
        (int(m.group(2)), p) for p in season.iterdir() if (m := _DUPLICATE.match(p.name))
    )
    if not numbered:
        raise RuntimeError(f"aucun export de tournoi en duplicate dans {season}")
    number, source = numbered[-1]
    old_id = source.stem
    prefix = old_id[: old_id.rindex("-") + 1]
    new_id = f"{prefix}{number + 1:03d}"
    # written as the organiser wrote the file copied: its encoding (the simulator writes
    # some exports in Windows-1252, a byte-order mark before others) and its separator
    data = source.read_bytes()
    text, encoding = _decoded(data)
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    header = text.split("\n", 1)[0]
    separator = ";" if header.count(";") > header.count(",") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    # the tournament's column under any header the ingest reads as it (« Code tournoi »…)
    column = next(i for i, h in enumerate(rows[0]) if RESULT_ROWS.canonical(h) == "tournament_id")
    for row in rows[1:]:
        row[column] = new_id
    out = io.StringIO()
    csv.writer(out, delimiter=separator, lineterminator="\n").writerows(rows)
    target = season / f"{new_id}.csv"
    target.write_bytes(bom + out.getvalue().encode(encoding))
    return target


def run_child(args: list[str], say=print) -> tuple[float, int, int]:
    """Run a child process, its output passed through: (seconds, exit status, peak RSS in
    bytes of the child and its waited-for descendants)."""
    started = time.perf_counter()
    process = subprocess.Popen(args)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    # ru_maxrss is in kilobytes on Linux
    return seconds, process.returncode, usage.ru_maxrss * 1024


def machine() -> dict[str, str | int | float]:
    import duckdb

    return {
        "python": platform.python_version(),
        "polars": pl.__version__,
        "duckdb": duckdb.__version__,
        "cpus": os.cpu_count() or 0,
        "system": f"{platform.system()} {platform.release()}",
    }


# The machine's own speed at a moment: the same plain Python (`PROBE_ADDITIONS` additions)
# timed at the bench's start and at its end (`machine_probe`). On this project's virtual
# machine the same additions at a module's top level took 0.66 to 1.16 s within half an
# hour, this probe (a function's loop) 0.34 to 0.50 s within two minutes (8 December 2026),
# and every figure of a bench moved with it: a reader comparing two runs needs to know
# whether the code or the machine changed.
PROBE_ADDITIONS = 10_000_000


def machine_probe() -> float:
    """Seconds this process takes for `PROBE_ADDITIONS` additions in a Python loop."""
    started = time.perf_counter()
    total = 0
    for i in range(PROBE_ADDITIONS):
        total += i
    return time.perf_counter() - started


def probe_line(start: float, end: float) -> str:
    """The bench's line on the machine's speed, in French."""
    count = f"{PROBE_ADDITIONS:,}".replace(",", "\u202f")
    return (
        f"Vitesse de la machine : {count} additions en Python en {start:.2f} s au début de "
        f"la mesure, {end:.2f} s à la fin (plus c'est long, plus la machine était lente)"
    ).replace(".", ",")


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_result(result: BenchResult, root: Path = RESULTS) -> Path:
    """The result as JSON, `<date>-s{S}-p{P}.json` (and `latest.json`)."""
    root.mkdir(parents=True, exist_ok=True)
    stamp = result.started.replace(":", "").replace("-", "")
    path = root / f"{stamp}-s{result.seasons}-p{result.players}.json"
    text = json.dumps(asdict(result), indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
    (root / "latest.json").write_text(text, encoding="utf-8")
    return path


def _number(value: float, unit: str) -> str:
    if unit == "s":
        text = f"{value:.1f} s" if value < 100 else f"{value:.0f} s"
    elif unit == "Gio":
        text = f"{value:.2f} Gio"
    elif unit == "×":
        text = f"{value:.0f} ×" if value >= 10 else f"{value:.1f} ×"
    else:
        text = f"{value:g} {unit}".strip()
    return text.replace(".", ",")


def table(result: BenchResult, markdown: bool = False) -> str:
    """The French table: mesure, mesuré, référence, rapport, cible, atteint."""
    head = ["Mesure", "Mesuré", "Référence", "Rapport", "Cible", "Atteint"]
    rows = []
    for f in result.figures:
        reference = (
            f"{_number(f.reference, 's')} ({f.reference_label})" if f.reference is not None else ""
        )
        ratio = "" if f.ratio is None else f"{f.ratio:.2f}".replace(".", ",")
        met = "" if f.met is None else ("oui" if f.met else "NON")
        rows.append([f.label, _number(f.measured, f.unit), reference, ratio, f.target, met])
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(head, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return "\n".join(lines)


def python_command(module: str) -> list[str]:
    return [sys.executable, "-m", module]
