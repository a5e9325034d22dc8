"""The end of a build is one step (`pipelines.publish`): a build killed at any point of its
publish is completed by the next build, so the warehouse and the reports never stay from
two builds, and the staging copies of killed builds are removed. A raw folder without any
export is refused; one that shrank since the last build says so (`pipelines.shrink`)."""

from __future__ import annotations

import hashlib
import html
import io
import shutil
from pathlib import Path

import pytest

import pipelines.build
from classement.cli import main
from pipelines import publish
from pipelines.build import print_summary, run_build
from pipelines.publish import PublishInterrupted, journal_path
from pipelines.shrink import EmptyRawFolder
from pipelines.warehouse import Warehouse
from tests.builds import build
from tests.support import PLAYERS, SEASON, results_csv, snapshot, tree_hashes, write_raw

NEW_EVENT = "Coupe de Lyon"  # the tournament of the export added, then withdrawn


def _new_export(raw: Path) -> Path:
    path = raw / SEASON / "C2.csv"
    path.write_text(
        results_csv("C2", PLAYERS[::-1], date="2024-03-10", name=NEW_EVENT), encoding="utf-8"
    )
    return path


@pytest.fixture(scope="module")
def base(raw_site: Path) -> Path:
    """A raw folder (`raw/`) and its fresh build (`out/`), made once a run (conftest):
    tests copy them."""
    return raw_site


def _copy(base: Path, to: Path) -> tuple[Path, Path]:
    """The base raw folder and build copied to `to`: (raw, out)."""
    shutil.copytree(base / "raw", to / "raw")
    shutil.copytree(base / "out", to / "out")
    return to / "raw", to / "out"


def _leftovers(out: Path) -> list[str]:
    """What staging copies and journals a build left in `out`."""
    return sorted(
        p.name
        for p in out.iterdir()
        if ".building" in p.name or ".old-" in p.name or "publish" in p.name
    )


def _fault_after(monkeypatch: pytest.MonkeyPatch, renames: int) -> None:
    """The publish fails once `renames` of its renames are made (3: all of them, before
    the journal is deleted), as a build killed there would leave it."""
    real_move, real_finish = publish._move, publish._finish
    made: list[Path] = []

    def move(source: Path, target: Path) -> None:
        if len(made) == renames:
            raise OSError(5, "panne simulée")
        real_move(source, target)
        made.append(target)

    def finish(journal: Path, plan: publish.Publish) -> None:
        if len(made) == renames:
            raise OSError(5, "panne simulée")
        real_finish(journal, plan)

    monkeypatch.setattr(publish, "_move", move)
    monkeypatch.setattr(publish, "_finish", finish)


@pytest.mark.slow
@pytest.mark.parametrize("renames", [0, 1, 2, 3])
def test_a_build_killed_while_publishing_is_completed_by_the_next(
    base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renames: int
) -> None:
    """The issue's scenario: a build adding a tournament fails after `renames` renames of
    its publish (the live reports moved aside, the new ones moved in, the warehouse moved
    in); the export is withdrawn; the next build completes the killed publish first (both
    then hold the tournament), then builds the raw folder as it is: warehouse and reports
    equal the fresh build's, the withdrawn tournament in neither, no staging copy left."""
    raw, out = _copy(base, tmp_path)
    added = _new_export(raw)
    _fault_after(monkeypatch, renames)
    with pytest.raises(PublishInterrupted, match="la prochaine construction l'achèvera"):
        build(raw, out)
    monkeypatch.undo()
    assert journal_path(out / "w.duckdb").exists()
    if renames == 1:  # between the two renames of the reports: no reports folder
        assert not (out / "reports").exists()

    recovered: dict[str, object] = {}
    real_recover = pipelines.build.recover

    def spy(warehouse: Path, reports: Path, emit: publish.Callable[[str], None]) -> bool:
        done = real_recover(warehouse, reports, emit)
        page = (reports / SEASON / "index.html").read_text(encoding="utf-8")
        recovered["tournaments"] = Warehouse(warehouse).table("tournaments")["tournament_id"]
        recovered["in report"] = NEW_EVENT in page
        return done

    monkeypatch.setattr(pipelines.build, "recover", spy)
    added.unlink()
    lines: list[str] = []
    build(raw, out, lines)
    # the killed build was published whole: its warehouse and its reports
    assert "C2" in list(recovered["tournaments"])  # type: ignore[call-overload]
    assert recovered["in report"] is True
    assert any(line.startswith("Une construction interrompue") for line in lines)
    # then the withdrawn export is gone from both
    assert "C2" not in Warehouse(out / "w.duckdb").table("tournaments")["tournament_id"]
    page = (out / "reports" / SEASON / "index.html").read_text(encoding="utf-8")
    assert NEW_EVENT not in page
    assert snapshot(out) == snapshot(base / "out")
    assert _leftovers(out) == []
    assert _leftovers(out.parent) == []


