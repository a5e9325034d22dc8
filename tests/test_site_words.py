"""The generated site as a reader meets it (issue 27, items 1, 2 and 4): every link of every
page leads somewhere (the file on disk, and the `#id` of a fragment in it), the home page
reaches the circuits, and no page nor PDF shows a repository path (`docs/…`, `data/…`,
a `.csv` or `.md` file) or an English step name; the build's progress lines are French
too. All on the shared sample build."""

from __future__ import annotations

import html
import posixpath
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

# What a committee must never read: the repository's paths and files, and the names the
# code gives its steps and checks (issue 27, item 4). The federations' own rules are cited
# as such (« FISF §3.2 », « règlement PACA, chapitre 2 »).
REPOSITORY_MARKERS = ("docs/", "data/", "src/", "pipelines/", "transforms/", ".csv", ".md")
REPOSITORY_WORDS = re.compile(r"(?:docs|data|src|pipelines|transforms)/|\.(?:csv|md)\b")
ENGLISH_PHRASES = (
    "data quality notes",
    "mort subite challenge",
    "national classification",
    "paca circuit",
    "round robin finals",
    "circuit reports",
    "every participant placed",
    "one row per licensee",
    "add up",
    "follow the pairing table",
    "what-if",
)
ENGLISH_WORDS = re.compile("|".join(rf"\b{re.escape(p)}\b" for p in ENGLISH_PHRASES))


# The pages are written by our code, attributes in double quotes: regular expressions read
# them (an HTML parser over the sample's 1 200 pages costs a minute).
def _without_scripts(markup: str) -> str:
    """The page without its <script> and <style> elements (plotly.js inline in a report)."""
    kept: list[str] = []
    at = 0
    while (start := markup.find("<s", at)) >= 0:
        name = "script" if markup.startswith("<script", start) else "style"
        if not markup.startswith(f"<{name}", start):
            kept.append(markup[at : start + 2])
            at = start + 2
            continue
        end = markup.find(f"</{name}>", start)
        kept.append(markup[at:start])
        at = len(markup) if end < 0 else end + len(name) + 3
    kept.append(markup[at:])
    return "".join(kept)


_LINK = re.compile(r"\s(?:href|src)=\"([^\"]*)\"")
# a script loaded from a file (plotly.js, a player page's season files and their filler)
_SCRIPT_SRC = re.compile(r"<script\s[^>]*\bsrc=\"([^\"]*)\"")
_ID = re.compile(r"\sid=\"([^\"]*)\"")
_TAG = re.compile(r"<[^>]*>")


@dataclass(frozen=True)
class _Page:
    links: list[str]
    ids: set[str]
    text: str  # what a reader sees, one line per text run (never across two elements)


@cache
def _parsed(path: Path) -> _Page:
    raw = path.read_text(encoding="utf-8")
    markup = _without_scripts(raw)
    return _Page(
        links=[html.unescape(m) for m in (*_LINK.findall(markup), *_SCRIPT_SRC.findall(raw))],
        ids={html.unescape(m) for m in _ID.findall(markup)},
        text=html.unescape(_TAG.sub("\n", markup)),
    )


def _pages(reports: Path) -> list[Path]:
    return sorted(reports.rglob("*.html"))


def dead_links(reports: Path) -> Iterator[str]:
    """« page → link (why) » for every href/src of the site's pages that leads nowhere:
    a file missing on disk, outside the site, or a fragment naming no id of its page."""
    files = {p.relative_to(reports).as_posix() for p in reports.rglob("*") if p.is_file()}
    for page in _pages(reports):
        here = page.relative_to(reports)
        for raw in _parsed(page).links:
            url = urlsplit(raw)
            if url.scheme or url.netloc:
                if url.scheme not in ("http", "https", "data", "mailto", "javascript", "blob"):
                    yield f"{here} → {raw} (adresse inattendue)"
                continue
            target = posixpath.normpath(
                posixpath.join(here.parent.as_posix(), unquote(url.path) or here.name)
            )
            if target.startswith("../") or target == "..":
                yield f"{here} → {raw} (hors du site)"
            elif target not in files:
                yield f"{here} → {raw} (fichier absent)"
            elif (
                url.fragment
                and target.endswith(".html")
                and unquote(url.fragment) not in _parsed(reports / target).ids
            ):
                yield f"{here} → {raw} (ancre absente)"


def test_every_link_of_the_site_leads_somewhere(sample_site: Path) -> None:
    reports = sample_site / "reports"
    pages = _pages(reports)
    assert len(pages) > 100  # the player pages are there
    dead = list(dead_links(reports))
    assert dead == [], f"{len(dead)} liens morts, dont :\n" + "\n".join(dead[:30])


