"""The command line speaks French (issue 27, item 4): every `--help`, argparse's own words
included (« utilisation : », « options : », « afficher cette aide et quitter »), and its
usage errors; `--as-of` says when a well-written date does not exist (item 7)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from classement.cli import build_parser, main

# Words no French help writes (argparse's English and the commonest English words), and
# English names argparse would give a value (its `dest` in capitals).
ENGLISH = frozenset(
    " ".join(
        [
            "usage positional optional show help message exit error required invalid choose",
            "the of and or to with from for is are be this that these those its their your",
            "which when only every each into without against where whatever default",
            "otherwise number print write read file folder files folders output player",
            "players season seasons rating ratings build replay sheet notebook measure",
            "compare recompute simulate seed warehouse raw out reports home host games",
            "workloads results",
        ]
    ).split()
)


def _parsers(parser: argparse.ArgumentParser, name: str) -> Iterator[tuple[str, str]]:
    """(command, its help) of the parser and every sub-command below it."""
    yield name, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def _english(text: str, commands: set[str]) -> set[str]:
    """The English words of a help, leaving out what the user types: the commands
    (`notebook-html`), options (`--raw`), paths and files (`data/reference/`, `elo.yaml`),
    keys (`series.quotas.*.4=13`), environment variables and the values of a choice
    (`{base10,logistic}`)."""
    kept = []
    for token in text.split():
        if token.startswith(("-", "[-", "{", "[{")) or re.search(r"[/._=<>{}`]", token):
            continue
        if token in commands:
            continue
        kept.append(token)
    words = re.findall(r"[A-Za-zÀ-ÿ]+", " ".join(kept))
    return {w for w in words if w.lower() in ENGLISH}


def test_every_help_is_french() -> None:
    helps = dict(_parsers(build_parser(), "classement"))
    assert {"classement build", "classement check", "classement cote explain"} <= set(helps)
    assert len(helps) >= 12
    commands = {word for command in helps for word in command.split()}
    english = {}
    for command, text in helps.items():
        assert text.startswith("utilisation : classement"), text
        assert "options :\n" in text and "afficher cette aide et quitter" in text, text
        if words := _english(text, commands):
            english[command] = words
    assert english == {}


def test_usage_errors_are_french(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["elo"], "classement elo : erreur : argument(s) obligatoire(s) manquant(s) : --rating"),
        (
            ["elo", "--rating", "x", "--opponent", "1", "--result", "nulle"],
            "argument --rating : valeur invalide (nombre attendu) : 'x'",
        ),
        (["elo", "--rating", "1", "--opponent", "1", "--result", "gagné"], "« gagné » : victoire"),
        (["inconnue"], "argument COMMANDE : choix invalide : 'inconnue'"),
        (["build", "--raw"], "argument --raw : une valeur attendue"),
        (["check", "a.csv", "--as-of", "31/02/2024"], "« 31/02/2024 » : cette date n'existe pas"),
        (["check", "a.csv", "--as-of", "demain"], "« demain » n'est pas une date (attendu :"),
        (["check", "a.csv", "--nope"], "argument(s) non reconnu(s) : --nope"),
    ]
    for argv, message in cases:
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("utilisation : classement"), err
        assert message in err, err


def test_the_help_option_itself(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["whatif", "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert "--set CLÉ=VALEUR [CLÉ=VALEUR ...]" in out
    assert "--warehouse FICHIER" in out and "--season SAISON" in out
