"""The readers' glossary (`glossaire.html` at the root of the reports): every term, acronym
and code the reports use, defined once in French. Every page links to it (`page.notice`).
"""

from __future__ import annotations

from pathlib import Path

from pipelines.reports.html import Html, esc, link, write_atomic
from pipelines.reports.labels import CATEGORIES, SERIES_KINDS, series_label
from pipelines.reports.page import GLOSSARY_PAGE, page

# (term, definition): in reading order, by theme.
TERMS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Saisons et tournois",
        (
            (
                "Saison",
                "du 1er septembre au 31 août (saison 2023-2024 : du 01/09/2023 au "
                "31/08/2024). Les circuits régionaux se jouent par année civile.",
            ),
            (
                "Tournoi homologué",
                "tournoi reconnu par une fédération, qui compte pour les classements.",
            ),
            (
                "Catégorie",
                "le niveau d'un tournoi (mondial, national, régional, open, club, "
                "homologué…) ; elle fixe le bonus et les bornes des points de jeu de la cote, "
                "et le poids d'une épreuve duplicate.",
            ),
            (
                "Licence",
                "le numéro d'adhérent d'un joueur à sa fédération ; il l'identifie "
                "dans tous les exports.",
            ),
            (
                "Ex aequo",
                "des joueurs à égalité partagent la meilleure place ; la place "
                "suivante est sautée (deux 5es, puis un 7e).",
            ),
            (
                "Export",
                "le fichier (CSV, XLSX ou logiciel de tournoi) qu'un organisateur ou "
                "une fédération transmet. Un export comportant une erreur est refusé en entier "
                "et signalé dans l'avis sur les données de chaque rapport.",
            ),
            (
                "Liste de classement",
                "la liste officielle d'une fédération à une date : cote, "
                "Elo et série de chaque joueur ; elle sert de point de départ.",
            ),
        ),
    ),
    (
        "Scrabble classique : la cote",
        (
            (
                "Cote",
                "le classement international du Scrabble classique (FISF) : après "
                "chaque tournoi, un joueur gagne PE + B + PJ points.",
            ),
            (
                "PE (points d'expérience)",
                "N − place + 1 : le vainqueur d'un tournoi de N "
                "joueurs gagne N points, le dernier 1.",
            ),
            (
                "B (bonus)",
                "points en plus pour les quatre premières places : M, M/2, M/5, "
                "M/10 (arrondis), M dépendant de la catégorie du tournoi.",
            ),
            (
                "Place initiale",
                "la place d'un joueur quand les participants sont rangés par "
                "cote décroissante ; la k-ième cote est la cote de référence de la place k.",
            ),
            (
                "PJ (points de jeu)",
                "l'écart entre la cote de référence de la place obtenue et "
                "sa propre cote, compté aux 2/3 s'il est positif, au 1/3 s'il est négatif, puis "
                "borné entre PJmin et PJmax.",
            ),
            (
                "PJmin, PJmax",
                "les bornes des points de jeu, fixées par la catégorie et le "
                "nombre de parties du tournoi.",
            ),
            (
                "Joueur actif",
                "joueur ayant disputé au moins un tournoi classique homologué "
                "dans les deux ans ; seuls les actifs figurent au classement publié.",
            ),
            (
                "Séries classiques (Joker, A, B, C)",
                "les séries du classique, fixées chaque "
                "1er septembre par des barres de cote (environ 5 %, 10 %, 30 % et 55 % des "
                "actifs).",
            ),
        ),
    ),
    (
        "Elo",
        (
            ("Elo", "classement calculé partie par partie, comme le fait la FIDE aux échecs."),
            (
                "K",
                "le coefficient qui règle l'ampleur des variations : 40 pour un débutant "
                "(30 premières parties) ou un jeune, 20 ensuite, 10 au-delà de 2 400.",
            ),
            (
                "Score attendu",
                "la part des points qu'un joueur devait marquer face à ses "
                "adversaires, d'après l'écart de classement.",
            ),
            ("Δ", "la variation : K × (score obtenu − score attendu)."),
        ),
    ),
    (
        "Duplicate : les séries",
        (
            (
                "Duplicate",
                "forme de Scrabble où tous les joueurs jouent les mêmes tirages ; "
                "chaque coup est comparé au top.",
            ),
            (
                "Top",
                "le meilleur score possible d'un coup ; le total des tops est la somme "
                "sur une partie ou un tournoi.",
            ),
            (
                "Série",
                "la classe d'un joueur de duplicate, de la meilleure à la moins bonne : "
                "super-série, 1 à 4 (séries internationales), 5 et 6 (nationales), 7 "
                "(nouveaux licenciés). Chaque série a son quota de joueurs.",
            ),
            (
                "Super-série",
                "l'élite de la série 1 : les meilleurs pourcentages de série 1 "
                "sur deux saisons (3/4 de la saison, 1/4 de la précédente), au-dessus de 50 %.",
            ),
            ("Sous-série", "subdivision d'une série (A, B, C, D) selon les fédérations."),
            (
                "%N1, %N2, %N3, %N4",
                "le pourcentage d'un joueur dans une épreuve face à la "
                "zone de la série 1, 2, 3 ou 4 : 100 s'il finit au-dessus des joueurs de cette "
                "série, 0 au-dessous, entre les deux selon sa place parmi eux. La moyenne "
                "pondérée sur la saison classe les séries 1 à 4.",
            ),
            (
                "PC (points de classement)",
                "points de place qui classent les séries 5 et 6 : "
                "le vainqueur de N joueurs gagne N × 5p/4 (p parties), chaque place suivante "
                "5p/4 de moins.",
            ),
            (
                "Poids (coefficient) d'une épreuve",
                "le coefficient de l'épreuve dans la "
                "moyenne de la saison ; si la somme des poids est inférieure au diviseur "
                "minimal D, c'est D qui divise.",
            ),
            (
                "Barre d'accès",
                "la valeur (pourcentage ou PC) atteinte par le dernier joueur "
                "admis dans une série.",
            ),
            ("Quota", "la part de la population que chaque série accueille."),
            (
                "Série tenue",
                "la série officielle d'un joueur pendant une saison : celle "
                "écrite par l'organisateur sur ses résultats, sinon celle d'une liste de "
                "classement ou du classement publié par la FFSc.",
            ),
            (
                "Série calculée ici",
                "la série que ce projet calcule en fin de saison avec les "
                "barres d'accès, pour la saison suivante ; elle peut différer de la série "
                "officielle (exports manquants, quotas par fédération, décisions de comité).",
            ),
            (
                "Promu, relégué, maintenu, nouveau",
                "le mouvement d'un joueur entre la série "
                "tenue et la série calculée pour la saison suivante.",
            ),
            (
                "FFSc",
                "Fédération française de Scrabble ; son classement publié est comparé "
                "aux séries calculées ici.",
            ),
        ),
    ),
    (
        "Classements nationaux (séries 5 à 7)",
        (
            (
                "PP5, PP6, PP7",
                "en Belgique, les pourcentages de zone des séries 5, 6 et 7 : calculés "
                "comme le %N4, la série 5, 6 ou 7 prenant la place de la série 4, et moyennés "
                "sur la saison de la même façon. Ils classent les joueurs belges en séries 5, "
                "6 et 7 ; la série 5 exige un minimum de PP5.",
            ),
            (
                "Médiane",
                "la valeur du milieu d'une liste rangée dans l'ordre : autant de valeurs "
                "au-dessus qu'au-dessous ; avec un nombre pair de valeurs, la moyenne des deux "
                "du milieu (70, 80, 85, 90 : médiane 82,5). Au Luxembourg et au Royaume-Uni, "
                "un joueur est classé par la médiane de ses pourcentages de la saison, non par "
                "leur moyenne.",
            ),
            (
                "Clé de répartition",
                "au Luxembourg et au Royaume-Uni, la table qui fait correspondre un "
                "pourcentage médian à une série (5, 6 ou 7). La médiane de référence d'une "
                "série est celle des joueurs d'une grande fédération (la France) qui tenaient "
                "cette série ; la borne entre deux séries est à mi-chemin de leurs médianes "
                "de référence. Elle est recalculée chaque saison.",
            ),
        ),
    ),
    (
        "Circuits régionaux et challenges",
        (
            (
                "PACA",
                "Provence-Alpes-Côte d'Azur : le circuit des clubs de « Des chiffres et des "
                "lettres » de la région (départements 04, 05, 06, 13, 83 et 84). Un "
                "classement des joueurs et un classement des clubs sont publiés après chaque "
                "tournoi ; le circuit compte par année civile.",
            ),
            (
                "Tête de série",
                "dans le circuit PACA, l'un des 16 premiers du dernier classement publié "
                "avant un tournoi ; son numéro est sa place dans ce classement, et le nombre "
                "de têtes de série présentes fixe le barème des points du tournoi. Dans une "
                "finale (Masters Grand Sud, Grand Est), le numéro de chaque participant dans "
                "l'ordre du classement qui l'a qualifié.",
            ),
            (
                "Masters",
                "une finale de fin d'année entre 16 joueurs : le Masters PACA invite les 16 "
                "premiers du classement PACA de l'année ; au Masters Grand Sud, les 16 "
                "premiers de son classement annuel jouent un tournoi toutes rondes (chacun "
                "rencontre chacun : 15 rondes).",
            ),
            (
                "Grand Est",
                "le championnat du Grand Est de « Des chiffres et des lettres » : une phase "
                "qualificative (les tournois du circuit dans l'année, des points par place) "
                "puis une finale toutes rondes de 16 joueurs.",
            ),
            (
                "Mort Subite",
                "le challenge de la fédération belge (FBS) : après certains tournois "
                "duplicate, les meilleurs joueurs du tournoi jouent une manche où, coup par "
                "coup, est éliminé celui qui marque moins que le top (ou, si personne ne l'a "
                "trouvé, que le meilleur score joué). Chaque manche donne des points selon la "
                "place, la finale de fin de saison compte double, et le classement de la "
                "saison décerne les trophées.",
            ),
        ),
    ),
    (
        "Fédérations et circuits",
        (
            (
                "FISF",
                "Fédération internationale de Scrabble francophone, qui réunit les "
                "fédérations nationales (France, Belgique, Suisse, Québec, Luxembourg…).",
            ),
            (
                "Code de fédération",
                "les rapports écrivent une fédération par son nom et son "
                "code : France (FRA), Belgique (BEL), Suisse (SUI), Québec (QUE)…",
            ),
            (
                "DCDL",
                "« Des chiffres et des lettres », le circuit des clubs inspiré du jeu télévisé.",
            ),
        ),
    ),
)


