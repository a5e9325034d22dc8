"""The raw folder: which files are exports, their bytes and their content hashes.

Raw files are only ever read. A rejected file is copied, never moved, to the quarantine
folder beside the warehouse with a note of why.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Mapping
from pathlib import Path

# Our CSV/XLSX exports; AUPAIR `.tou` and TSH `.t` files of tournament software.
EXPORT_SUFFIXES = frozenset({".csv", ".xlsx", ".tou", ".t"})
# Files read beside an export rather than on their own (TSH's config.tsh).
COMPANION_SUFFIXES = frozenset({".tsh"})


def export_paths(raw_dir: Path) -> list[Path]:
    """Every export below raw_dir (any depth), in path order; hidden files are skipped."""
    if not raw_dir.is_dir():
        raise FileNotFoundError(f"le dossier des exports {raw_dir} n'existe pas")
    found = []
    for path in raw_dir.rglob("*"):
        rel = path.relative_to(raw_dir)
        if any(part.startswith((".", "~$")) for part in rel.parts):
            continue
        if path.is_file() and path.suffix.lower() in EXPORT_SUFFIXES | COMPANION_SUFFIXES:
            found.append(path)
    return sorted(found, key=lambda p: p.relative_to(raw_dir).as_posix())


def read_raw(raw_dir: Path) -> dict[str, bytes]:
    """The bytes of every export, keyed by its path relative to raw_dir (POSIX)."""
    return {p.relative_to(raw_dir).as_posix(): p.read_bytes() for p in export_paths(raw_dir)}


def fingerprint(raw_dir: Path) -> dict[str, str]:
    """Content hash of every export, keyed like `read_raw`."""
    return {
        p.relative_to(raw_dir).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in export_paths(raw_dir)
    }


def folder_digest(hashes: Mapping[str, str]) -> str:
    """One hash for the whole folder's content: changes when any export is added,
    removed, renamed or changed."""
    digest = hashlib.sha256()
    for path in sorted(hashes):
        digest.update(f"{path}\0{hashes[path]}\n".encode())
    return digest.hexdigest()


def reason_note(message: str) -> str:
    """The text of a quarantined file's `.reason.txt`: the message of the ingest log, then
    what it means and what to do, for the organiser who opens the quarantine folder."""
    return (
        f"{message}\n"
        "\n"
        "Ce fichier a été refusé en entier : rien de son contenu n'est chargé. Ceci en est "
        "une copie ; l'original est resté dans le dossier des exports : corrigez-le (ou "
        "remplacez-le), puis relancez le calcul.\n"
    )


def quarantine(
    rejected: Mapping[str, str], files: Mapping[str, bytes], folder: Path
) -> dict[str, str]:
    """Copy each rejected file to `folder` with a `.reason.txt` beside it (`reason_note`);
    returns the quarantine path of each. The folder is emptied first: it reflects the
    last run."""
    if folder.exists():
        shutil.rmtree(folder)
    out: dict[str, str] = {}
    for path, message in sorted(rejected.items()):
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[path])
        note = target.with_name(target.name + ".reason.txt")
        note.write_text(reason_note(message), encoding="utf-8")
        out[path] = str(target)
    return out
