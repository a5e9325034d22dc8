"""The README's command table, line by line (issue 27, item 3): every command line parses as
written (its optional parts included) and, on the sample, runs as written.

Each line's placeholders (SHEET, PLAYER_ID, FILE_OR_DIR…) are replaced by a file, a player
or a value of the sample; the options that would write into the project (`--out`,
`--warehouse`) are pointed at the test's folder. Four lines are parsed only, never run:
`build` (the shared sample build of tests/conftest.py is that build), `dev` (a server that
does not end), `bench` (the federation-scale benchmark, minutes), `whatif` (a minute on the
sample; run on a small federation by tests/test_whatif.py).
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import duckdb
import pytest

from classement.cli import build_parser, main
from pipelines.paths import DEFAULT_RAW_DIR, PROJECT_ROOT

pytestmark = pytest.mark.slow

README = PROJECT_ROOT / "README.md"
SAMPLE = DEFAULT_RAW_DIR
PARSED_ONLY = {"build", "dev", "bench", "whatif"}


def readme_commands() -> list[str]:
    """The first cell of each row of the README's table of `classement` commands."""
    text = README.read_text(encoding="utf-8")
    start = text.index("## The `classement` command")
    end = text.index("\n## ", start + 1)
    return re.findall(r"^\| `(classement [^`]+)` \|", text[start:end], flags=re.M)


def _words(line: str, *, optional: bool) -> list[str]:
    """The line's words after `classement`: optional groups ([…]) kept (brackets removed)
    or dropped, the ellipsis of repeatable arguments dropped."""
    if optional:
        line = line.replace("[", " ").replace("]", " ")
    else:
        line = re.sub(r"\[[^\]]*\]", " ", line)
    return [w for w in shlex.split(line.replace("…", " "))][1:]


def _placeholders(tmp: Path, player: str) -> dict[str, str]:
    sheet = sorted(SAMPLE.glob("*/*_game_sheet.csv"))[0]
    return {
        "SHEET": str(sheet),
        "PLAYER_ID": player,
        "FILE_OR_DIR": str(SAMPLE),
        "NOTEBOOK": "series_movements",
        "KEY=VALUE": "series.min_divisor=10",
        "DIR": str(tmp / "dossier"),
        "FILE": str(tmp / "fichier.duckdb"),
        "N": "2",
    }


def _substituted(words: list[str], values: dict[str, str]) -> list[str]:
    return [values.get(w, w) for w in words]


@pytest.fixture(scope="module")
def warehouse(sample_site: Path) -> Path:
    return sample_site / "w.duckdb"


@pytest.fixture(scope="module")
def player(warehouse: Path) -> str:
    """A player of the sample with the longest cote history."""
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        row = con.execute(
            "SELECT player_id FROM cote_history GROUP BY player_id "
            "ORDER BY count(*) DESC, player_id LIMIT 1"
        ).fetchone()
    finally:
        con.close()
    assert row is not None
    return str(row[0])


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit_:  # a usage error of argparse
            status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


def test_the_table_names_existing_commands() -> None:
    lines = readme_commands()
    named = {line.split()[1] for line in lines}
    parser = build_parser()
    choices = next(a for a in parser._actions if a.dest == "command").choices
    assert choices is not None
    assert len(lines) >= 10 and named <= set(choices), (named, set(choices))


@pytest.mark.parametrize("line", readme_commands())
def test_every_readme_line_parses_as_written(line: str, tmp_path: Path) -> None:
    """With and without its optional parts, placeholders given a value: argparse accepts
    the line (the line `classement score SHEET` once failed here: --sheet was required)."""
    values = _placeholders(tmp_path, "10001")
    parser = build_parser()
    for optional in (False, True):
        argv = _substituted(_words(line, optional=optional), values)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                parser.parse_args(argv)
            except SystemExit:
                pytest.fail(f"{line!r} → {argv} refusé : {err.getvalue()}")


def test_every_readme_line_runs_on_the_sample(
    warehouse: Path, player: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each line run as written on the sample (see the module's docstring for the four
    parsed only): exit status and what it prints."""
    monkeypatch.setenv("CLASSEMENT_WAREHOUSE", str(warehouse))
    values = _placeholders(tmp_path, player)
    ran: dict[str, tuple[int, str, str]] = {}
    for line in readme_commands():
        argv = _substituted(_words(line, optional=False), values)
        command = argv[0]
        if command in PARSED_ONLY:
            continue
        if command == "generate":
            argv += ["--out", str(tmp_path / "generated")]
        if command == "cote":
            argv += ["--warehouse", str(warehouse)]
        if command == "notebook-html":
            argv += ["--out", str(tmp_path / "notebooks")]
        if command == "backtest":
            argv += ["--out", str(tmp_path / "backtest"), "--no-pdf"]
        ran[command] = _run(argv)
    assert set(ran) == {"check", "generate", "elo", "cote", "score", "notebook-html", "backtest"}, (
        set(ran)
    )

    status, out, err = ran["check"]
    assert (status, err) == (0, ""), err
    assert out.rstrip().endswith("tout est accepté."), out[-300:]

    # `classement generate` as written writes the bundled sample, byte for byte
    status, _, err = ran["generate"]
    assert status == 0, err
    generated = tmp_path / "generated"
    written = sorted(p.relative_to(generated) for p in generated.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(SAMPLE) for p in SAMPLE.rglob("*") if p.is_file())
    assert written == committed
    for relative in written:
        assert (generated / relative).read_bytes() == (SAMPLE / relative).read_bytes(), relative

    status, out, err = ran["elo"]
    assert (status, err) == (0, "")
    assert "Score attendu : 0,24" in out or "Score attendu : 0.24" in out, out

    status, out, err = ran["cote"]
    assert (status, err) == (0, ""), err
    assert player in out and "PJ" in out, out[:500]

    # the sample's sheets hold planted score errors: 1 says « some differ », never 2
    status, out, err = ran["score"]
    assert status in (0, 1) and err == "", (status, err)
    assert re.search(r"\d+ manche\(s\), \d+ coup\(s\) rejoué\(s\)", out), out[-500:]

    status, out, err = ran["notebook-html"]
    assert (status, err) == (0, ""), err
    assert (tmp_path / "notebooks" / "series_movements.html").is_file()

    status, out, err = ran["backtest"]  # the sample's exports are all accepted
    assert (status, err) == (0, ""), err
    assert "Meilleur : " in out and (tmp_path / "backtest" / "backtest.duckdb").is_file()


def test_score_takes_the_sheet_positionally_or_as_an_option(tmp_path: Path) -> None:
    sheet = _placeholders(tmp_path, "")["SHEET"]
    positional = _run(["score", sheet])
    assert positional[0] in (0, 1) and positional[2] == "", positional
    assert _run(["score", "--sheet", sheet]) == positional
    assert _run(["score", sheet, "--sheet", sheet]) == positional
    status, _, err = _run(["score"])
    assert status == 2 and "indiquez la feuille de partie" in err, err
    status, _, err = _run(["score", sheet, "--sheet", str(tmp_path / "autre.csv")])
    assert status == 2 and "deux feuilles indiquées" in err, err