def render_glossary() -> str:
    """The glossary page (French), with the categories and series spelled out."""
    parts = [
        '<nav class="breadcrumb no-print">',
        link("index.html", "← Accueil"),
        "</nav>",
        '<header class="page"><h1>Glossaire</h1><p>Les termes, sigles et codes des rapports '
        "de saison, des fiches des joueurs et de l'accueil.</p></header>",
    ]
    for theme, entries in TERMS:
        items = "".join(f"<dt>{esc(term)}</dt><dd>{esc(text)}</dd>" for term, text in entries)
        parts.append(f'<h2>{esc(theme)}</h2><dl class="glossary">{items}</dl>')
    categories = sorted(set(CATEGORIES.values()))
    parts.append(
        "<h2>Catégories de tournoi</h2><p>"
        + esc(", ".join(categories))
        + ".</p><h2>Séries duplicate</h2><ul>"
        + "".join(
            f"<li>{esc(series_label(code))} : {esc(kind)}</li>"
            for code, kind in SERIES_KINDS.items()
        )
        + "</ul>"
    )
    return page("Glossaire des rapports", Html("".join(parts)), with_plotly=False)


def write_glossary(reports: Path) -> Path:
    """Write `glossaire.html` at the root of the reports folder."""
    path = reports / GLOSSARY_PAGE
    content = render_glossary()
    if not path.exists() or path.read_text(encoding="utf-8") != content:
        write_atomic(path, content)
    return path
