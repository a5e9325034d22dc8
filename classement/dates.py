"""`--as-of`, the reference date of a build or a check: an export dated later is refused."""

from __future__ import annotations

import argparse
import datetime as dt
import re

_SHAPES = (
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$"), (1, 2, 3)),
    (re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$"), (3, 2, 1)),
)


def reference_date(text: str) -> dt.date:
    """A date `AAAA-MM-JJ` or `JJ/MM/AAAA`, as the exports write them (argparse type):
    refused in French otherwise, saying when the date is well written but does not exist."""
    for shape, (year, month, day) in _SHAPES:
        found = shape.match(text.strip())
        if found is None:
            continue
        try:
            return dt.date(int(found[year]), int(found[month]), int(found[day]))
        except ValueError:
            raise argparse.ArgumentTypeError(f"« {text} » : cette date n'existe pas") from None
    raise argparse.ArgumentTypeError(
        f"« {text} » n'est pas une date (attendu : AAAA-MM-JJ ou JJ/MM/AAAA)"
    )


def add_as_of(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--as-of",
        type=reference_date,
        default=None,
        metavar="DATE",
        help="la date de référence (AAAA-MM-JJ ou JJ/MM/AAAA) : un export daté plus tard "
        "(fin d'un tournoi, liste de classement, édition jouée d'un circuit…) est refusé "
        "(par défaut : aujourd'hui)",
    )
