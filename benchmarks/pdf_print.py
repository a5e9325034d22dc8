"""What printing the PDFs costs Chromium (issue 25): the reports of a built reports folder
printed with the code's own `print_pdfs` into another folder (the reports' PDFs are left
as they are), Chromium's processes and Playwright's driver sampled every `INTERVAL`
seconds: their CPU by kind of process (renderer, browser, GPU, print compositor, driver),
and their memory at its peak, summed two ways — PSS (each shared page counted once: what
they take together) and RSS (as `ps` shows it: the pages they share counted in each) —
with the largest single process.

    python -m benchmarks.pdf_print REPORTS OUT [--quoi rapports|circuits|tout]

On a machine shared with other work, compare the CPU, not the wall-clock time. The
processes' CPU is read from the samples (a process that ends between two samples loses
its last `INTERVAL`): Chromium's processes are not waited for by this one, so its own
resource usage does not count them. Their memory is read every `MEMORY_EVERY` samples
only: the kernel walks a process's whole memory to sum its PSS (`smaps_rollup`), 8 ms a
process on average and far more for a renderer holding 1.4 GiB; read every `INTERVAL`
it took 10 CPU-s of a season report's 50 s (the measurement slowing what it measured, on a
2-core machine); every 3 s, about a tenth of that. The sampler's own CPU is reported.
Measurement only: the sampling's sums and kinds are tested, not the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # no stubs; measurement only

INTERVAL = 0.3  # seconds between two samples
MEMORY_EVERY = 10  # the memory read at one sample in this many (every 3 s)
_GIB = 1024**3


def process_kind(cmdline: list[str]) -> str:
    """The kind of a process from its command line: Chromium's `--type=` (a utility process
    by its service: `utility/PrintCompositor`), else the program's name (`chromium` for
    the browser, `node` for Playwright's driver)."""
    kind = next((a.removeprefix("--type=") for a in cmdline if a.startswith("--type=")), "")
    if not kind:
        return Path(cmdline[0]).name if cmdline else "?"
    service = next((a for a in cmdline if a.startswith("--utility-sub-type=")), "")
    return f"{kind}/{service.rsplit('.', 1)[-1]}" if service else kind


@dataclass
class Usage:
    """What the descendants of a process used: CPU seconds by process, their kinds, and the
    peaks of their summed PSS and RSS and of the largest RSS, in bytes."""

    cpu: dict[int, float] = field(default_factory=dict)
    kinds: dict[int, str] = field(default_factory=dict)
    pss: int = 0
    rss: int = 0
    largest: int = 0
    own_cpu: float = 0.0  # the sampler's own CPU seconds

    def cpu_by_kind(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for pid, seconds in self.cpu.items():
            kind = self.kinds.get(pid, "?")
            totals[kind] = totals.get(kind, 0.0) + seconds
        return dict(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))


def sample(root: psutil.Process, usage: Usage, *, memory: bool = True) -> None:
    """One sample of every descendant of `root` into `usage`: their CPU, and their memory
    when `memory`."""
    pss = rss = largest = 0
    for child in root.children(recursive=True):
        try:
            times = child.cpu_times()
            full = child.memory_full_info() if memory else None
            kind = process_kind(child.cmdline())  # read again: a launcher script execs
        except psutil.Error:  # ended meanwhile
            continue
        usage.cpu[child.pid] = times.user + times.system
        if kind != "?" or child.pid not in usage.kinds:  # a zombie has no command line
            usage.kinds[child.pid] = kind
        if full is not None:
            pss += full.pss
            rss += full.rss
            largest = max(largest, full.rss)
    usage.pss = max(usage.pss, pss)
    usage.rss = max(usage.rss, rss)
    usage.largest = max(usage.largest, largest)


class Sampler:
    """Samples this process's descendants every `INTERVAL` seconds while in its `with`."""

    def __init__(self) -> None:
        self.usage = Usage()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._me = psutil.Process()

    def _run(self) -> None:
        count = 0
        while not self._stop.is_set():
            sample(self._me, self.usage, memory=count % MEMORY_EVERY == 0)
            count += 1
            self.usage.own_cpu = time.thread_time()
            self._stop.wait(INTERVAL)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def _number(value: float, digits: int = 1) -> str:
    return f"{value:,.{digits}f}".replace(",", "\u202f").replace(".", ",")


def report(count: int, seconds: float, usage: Usage) -> str:
    """The French summary of one printing."""
    lines = [f"Impression de {count} PDF : {_number(seconds)} s (horloge)"]
    lines.append("  CPU par processus (s) :")
    kinds = usage.cpu_by_kind()
    width = max((len(k) for k in kinds), default=0)
    lines += [f"    {kind:<{width}}  {_number(cpu):>7}" for kind, cpu in kinds.items()]
    lines.append(f"    {'total':<{width}}  {_number(sum(kinds.values())):>7}")
    lines.append(
        f"  mémoire au plus haut : PSS {_number(usage.pss / _GIB, 2)} Gio (somme), "
        f"RSS {_number(usage.rss / _GIB, 2)} Gio (somme), "
        f"plus gros processus {_number(usage.largest / _GIB, 2)} Gio"
    )
    lines.append(f"  la mesure elle-même : {_number(usage.own_cpu)} s de CPU")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from pipelines.reports.layout import printable_reports
    from pipelines.reports.pdf import print_pdfs

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.pdf_print",
        description="Imprime les rapports d'un dossier déjà construit et mesure Chromium.",
    )
    parser.add_argument("reports", type=Path, help="dossier des rapports (HTML construits)")
    parser.add_argument("out", type=Path, help="dossier où écrire les PDF mesurés")
    parser.add_argument("--quoi", choices=("rapports", "circuits", "tout"), default="tout")
    args = parser.parse_args(argv)
    reports: Path = args.reports.resolve()
    pages = []
    for html, pdf in printable_reports(reports):
        circuit = "circuits" in html.relative_to(reports).parts
        if args.quoi == "tout" or (args.quoi == "circuits") == circuit:
            name = pdf.relative_to(reports).as_posix().replace("/", "_")
            pages.append((html, args.out / name))
    if not pages:
        print(f"aucun rapport à imprimer dans {reports}")
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with Sampler() as sampler:
        print_pdfs(pages, root=reports, stamp=dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    print(report(len(pages), time.perf_counter() - started, sampler.usage))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
