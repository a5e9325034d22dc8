"""A build that would change nothing is not run.

After each build, `<warehouse>.cache/build_state.json` keeps a key of everything the build
depends on, and the build's summary. The key hashes:

- the raw folder: every file's path, size, modification time and inode as the file
  system describes it (a file added, removed, renamed, replaced or touched changes it),
  and the content hash of every file the ingest reads, its links refused by name
  included (an export rewritten at the same size with its old date changes it too:
  the date is never trusted alone), stated *before* the build reads them, so that a
  file changed while a build runs is read by the next one (the build's ingest takes up
  these hashes for the files whose stat has not changed since: `pipelines.ingest.raw.
  stated`; each export is read for its hash once a build at most, and not at all when its
  device, inode, size, modification and change times are those it had when the last
  build hashed it: the change time moves on every write, whatever date is set back);
- the project's code and rule parameters (`pipelines/`, `transforms/`, the reference
  folder), the versions of the packages computing them, the reproducible-build date
  (`SOURCE_DATE_EPOCH`);
- the warehouse file, the reports folder (its folders: a page or a season's report
  removed) and the quarantine folder, as the build left them.

A build whose key is the last one's has nothing to do: `run_build` then reports the last
summary without running any job (the PDFs still missing are still printed).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path

from pipelines.ingest.raw import Listing, keep_stats, listing, stated_hash
from pipelines.paths import PROJECT_ROOT
from pipelines.reference.bundle import Parameters
from pipelines.source_files import files_digest

STATE_FILE = "build_state.json"
_CODE = ("pipelines", "transforms")
_PACKAGES = ("polars", "duckdb", "dagster", "plotly", "numpy")  # their version matters too
_CODE_SUFFIXES = {".py", ".csv", ".yaml", ".yml", ".js", ".css", ".json"}


def code_digest(params: Parameters, root: Path = PROJECT_ROOT) -> str:
    """The project's code and the rule parameters a build runs with."""
    digest = hashlib.sha256(os.environ.get("SOURCE_DATE_EPOCH", "").encode() + b"\0")
    for package in _PACKAGES:
        digest.update(f"{package}={_version(package)}\0".encode())
    digest.update(f"parameters={params.digest}\0".encode())
    digest.update(files_digest(root, _CODE, _CODE_SUFFIXES).encode())
    return digest.hexdigest()


@cache
def _version(package: str) -> str:
    """An installed package's version (read once a process: it reads the package metadata)."""
    return version(package)


def raw_digest(raw_dir: Path, seen: Listing | None = None) -> str:
    """Every file of the raw folder (any depth, hidden ones included: renaming a file to
    hide it changes the folder) by path, size, modification time and inode, links by
    their own entry; then every export the ingest reads (in a linked season folder too)
    by its content, and every entry it refuses by name."""
    digest = hashlib.sha256()
    seen = seen if seen is not None else listing(raw_dir)
    entries = _entries(raw_dir)
    # a regular file's own entry is its stat (not asked a second time of 31,700 files)
    plain = {rel: info for rel, info in entries if stat.S_ISREG(info.st_mode)}
    keep_stats(raw_dir, plain)  # the ingest's too
    for key, export in seen.exports:
        digest.update(f"{key}\0{stated_hash(export, plain.get(key))}\n".encode())
    for key, message in seen.refused.items():
        digest.update(f"{key}\0{message}\n".encode())
    for rel, info in sorted(entries, key=lambda e: e[0]):
        digest.update(
            f"{rel}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ino}\0{info.st_mode}\n".encode(
                "utf-8", "surrogateescape"
            )
        )
    return digest.hexdigest()


def _entries(raw_dir: Path) -> list[tuple[str, os.stat_result]]:
    """Every file below `raw_dir` (hidden ones included; a link by its own entry, a linked
    folder not entered: as `os.walk` lists them, a folder that cannot be listed skipped)
    with its path relative to `raw_dir` and its `lstat`. The relative paths are built from
    strings as the walk goes down (`os.path.relpath` of each of 31,700 files: about a
    second)."""
    entries: list[tuple[str, os.stat_result]] = []
    stack = [(os.fspath(raw_dir), "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            listed = list(os.scandir(folder))
        except OSError:
            continue
        for entry in listed:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if not is_dir:
                entries.append((prefix + entry.name, entry.stat(follow_symlinks=False)))
            elif not entry.is_symlink():
                stack.append((entry.path, f"{prefix}{entry.name}{os.sep}"))
    return entries


def _tree_digest(path: Path, depth: int) -> str:
    """A folder's entries down to `depth` levels of folders, by name, modification time and
    inode (a file added or removed changes its folder's time); '' when it is missing."""
    if not path.exists():
        return ""
    digest = hashlib.sha256()
    stack = [(path, 0)]
    while stack:
        folder, level = stack.pop()
        info = folder.stat()
        digest.update(f"{folder.relative_to(path)}\0{info.st_mtime_ns}\0{info.st_ino}\n".encode())
        if level < depth:
            # the entries' types from the listing itself (no stat of each of the 54,000
            # player pages of a federation's reports)
            with os.scandir(folder) as entries:
                children = sorted(
                    (Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)),
                    reverse=True,
                )
            stack.extend((child, level + 1) for child in children)
    return digest.hexdigest()


def outputs_digest(warehouse: Path, reports: Path, quarantine: Path) -> str:
    """What a build leaves: the warehouse file, the reports' folders, the quarantine."""
    info = warehouse.stat() if warehouse.exists() else None
    kept = f"{info.st_size}\0{info.st_mtime_ns}\0{info.st_ino}" if info else ""
    parts = [kept, _tree_digest(reports, 2), _tree_digest(quarantine, 0)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


@dataclass(frozen=True)
class BuildState:
    inputs: str  # raw folder and code, stated before the build
    outputs: str  # warehouse, reports, quarantine, stated after it
    summary: dict[str, object]


def load_state(cache_dir: Path) -> BuildState | None:
    path = cache_dir / STATE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return BuildState(data["inputs"], data["outputs"], data["summary"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_state(cache_dir: Path, state: BuildState) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = cache_dir / STATE_FILE
    tmp = path.with_name(f".{STATE_FILE}.{os.getpid()}")
    payload = {"inputs": state.inputs, "outputs": state.outputs, "summary": state.summary}
    tmp.write_text(json.dumps(payload, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


def forget_state(cache_dir: Path) -> None:
    """A build starts: until it ends well, no state describes the folders."""
    (cache_dir / STATE_FILE).unlink(missing_ok=True)


__all__ = [
    "BuildState",
    "code_digest",
    "forget_state",
    "load_state",
    "outputs_digest",
    "raw_digest",
    "save_state",
]
