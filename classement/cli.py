"""The `classement` command: one sub-command per module of `classement.commands`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import classement.commands
from classement.french_argparse import FrenchParser, install


def build_parser() -> argparse.ArgumentParser:
    install()  # argparse's own words in French, before any parser is built
    parser = FrenchParser(
        prog="classement",
        description="Cotes et classements des fédérations francophones de Scrabble.",
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMANDE", title="commandes "
    )
    for info in sorted(pkgutil.iter_modules(classement.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"classement.commands.{info.name}")
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
