"""The digest of a set of project files (the code a build or a season is computed with),
remembered within a process by the state of its files.

Decisions taken here (issue 23, a test suite in minutes): a build asks for the digest of
the code several times (its build state before and after, each stage's stale partitions,
each partition it records); reading the ~350 files each time was a tenth of a small raw
folder's build. The digest is kept by the files' state — path, size, modification time and
inode of each — so any file added, removed, rewritten or touched computes it again.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

_DIGESTS: dict[tuple[object, ...], str] = {}


def _files(root: Path, folders: Iterable[str], suffixes: frozenset[str]) -> list[tuple[str, str]]:
    """(path relative to `root` with `/`, absolute path) of the files of `folders` whose
    suffix is one of `suffixes`, outside `__pycache__`, sorted by relative path."""
    found = []
    for folder in folders:
        for directory, subfolders, names in os.walk(root / folder):
            subfolders[:] = [d for d in subfolders if d != "__pycache__"]
            for name in names:
                if os.path.splitext(name)[1] in suffixes:
                    path = os.path.join(directory, name)
                    found.append((Path(path).relative_to(root).as_posix(), path))
    return sorted(found)


def files_digest(root: Path, folders: Iterable[str], suffixes: Iterable[str]) -> str:
    """A hash of each file's relative path and bytes (see `_files`), in path order."""
    files = _files(root, tuple(folders), frozenset(suffixes))
    state: list[object] = []
    for name, path in files:
        info = os.stat(path)
        state.append((name, info.st_size, info.st_mtime_ns, info.st_ino))
    key = tuple(state)
    known = _DIGESTS.get(key)
    if known is None:
        digest = hashlib.sha256()
        for name, path in files:
            digest.update(name.encode() + b"\0")
            with open(path, "rb") as handle:
                digest.update(handle.read())
        known = _DIGESTS[key] = digest.hexdigest()
    return known
