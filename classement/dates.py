"""`--as-of`, the reference date of a build or a check: an export dated later is refused."""

from __future__ import annotations

import argparse
import datetime as dt


def reference_date(text: str) -> dt.date:
    """An ISO date `YYYY-MM-DD` (argparse type): refused in French otherwise."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"« {text} » n'est pas une date (attendu : AAAA-MM-JJ)"
        ) from None


def add_as_of(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--as-of",
        type=reference_date,
        default=None,
        metavar="AAAA-MM-JJ",
        help="the reference date: an export dated later (a tournament's end, a rating "
        "list, a held circuit edition…) is refused (default: today)",
    )
