"""`classement bench`: measure the build at federation scale against its targets."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

GIB = 1024**3


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bench",
        help="mesurer une construction à l'échelle d'une fédération face à ses cibles",
        description="Génère (ou réutilise) une fédération simulée, puis y mesure : la lecture "
        "des exports face à une lecture Polars brute des mêmes fichiers, une construction "
        "complète sans puis avec les PDF, une reconstruction sans changement, un nouveau "
        "tournoi, cote + Elo + séries de toutes les saisons face à une implémentation ligne "
        "à ligne des mêmes règles, et la mémoire maximale de la construction. Affiche un "
        "tableau (mesure, référence, rapport, cible, atteint) et l'écrit en JSON dans "
        "benchmarks/results/. Code de sortie 0 quand toutes les cibles sont atteintes, 1 "
        "quand l'une ne l'est pas (ou que les deux implémentations divergent), 2 quand une "
        "étape échoue.",
    )
    parser.add_argument(
        "--seasons", type=int, default=20, metavar="N", help="saisons à simuler (20)"
    )
    parser.add_argument(
        "--players", type=int, default=20000, metavar="N", help="joueurs au départ (20 000)"
    )
    parser.add_argument(
        "--seed", type=int, default=2026, metavar="N", help="graine du tirage aléatoire (2026)"
    )
    parser.add_argument(
        "--workloads",
        type=Path,
        default=None,
        metavar="DOSSIER",
        help="où les fédérations simulées sont écrites et réutilisées (par défaut : "
        "benchmarks/workloads)",
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        metavar="DOSSIER",
        help="où le résultat JSON est écrit (par défaut : benchmarks/results)",
    )
    parser.add_argument(
        "--naive-season",
        default=None,
        metavar="SAISON",
        help="la saison de l'implémentation ligne à ligne (par défaut : la dernière)",
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="afficher aussi le tableau en Markdown (celui du README)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from benchmarks import harness as h
    from pipelines.bytecode import compile_sources

    if args.seasons < 1 or args.players < 10:
        print("classement bench : --seasons ≥ 1 et --players ≥ 10", file=sys.stderr)
        return 2
    # the builds measured (processes of their own) find the project's bytecode written: none
    # compiles its modules again (`pipelines/bytecode.py`)
    compile_sources()
    workloads = args.workloads or h.WORKLOADS
    result = h.BenchResult(
        args.seasons, args.players, args.seed, workload={}, started=h.now(), machine=h.machine()
    )
    probe_start = round(h.machine_probe(), 3)
    result.machine["probe_start_s"] = probe_start
    raw, generated = h.ensure_workload(args.seasons, args.players, args.seed, workloads)
    if generated is not None:
        result.workload["generation_seconds"] = round(generated, 1)
    run_dir = h.workload_dir(args.seasons, args.players, args.seed, workloads) / "run"
    shutil.rmtree(run_dir, ignore_errors=True)
    work_raw = run_dir / "raw"
    h.hardlink_copy(raw, work_raw)
    warehouse, reports = run_dir / "warehouse.duckdb", run_dir / "reports"
    as_of = h.workload_as_of(args.seasons, args.players, args.seed)  # its seasons run ahead

    print("Lecture brute des exports par Polars (référence) …", flush=True)
    bare, files, rows = h.bare_read(raw)
    result.workload.update(
        files=files,
        rows=rows,
        megabytes=round(sum(p.stat().st_size for p in h.export_files(raw)) / 1e6, 1),
    )

    def build(name: str, pdf: bool = False) -> tuple[dict, float, int]:
        out = run_dir / f"{name}.json"
        command = [*h.python_command("benchmarks.worker"), "build"]
        command += [str(work_raw), str(warehouse), str(reports), str(out)]
        command += ["--as-of", as_of.isoformat()]
        seconds, status, rss = h.run_child([*command, *(["--pdf"] if pdf else [])])
        if status not in (0, 1) or not out.exists():
            raise RuntimeError(f"l'étape « {name} » a échoué (code {status})")
        return json.loads(out.read_text(encoding="utf-8")), seconds, rss

    try:
        print("Construction complète sans PDF …", flush=True)
        full, _, peak = build("full")
        result.build_steps = dict(
            sorted(full["timings"].items(), key=lambda kv: kv[1], reverse=True)
        )
        result.workload.update(
            results=full["row_counts"].get("results", 0),
            games=full["row_counts"].get("games", 0),
            tournaments=full["row_counts"].get("tournaments", 0),
        )
        print("Cote, Elo et séries de chaque saison, puis une saison ligne à ligne …", flush=True)
        ratings_out = run_dir / "ratings.json"
        command = [*h.python_command("benchmarks.worker"), "ratings", str(warehouse)]
        command += [str(ratings_out)]
        if args.naive_season:
            command += ["--naive-season", args.naive_season]
        _, status, _ = h.run_child(command)
        if not ratings_out.exists():
            raise RuntimeError(f"l'étape « cote, Elo, séries » a échoué (code {status})")
        ratings = json.loads(ratings_out.read_text(encoding="utf-8"))
        print("Impression des PDF …", flush=True)
        printed, _, pdf_peak = build("pdf", pdf=True)
        print("Reconstruction sans changement (classement build) …", flush=True)
        command = [*_classement(), "build", "--raw", str(work_raw)]
        command += ["--warehouse", str(warehouse), "--reports", str(reports)]
        command += ["--as-of", as_of.isoformat()]
        unchanged, status, _ = h.run_child(command)
        if status not in (0, 1):
            raise RuntimeError(f"la reconstruction sans changement a échoué (code {status})")
        added = h.add_tournament(work_raw)
        print(f"Un nouveau tournoi ({added.name}), sans PDF …", flush=True)
        one, _, one_peak = build("one-more")
    except RuntimeError as err:
        print(f"classement bench : {err}", file=sys.stderr)
        return 2

    full_s = full["seconds"]
    ingest = full["timings"].get("ingest", 0.0)
    pdf_s = printed["timings"].get("pdf", 0.0)
    result.workload.update(
        peak_full_gib=round(peak / GIB, 2),
        peak_pdf_gib=round(pdf_peak / GIB, 2),
        peak_one_more_gib=round(one_peak / GIB, 2),
    )
    build_peak = max(peak, one_peak)  # the builds themselves; Chromium prints apart
    naive_ratio = ratings["naive_seconds"] / max(ratings["fast_seconds"], 1e-9)
    same = not ratings["differences"]
    f = h.Figure
    result.figures = [
        f("ingest", "Lecture des exports (contrôles compris)", ingest, "s", bare,
          "lecture Polars brute", ingest / bare, "≤ 1,5 × la lecture brute", ingest / bare <= 1.5),
        f("ratings", f"Cote + Elo + séries, {len(ratings['seasons'])} saisons",
          ratings["total"], "s", target="≤ 15 s", met=ratings["total"] <= 15),
        f("naive", f"Même calcul ligne à ligne, saison {ratings['naive_season']}",
          ratings["naive_seconds"], "s", ratings["fast_seconds"], "calcul vectorisé",
          naive_ratio, "≥ 50 × plus lent, mêmes nombres", naive_ratio >= 50 and same),
        f("full", "Construction complète sans PDF", full_s, "s", target="≤ 90 s",
          met=full_s <= 90),
        f("full_pdf", "Construction complète avec les PDF", full_s + pdf_s, "s",
          target="≤ 150 s", met=full_s + pdf_s <= 150),
        f("pdf", f"dont impression de {printed['pdf_printed']} PDF", pdf_s, "s"),
        f("unchanged", "Reconstruction sans changement", unchanged, "s", target="≤ 5 s",
          met=unchanged <= 5),
        f("one_more", "Un nouveau tournoi", one["seconds"], "s", full_s,
          "construction complète", one["seconds"] / full_s, "≤ 0,10 (10 %)",
          one["seconds"] / full_s <= 0.10),
        f("memory", "Mémoire maximale d'une construction", build_peak / GIB, "Gio",
          target="≤ 2 Gio", met=build_peak <= 2 * GIB),
        f("memory_pdf", "dont impression des PDF (Chromium)", pdf_peak / GIB, "Gio"),
    ]  # fmt: skip
    if not same:
        result.notes.append("désaccords : " + " ; ".join(ratings["differences"]))
    probe_end = round(h.machine_probe(), 3)
    result.machine["probe_end_s"] = probe_end
    speed = h.probe_line(probe_start, probe_end)
    path = h.write_result(result, args.results or h.RESULTS)
    w = result.workload
    print(
        f"\nJeu de données : {args.seasons} saisons, {args.players} joueurs, "
        f"{w['files']} fichiers ({w['megabytes']} Mo), {w['tournaments']} tournois, "
        f"{w['results']} résultats, {w['games']} parties\n"
    )
    print(h.table(result))
    print(f"\n{speed}")
    print("\nOù va le temps de la construction complète :")
    for name, seconds in list(result.build_steps.items())[:15]:
        print(f"  {name:<40} {seconds:7.1f} s".replace(".", ","))
    for note in result.notes:
        print(f"\n✗ {note}")
    if args.markdown:
        print("\n" + h.table(result, markdown=True) + f"\n\n{speed}")
    print(f"\nRésultat : {path}")
    return 0 if all(fig.met is not False for fig in result.figures) else 1


def _classement() -> list[str]:
    """The `classement` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("classement")
    return [str(script)] if script.exists() else [sys.executable, "-m", "classement"]
