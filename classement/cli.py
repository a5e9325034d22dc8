"""The `classement` command: one sub-command per module of `classement.commands`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import classement.commands
from classement.french_argparse import FrenchParser, install


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line; given the arguments of a run whose first one names a module
    of `classement.commands` (`build`, `check`…), that module's commands only: each module
    imports what its commands compute with (the ingest, the reports, DuckDB), and
    `classement build` with nothing changed takes a second less without the others'. A
    module that does not make the command named (`ratings` makes `elo` and `cote`): the
    whole command line, so that the error lists every command."""
    install()  # argparse's own words in French, before any parser is built
    modules = sorted(m.name for m in pkgutil.iter_modules(classement.commands.__path__))
    if argv and argv[0] in modules:
        parser, commands = _parser([argv[0]])
        if argv[0] in commands:
            return parser
    return _parser(modules)[0]


def _parser(modules: list[str]) -> tuple[argparse.ArgumentParser, set[str]]:
    """The command line of these modules' commands, and the commands' names."""
    parser = FrenchParser(
        prog="classement",
        description="Cotes et classements des fédérations francophones de Scrabble.",
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMANDE", title="commandes "
    )
    for name in modules:
        module = importlib.import_module(f"classement.commands.{name}")
        module.add_parser(sub)
    return parser, set(sub.choices)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