@pytest.mark.slow
def test_staging_copies_of_killed_builds_are_removed_even_when_nothing_changed(
    base: Path, tmp_path: Path
) -> None:
    """A partial staging warehouse (a full disk) with its `.wal`, a staging and an old
    reports folder: the next build removes them, before its no-change fast path."""
    raw, out = _copy(base, tmp_path)
    build(raw, out)  # the copy's build state made true again
    partial = out / ".w.duckdb.k3x9_q.building"
    partial.write_bytes(b"DUCK" * 1000)  # cut short
    (out / ".w.duckdb.k3x9_q.building.wal").write_bytes(b"\0" * 10)
    for folder in ("reports.building-4242", "reports.old-4242-0a1b2c3d"):
        (out / folder / SEASON).mkdir(parents=True)
        (out / folder / SEASON / "index.html").write_text("<p>ancien</p>", encoding="utf-8")
    lines: list[str] = []
    build(raw, out, lines)
    assert lines[0].startswith("Copies de travail de constructions interrompues supprimées")
    assert partial.name in lines[0]
    assert any(line.startswith("Rien n'a changé") for line in lines)
    assert _leftovers(out) == []
    assert snapshot(out) == snapshot(base / "out")


def _digest(out: Path) -> tuple[str, dict[str, str]]:
    """The warehouse file's hash and every report file's."""
    warehouse = hashlib.sha256((out / "w.duckdb").read_bytes()).hexdigest()
    return warehouse, tree_hashes(out / "reports")


def _cli(raw: Path, out: Path, *extra: str) -> int:
    where = ["--raw", str(raw), "--warehouse", str(out / "w.duckdb")]
    return main(["build", *where, "--reports", str(out / "reports"), "--no-pdf", *extra])


