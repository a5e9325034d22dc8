"""The raw folder: which files are exports, their bytes and their content hashes.

Raw files are only ever read. A rejected file is copied, never moved, to the quarantine
folder beside the warehouse with a note of why.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

# Our CSV/XLSX exports; AUPAIR `.tou` and TSH `.t` files of tournament software.
EXPORT_SUFFIXES = frozenset({".csv", ".xlsx", ".tou", ".t"})
# Files read beside an export rather than on their own (TSH's config.tsh).
COMPANION_SUFFIXES = frozenset({".tsh"})


def _candidates(raw_dir: Path) -> list[Path]:
    """Every file below raw_dir (any depth) with an export's suffix, hidden ones skipped,
    in path order; links included (a linked folder is not entered)."""
    if not raw_dir.is_dir():
        raise FileNotFoundError(f"le dossier des exports {raw_dir} n'existe pas")
    suffixes = EXPORT_SUFFIXES | COMPANION_SUFFIXES
    found = []
    for folder, dirs, names in os.walk(raw_dir):
        dirs[:] = [d for d in dirs if not d.startswith((".", "~$"))]
        for name in names:
            if name.startswith((".", "~$")) or os.path.splitext(name)[1].lower() not in suffixes:
                continue
            found.append(Path(folder, name))
    return sorted(found, key=lambda p: key_of(p, raw_dir))


def key_of(path: Path, raw_dir: Path) -> str:
    """A file's key: its path relative to the raw folder (POSIX); a name that is not valid
    UTF-8 shows its stray bytes as backslash escapes (`\\xff`)."""
    rel = path.relative_to(raw_dir).as_posix()
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _inside(path: Path, root: Path) -> bool:
    """Whether a file of the walk (never inside a linked folder) stays in the raw folder:
    a plain file does; a link must lead inside it."""
    if not path.is_symlink():
        return True
    try:
        return path.resolve(strict=True).is_relative_to(root)
    except OSError:  # a broken link, a loop
        return False


def export_paths(raw_dir: Path) -> list[Path]:
    """Every export below raw_dir that is a file of the raw folder (a link is followed only
    when it stays inside it), in path order; hidden files are skipped."""
    root = raw_dir.resolve()
    return [p for p in _candidates(raw_dir) if _inside(p, root) and p.is_file()]


def refused_paths(raw_dir: Path) -> dict[str, str]:
    """Files of the raw folder the ingest refuses without reading them, keyed like
    `read_raw`, with the organiser's message: a link leading out of the raw folder (it is
    never followed, nor copied to the quarantine), a name that is not valid UTF-8."""
    root = raw_dir.resolve()
    refused: dict[str, str] = {}
    for path in _candidates(raw_dir):
        key = key_of(path, raw_dir)
        if not _inside(path, root):
            refused[key] = (
                f"{key} : ce lien mène hors du dossier des exports (ou nulle part) : il n'est "
                "pas lu ; copiez le fichier lui-même dans le dossier"
            )
        elif key != path.relative_to(raw_dir).as_posix():
            refused[key] = (
                f"{key} : le nom du fichier n'est pas écrit en UTF-8 (caractères « \\x… ») : "
                "renommez-le"
            )
    return refused


def read_raw(raw_dir: Path) -> dict[str, bytes]:
    """The bytes of every export, keyed by its path relative to raw_dir (POSIX)."""
    return {key_of(p, raw_dir): p.read_bytes() for p in export_paths(raw_dir)}


def fingerprint(raw_dir: Path) -> dict[str, str]:
    """Content hash of every export, keyed like `read_raw`."""
    hashes = {
        key_of(p, raw_dir): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in export_paths(raw_dir)
    }
    return hashes | dict.fromkeys(refused_paths(raw_dir), "refused")


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


def quarantine(rejected: Mapping[str, str], raw_dir: Path, folder: Path) -> dict[str, str]:
    """Copy each rejected file to `folder` with a `.reason.txt` beside it (`reason_note`);
    returns the quarantine path of each. The folder is emptied first: it reflects the
    last run. A file refused without being read (`refused_paths`) gets its note only."""
    if folder.exists():
        shutil.rmtree(folder)
    out: dict[str, str] = {}
    for path, message in sorted(rejected.items()):
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        source = raw_dir / path
        if source.is_file() and _inside(source, raw_dir.resolve()):
            target.write_bytes(source.read_bytes())  # (a link leading out is not followed)
        note = target.with_name(target.name + ".reason.txt")
        note.write_text(reason_note(message), encoding="utf-8")
        out[path] = str(target)
    return out
