"""Derive simulator/data/mots_fr.txt from the npm package an-array-of-french-words 2.0.0
(MIT): index.json's words written in lower-case letters only (no hyphen, apostrophe,
capital), accents removed and upper-cased as on a Scrabble board, with a vowel (A E I O U
Y), 2 to 8 letters; every word of 2 to 5 letters, and of each length 6 to 8 the 4 000
whose SHA-1 comes first (a deterministic subset).

    npm pack an-array-of-french-words@2.0.0 && tar xzf an-array-of-french-words-2.0.0.tgz
    python scripts/mots_fr.py package/index.json > simulator/data/mots_fr.txt
"""

from __future__ import annotations

import hashlib
import json
import sys
import unicodedata
from pathlib import Path

KEEP_LONG = 4000  # words kept of each length 6, 7 and 8


def board_spelling(word: str) -> str:
    plain = "".join(
        c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn"
    )
    return plain.upper()


def main(path: str) -> None:
    words = json.loads(Path(path).read_text(encoding="utf-8"))
    spelled = {board_spelling(w) for w in words if w.isalpha() and w.islower() and 2 <= len(w) <= 8}
    spelled = {w for w in spelled if w.isascii() and w.isalpha() and any(v in w for v in "AEIOUY")}
    kept = []
    for length in range(2, 9):
        of_length = sorted(w for w in spelled if len(w) == length)
        if length >= 6:
            of_length = sorted(
                sorted(of_length, key=lambda w: hashlib.sha1(w.encode()).hexdigest())[:KEEP_LONG]
            )
        kept += of_length
    sys.stdout.write("".join(f"{w}\n" for w in sorted(kept)))


if __name__ == "__main__":
    main(sys.argv[1])
