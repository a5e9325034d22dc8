"""The readers' glossary defines the words of the reports a newcomer met undefined
(issue 27, item 8), on the page and in docs/glossary.md."""

from __future__ import annotations

import html
import re

from pipelines.paths import PROJECT_ROOT
from pipelines.reports.glossary import render_glossary

# term of the glossary page → how docs/glossary.md writes it
ADDED = {
    "Mort Subite": "**Mort Subite**",
    "PACA": "**PACA**",
    "Grand Est": "**Grand Est**",
    "Masters": "**Masters**",
    "Clé de répartition": "**clé de répartition**",
    "Tête de série": "**tête de série**",
    "Médiane": "**médiane**",
    "PP5, PP6, PP7": "**PP5, PP6, PP7**",
}


def _definitions() -> dict[str, str]:
    page = render_glossary()
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page, flags=re.S)
    return {html.unescape(term): html.unescape(text) for term, text in pairs}


def test_the_newcomers_words_are_defined() -> None:
    definitions = _definitions()
    missing = [term for term in ADDED if term not in definitions]
    assert missing == [], missing
    for term in ADDED:
        assert len(definitions[term]) > 80, (term, definitions[term])
    assert "82,5" in definitions["Médiane"]  # the rules' own example (docs/rules.md §4)
    assert "16" in definitions["Tête de série"] and "16" in definitions["Masters"]


def test_the_docs_glossary_has_them_too() -> None:
    text = (PROJECT_ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| **")]
    for written in ADDED.values():
        assert any(row.startswith(f"| {written} |") for row in rows), written
