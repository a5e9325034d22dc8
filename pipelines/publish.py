"""The end of a build as one step: the staging warehouse and reports put in place of the
live ones so that a build killed at any point never leaves them from two builds for good.

Before its first rename, the build writes a durable journal beside the warehouse
(`<warehouse>.publish.json`, written then renamed, synced) listing the renames to make, in
order — the live reports to `<reports>.old-…`, the staging reports to `<reports>`, the
staging warehouse to `<warehouse>` — and the folders to delete after them. It then makes
the renames, syncs the folders, deletes the old reports and the journal. Every build
starts (inside the warehouse's lock, before the no-change fast path) by `recover`: a
journal left by a killed build is rolled forward — each rename not yet made is made, those
made are recognised — so the warehouse and the reports end up both from that build; then
the staging copies of killed builds are removed (`.<warehouse>.*.building` files and their
`.wal`, `<reports>.building-*` and `<reports>.old-*` folders, a partial one after a full
disk included). The paths readers open, `<warehouse>` and `<reports>`, stay the same.

Decisions taken here (issue 25: one new tournament in proportion to the file):
- the live reports moved aside are kept as `<reports>.spare` (renamed, not deleted) when
  no spare is there: the next build stages its reports from it, mending only the entries
  that differ from the live ones (`pipelines.build._stage_reports`), rather than linking
  every file again. s20's 54,000 report files: the staging's links and the old tree's
  deletion were 2,7 s and 3,8 s of a new tournament's build (wall, profiled, busy shared
  machine). A build whose publish leaves no spare (the first one: no reports replaced)
  links one whole from the reports it published: the next build, the one that adds a
  tournament, finds it. A spare is derived data only: any build may delete it (the next one links
  every file again); it holds the previous build's version of the files changed since
  (disk), until the next build mends it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

JOURNAL_SUFFIX = ".publish.json"


class PublishInterrupted(RuntimeError):
    """The publish stopped after its journal was written: the next build completes it."""


def journal_path(warehouse: Path) -> Path:
    """`<warehouse>.publish.json`, beside the warehouse."""
    return warehouse.with_name(warehouse.name + JOURNAL_SUFFIX)


@dataclass(frozen=True)
class Publish:
    """The renames of one publish, in order, and the folders to delete once they are made."""

    moves: tuple[tuple[Path, Path], ...]
    remove: tuple[Path, ...]
    # (folder, spare): a folder to keep under the spare's name rather than delete, when no
    # spare is there (the live reports moved aside: the next build's staging)
    keep: tuple[tuple[Path, Path], ...] = ()

    @classmethod
    def of(cls, staging: Path, warehouse: Path, reports_staging: Path, reports: Path) -> Publish:
        """Put `staging` in place of `warehouse` and `reports_staging` in place of
        `reports` (the live reports, if any, moved aside to be kept as the spare, or
        deleted)."""
        moves: list[tuple[Path, Path]] = []
        remove: list[Path] = []
        keep: list[tuple[Path, Path]] = []
        if reports.exists():
            old = reports.with_name(f"{reports.name}.old-{os.getpid()}-{secrets.token_hex(4)}")
            moves.append((reports, old))
            keep.append((old, spare_path(reports)))
            remove.append(old)
        moves += [(reports_staging, reports), (staging, warehouse)]
        return cls(tuple(moves), tuple(remove), tuple(keep))

    def to_json(self) -> str:
        return json.dumps(
            {
                "moves": [[str(s), str(t)] for s, t in self.moves],
                "remove": [str(p) for p in self.remove],
                "keep": [[str(s), str(t)] for s, t in self.keep],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Publish:
        data = json.loads(text)
        return cls(
            tuple((Path(s), Path(t)) for s, t in data["moves"]),
            tuple(Path(p) for p in data["remove"]),
            tuple((Path(s), Path(t)) for s, t in data.get("keep", [])),
        )


def spare_path(reports: Path) -> Path:
    """`<reports>.spare`: the last live reports, kept for the next build's staging."""
    return reports.with_name(f"{reports.name}.spare")