@pytest.mark.slow
def test_an_empty_raw_folder_is_refused_unless_allowed(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unmounted share: no export at all (a note beside is no export). `classement
    build` exits 2 and changes nothing; `--allow-empty` builds it (every table empty)."""
    raw, out = _copy(base, tmp_path)
    shutil.rmtree(raw)
    raw.mkdir()
    (raw / "lisez-moi.txt").write_text("exports de la saison", encoding="utf-8")
    before = _digest(out)
    with pytest.raises(EmptyRawFolder, match="ne contient aucun export"):
        run_build(raw, out / "w.duckdb", out / "reports", emit=lambda _: None, pdf=False)
    assert _cli(raw, out) == 2
    err = capsys.readouterr().err
    assert "Construction refusée ; rien n'a changé" in err and "--allow-empty" in err
    assert _digest(out) == before

    assert _cli(raw, out, "--allow-empty") == 0
    assert Warehouse(out / "w.duckdb").table("tournaments").height == 0
    assert not (out / "reports" / SEASON).exists()
    assert "cette construction a lu 0 export contre 4 la fois précédente" in capsys.readouterr().out


def _duplicate(tid: str) -> str:
    return (
        "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,"
        "rank,series,score,top_total,games\n"
        f"{tid},Simultané,duplicate,2024-02-11,100,Dupont,Jean,2,3,912,1000,3\n"
        f"{tid},Simultané,duplicate,2024-02-11,104,Gérard,Zoé,1,2,950,1000,3\n"
    )


def _notice(out: Path) -> str:
    page = (out / "reports" / "index.html").read_text(encoding="utf-8")
    start = page.index('<aside class="notice')
    return html.unescape(page[start : page.index("</aside>", start)])


def _printed(summary: pipelines.build.BuildSummary) -> str:
    text = io.StringIO()
    print_summary(summary, text)
    return text.getvalue()


@pytest.mark.slow
def test_a_raw_folder_that_shrank_says_so_in_the_summary_and_the_notice(tmp_path: Path) -> None:
    """Seven exports over three seasons; a season removed on purpose builds (exit status
    as before) saying it has no export any more; then more than half of the exports
    removed: said with both counts. A build that loses neither says nothing."""
    raw = write_raw(tmp_path / "raw")
    for tid in ("D2", "D3"):
        (raw / SEASON / f"{tid}.csv").write_text(_duplicate(tid), encoding="utf-8")
    (raw / "2024-2025").mkdir()
    (raw / "2024-2025" / "C3.csv").write_text(
        results_csv("C3", PLAYERS, date="2024-11-17"), encoding="utf-8"
    )
    out = tmp_path / "out"
    first = build(raw, out)
    assert first.warnings == [] and first.exit_status == 0
    assert "Attention" not in _notice(out) and "Attention" not in _printed(first)

    shutil.rmtree(raw / "2024-2025")  # on purpose: it builds, and says so
    season = build(raw, out)
    said = (
        "Attention : la saison 2024-2025 n'a plus aucun export (la construction précédente "
        "en avait lu 1). Si ce n'est pas voulu, vérifiez le dossier des exports."
    )
    assert season.warnings == [said]
    assert season.exit_status == 0
    assert said in _printed(season) and said in _notice(out)
    assert not (out / "reports" / "2024-2025").exists()

    for name in ("C1_games.csv", "D1.csv", "D2.csv", "D3.csv"):
        (raw / SEASON / name).unlink()
    shrunk = build(raw, out)
    said = (
        "Attention : cette construction a lu 2 exports contre 6 la fois précédente. Si ce "
        "n'est pas voulu, vérifiez le dossier des exports."
    )
    assert shrunk.warnings == [said]
    assert said in _printed(shrunk) and said in _notice(out)
    assert '<p class="shrink">' in (out / "reports" / "index.html").read_text(encoding="utf-8")


def _files(root: Path) -> dict[str, int]:
    """Every file below `root` by relative path, with its inode."""
    return {p.relative_to(root).as_posix(): p.stat().st_ino for p in root.rglob("*") if p.is_file()}


def test_the_reports_are_staged_from_the_spare_mended_where_it_differs(tmp_path: Path) -> None:
    """The last build's spare (the reports it replaced) becomes the staging copy: each file
    a link to the live one (stale ones linked again), what the live reports no longer hold
    removed, what they hold more added; the live reports untouched."""
    live, spare = tmp_path / "reports", publish.spare_path(tmp_path / "reports")
    for name, text in {
        "index.html": "accueil",
        "a/x.html": "x",
        "a/y.html": "y neuf",
        "b/c/z.html": "z",
        "e/w.html": "w",
    }.items():
        (live / name).parent.mkdir(parents=True, exist_ok=True)
        (live / name).write_text(text, encoding="utf-8")
    (spare / "a").mkdir(parents=True)
    (spare / "a" / "x.html").hardlink_to(live / "a" / "x.html")  # unchanged since
    (spare / "a" / "y.html").write_text("y ancien", encoding="utf-8")  # replaced since
    (spare / "a" / "gone.html").write_text("retiré", encoding="utf-8")
    (spare / "d").mkdir()
    (spare / "d" / "old.html").write_text("retiré", encoding="utf-8")
    (spare / "b").write_text("un fichier où il y a un dossier", encoding="utf-8")
    (spare / "e" / "w.html").mkdir(parents=True)  # a folder where there is a file
    before = _files(live)
    staging = tmp_path / "reports.building-1"

    pipelines.build._stage_reports(live, staging)

    assert _files(staging) == before == _files(live)
    assert (live / "a" / "y.html").read_text(encoding="utf-8") == "y neuf"
    assert not spare.exists()
    assert not (staging / "d").exists()


def test_without_live_reports_the_spare_is_dropped(tmp_path: Path) -> None:
    live, spare = tmp_path / "reports", publish.spare_path(tmp_path / "reports")
    (spare / "a").mkdir(parents=True)
    (spare / "a" / "x.html").write_text("x", encoding="utf-8")
    staging = tmp_path / "reports.building-1"
    pipelines.build._stage_reports(live, staging)
    assert staging.is_dir() and not any(staging.iterdir())
    assert not spare.exists()


def test_a_publish_keeps_the_replaced_reports_as_the_spare(tmp_path: Path) -> None:
    """The live reports moved aside become the spare (not deleted); the next build's
    recovery leaves it, and without a spare slot free they are deleted as before."""
    live, warehouse = tmp_path / "reports", tmp_path / "w.duckdb"

    def staged(text: str) -> tuple[Path, Path]:
        folder = tmp_path / f"reports.building-{text}"
        folder.mkdir()
        (folder / "index.html").write_text(text, encoding="utf-8")
        staging = tmp_path / f".w.duckdb.{text}.building"
        staging.write_text(text, encoding="utf-8")
        return staging, folder

    live.mkdir()
    (live / "index.html").write_text("v1", encoding="utf-8")
    staging, folder = staged("v2")
    publish.publish(publish.Publish.of(staging, warehouse, folder, live), warehouse)
    spare = publish.spare_path(live)
    assert (live / "index.html").read_text(encoding="utf-8") == "v2"
    assert (spare / "index.html").read_text(encoding="utf-8") == "v1"
    assert publish.recover(warehouse, live, lambda _: None) is False
    assert spare.is_dir()
    staging, folder = staged("v3")  # the spare not taken up: the replaced reports deleted
    publish.publish(publish.Publish.of(staging, warehouse, folder, live), warehouse)
    assert (spare / "index.html").read_text(encoding="utf-8") == "v1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports", "reports.spare", "w.duckdb"]
