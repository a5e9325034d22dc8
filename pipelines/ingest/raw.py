"""The raw folder: which files are exports, their bytes and their content hashes.

Raw files are only ever read. A rejected file is copied, never moved, to the quarantine
folder beside the warehouse with a note of why.

Decisions taken here (issue 25: a rebuild with nothing changed in a few seconds):
- a build takes a file's content hash from the last build (`stated`'s `known`, kept in
  `<warehouse>.cache/raw_hashes.json` by `save_stated`) without reading it when the
  file's device, inode, size, modification and change times are all those it had when
  that build hashed it — the rule of git's index: the change time is set by the system on
  every write (`touch -r`, `cp -p`, `rsync -t`, `os.utime` included) and no tool sets it
  back; any difference reads and hashes the file again, and a full build
  (`run_build(full=True)`) hashes every file. A hash taken less than `_SETTLED_NS` after
  its file's last write or change is not kept (a write in the same tick of the file
  system's clock could leave the same stat on other bytes: git's « racy » entries). s20
  (31,700 exports, 310 MB), `raw_digest` as a rebuild with nothing changed states it
  (walk included): 2,7–3,4 CPU-s every file hashed, 2,1–2,2 CPU-s with the last build's
  hashes (no file read; 2 busy shared cores, 2 December 2026); the hashes are kept by
  the file's absolute path, its folder's links resolved (`_absolute`), so the folder
  named relatively, absolutely or through a link takes up the same hashes;
- within one build, the ingest takes up the hashes the build stated (`stated_hash`):
  each export is read for its hash once a build at most.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from pipelines import cache_json

# Our CSV/XLSX exports; AUPAIR `.tou` and TSH `.t` files of tournament software.
EXPORT_SUFFIXES = frozenset({".csv", ".xlsx", ".tou", ".t"})
# Files read beside an export rather than on their own (TSH's config.tsh).
COMPANION_SUFFIXES = frozenset({".tsh"})


@dataclass(frozen=True)
class _Scan:
    """What a walk of the raw folder found: the files with an export's suffix (in path
    order), the links refused by their name (message by path), and the real folders whose
    files are the raw folder's (the folder itself and the linked folders read)."""

    files: list[Path]
    refused: dict[Path, str]
    roots: tuple[Path, ...]
    keys: dict[Path, str]  # each file's key (`key_of`), computed once during the walk
    plain: frozenset[Path]  # the files that are regular files, not links (from the listing)


