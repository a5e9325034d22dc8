"""argparse in French: its own words (« utilisation : », « options : », « afficher cette aide
et quitter », its error messages) for every parser of the command line.

argparse looks its words up through `gettext` with no French catalogue shipped by Python,
so the module's two lookup functions (`argparse._`, `argparse.ngettext`, read when a parser
is built and when it writes) are replaced by this table's. A message argparse only says to a
programmer (a parser built wrongly) keeps its English words.
"""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

WORDS = {
    "usage: ": "utilisation : ",
    # a section's title is followed by « : » (argparse writes the colon: the space before
    # it, French typography, ends the title)
    "options": "options ",
    "positional arguments": "arguments positionnels ",
    "show this help message and exit": "afficher cette aide et quitter",
    "show program's version number and exit": "afficher la version et quitter",
    "subcommands": "commandes ",
    "%(prog)s: error: %(message)s\n": "%(prog)s : erreur : %(message)s\n",
    "the following arguments are required: %s": "argument(s) obligatoire(s) manquant(s) : %s",
    "unrecognized arguments: %s": "argument(s) non reconnu(s) : %s",
    "invalid choice: %(value)r (choose from %(choices)s)": (
        "choix invalide : %(value)r (valeurs possibles : %(choices)s)"
    ),
    "invalid %(type)s value: %(value)r": "valeur invalide (%(type)s attendu) : %(value)r",
    "argument %(argument_name)s: %(message)s": "argument %(argument_name)s : %(message)s",
    "expected one argument": "une valeur attendue",
    "expected at most one argument": "une valeur au plus attendue",
    "expected at least one argument": "une valeur au moins attendue",
    "ambiguous option: %(option)s could match %(matches)s": (
        "option ambiguë : %(option)s peut désigner %(matches)s"
    ),
    "not allowed with argument %s": "incompatible avec l'argument %s",
    "one of the arguments %s is required": "l'un des arguments %s est obligatoire",
    "ignored explicit argument %r": "valeur ignorée : %r",
    "can't open '%(filename)s': %(error)s": "impossible d'ouvrir « %(filename)s » : %(error)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "commande inconnue %(parser_name)r (valeurs possibles : %(choices)s)"
    ),
}
PLURALS = {
    "expected %s argument": ("%s valeur attendue", "%s valeurs attendues"),
}
# The type names `invalid %(type)s value` writes.
TYPES = {"int": "nombre entier", "float": "nombre"}


def french(message: str) -> str:
    return WORDS.get(message, message)


def french_plural(singular: str, plural: str, n: int) -> str:
    if singular in PLURALS:
        one, many = PLURALS[singular]
        return one if n == 1 else many
    return singular if n == 1 else plural


def install() -> None:
    """argparse speaks French from now on (before the parsers are built: their titles and
    the help of `-h` are read then)."""
    setattr(argparse, "_", french)  # noqa: B010 (a module global argparse reads by name)
    setattr(argparse, "ngettext", french_plural)  # noqa: B010


# The name a value is shown by in `--help` when its command gives none (argparse would
# show its English `dest` in capitals: WAREHOUSE, OUT…), by `dest`.
METAVARS = {
    "raw": "DOSSIER",
    "reports": "DOSSIER",
    "out": "DOSSIER",
    "home": "DOSSIER",
    "reference": "DOSSIER",
    "quarantine": "DOSSIER",
    "workloads": "DOSSIER",
    "results": "DOSSIER",
    "warehouse": "FICHIER",
    "sheet": "FEUILLE",
    "notebook": "CARNET",
    "season": "SAISON",
    "game": "N",
    "seed": "N",
    "seasons": "N",
    "players": "N",
    "min_games": "N",
    "port": "PORT",
    "host": "ADRESSE",
}


class FrenchFormatter(argparse.HelpFormatter):
    """Help whose values are named in French when their command gives no name (`METAVARS`)."""

    def _get_default_metavar_for_optional(self, action: argparse.Action) -> str:
        return METAVARS.get(action.dest, action.dest.upper())

    def _get_default_metavar_for_positional(self, action: argparse.Action) -> str:
        return METAVARS.get(action.dest, action.dest)


class FrenchParser(argparse.ArgumentParser):
    """A parser whose values are named in French in its help (`FrenchFormatter`) and whose
    error names the expected type in French (`nombre entier`, not `int`); its sub-commands'
    parsers are FrenchParsers too (argparse builds them with the class of their parent)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", FrenchFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        for name, word in TYPES.items():
            message = message.replace(f"({name} attendu)", f"({word} attendu)")
        super().error(message)
