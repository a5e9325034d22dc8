"""What-if for committees (docs/rules.md §9, issue 19): every what-if equals a from-scratch
build under the changed parameters, the causes it reports are the true ones, its messages
are exact, its outputs are byte-identical twice, and the warehouse is never written."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from classement.cli import main
from pipelines.instance import build_instance
from pipelines.paths import PROJECT_ROOT, REFERENCE_DIR
from pipelines.reference.bundle import load_parameters
from pipelines.resources import WarehouseResource
from pipelines.staleness import SEASONS as SEASON_STAGE
from pipelines.staleness import stale_partitions
from pipelines.warehouse import Warehouse
from pipelines.whatif.compare import BY_QUOTAS, COTE_CHANGE, SERIES_CHANGE
from pipelines.whatif.compute import SeasonTables
from pipelines.whatif.run import WhatIfOutputs, run_whatif, series_counts
from pipelines.whatif.settings.model import WhatIfError
from pipelines.whatif.settings.registry import registry
from pipelines.whatif.settings.scenario import prepare
from tests.builds import build
from tests.whatif_world import SEASON, SERIES_ONE, changed_reference
from transforms import whatif
from transforms.calendar import ordered_events

NOTEBOOK = PROJECT_ROOT / "notebooks" / "whatif_series.py"


@dataclass(frozen=True)
class World:
    raw: Path
    warehouse: Path
    reports: Path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def world(whatif_site: Path) -> World:
    """The hand-made federation, built once with the parameters of data/reference (the
    session's build, shared with the what-if browser tests: only read)."""
    return World(whatif_site / "raw", whatif_site / "w.duckdb", whatif_site / "reports")


def _whatif(world: World, out: Path, *settings: str, pdf: bool = False) -> WhatIfOutputs:
    return run_whatif(
        world.warehouse, SEASON, list(settings), out_dir=out, reports_dir=world.reports, pdf=pdf
    )


def _rebuild(world: World, root: Path, edits: dict[str, list[tuple[str, str]]]) -> Path:
    """A from-scratch build of the same exports under a reference folder edited by hand."""
    reference = changed_reference(root / "reference", edits)
    summary = build(world.raw, root, reference_dir=reference)
    assert summary.rejected == []
    return root / "w.duckdb"


def _same(left: pl.DataFrame, right: pl.DataFrame, name: str) -> None:
    right = right.select(left.columns)
    order = [c for c in left.columns if left.schema[c] != pl.Float64]
    (
        assert_frame_equal(
            left.sort(order, nulls_last=True),
            right.sort(order, nulls_last=True),
            check_exact=False,
            rel_tol=1e-9,
            abs_tol=1e-9,
        ),
        name,
    )


def _equals_rebuild(after: SeasonTables, rebuilt: Path) -> None:
    """Every table the what-if computed equals the rebuilt warehouse's (the season's rows;
    the histories up to it)."""
    wh = Warehouse(rebuilt)
    tables = {
        "duplicate_event_scores": after.scores,
        "series_standings": after.standings,
        "series_classification": after.classification,
        "series_bars": after.bars,
        "series_movements": after.movements,
        "national_classification": after.national,
        "national_bars": after.national_bars,
        "cote_ranking": after.cote_ranking,
        "classique_series_bars": after.classique_bars,
        "elo_ranking": after.elo_ranking,
    }
    for name, frame in tables.items():
        assert frame.height > 0 or name == "elo_ranking", name  # no game: no Elo
        _same(frame, wh.read(f'SELECT * FROM "{name}" WHERE season = ?', [SEASON]), name)
    for name, frame in (("cote_history", after.cote_history), ("elo_history", after.elo_history)):
        _same(frame, wh.read(f'SELECT * FROM "{name}" WHERE season <= ?', [SEASON]), name)


# ---------------------------------------------------------------------------- the cases


@pytest.mark.slow
def test_raising_a_series_quota_equals_a_build_under_that_quota(
    world: World, tmp_path: Path
) -> None:
    outputs = _whatif(world, tmp_path / "out", "series.quotas.*.1=2")
    c = outputs.comparison
    # The `*` share of series 1 is followed by each federation's rows, in proportion.
    assert [(ch.key, ch.derived) for ch in c.scenario.changes] == [
        ("series.quotas.*.1", False),
        ("series.quotas.BEL.1", True),
        ("series.quotas.FRA.1A", True),
        ("series.quotas.FRA.1B", True),
        ("series.quotas.QUE.1", True),
        ("series.quotas.SUI.1", True),
    ]
    rebuilt = _rebuild(
        world,
        tmp_path / "rebuild",
        {
            "series_quotas.csv": [
                ("*,1,,1", "*,1,,2"),
                ("FRA,1,A,0.5", "FRA,1,A,1"),
                ("FRA,1,B,0.5", "FRA,1,B,1"),
                ("BEL,1,,1", "BEL,1,,2"),
                ("QUE,1,,1", "QUE,1,,2"),
                ("SUI,1,,1", "SUI,1,,2"),
            ]
        },
    )
    _equals_rebuild(c.after, rebuilt)
    counts = {r["series"]: (r["before"], r["after"]) for r in c.counts.iter_rows(named=True)}
    assert counts["1"][1] > counts["1"][0]
    assert sum(b for b, _ in counts.values()) == sum(a for _, a in counts.values())
    # The series are written on every row: nobody's values change, everyone moves by quota.
    assert c.criteria.height == 0
    movers = c.rows().filter(pl.col("changement") == SERIES_CHANGE)
    assert movers.height > 0
    assert set(movers["cause"]) == {BY_QUOTAS}
    csv = pl.read_csv(outputs.csv, infer_schema=False)
    assert csv.equals(c.rows())
    html = outputs.html.read_text(encoding="utf-8")
    # the committee reads the parameters' French names, not their keys (issue 27, item 4)
    assert '<span data-key="series.quotas.*.1">quota de la série 1 (autres fédérations)' in html
    assert "suit en proportion la part des autres fédérations de sa série" in html
    assert "<h1>Simulation de règles : saison" in html
    assert "What-if" not in html and "<code>" not in html and ".yaml" not in html


@pytest.mark.slow
def test_a_minimum_divisor_changes_only_small_weights_and_the_others_move_by_quota(
    world: World, tmp_path: Path
) -> None:
    outputs = _whatif(world, tmp_path / "out", "series.min_divisor=10")
    c = outputs.comparison
    rebuilt = _rebuild(
        world, tmp_path / "rebuild", {"series.yaml": [("min_divisor:", "min_divisor: 10")]}
    )
    _equals_rebuild(c.after, rebuilt)

    weights = dict(c.weights.iter_rows())
    changed = set(c.criteria["player_id"])
    small = {p for p, w in weights.items() if w < 10}
    assert changed and changed <= small  # only a weight sum under 10 changes a %N
    before = c.before.standings.filter(pl.col("player_id").is_in(list(small)))
    scoring = set(before.filter(pl.col("pct_n4") > 0)["player_id"])
    assert scoring <= changed  # and every such player with a %N above 0 sees it change
    assert all(
        set(c.criteria.filter(pl.col("player_id") == p)["changed"][0].split(";"))
        <= {"pct_n1", "pct_n2", "pct_n3", "pct_n4"}
        for p in changed
    )  # the PC and the super-série percentage have no divisor

    movers = c.rows().filter(pl.col("changement") == SERIES_CHANGE)
    by_quota = movers.filter(~pl.col("licence").is_in(list(small)))
    own = movers.filter(pl.col("licence").is_in(list(small)))
    assert by_quota.height > 0 and own.height > 0
    assert set(by_quota["cause"]) == {BY_QUOTAS}  # everyone else moves through the quotas
    assert all(cause.startswith("valeurs modifiées : %N") for cause in own["cause"])
    # ... and the report says so.
    html = outputs.html.read_text(encoding="utf-8")
    quota_movers = movers.filter(pl.col("cause") == BY_QUOTAS).height
    assert (
        f"{movers.height} joueurs : {movers.height - quota_movers} par leurs propres valeurs "
        f"(un critère au moins a changé), {quota_movers} par les quotas et les barres seuls "
        "(valeurs inchangées, barres déplacées)."
    ) in html
    assert (
        f"Diviseur minimum 0 → 10 : la somme des poids d&#x27;un joueur qui est plus petite est "
        f"remplacée par lui. {len(changed)} joueurs dont la somme des poids est inférieure à 10 "
        "voient leurs %N changer de ce fait"
    ) in html

    # The rebuild's seasons record the reference folder they were built with.
    assert stale_partitions(Warehouse(rebuilt), SEASON_STAGE) != []
    assert (
        stale_partitions(
            Warehouse(rebuilt),
            SEASON_STAGE,
            params=load_parameters(tmp_path / "rebuild" / "reference"),
        )
        == []
    )


@pytest.mark.slow
def test_a_series_equivalence_changes_series_one_starts_and_the_chain_of_shared_tournaments(
    world: World, tmp_path: Path
) -> None:
    outputs = _whatif(world, tmp_path / "out", "cote.series_equivalence.1=2800")
    c = outputs.comparison
    assert c.families.cote and not c.families.series
    rebuilt = _rebuild(world, tmp_path / "rebuild", {"cote.yaml": [('  "1": 2650', '  "1": 2800')]})
    _equals_rebuild(c.after, rebuilt)

    events = ordered_events(c.tournaments).select("tournament_id").with_row_index("_event")

    def starts(history: pl.DataFrame) -> dict[str, int]:
        """Each player's starting cote: the cote before their first tournament."""
        first = (
            history.join(events, on="tournament_id")
            .sort("_event", "player_id")
            .group_by("player_id", maintain_order=True)
            .agg(pl.col("cote_before").first())
        )
        return dict(first.iter_rows())

    before, after = starts(c.before.cote_history), starts(c.after.cote_history)
    moved = {p for p in before if before[p] != after[p]}
    assert moved == set(SERIES_ONE)  # only the players who started from series 1
    assert {after[p] - before[p] for p in moved} == {150}

    chain = c.chain
    direct = chain.filter(pl.col("cause") == whatif.CHAIN_START)
    assert set(direct["player_id"]) == set(SERIES_ONE)
    others = chain.filter(pl.col("cause") != whatif.CHAIN_START)
    assert set(others["cause"]) == {whatif.CHAIN_SHARED}  # only through shared tournaments
    through = {
        r["player_id"]: (r["tournament_id"], r["through"]) for r in others.iter_rows(named=True)
    }
    assert through == {"k04": ("C2022-01", "k01;k02"), "k09": ("C2023-01", "k04")}
    affected = set(chain["player_id"])
    assert not affected & {"k11", "k12", "k13", "k14"}  # C3 shares nobody affected
    assert set(c.cote_values["player_id"]) <= affected

    html = outputs.html.read_text(encoding="utf-8")
    assert "La chaîne des changements" in html
    assert (
        "<td>Classique04 Inès</td><td>k04</td><td>Open C2022-01 (20/11/2022)</td>"
        "<td>Classique01 Luc (départ modifié), Classique02 Zoé (départ modifié)</td>"
    ) in html
    assert (
        "<td>Classique09 Noé</td><td>k09</td><td>Open C2023-01 (15/10/2023)</td>"
        "<td>Classique04 Inès</td>"
    ) in html
    rows = c.rows().filter(pl.col("changement") == COTE_CHANGE)
    assert set(rows["licence"]) == set(c.cote_values["player_id"])


def test_an_unknown_key_and_a_non_numeric_value_give_their_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    warehouse = tmp_path / "w.duckdb"
    duckdb.connect(str(warehouse)).close()  # an empty warehouse: the keys are checked first
    cases = {
        "series.min_divisr=10": "clé inconnue : « series.min_divisr » ; clés proches : "
        "series.min_divisor, cote.bonus_divisors, series.super_serie.previous_weight",
        "series.min_divisor=dix": "valeur refusée pour « series.min_divisor » : « dix » n'est "
        "pas un nombre (attendu : un nombre ; valeur actuelle : 0)",
        "cote.series_equivalence.1=2800.5": "valeur refusée pour « cote.series_equivalence.1 » "
        ": « 2800.5 » n'est pas un nombre entier (attendu : un nombre entier ; valeur actuelle "
        ": 2650)",
        "elo.preset=blitz": "valeur refusée pour « elo.preset » : « blitz » n'est pas un "
        "préréglage de elo.yaml (attendu : default, fide ou wespa ; valeur actuelle : default)",
        "circuits.seeds=8": "clé « circuits.seeds » : le what-if ne recalcule pas les règles de "
        "circuits.yaml ; fichiers pris en charge : series.yaml, series_quotas.csv (clés "
        "series.quotas.…), cote.yaml, cote_categories.csv (clés cote.categories.…), elo.yaml, "
        "national.yaml",
        "series.quotas.FRA.4A=4": "quotas incohérents : la série 4 de FRA ferait 13 %, celle de "
        "« * » fait 12 % ; les parts d'une fédération dans une série doivent faire celle de "
        "« * » : réglez aussi series.quotas.FRA.4B, series.quotas.FRA.4C ou "
        "series.quotas.FRA.4D (ou series.quotas.*.4, que les autres fédérations suivent en "
        "proportion)",
        "series.min_divisor": "réglage « series.min_divisor » sans valeur : écrivez CLÉ=VALEUR, "
        "par exemple series.min_divisor=10",
    }
    for setting, message in cases.items():
        with pytest.raises(WhatIfError) as raised:
            prepare([setting], REFERENCE_DIR, tmp_path / "reference")
        assert str(raised.value) == message, setting
    # The command says it and exits 2, before reading any season.
    status = main(
        [
            "whatif",
            "--season",
            SEASON,
            "--set",
            "series.min_divisr=10",
            "--warehouse",
            str(warehouse),
        ]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert err == f"What-if impossible : {cases['series.min_divisr=10']}\n"


def test_the_keys_are_found_by_walking_the_reference_files(tmp_path: Path) -> None:
    params = registry(REFERENCE_DIR)
    for key in (
        "series.quotas.FRA.4A",
        "series.quotas.*.6",
        "series.min_divisor",
        "series.super_serie.size",
        "cote.series_equivalence.SS",
        "cote.categories.open.pj_max",
        "cote.ranking.series_shares.Joker",
        "elo.preset",
        "elo.presets.fide.k.k_new",
        "national.france.min_pct_n4",
    ):
        assert key in params, key
    assert params["cote.categories.open.pj_max"].value == [300, 320]  # one per min_games
    # A parameter added to a file is a key at once: no list to maintain.
    reference = changed_reference(
        tmp_path / "reference", {"series.yaml": [("min_divisor:", "min_divisor: 0\nnew_bar: 7")]}
    )
    assert registry(reference)["series.new_bar"].value == 7
    # A category's column is set on every row of the category.
    scenario = prepare(["cote.categories.open.pj_max=280"], REFERENCE_DIR, tmp_path / "changed")
    table = (tmp_path / "changed" / "cote_categories.csv").read_text(encoding="utf-8")
    assert "open,0,150,-150,280" in table and "open,7,150,-160,280" in table
    assert [(c.key, c.before, c.after) for c in scenario.changes] == [
        ("cote.categories.open.pj_max", [300, 320], 280)
    ]


@pytest.mark.slow
def test_a_whole_reference_folder_is_the_same_what_if_as_its_settings(
    world: World, tmp_path: Path
) -> None:
    folder = changed_reference(
        tmp_path / "alternative", {"series.yaml": [("min_divisor:", "min_divisor: 10")]}
    )
    by_folder = run_whatif(
        world.warehouse, SEASON, [], alternative=folder, out_dir=tmp_path / "a", pdf=False
    )
    by_setting = _whatif(world, tmp_path / "b", "series.min_divisor=10")
    assert [(c.key, c.after) for c in by_folder.comparison.scenario.changes] == [
        ("series.min_divisor", 10)
    ]
    assert by_folder.comparison.rows().equals(by_setting.comparison.rows())
    assert by_folder.csv.read_bytes() == by_setting.csv.read_bytes()
    # A folder that differs in a file the what-if does not recompute is refused.
    other = changed_reference(
        tmp_path / "other", {"seasons.yaml": [("start_month", "start_month: 7")]}
    )
    with pytest.raises(WhatIfError, match=r"diffère de .* dans seasons\.yaml"):
        run_whatif(world.warehouse, SEASON, [], alternative=other, out_dir=tmp_path / "c")


# ---------------------------------------------------------------------------- outputs


@pytest.mark.slow
def test_the_same_what_if_twice_gives_the_same_bytes_and_the_warehouse_is_untouched(
    world: World, tmp_path: Path
) -> None:
    before = _digest(world.warehouse)
    settings = ["series.quotas.*.1=2", "cote.series_equivalence.1=2800"]
    first = run_whatif(
        world.warehouse, SEASON, settings, root=tmp_path / "a", reports_dir=world.reports
    )
    second = run_whatif(
        world.warehouse, SEASON, settings, root=tmp_path / "b", reports_dir=world.reports
    )
    assert first.pdf_error is None and first.pdf is not None and second.pdf is not None
    assert first.folder.name == second.folder.name == f"{SEASON}-{first.comparison.scenario.digest}"
    for name in ("index.html", "changements.csv", f"whatif-{SEASON}.pdf", "glossaire.html"):
        assert (first.folder / name).read_bytes() == (second.folder / name).read_bytes(), name
    assert _digest(world.warehouse) == before
    assert not list(world.warehouse.parent.glob("w.duckdb.wal"))
    # Never into the reports.
    with pytest.raises(WhatIfError, match="dans le dossier des rapports"):
        run_whatif(
            world.warehouse,
            SEASON,
            settings,
            out_dir=world.reports / "x",
            reports_dir=world.reports,
        )


@pytest.mark.slow
def test_nothing_changed_says_aucun_changement(world: World, tmp_path: Path) -> None:
    same = _whatif(world, tmp_path / "same", "series.min_divisor=0")
    assert same.comparison.scenario.changes == ()
    assert same.comparison.unchanged
    html = same.html.read_text(encoding="utf-8")
    assert "Aucun changement de paramètre : les valeurs données sont celles des paramètres" in html
    assert "Aucun changement : avec ces paramètres, aucun joueur ne change" in html
    assert (
        same.csv.read_text(encoding="utf-8") == "licence,nom,changement,avant,après,critère,cause\n"
    )
    # A parameter that changes but decides nothing (a preset nobody uses).
    unused = _whatif(world, tmp_path / "unused", "elo.presets.wespa.curve.scale=300")
    assert [c.key for c in unused.comparison.scenario.changes] == ["elo.presets.wespa.curve.scale"]
    assert unused.comparison.families.elo and unused.comparison.unchanged
    assert "Aucun changement : avec ces paramètres" in unused.html.read_text(encoding="utf-8")


@pytest.mark.slow
def test_without_chromium_html_and_csv_are_written_and_the_command_exits_3(
    world: World,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLASSEMENT_CHROMIUM", str(tmp_path / "no-chromium"))
    out = tmp_path / "out"
    status = main(
        [
            "whatif",
            "--season",
            SEASON,
            "--set",
            "series.min_divisor=10",
            "--warehouse",
            str(world.warehouse),
            "--out",
            str(out),
        ]
    )
    assert status == 3
    assert (out / "index.html").exists() and (out / "changements.csv").exists()
    assert not (out / f"whatif-{SEASON}.pdf").exists()
    printed = capsys.readouterr().out
    assert "✗ PDF manquant, impression impossible : ChromiumMissingError" in printed
    assert "series.min_divisor : 0 → 10" in printed


# ---------------------------------------------------------------------------- Dagster


@pytest.mark.slow
def test_the_asset_writes_its_folder_and_leaves_the_warehouse_byte_identical(
    world: World, tmp_path: Path
) -> None:
    from pipelines.definitions import defs
    from pipelines.defs.whatif.assets import whatif_report
    from pipelines.resources import WAREHOUSE_POOL

    before = _digest(world.warehouse)
    out = tmp_path / "whatif"
    result = dg.materialize(
        [whatif_report],
        resources={
            "warehouse": WarehouseResource(
                warehouse_path=str(world.warehouse), reports_dir=str(world.reports)
            )
        },
        run_config={
            "ops": {
                "whatif_report": {
                    "config": {
                        "season": SEASON,
                        "settings": ["series.min_divisor=10"],
                        "out_dir": str(out),
                        "pdf": False,
                    }
                }
            }
        },
        instance=build_instance(),
    )
    assert result.success
    assert sorted(p.name for p in out.iterdir()) == [
        "changements.csv",
        "glossaire.html",
        "index.html",
    ]
    metadata = result.asset_materializations_for_node("whatif_report")[0].metadata
    assert metadata["unchanged"].value is False
    assert _digest(world.warehouse) == before
    # It waits for a build (DuckDB refuses a reader while another process writes), and no
    # build materialises it.
    assert whatif_report.op.pool == WAREHOUSE_POOL
    key = dg.AssetKey("whatif_report")
    for job in ("ingest_exports", "build_season", "build_year", "build_site"):
        assert key not in defs.resolve_job_def(job).asset_layer.selected_asset_keys, job
    assert key in defs.resolve_job_def("whatif").asset_layer.selected_asset_keys


# ---------------------------------------------------------------------------- notebook


@pytest.mark.slow
def test_the_notebook_shows_the_series_counts_live(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    monkeypatch.setenv("CLASSEMENT_WAREHOUSE", str(world.warehouse))
    spec = importlib.util.spec_from_file_location("notebook_whatif_series", NOTEBOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, defs = module.app.run()
    counts = defs["counts"]
    assert isinstance(counts, pl.DataFrame)
    assert defs["settings"] == []  # the sliders start at data/reference's values
    assert counts["before"].to_list() == counts["after"].to_list()
    classified = Warehouse(world.warehouse).read(
        "SELECT count(*) AS n FROM series_classification WHERE season = ?", [SEASON]
    )["n"][0]
    assert counts["before"].sum() == classified
    # What a slider computes is what the command computes.
    _, moved = series_counts(world.warehouse, SEASON, ["series.quotas.*.1=2"])
    full = _whatif(world, tmp_path / "out", "series.quotas.*.1=2")
    assert moved.equals(full.comparison.counts)
    # As a script, while this process holds the warehouse open read-only.
    held = duckdb.connect(str(world.warehouse), read_only=True)
    try:
        done = subprocess.run(
            [sys.executable, str(NOTEBOOK)],
            env={
                **os.environ,
                "CLASSEMENT_WAREHOUSE": str(world.warehouse),
                "PYTHONPATH": str(PROJECT_ROOT),
            },
            capture_output=True,
            text=True,
            timeout=120,
            cwd=PROJECT_ROOT,
        )
    finally:
        held.close()
    assert done.returncode == 0, done.stderr[-3000:]
