"""Decoding an export's bytes: every text format of the ingest goes through `decode`.

UTF-8 (with or without a BOM) when the file is valid UTF-8, else the legacy encoding the
software writes (Windows-1252 for spreadsheets, AUPAIR and the FFSc export; Latin-1 for
TSH). A file is refused, with the line of the problem, when it is UTF-16 or binary, holds a
NUL byte anywhere, or mixes encodings: valid UTF-8 accented letters on some lines and a
stray byte on another would otherwise be read entirely as Windows-1252, every accented
name garbled.
"""

from __future__ import annotations

import re

import numpy as np

from pipelines.ingest.errors import ExportError

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# A UTF-8 encoded letter beyond ASCII (two to four bytes).
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)
# The first bytes of the sequences `_UTF8_SEQUENCE` matches, and how many continuation
# bytes (0x80-0xBF) follow each.
_LEADS = ((0xC2, 0xDF, 1), (0xE0, 0xEF, 2), (0xF0, 0xF4, 3))


def _has_utf8_letter(data: bytes) -> bool:
    """Whether `_UTF8_SEQUENCE` matches somewhere in `data`, found with NumPy: the bytes
    beyond ASCII first (few in a Windows-1252 file), then the bytes after each. The regular
    expression scanned every byte of every Windows-1252 export in Python's engine (s20:
    1,9 s of a 23 s ingest, py-spy, 6 December 2026)."""
    array = np.frombuffer(data, dtype=np.uint8)
    leads = np.flatnonzero(array >= 0xC2)
    if leads.size == 0:
        return False
    padded = np.concatenate([array, np.zeros(3, dtype=np.uint8)])  # no byte past the end
    lead = padded[leads]
    for low, high, follow in _LEADS:
        at = leads[(lead >= low) & (lead <= high)]
        for step in range(1, follow + 1):
            at = at[(padded[at + step] & 0xC0) == 0x80]
        if at.size:
            return True
    return False


RESAVE = "enregistrez-le de nouveau en texte UTF-8 (« CSV UTF-8 » dans un tableur)"


def _line(data: bytes, offset: int) -> int:
    return data[:offset].count(b"\n") + 1


def decode(
    data: bytes, name: str, legacy: str = "cp1252", *, undefined_as_latin1: bool = False
) -> str:
    """The text of a file (see the module); ExportError names the file and the line. A byte
    Windows-1252 leaves undefined is refused, or read as Latin-1 with `undefined_as_latin1`
    (tournament software's own files)."""
    if data.startswith(_UTF16_BOMS) or b"\x00" in data[:4096]:
        raise ExportError(
            name,
            "le fichier n'est pas un texte UTF-8, Windows-1252 ou Latin-1 (il semble être en "
            f"UTF-16 ou binaire) : {RESAVE}",
            row=1,
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ExportError(
            name,
            f"un octet nul (0x00) au milieu du texte : le fichier est abîmé ; {RESAVE}",
            row=_line(data, nul),
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        stray = err.start
    if _has_utf8_letter(data):
        raise ExportError(
            name,
            f"le fichier mélange deux encodages : l'octet 0x{data[stray]:02X} de cette ligne "
            "n'est pas de l'UTF-8 alors que d'autres lignes sont en UTF-8 (lettres accentuées) "
            f"; {RESAVE}",
            row=_line(data, stray),
        )
    try:
        return data.decode(legacy)
    except UnicodeDecodeError as err:
        if undefined_as_latin1:
            return data.decode("latin-1")
        raise ExportError(
            name,
            f"l'octet 0x{data[err.start]:02X} n'est ni du texte UTF-8 ni du Windows-1252 : "
            f"{RESAVE.replace('-le', '')}",
            row=_line(data, err.start),
        ) from None