def _move(source: Path, target: Path) -> None:
    """One rename of the publish (the tests inject their faults here)."""
    os.replace(source, target)


def _sync_folder(folder: Path) -> None:
    """Make the renames of `folder`'s entries durable."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # a file system that cannot sync a folder
        pass
    finally:
        os.close(fd)


def _write_journal(path: Path, plan: Publish) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(plan.to_json())
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    _sync_folder(path.parent)


def _roll_forward(plan: Publish) -> None:
    """Make the renames of `plan` not yet made. They are made in order, so the last one
    whose source is gone marks how far a killed publish went (a source can exist again
    once made: the live reports' path is the target of the next rename)."""
    done = max(
        (i + 1 for i, (source, _) in enumerate(plan.moves) if not os.path.lexists(source)),
        default=0,
    )
    for source, target in plan.moves[done:]:
        _move(source, target)
    for folder in {t.parent for _, t in plan.moves}:
        _sync_folder(folder)


def _finish(journal: Path, plan: Publish) -> None:
    for folder, spare in plan.keep:
        if os.path.isdir(folder) and not os.path.lexists(spare):
            with suppress(OSError):  # deleted below, as without a spare
                os.rename(folder, spare)
    for folder in plan.remove:
        shutil.rmtree(folder, ignore_errors=True)
    journal.unlink(missing_ok=True)
    _sync_folder(journal.parent)


def publish(plan: Publish, warehouse: Path) -> None:
    """Make `plan` as one step: journal, renames, clean-up. A failure once the journal is
    written raises PublishInterrupted, the staging copies kept for the next build."""
    journal = journal_path(warehouse)
    _write_journal(journal, plan)
    try:
        _roll_forward(plan)
        _finish(journal, plan)
    except Exception as err:
        raise PublishInterrupted(
            "la mise en place du nouvel entrepôt et des nouveaux rapports a été interrompue "
            f"({type(err).__name__} : {err}) ; la prochaine construction l'achèvera avant "
            "toute chose"
        ) from err


def _leftovers(warehouse: Path, reports: Path) -> list[Path]:
    """Staging copies of killed builds: `.<warehouse>.*.building` files (with their `.wal`
    and `.lock`), a journal's temporary file, `<reports>.building-*` and `<reports>.old-*`
    folders."""
    found: list[Path] = []
    if warehouse.parent.is_dir():
        prefix = f".{warehouse.name}."
        for entry in warehouse.parent.iterdir():
            name = entry.name
            if name.startswith(prefix) and (
                name.endswith((".building", ".building.wal", ".building.lock"))
                or name.startswith(f".{warehouse.name}{JOURNAL_SUFFIX}.tmp-")
            ):
                found.append(entry)
    if reports.parent.is_dir():
        for entry in reports.parent.iterdir():
            if entry.name.startswith((f"{reports.name}.building-", f"{reports.name}.old-")):
                found.append(entry)
    return sorted(found)


def recover(warehouse: Path, reports: Path, emit: Callable[[str], None]) -> bool:
    """Complete the publish of a killed build, then remove the staging copies killed
    builds left; True when a publish was completed. Called with the warehouse's lock held
    (no other build of it is running)."""
    journal = journal_path(warehouse)
    completed = False
    if journal.exists():
        try:
            plan = Publish.from_json(journal.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as err:
            raise RuntimeError(
                f"le journal de publication {journal} est illisible ({err}) : vérifiez "
                "l'entrepôt et les rapports, puis supprimez-le"
            ) from err
        _roll_forward(plan)
        _finish(journal, plan)
        completed = True
        emit(
            "Une construction interrompue pendant sa mise en place a été achevée : "
            "l'entrepôt et les rapports sont ceux de cette construction."
        )
    removed = _leftovers(warehouse, reports)
    for path in removed:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    if removed:
        emit(
            "Copies de travail de constructions interrompues supprimées : "
            + ", ".join(p.name for p in removed)
        )
    return completed


__all__ = ["Publish", "PublishInterrupted", "journal_path", "publish", "recover", "spare_path"]
