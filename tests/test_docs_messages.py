"""The messages docs/exports.md quotes are the code's own (issue 27, item 7): every example
of its table « What a rejected file's message looks like », and the example above it, is
produced word for word by a file the ingest refuses (`…` in the docs stands for any text)."""

from __future__ import annotations

import re

from pipelines.paths import PROJECT_ROOT
from tests.support import RESULTS_HEADER, games_csv, ingested, results_csv

DOCS = PROJECT_ROOT / "docs" / "exports.md"
C2 = [("201", "Petit", "Marc", 1), ("202", "Roux", "Léa", 2)]
S = "2023-2024"


def _results_without_rank(tournament: str) -> str:
    header = RESULTS_HEADER.split(",")
    keep = [i for i, name in enumerate(header) if name != "rank"]
    lines = results_csv(tournament, C2).splitlines()
    return "\n".join(",".join(line.split(",")[i] for i in keep) for line in lines) + "\n"


def _truncated(tournament: str) -> str:
    lines = results_csv(tournament, C2).splitlines()
    lines[2] = ",".join(lines[2].split(",")[:6])
    return "\n".join(lines) + "\n"


# The refused files that give each documented message, as the docs name them, in two
# batches read as one build would (the docs name tournament C2 twice); the others' files
# and tournaments are named apart so that each is refused for its own reason only.
ACCEPTED = {f"{S}/C1.csv", f"{S}/C2.csv"}  # C1bis.csv repeats C1; the games name 999
EXAMPLES: list[dict[str, str | bytes]] = [
    {
        f"{S}/a.csv": results_csv("A", C2).encode("utf-16"),
        f"{S}/b.csv": results_csv("B", C2).replace(",", "\t"),
        f"{S}/c.csv": _results_without_rank("C"),
        f"{S}/D2.csv": results_csv("D2", C2)
        .replace(",rank,", ",Rang,")
        .replace(",Léa,2,", ",Léa,deux,"),
        f"{S}/e.csv": results_csv("E", C2, date="hier"),
        f"{S}/f.csv": results_csv("F", C2, date="31/02/2024"),
        f"{S}/g.csv": results_csv("G", C2, date="14/13/2024"),
        f"{S}/twice.csv": results_csv("C2", [*C2, ("201", "Petit", "Marc", 3)]),
        f"{S}/C1.csv": results_csv("C1", C2),
        f"{S}/C1bis.csv": results_csv("C1", C2),
        f"{S}/h.csv": "",
        f"{S}/i.csv": _truncated("I"),
        f"{S}/j.xlsx": b"PK\x03\x04 not a workbook",
    },
    {
        f"{S}/C2.csv": results_csv("C2", C2),
        f"{S}/C2_games.csv": games_csv("C2", [(1, "201", "999", 400, 380)]),
    },
]


def _documented() -> list[tuple[str, str]]:
    """(problem, message) of each example of the docs' table of messages, and the full
    example above it (its problem: « e.g. »)."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("## What a rejected file's message looks like")
    section = text[start : text.index("\n## ", start + 1)]
    found = [("e.g.", m) for m in re.findall(r"e\.g\.\n`([^`]+)`", section)]
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 2 and cells[1].startswith("`"):
            found += [(cells[0], m) for m in re.findall(r"`([^`]+)`", cells[1])]
    return found


def _messages() -> list[str]:
    """Every message of the refused EXAMPLES, whole and after « file, row, column : »."""
    out = []
    for files in EXAMPLES:
        rejected = ingested(files).rejected
        assert set(rejected) == set(files) - ACCEPTED  # each for its own reason
        for message in rejected.values():
            out += [message, message.split(" : ", 1)[1]]
    return out


def test_every_documented_message_is_the_codes() -> None:
    documented = _documented()
    assert len(documented) >= 12  # the table and its example were found
    messages = _messages()
    missing = []
    for problem, quoted in documented:
        pattern = ".*".join(re.escape(part) for part in quoted.split("…"))
        if not any(re.fullmatch(pattern, m) for m in messages):
            missing.append(f"{problem} : {quoted}")
    assert missing == [], "\n".join(missing)
