"""The search for UTF-8 letters in a file that is not UTF-8 (`pipelines.ingest.text`):
NumPy's search finds one exactly where the regular expression does (the bytes at the
edges of the sequences' ranges, in generated strings) (a file mixing two
encodings is refused; a Windows-1252 file is read)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.ingest.errors import ExportError
from pipelines.ingest.text import _UTF8_SEQUENCE, _has_utf8_letter, decode

# The bytes at the edges of the sequences' ranges, and ASCII
EDGES = [0x00, 0x0A, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xDF, 0xE0]
EDGES += [0xE9, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(EDGES), max_size=12).map(bytes))
def test_numpy_finds_a_utf8_letter_where_the_expression_does(data: bytes) -> None:
    assert _has_utf8_letter(data) == bool(_UTF8_SEQUENCE.search(data))


@pytest.mark.parametrize(
    ("data", "found"),
    [
        (b"", False),
        (b"Dupont;J\xe9r\xf4me\n", False),  # Windows-1252
        ("Lefèvre".encode(), True),  # two bytes
        ("Zoé €".encode(), True),  # three bytes
        ("🙂".encode(), True),  # four bytes
        (b"fin \xc3", False),  # a first byte at the very end: nothing follows
        (b"\xe2\x82", False),  # three-byte sequence cut short
    ],
)
def test_sequences_of_each_length(data: bytes, found: bool) -> None:
    assert _has_utf8_letter(data) is found


def test_a_file_mixing_encodings_is_refused_and_a_cp1252_one_read() -> None:
    assert decode(b"Nom\nJ\xe9r\xf4me\n", "liste.csv") == "Nom\nJérôme\n"
    with pytest.raises(ExportError, match="mélange deux encodages"):
        decode("Nom\nLefèvre\n".encode() + b"J\xe9r\xf4me\n", "liste.csv")