def test_the_home_page_links_every_circuit_year(sample_site: Path) -> None:
    reports = sample_site / "reports"
    years = sorted(p.parent.name for p in (reports / "circuits").glob("*/index.html"))
    assert years, "the sample has circuits"
    links = set(_parsed(reports / "index.html").links)
    assert {f"circuits/{y}/index.html" for y in years} <= links
    # and each year's page reaches its circuits' pages
    for year in years:
        pages = {p.name for p in (reports / "circuits" / year).glob("*.html")} - {"index.html"}
        assert pages <= set(_parsed(reports / "circuits" / year / "index.html").links)


def _readable_text(page: Path) -> str:
    return _parsed(page).text


def _offenders(texts: dict[str, str]) -> list[str]:
    """« where : « word » dans « …context… » » for every repository path or English step
    name of `texts` (a substring test first: the regular expressions only read the pages
    that may hold one)."""
    found = []
    for name, body in texts.items():
        lowered = body.lower()
        for pattern, markers, text in (
            (REPOSITORY_WORDS, REPOSITORY_MARKERS, body),
            (ENGLISH_WORDS, ENGLISH_PHRASES, lowered),
        ):
            if not any(m in text for m in markers):
                continue
            for match in pattern.finditer(text):
                start = max(match.start() - 60, 0)
                context = body[start : match.end() + 40].replace("\n", " ")
                found.append(f"{name} : « {match.group(0)} » dans « …{context}… »")
    return found


def test_no_page_shows_a_repository_path_or_an_english_word(sample_site: Path) -> None:
    reports = sample_site / "reports"
    texts = {str(p.relative_to(reports)): _readable_text(p) for p in _pages(reports)}
    found = _offenders(texts)
    assert found == [], f"{len(found)} occurrences, dont :\n" + "\n".join(found[:30])


def test_no_pdf_shows_a_repository_path_or_an_english_word(sample_site: Path) -> None:
    reports = sample_site / "reports"
    pdfs = sorted(reports.rglob("*.pdf"))
    if not pdfs:
        pytest.fail("the sample build printed no PDF")
    # pdftotext over every PDF at once (one process each, both cores busy)
    running = {
        str(p.relative_to(reports)): subprocess.Popen(
            ["pdftotext", "-layout", str(p), "-"], stdout=subprocess.PIPE, text=True
        )
        for p in pdfs
    }
    texts = {name: process.communicate()[0] for name, process in running.items()}
    assert all(process.returncode == 0 for process in running.values())
    found = _offenders(texts)
    assert found == [], f"{len(found)} occurrences, dont :\n" + "\n".join(found[:30])


def test_every_step_and_check_has_a_french_label() -> None:
    from pipelines.build import CHECK_LABELS, STEP_LABELS, step_label
    from pipelines.definitions import defs

    steps = {node.name for job in defs.resolve_all_job_defs() for node in job.nodes}
    checks = {key.name for key in defs.resolve_asset_graph().asset_check_keys}
    assert checks - set(CHECK_LABELS) == set()
    unnamed = {s for s in steps if s not in STEP_LABELS and not step_label(s).startswith("contr")}
    assert unnamed == set()
    assert step_label("cote_history_cote_history_adds_up") == (
        "contrôle « cote avant + PE + B + PJ = cote après »"
    )


def test_the_build_prints_french_lines(sample_site: Path) -> None:
    from pipelines.build import STEP_LABELS

    lines = (sample_site / "build.txt").read_text(encoding="utf-8").splitlines()
    steps = [line for line in lines if line.startswith("  ✓ ")]
    checks = [line for line in lines if line.startswith("      ✓ contrôle « ")]
    assert len(checks) > 10
    english = [line for line in lines if ENGLISH_WORDS.search(line.lower())]
    assert english + [line for line in steps + checks if "_" in line] == []
    # a label is printed as written (no « plotly,js »), then its time with a decimal comma
    shown = {re.sub(r" \(\d+,\d s\)$", "", line[4:]) for line in steps}
    assert "bibliothèque des graphiques" in shown
    # the PDF counter ends with every report printed (the sample's seasons and circuits)
    pdfs = len(list((sample_site / "reports").rglob("*.pdf")))
    assert pdfs >= 11
    assert shown - set(STEP_LABELS.values()) == {f"PDF imprimés : {pdfs} / {pdfs}"}
    printed = next(i for i, line in enumerate(lines) if line.startswith("  ✓ PDF imprimés : "))
    assert all(i < printed for i, line in enumerate(lines) if "… PDF :" in line)