def _scan(raw_dir: Path) -> _Scan:
    """Every file below raw_dir (any depth) with an export's suffix, hidden ones skipped.
    A linked folder is read (once) when it leads to a readable folder that is neither in
    the raw folder (its files are read under their own names) nor around it, nor already
    read through another link; otherwise, like a link that loops or leads nowhere, it is
    refused by its name: nothing is ever skipped in silence."""
    if not raw_dir.is_dir():
        raise FileNotFoundError(f"le dossier des exports {raw_dir} n'existe pas")
    suffixes = EXPORT_SUFFIXES | COMPANION_SUFFIXES
    roots = [raw_dir.resolve()]
    files: list[Path] = []
    keys: dict[Path, str] = {}
    plain: set[Path] = set()
    refused: dict[Path, str] = {}
    # (folder, its path relative to raw_dir with a trailing "/", "" for raw_dir itself):
    # keys are built from strings, not by pathlib's relative_to (31,700 files: seconds)
    stack: list[tuple[Path, str]] = [(raw_dir, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as err:
            if folder == raw_dir:
                raise
            refused[folder] = (
                f"ce dossier n'a pas pu être lu ({err.strerror}) : aucun de ses exports n'est lu"
            )
            continue
        folders: list[tuple[Path, str]] = []
        for entry in entries:
            name = entry.name
            if name.startswith((".", "~$")):
                continue
            path = folder / name  # (a plain name joined: not the whole path parsed again)
            wanted = os.path.splitext(name)[1].lower() in suffixes
            if entry.is_symlink():
                try:
                    info = os.stat(path)
                except OSError as err:
                    if wanted or not os.path.splitext(name)[1]:  # an export or a folder
                        refused[path] = _LOOP if err.errno == errno.ELOOP else _NOWHERE
                    continue
                if stat.S_ISDIR(info.st_mode):
                    problem = _linked_folder_problem(path, roots)
                    if problem is None:
                        roots.append(path.resolve())
                        folders.append((path, f"{prefix}{name}/"))
                    else:
                        refused[path] = problem
                    continue
            elif entry.is_dir(follow_symlinks=False):
                folders.append((path, f"{prefix}{name}/"))
                continue
            if wanted:
                files.append(path)
                keys[path] = _printable(prefix + name)
                if entry.is_file(follow_symlinks=False):
                    plain.add(path)
        stack.extend(reversed(folders))
    files.sort(key=keys.__getitem__)
    return _Scan(files, refused, tuple(roots), keys, frozenset(plain))


_LOOP = (
    "ce lien forme une boucle (il mène à lui-même, directement ou par d'autres liens) : il "
    "n'est pas lu ; supprimez-le ou remplacez-le par le fichier ou le dossier lui-même"
)
_NOWHERE = (
    "ce lien ne mène nulle part (fichier ou dossier absent, partage réseau non monté ?) : "
    "rien n'y est lu ; rétablissez sa cible ou supprimez-le"
)


def _linked_folder_problem(link: Path, roots: list[Path]) -> str | None:
    """Why a link to a folder is not read (None: it is read): its target is in the raw
    folder or in a linked folder already read (its files are read once, under their own
    name), holds one of them (a loop), or cannot be listed."""
    target = link.resolve()
    for root in roots:
        if root.is_relative_to(target):
            return (
                "ce lien mène à un dossier qui contient le dossier des exports (une boucle) : "
                "il n'est pas lu ; faites-le mener au dossier de la saison lui-même"
            )
        if target.is_relative_to(root):
            return (
                "ce lien mène à un dossier déjà lu sous son propre nom (dans le dossier des "
                "exports ou par un autre lien) : il n'est pas lu une seconde fois ; "
                "supprimez le lien"
            )
    if not os.access(target, os.R_OK | os.X_OK):
        return (
            "ce lien mène à un dossier illisible (droits d'accès) : aucun de ses exports "
            "n'est lu ; donnez le droit de lecture ou copiez le dossier lui-même"
        )
    return None


def key_of(path: Path, raw_dir: Path) -> str:
    """A file's key: its path relative to the raw folder (POSIX); a name that is not valid
    UTF-8 shows its stray bytes as backslash escapes (`\\xff`)."""
    return _printable(path.relative_to(raw_dir).as_posix())


def _printable(rel: str) -> str:
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _utf8(name: str) -> bool:
    """Whether a name read from the disk is valid UTF-8 (Python keeps stray bytes as
    surrogates, which do not encode)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    """Whether a file of the walk stays in the raw folder: a plain file does (a linked
    folder read is the raw folder's); a link must lead inside it (or a linked folder read)."""
    if not path.is_symlink():
        return True
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):  # a broken link, a loop
        return False
    return any(target.is_relative_to(root) for root in roots)


@dataclass(frozen=True)
class Listing:
    """The raw folder as the ingest sees it, from one walk: its exports (path order) with
    their keys, and the entries it refuses without reading them (`refused_paths`)."""

    exports: list[tuple[str, Path]]
    refused: dict[str, str]


def listing(raw_dir: Path) -> Listing:
    """`export_paths` and `refused_paths` of one walk of the raw folder (a build asks for
    both several times: one walk of 31,700 files is not free)."""
    scan = _scan(raw_dir)
    exports = [(scan.keys[p], p) for p in scan.files if _read(p, scan)]
    return Listing(exports, _refused(scan, raw_dir))


def _read(path: Path, scan: _Scan) -> bool:
    """Whether a file of the walk is an export the ingest reads: a regular file (known from
    the listing, no stat), or a link leading to a file inside the raw folder."""
    return path in scan.plain or (_inside(path, scan.roots) and path.is_file())


def export_paths(raw_dir: Path) -> list[Path]:
    """Every export below raw_dir that is a file of the raw folder (a link is followed only
    when it stays inside it; a linked folder as `_scan` says), in path order; hidden files
    are skipped."""
    scan = _scan(raw_dir)
    return [p for p in scan.files if _read(p, scan)]


def refused_paths(raw_dir: Path) -> dict[str, str]:
    """Entries of the raw folder the ingest refuses without reading them, keyed like
    `read_raw`, with the organiser's message: a link leading out of the raw folder (it is
    never followed, nor copied to the quarantine), a link that loops or leads nowhere, a
    linked folder not read (`_scan`), a name that is not valid UTF-8."""
    return _refused(_scan(raw_dir), raw_dir)


def _refused(scan: _Scan, raw_dir: Path) -> dict[str, str]:
    refused: dict[str, str] = {
        key_of(path, raw_dir): f"{key_of(path, raw_dir)} : {message}"
        for path, message in scan.refused.items()
    }
    for path in scan.files:
        key = scan.keys[path]
        if path not in scan.plain and not _inside(path, scan.roots):
            refused[key] = (
                f"{key} : ce lien mène hors du dossier des exports (ou nulle part) : il n'est "
                "pas lu ; copiez le fichier lui-même dans le dossier"
            )
        elif not _utf8(str(path)):
            refused[key] = (
                f"{key} : le nom du fichier n'est pas écrit en UTF-8 (caractères « \\x… ») : "
                "renommez-le"
            )
    return dict(sorted(refused.items()))


def read_raw(raw_dir: Path) -> dict[str, bytes]:
    """The bytes of every export, keyed by its path relative to raw_dir (POSIX)."""
    return {key_of(p, raw_dir): p.read_bytes() for p in export_paths(raw_dir)}


def content_hash(path: Path) -> str:
    """The SHA-256 of a file's bytes (the ingest log's `sha256` of it), read in chunks:
    what recognises a file, whatever its size and date say."""
    with open(path, "rb") as handle:
        return _hash_of(handle)


def _hash_of(handle: BinaryIO) -> str:
    digest = hashlib.sha256()
    while chunk := handle.read(1 << 20):
        digest.update(chunk)
    return digest.hexdigest()


StatKey = tuple[int, int, int, int, int]  # device, inode, size, mtime (ns), ctime (ns)


def stat_key(info: os.stat_result) -> StatKey:
    """What tells that a file is still the one stated: its inode, its size and its
    modification and change times (the change time is set by the system on every write,
    `touch -r` and `cp -p` included; no tool sets it back)."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


# A hash is kept for the next builds only when the file's modification and change times
# are this much older than the moment it was hashed: a write in the same tick of the file
# system's clock as the hash would leave the same stat on other bytes (git's « racy
# clean » entries). Such a file is hashed again by the next build.
_SETTLED_NS = 2_000_000_000
_KNOWN_VERSION = 1


@dataclass
class _Stated:
    """What a build stated of its raw folder before reading it (`stated`)."""

    raw_dir: Path
    seen: Listing
    hashes: dict[Path, tuple[StatKey, str]] = field(default_factory=dict)
    # the hashes of past builds (`stated`'s `known`), by path, taken up when the stat is equal
    known: dict[str, tuple[StatKey, str]] = field(default_factory=dict)
    unsettled: set[Path] = field(default_factory=set)  # hashed this build, not kept after
    reads: int = 0  # the files hashed by reading them (tests count them)
    folders: dict[str, str] = field(default_factory=dict)  # folder → its links resolved
    # the regular files' own stat, by key, from the listing `raw_digest` made (`stated_stat`)
    stats: dict[str, os.stat_result] = field(default_factory=dict)


_STATED: ContextVar[_Stated | None] = ContextVar("classement_stated_raw", default=None)


@contextmanager
def stated(raw_dir: Path, seen: Listing, known: Path | None = None) -> Iterator[None]:
    """Within a build: its raw folder's listing and the content hashes it states before
    reading anything (`stated_hash`, by `pipelines.build_state.raw_digest`), which the
    ingest of the same build takes up (`listing_of`, `stated_hash`) rather than walking
    the folder and hashing every file a second time (31,700 files: about 2 s of a build).
    A hash is taken up only for the file whose stat is still the one it was stated with.
    `known`: the file where `save_stated` kept the hashes of the last build (none, or one
    that cannot be read: every file hashed); a file whose device, inode, size,
    modification and change times all equal those it had when it was hashed then is taken
    as holding the same bytes without being read (the rule of git's index: the change time
    is set by the system on every write, `touch -r`, `cp -p` and `os.utime` included, and
    no tool sets it back)."""
    token = _STATED.set(_Stated(raw_dir, seen, known=_load_known(known)))
    try:
        yield
    finally:
        _STATED.reset(token)


@dataclass
class _Known:
    """The kept hashes' file: per file (absolute path), its device, inode, size,
    modification and change times and its hash."""

    version: int
    hashes: dict[str, tuple[int, int, int, int, int, str]]


def _load_known(path: Path | None) -> dict[str, tuple[StatKey, str]]:
    if path is None:
        return {}
    try:
        data = cache_json.read_as(path, _Known)
        if data.version != _KNOWN_VERSION:
            return {}
        return {
            name: ((a, b, c, d, e), digest) for name, (a, b, c, d, e, digest) in data.hashes.items()
        }
    except (OSError, cache_json.CacheUnreadable):
        return {}  # only a cost: every file hashed again


def save_stated(path: Path) -> None:
    """Keep the hashes stated in the build running (`stated`) for the next build's
    `known`, but those of files written too shortly before they were hashed."""
    state = _STATED.get()
    if state is None:
        return
    hashes = {
        _absolute(p, state): (*key, digest)
        for p, (key, digest) in state.hashes.items()
        if p not in state.unsettled
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(cache_json.encode(_Known(_KNOWN_VERSION, hashes)))
    os.replace(tmp, path)


def stated_reads() -> int:
    """How many files the build running hashed by reading them (0 outside a build)."""
    state = _STATED.get()
    return 0 if state is None else state.reads


def keep_stats(raw_dir: Path, stats: Mapping[str, os.stat_result]) -> None:
    """Within a build of `raw_dir` (`stated`): its regular files' stat (by key) as its
    listing gave them, which the ingest then takes (`stated_stat`) rather than asking each
    of 31,700 files again (about 0.1 s of a build)."""
    state = _STATED.get()
    if state is not None and state.raw_dir == raw_dir:
        state.stats.update(stats)


def stated_stat(raw_dir: Path, key: str, path: Path) -> os.stat_result:
    """The stat of the export `key` (at `path`) of `raw_dir` that the build running listed
    (`keep_stats`: the folder as the build found it when it started), else asked now."""
    state = _STATED.get()
    if state is not None and state.raw_dir == raw_dir:
        info = state.stats.get(key)
        if info is not None:
            return info
    return path.stat()


def listing_of(raw_dir: Path) -> Listing:
    """`listing(raw_dir)`, the one the build running stated when it is this folder's."""
    state = _STATED.get()
    if state is not None and state.raw_dir == raw_dir:
        return state.seen
    return listing(raw_dir)


def _absolute(path: Path, state: _Stated) -> str:
    """The key of a kept hash: the file's absolute path, its folder's links resolved (the
    file's own name kept: a linked export is its own entry), so that builds given the raw
    folder as `data/x`, as `/srv/classement/data/x` or through a link to it (the command
    line resolves its `--raw`, Dagster's resource and `classement bench`'s builds do not)
    take up each other's hashes. By relative path, every file was read again whenever two
    of them alternated: 31,700 files, about 1.6 s of a build; by absolute path through a
    link, `raw_digest` 3.5 s instead of 0.4 (a tournament added to s20 and built in-process
    after a command-line build, 7 December 2026). Each folder is made absolute and
    resolved once a build (`state.folders`), not each of its files (a file's name is a
    plain name of its folder's listing)."""
    folder, name = os.path.split(path)
    real = state.folders.get(folder)
    if real is None:
        real = state.folders[folder] = os.path.realpath(os.path.abspath(folder))
    return os.path.join(real, name)


def stated_hash(path: Path, info: os.stat_result | None = None) -> str:
    """`content_hash(path)`; within a build (`stated`), the hash stated earlier in the
    build, or by the last build (`stated`'s `known`), when the file's stat (`info`, or
    read here) is still the one it had then, else hashed now and stated."""
    state = _STATED.get()
    if state is None:
        return content_hash(path)
    known = state.hashes.get(path) or state.known.get(_absolute(path, state))
    if known is not None and known[0] == stat_key(info or os.stat(path)):
        state.hashes[path] = known
        return known[1]
    with open(path, "rb") as handle:
        key = stat_key(os.fstat(handle.fileno()))  # before reading: a write during it shows
        settled = time.time_ns() - _SETTLED_NS
        digest = _hash_of(handle)
    state.reads += 1
    state.hashes[path] = (key, digest)
    if key[3] >= settled or key[4] >= settled:
        state.unsettled.add(path)
    else:
        state.unsettled.discard(path)
    return digest


def fingerprint(raw_dir: Path) -> dict[str, str]:
    """Content hash of every export, keyed like `read_raw`."""
    hashes = {key_of(p, raw_dir): content_hash(p) for p in export_paths(raw_dir)}
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
        if source.is_file() and _inside(source, (raw_dir.resolve(),)):
            target.write_bytes(source.read_bytes())  # (a link leading out is not followed)
        note = target.with_name(target.name + ".reason.txt")
        note.write_text(reason_note(message), encoding="utf-8")
        out[path] = str(target)
    return out
