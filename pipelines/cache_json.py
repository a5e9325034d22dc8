"""JSON of the build's own caches (the ingest's manifest and decisions, the raw files'
kept hashes, the player pages' sources), read and written by msgspec rather than the
standard library: these files are read and written whole on every build, and at federation
scale they are large (`classement bench`, 31,700 files: the manifest 12 MB, the kept hashes
6.8 MB, the pages' sources 28 MB). msgspec decodes them several times faster, and decodes
the manifest's records straight into their dataclass.

The files stay plain JSON (any JSON reader reads them). Keys are written sorted, so the
same cache is the same bytes. They are derived data: a file this module cannot decode (an
older layout, a damaged file) raises `CacheUnreadable`, and its reader falls back as it
does for a missing file (read or examine everything again)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

CacheUnreadable = msgspec.DecodeError  # raised for bad JSON and for a value of another type
_ENCODER = msgspec.json.Encoder(order="sorted")


def encode(value: object) -> bytes:
    """`value` as JSON (dict keys sorted; dataclasses as objects, tuples as arrays)."""
    return _ENCODER.encode(value)


def decode(data: bytes | str) -> Any:
    """The JSON `data` (objects as dicts, arrays as lists)."""
    return msgspec.json.decode(data)


def decode_as(data: bytes | str, kind: type[T]) -> T:
    """The JSON `data` as `kind` (a dataclass, a typed dict…), checked while decoded."""
    return msgspec.json.decode(data, type=kind)


def read(path: Path) -> Any:
    """The JSON file `path` (OSError when it cannot be read, `CacheUnreadable` when it is
    not JSON)."""
    return decode(path.read_bytes())


def read_as(path: Path, kind: type[T]) -> T:
    """The JSON file `path` as `kind` (OSError when it cannot be read, `CacheUnreadable`
    when it does not decode as `kind`)."""
    return decode_as(path.read_bytes(), kind)
