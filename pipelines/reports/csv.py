"""CSV files written for people to open in a spreadsheet: no cell may run as a formula.

A spreadsheet runs a cell beginning with `=`, `+`, `-` or `@` as a formula (and some
after a tab or a carriage return): a player named `=HYPERLINK("http://…","x")` in an
export would become a live link, or worse, in the committee's spreadsheet. The OWASP rule:
such a text cell is written with a leading `'`, which a spreadsheet shows as text and
does not display. Number columns stay numbers (a negative number is no formula), and so
does a text cell that is only a number (« -12 », « +3,5 »). Internal files (caches,
the what-if's temporary reference folder, the exports the simulator writes) are read back
by the program and are not concerned.
"""

from __future__ import annotations

import polars as pl

# The first characters a spreadsheet may read as the start of a formula.
_FORMULA_START = r"^[=+\-@\t\r]"
_PLAIN_NUMBER = r"^[+-]?[0-9]+([.,][0-9]+)?$"
QUOTE = "'"


def spreadsheet_safe(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with every text cell a spreadsheet could run as a formula prefixed with `'`
    (see the module); other columns untouched."""
    texts = [name for name, dtype in frame.schema.items() if dtype == pl.String]
    return frame.with_columns(
        pl.when(
            pl.col(name).str.contains(_FORMULA_START) & ~pl.col(name).str.contains(_PLAIN_NUMBER)
        )
        .then(pl.lit(QUOTE) + pl.col(name))
        .otherwise(pl.col(name))
        .alias(name)
        for name in texts
    )
