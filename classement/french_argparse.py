"""argparse in French: its own words (« utilisation : », « options : », « afficher cette aide
et quitter », its error messages) for every parser of the command line.

argparse looks its words up through `gettext` with no French catalogue shipped by Python,
so the module's two lookup functions (`argparse._`, `argparse.ngettext`, read when a parser
is built and when it writes) are replaced by this table's. A message argparse only says to a
programmer (a parser built wrongly) keeps its English words.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

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


class FrenchParser(argparse.ArgumentParser):
    """A parser whose error names the expected type in French (`nombre entier`, not `int`)."""

    def error(self, message: str) -> NoReturn:
        for name, word in TYPES.items():
            message = message.replace(f"({name} attendu)", f"({word} attendu)")
        super().error(message)
