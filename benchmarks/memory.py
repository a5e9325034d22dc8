"""Where a build's memory peaks (issue 25): one build without PDFs run in a child process
(`benchmarks.worker build`, the bench's own), the resident memory (RSS) of the child and
of its descendants sampled every `INTERVAL` seconds, each sample tagged with the step the
build's progress lines say it is in; then the peak of each step.

    python -m benchmarks.memory RAW DEST [--as-of AAAA-MM-JJ] [--intervalle 0.2]

builds RAW into DEST (`w.duckdb`, `reports/`, `build.json`; DEST is emptied first: never a
workload's own folder) and prints, per step, its start, its end and three peaks: the build
process alone, the process and its descendants together, the largest descendant (the
bench's peak, `ru_maxrss`, is the largest single process). The samples themselves go to
`DEST/memoire.json`. Polars' and DuckDB's own allocations show in the RSS only, not in
`tracemalloc`: hence sampling. Measurement only: nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path

INTERVAL = 0.2  # seconds between two samples
START = "(démarrage)"  # the step before the build's first line
_GIB = 1024**3


@dataclass(frozen=True)
class Sample:
    seconds: float  # since the child started
    main: int  # RSS of the build process, bytes
    descendants: int  # RSS of its descendants, summed
    largest_descendant: int
    step: str  # the step in progress (`step_of`)


@dataclass(frozen=True)
class StepPeak:
    step: str
    first: float  # seconds of its first and last samples
    last: float
    main: int  # peaks, bytes
    together: int
    largest_descendant: int


def step_of(line: str, current: str) -> str:
    """The step a progress line starts, else `current`: a stage's line (« Saison 2023-2024
    … », « Pages du site … ») starts one; a running count (« … exports lus : 2 / 9 »)
    and a finished step's line (« ✓ … ») do not."""
    text = line.strip()
    if text.startswith("[") and "]" in text:  # the worker's clock, « [  12.3 s] »
        text = text.split("]", 1)[1].strip()
    if text.endswith("…") and not text.startswith("…"):
        return text
    return current


def step_peaks(samples: Iterable[Sample]) -> list[StepPeak]:
    """Each step's span and peaks, in the order the steps started."""
    peaks: dict[str, StepPeak] = {}
    for s in samples:
        before = peaks.get(s.step)
        together = s.main + s.descendants
        if before is None:
            peaks[s.step] = StepPeak(
                s.step, s.seconds, s.seconds, s.main, together, s.largest_descendant
            )
            continue
        peaks[s.step] = StepPeak(
            s.step,
            before.first,
            s.seconds,
            max(before.main, s.main),
            max(before.together, together),
            max(before.largest_descendant, s.largest_descendant),
        )
    return list(peaks.values())


def gib(value: int) -> str:
    """Bytes as the build prints them: `1,78 Gio`."""
    return f"{value / _GIB:.2f} Gio".replace(".", ",")


def table(peaks: Sequence[StepPeak]) -> str:
    """The French table of `step_peaks`, the build's overall peaks last."""
    head = ["Étape", "De (s)", "À (s)", "Processus", "Avec ses fils", "Plus gros fils"]
    rows = [
        [
            p.step,
            f"{p.first:.1f}".replace(".", ","),
            f"{p.last:.1f}".replace(".", ","),
            gib(p.main),
            gib(p.together),
            gib(p.largest_descendant),
        ]
        for p in peaks
    ]
    if peaks:
        rows.append(
            [
                "Construction entière",
                "",
                "",
                gib(max(p.main for p in peaks)),
                gib(max(p.together for p in peaks)),
                gib(max(p.largest_descendant for p in peaks)),
            ]
        )
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [head, ["-" * w for w in widths], *rows]
    ]
    return "\n".join(lines)


def sample_build(command: Sequence[str], interval: float = INTERVAL) -> tuple[int, list[Sample]]:
    """Run `command` (its output passed through), sampling its RSS and its descendants'
    every `interval` seconds; (exit status, samples)."""
    import psutil  # type: ignore[import-untyped]  # no stubs; measurement only

    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )
    step = [START]

    def follow() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            step[0] = step_of(line, step[0])

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    process = psutil.Process(child.pid)
    started = time.perf_counter()
    samples: list[Sample] = []
    while child.poll() is None:
        try:
            main = process.memory_info().rss
            sizes = []
            for descendant in process.children(recursive=True):
                with suppress(psutil.Error):  # ended between the listing and the reading
                    sizes.append(descendant.memory_info().rss)
        except psutil.Error:  # the build itself just ended
            break
        samples.append(
            Sample(
                round(time.perf_counter() - started, 2),
                main,
                sum(sizes),
                max(sizes, default=0),
                step[0],
            )
        )
        time.sleep(interval)
    status = child.wait()
    reader.join(timeout=5)
    return status, samples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.memory",
        description="Le pic de mémoire de chaque étape d'une construction sans PDF.",
    )
    parser.add_argument("raw", type=Path, help="le dossier des exports")
    parser.add_argument("dest", type=Path, help="le dossier de la construction (vidé d'abord)")
    parser.add_argument("--as-of", default="", help="la date de référence (AAAA-MM-JJ)")
    parser.add_argument(
        "--intervalle", type=float, default=INTERVAL, help="secondes entre deux mesures"
    )
    args = parser.parse_args(argv)
    shutil.rmtree(args.dest, ignore_errors=True)
    args.dest.mkdir(parents=True)
    command = [
        sys.executable,
        "-m",
        "benchmarks.worker",
        "build",
        str(args.raw),
        str(args.dest / "w.duckdb"),
        str(args.dest / "reports"),
        str(args.dest / "build.json"),
        *(["--as-of", args.as_of] if args.as_of else []),
    ]
    status, samples = sample_build(command, args.intervalle)
    (args.dest / "memoire.json").write_text(
        json.dumps([asdict(s) for s in samples], ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(table(step_peaks(samples)))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
