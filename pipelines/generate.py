"""A seeded, deterministic simulator of the exports of the francophone Scrabble federations.

`generate(out, GenerateConfig(...))` simulates a population of licensed players over a
number of seasons and writes, in the format of `pipelines.ingest.schema`:

- `<out>/rating_list_<as_of>.csv`: the rating list on the day before the first season
  (series of every existing player; cote, Elo and Elo games of classique players);
- `<out>/<season>/<tournament_id>.csv`: one results file per tournament, and
  `<tournament_id>_games.csv` with one row per game for classique and DCDL tournaments;
  one or two tournaments per season are a workbook `<tournament_id>.xlsx` instead, with a
  `results` sheet and, for a classique one, a `games` sheet;
- `<out>/<season>/classement_<season end>.csv`: the French federation's (FFSc) national
  ranking at the end of the season, for the French players who played duplicate in it
  (`write_ffsc_ranking` describes its columns).

Most files are UTF-8 comma-separated with canonical headers; a few have a UTF-8 BOM; about
one in five is a semicolon-separated Windows-1252 file with CRLF line ends and French
headers (aliases of the schema). Conventions of the simulated data: ranks are shared by
tied players (1, 2, 2, 4); a bye is a game row with no opponent and no scores, counted in
the results as a win with a spread of +50 in classique and +0 in DCDL; the `series` column
(duplicate series, "1".."7") is written on duplicate results only.

Same seed and arguments give byte-identical files; the first k seasons do not depend on the
number of seasons asked for.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from pipelines.ingest.formats import ffsc
from pipelines.ingest.schema import GAMES

# --------------------------------------------------------------------------------------
# Reference lists

# Name pools: "fr" (France, Belgium, Switzerland, Luxembourg, UK), "qc" (Quebec), "wa"
# (West Africa), "ca" (Central Africa). Everything must be encodable in Windows-1252.
# fmt: off
FIRST_NAMES: dict[str, tuple[str, ...]] = {
    "fr": (
        "Hélène", "François", "Jérôme", "Anaïs", "Chloé", "Zoé", "Noël", "Gaëlle", "Loïc",
        "Éric", "Céline", "Françoise", "Geneviève", "Dominique", "Michel", "Alain",
        "Patrick", "Christiane", "Monique", "Bernadette", "Josiane", "Jean-Pierre",
        "Marie-Thérèse", "Jean-Luc", "Philippe", "Nathalie", "Sylvie", "Isabelle",
        "Catherine", "Martine", "Nicole", "Jacqueline", "Pierre", "Jacques", "André",
        "Bernard", "Daniel", "Gérard", "Thérèse", "Ginette", "Denise", "Yvette", "Odile",
        "Claude", "Benoît", "Raphaël", "Léa", "Maël", "Inès", "Agnès", "Béatrice",
        "Joël", "Régis", "Stéphane", "Valérie", "Hervé", "Aurélie", "Colette", "Simone",
        "Lucien", "René", "Yves", "Annick", "Solène", "Clémence", "Mathéo", "Emma",
    ),
    "qc": (
        "Mélanie", "Sébastien", "Geneviève", "Jean-François", "Marc-André", "Guylaine",
        "Ghislain", "Réjean", "Sylvain", "Josée", "Francine", "Lucie", "Denis", "Réal",
        "Normand", "Chantal", "Luc", "Maryse", "Étienne", "Frédérique", "Gaétan", "Hélène",
    ),
    "wa": (
        "Ngoné", "Amadou", "Fatou", "Moussa", "Awa", "Aïssatou", "Mamadou", "Ousmane",
        "Mariama", "Cheikh", "Khady", "Ibrahima", "Kouamé", "Adjoa", "Yao", "Aya",
        "Koffi", "Akissi", "Sékou", "Adama", "Rokhaya", "Abdoulaye", "Codjo", "Sèna",
        "Félicité", "Honoré", "Léopold", "Mawuli", "Issa", "Salimata",
    ),
    "ca": (
        "Serge", "Hervé", "Blaise", "Aurélien", "Rodrigue", "Ghislaine", "Pélagie",
        "Joséphine", "Théophile", "Norbert", "Brice", "Armel", "Ulrich", "Clarisse",
        "Nadège", "Landry", "Prisca", "Stève", "Judicaël", "Chantal", "Médard", "Olga",
    ),
}
LAST_NAMES: dict[str, tuple[str, ...]] = {
    "fr": (
        "Lefèvre", "Dupont", "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard",
        "Petit", "Durand", "Leroy", "Moreau", "Simon", "Laurent", "Michel", "Garcia",
        "David", "Bertrand", "Roux", "Vincent", "Fournier", "Morel", "Girard", "André",
        "Mercier", "Blanc", "Guérin", "Boyer", "Garnier", "Chevalier", "François",
        "Legrand", "Gauthier", "Perrin", "Robin", "Clément", "Morin", "Henry", "Rousseau",
        "Mathieu", "Masson", "Marchand", "Duval", "Denis", "Dumont", "Lemaire", "Noël",
        "Meyer", "Dufour", "Meunier", "Brun", "Blanchard", "Giraud", "Joly", "Rivière",
        "Brunet", "Gaillard", "Barbier", "Arnaud", "Gérard", "Roche", "Renard", "Schmitt",
        "Leroux", "Colin", "Vidal", "Caron", "Picard", "Fabre", "Aubert", "Lemoine",
        "Renaud", "Dumas", "Lacroix", "Bourgeois", "Benoît", "Leclerc", "Hébert",
        "Béranger", "Crépin", "Le Goff", "Le Gall", "Ménard", "Février", "Lefebvre",
        "Peeters", "Janssens", "Maes", "Dupuis", "Wauters", "Favre", "Rochat", "Müller",
        "Weber", "Schmit", "Hoffmann", "Wagner", "O'Neill", "Smith", "Saint-Just",
        "Delacroix", "Bézier", "Thévenin", "Pâris", "Jégou",
    ),
    "qc": (
        "Tremblay", "Gagnon", "Côté", "Bouchard", "Pelletier", "Lévesque", "Bélanger",
        "Gauthier", "Morin", "Lavoie", "Fortin", "Gagné", "Ouellet", "Paquette", "Bergeron",
        "Desrosiers", "Thériault", "Boucher", "Poirier", "Lapointe", "Larouche", "Gélinas",
    ),
    "wa": (
        "Diop", "Ndiaye", "Fall", "Sow", "Diallo", "Ba", "Faye", "Gueye", "Sène", "Mbaye",
        "Koné", "Kouassi", "Traoré", "Ouattara", "Coulibaly", "Yao", "N'Guessan", "Konan",
        "Bamba", "Touré", "Houngbédji", "Agossou", "Adjovi", "Hounkpè", "Sawadogo",
        "Ouédraogo", "Kaboré", "Agbéko", "Amégan", "N'Diaye", "Dièye", "Séck",
    ),
    "ca": (
        "Mbarga", "Nkoulou", "Etoundi", "Fouda", "Ngoma", "Mabiala", "Moukala", "Obiang",
        "Nzé", "Mba", "Ondoua", "Essomba", "Tchakounté", "Kamga", "Ngo Bayiha", "Mavoungou",
        "Makosso", "Loemba", "Ndong", "Ella", "Moussavou", "Bekale", "Tchoupo", "Atangana",
    ),
}
# fmt: on

# French regions for France (regional events and geography), by code.
REGIONS: dict[str, str] = {
    "IDF": "Île-de-France",
    "PACA": "Provence-Alpes-Côte d'Azur",
    "ARA": "Auvergne-Rhône-Alpes",
    "OCC": "Occitanie",
    "NAQ": "Nouvelle-Aquitaine",
    "BRE": "Bretagne",
    "PDL": "Pays de la Loire",
    "GES": "Grand Est",
    "HDF": "Hauts-de-France",
    "NOR": "Normandie",
    "BFC": "Bourgogne-Franche-Comté",
    "CVL": "Centre-Val de Loire",
}


@dataclass(frozen=True)
class Federation:
    """A federation: its code, the country of its events, its share of the players."""

    code: str
    country: str
    weight: float
    cluster: str  # federations of a cluster travel to each other's events
    names: str  # name pool
    championship: str
    cities: tuple[tuple[str, str], ...]  # (city, region), biggest first


# fmt: off
FEDERATIONS: tuple[Federation, ...] = (
    Federation(
        "FRA", "France", 0.75, "europe", "fr", "Championnat de France",
        (
            ("Paris", "IDF"), ("Lyon", "ARA"), ("Marseille", "PACA"), ("Toulouse", "OCC"),
            ("Nice", "PACA"), ("Nantes", "PDL"), ("Montpellier", "OCC"),
            ("Strasbourg", "GES"), ("Bordeaux", "NAQ"), ("Lille", "HDF"), ("Rennes", "BRE"),
            ("Reims", "GES"), ("Toulon", "PACA"), ("Saint-Étienne", "ARA"),
            ("Le Havre", "NOR"), ("Grenoble", "ARA"), ("Dijon", "BFC"), ("Angers", "PDL"),
            ("Nîmes", "OCC"), ("Clermont-Ferrand", "ARA"), ("Le Mans", "PDL"),
            ("Aix-en-Provence", "PACA"), ("Brest", "BRE"), ("Tours", "CVL"),
            ("Amiens", "HDF"), ("Limoges", "NAQ"), ("Annecy", "ARA"), ("Perpignan", "OCC"),
            ("Metz", "GES"), ("Besançon", "BFC"), ("Orléans", "CVL"), ("Rouen", "NOR"),
            ("Caen", "NOR"), ("Nancy", "GES"), ("Avignon", "PACA"), ("Poitiers", "NAQ"),
            ("La Rochelle", "NAQ"), ("Pau", "NAQ"), ("Vichy", "ARA"),
            ("Aix-les-Bains", "ARA"), ("Cannes", "PACA"), ("Béziers", "OCC"),
            ("Chambéry", "ARA"), ("Quimper", "BRE"), ("Vannes", "BRE"), ("Colmar", "GES"),
            ("Mulhouse", "GES"), ("Troyes", "GES"), ("Épinal", "GES"), ("Agen", "NAQ"),
            ("Biarritz", "NAQ"), ("Évian-les-Bains", "ARA"), ("Menton", "PACA"),
            ("Orange", "PACA"), ("Arles", "PACA"), ("Sisteron", "PACA"),
            ("Saint-Tropez", "PACA"), ("Les Sables-d'Olonne", "PDL"), ("Auxerre", "BFC"),
            ("Chartres", "CVL"), ("Évreux", "NOR"), ("Arras", "HDF"), ("Saint-Malo", "BRE"),
        ),
    ),
    Federation(
        "BEL", "Belgique", 0.07, "europe", "fr", "Championnat de Belgique",
        (
            ("Bruxelles", "BEL"), ("Liège", "BEL"), ("Charleroi", "BEL"), ("Namur", "BEL"),
            ("Mons", "BEL"), ("Tournai", "BEL"), ("Wavre", "BEL"), ("Spa", "BEL"),
            ("Arlon", "BEL"), ("Louvain-la-Neuve", "BEL"),
        ),
    ),
    Federation(
        "SUI", "Suisse", 0.04, "europe", "fr", "Championnat de Suisse",
        (
            ("Genève", "SUI"), ("Lausanne", "SUI"), ("Neuchâtel", "SUI"), ("Fribourg", "SUI"),
            ("Sion", "SUI"), ("Montreux", "SUI"), ("Delémont", "SUI"),
            ("Yverdon-les-Bains", "SUI"),
        ),
    ),
    Federation(
        "QUE", "Canada", 0.045, "america", "qc", "Championnat du Québec",
        (
            ("Montréal", "QUE"), ("Québec", "QUE"), ("Laval", "QUE"), ("Gatineau", "QUE"),
            ("Sherbrooke", "QUE"), ("Trois-Rivières", "QUE"), ("Saguenay", "QUE"),
            ("Lévis", "QUE"),
        ),
    ),
    Federation(
        "LUX", "Luxembourg", 0.01, "europe", "fr", "Championnat du Luxembourg",
        (("Luxembourg", "LUX"), ("Esch-sur-Alzette", "LUX"), ("Dudelange", "LUX")),
    ),
    Federation(
        "GBR", "Royaume-Uni", 0.01, "europe", "fr", "Championnat du Royaume-Uni",
        (("Londres", "GBR"), ("Édimbourg", "GBR"), ("Bristol", "GBR")),
    ),
    Federation(
        "SEN", "Sénégal", 0.02, "africa", "wa", "Championnat du Sénégal",
        (("Dakar", "SEN"), ("Thiès", "SEN"), ("Saint-Louis", "SEN"), ("Ziguinchor", "SEN")),
    ),
    Federation(
        "CIV", "Côte d'Ivoire", 0.015, "africa", "wa", "Championnat de Côte d'Ivoire",
        (("Abidjan", "CIV"), ("Yamoussoukro", "CIV"), ("Bouaké", "CIV"), ("San-Pédro", "CIV")),
    ),
    Federation(
        "CMR", "Cameroun", 0.01, "africa", "ca", "Championnat du Cameroun",
        (("Yaoundé", "CMR"), ("Douala", "CMR"), ("Bafoussam", "CMR")),
    ),
    Federation(
        "COG", "Congo", 0.008, "africa", "ca", "Championnat du Congo",
        (("Brazzaville", "COG"), ("Pointe-Noire", "COG"), ("Dolisie", "COG")),
    ),
    Federation(
        "GAB", "Gabon", 0.006, "africa", "ca", "Championnat du Gabon",
        (("Libreville", "GAB"), ("Port-Gentil", "GAB"), ("Franceville", "GAB")),
    ),
    Federation(
        "BEN", "Bénin", 0.006, "africa", "wa", "Championnat du Bénin",
        (("Cotonou", "BEN"), ("Porto-Novo", "BEN"), ("Parakou", "BEN")),
    ),
    Federation(
        "TOG", "Togo", 0.005, "africa", "wa", "Championnat du Togo",
        (("Lomé", "TOG"), ("Kara", "TOG")),
    ),
    Federation(
        "BFA", "Burkina Faso", 0.005, "africa", "wa", "Championnat du Burkina Faso",
        (("Ouagadougou", "BFA"), ("Bobo-Dioulasso", "BFA")),
    ),
)
# fmt: on

# Cities of the big duplicate festivals, in the order they are used.
# fmt: off
FESTIVAL_CITIES = (
    "Vichy", "Cannes", "Aix-les-Bains", "Paris", "La Rochelle", "Spa", "Montreux",
    "Biarritz", "Évian-les-Bains", "Dakar", "Montréal", "Nîmes", "Saint-Malo", "Annecy",
    "Les Sables-d'Olonne", "Menton", "Genève", "Abidjan", "Arles", "Chambéry", "Vannes",
    "Colmar", "Pau", "Avignon", "Quimper", "Bruxelles", "Luxembourg", "Yaoundé",
)
OPEN_PATTERNS = (
    "Open {de}{city}", "Tournoi {de}{city}", "Coupe {de}{city}", "Trophée {de}{city}",
    "Grand Prix {de}{city}", "Tournoi homologué {de}{city}", "Open international {de}{city}",
    "Challenge {de}{city}", "Rencontres {de}{city}", "Duplicate {de}{city}",
)
CLUB_EVENT_PATTERNS = (
    "Homologable {de}{city}", "Simultané {de}{city}", "Tournoi du club {de}{city}",
    "Soirée duplicate {de}{city}", "Après-midi duplicate {de}{city}",
)
CLUB_PATTERNS = (
    "Scrabble Club {de}{city}", "{city} Scrabble", "Club de Scrabble {de}{city}",
    "Les Amis du Scrabble {de}{city}", "Le Mot Juste {de}{city}", "Cercle Scrabble {de}{city}",
    "{city} Duplicate", "Les Lettres {de}{city}", "Scrabble Loisirs {de}{city}",
)
# fmt: on

# RULES §3: cumulative quotas of series 1..6 (N1 1 %, N2 2 %, N3 3 %, N4 12 %, N5 20 %).
SERIES_CUMULATIVE = (0.01, 0.03, 0.06, 0.18, 0.38, 1.0)
BYE_SPREAD = {"classique": 50, "dcdl": 0}
FRENCH_HEADERS: dict[str, tuple[str, ...]] = {
    "tournament_id": ("Code tournoi", "Id tournoi"),
    "tournament_name": ("Nom du tournoi", "Tournoi"),
    "discipline": ("Discipline",),
    "start_date": ("Date de début", "Début"),
    "end_date": ("Date de fin", "Fin"),
    "city": ("Ville", "Lieu"),
    "country": ("Pays",),
    "category": ("Catégorie",),
    "games": ("Nb parties", "Manches", "Parties"),
    "coefficient": ("Coef", "Coefficient"),
    "top_total": ("Top", "Total top"),
    "federation": ("Fédération", "Fédé"),
    "club": ("Club",),
    "series": ("Série",),
    "birth_year": ("Année de naissance", "Naissance"),
    "score": ("Score", "Points"),
    "wins": ("Victoires",),
    "spread": ("Écart",),
    "duplicate_rank": ("Rang duplicate", "Place duplicate"),
    "player_id": ("Licence", "N° licence"),
    "last_name": ("Nom",),
    "first_name": ("Prénom",),
    "rank": ("Rang", "Place", "Classement"),
    "round": ("Ronde", "Tour"),
    "opponent_id": ("Licence adversaire", "Adversaire"),
    "player_score": ("Score joueur",),
    "opponent_score": ("Score adversaire",),
}


def de(city: str) -> str:
    """The French 'de' before a city name, elided or contracted: `d'`, `du `, `des `."""
    if city.startswith("Le "):
        return "du " + city[3:]
    if city.startswith("Les "):
        return "des " + city[4:]
    if city[0] in "AEIOUYÉÈÊÂÎÔH":
        return "d'" + city
    return "de " + city


def _named(pattern: str, city: str) -> str:
    return pattern.replace("{de}{city}", de(city)).replace("{city}", city)


# --------------------------------------------------------------------------------------
# Configuration and summary


@dataclass(frozen=True)
class GenerateConfig:
    """What to simulate: seed, number of seasons and players, the first season's year."""

    seed: int = 2026
    seasons: int = 3
    players: int = 1000
    first_season: int = 2023


@dataclass
class GenerateSummary:
    """What `generate` wrote."""

    out: Path
    files: int = 0
    tournaments: dict[str, int] = field(
        default_factory=lambda: {"duplicate": 0, "classique": 0, "dcdl": 0}
    )
    result_rows: int = 0
    game_rows: int = 0
    rating_rows: int = 0
    ranking_rows: int = 0  # rows of the FFSc rankings, one file a season
    players: int = 0
    bytes: int = 0


# --------------------------------------------------------------------------------------
# The world: cities, clubs, players


@dataclass(frozen=True)
class World:
    """Cities and clubs, as arrays indexed by city or club number."""

    city_name: tuple[str, ...]
    city_fed: np.ndarray
    city_region: np.ndarray  # index into `regions`
    city_weight: np.ndarray
    regions: tuple[str, ...]
    fed_cluster: np.ndarray  # cluster number per federation
    club_name: tuple[str, ...]
    club_fed: np.ndarray
    club_city: np.ndarray
    club_weight: np.ndarray

    def city(self, name: str) -> int:
        return self.city_name.index(name)


def _build_world(rng: np.random.Generator, players: int) -> World:
    names: list[str] = []
    feds: list[int] = []
    regions: list[str] = []
    weights: list[float] = []
    for f, fed in enumerate(FEDERATIONS):
        for k, (city, region) in enumerate(fed.cities):
            names.append(city)
            feds.append(f)
            regions.append(region)
            weights.append(1.0 / (k + 3))
    region_codes = tuple(dict.fromkeys(regions))
    city_fed = np.array(feds)
    city_weight = np.array(weights)
    clusters = list(dict.fromkeys(fed.cluster for fed in FEDERATIONS))
    fed_cluster = np.array([clusters.index(fed.cluster) for fed in FEDERATIONS])

    n_clubs = int(np.clip(round(players / 4), 40, 600))
    per_fed = _apportion(np.array([fed.weight for fed in FEDERATIONS]), n_clubs, minimum=1)
    club_name: list[str] = []
    club_fed: list[int] = []
    club_city: list[int] = []
    for f, count in enumerate(per_fed):
        cities = np.flatnonzero(city_fed == f)
        p = city_weight[cities] / city_weight[cities].sum()
        # every city of the federation gets a club first, while clubs are left
        first = cities[: min(count, cities.size)]
        rest = rng.choice(cities, size=count - first.size, p=p)
        for c in np.sort(np.concatenate([first, rest])):
            k = club_city.count(int(c))
            pattern = CLUB_PATTERNS[k % len(CLUB_PATTERNS)]
            name = _named(pattern, names[c])
            if k >= len(CLUB_PATTERNS):
                name += f" {k // len(CLUB_PATTERNS) + 1}"
            club_name.append(name)
            club_fed.append(f)
            club_city.append(int(c))
    club_weight = rng.lognormal(0.0, 0.7, size=len(club_name))
    return World(
        city_name=tuple(names),
        city_fed=city_fed,
        city_region=np.array([region_codes.index(r) for r in regions]),
        city_weight=city_weight,
        regions=region_codes,
        fed_cluster=fed_cluster,
        club_name=tuple(club_name),
        club_fed=np.array(club_fed),
        club_city=np.array(club_city),
        club_weight=club_weight,
    )


def _apportion(weights: np.ndarray, total: int, minimum: int = 0) -> np.ndarray:
    """Split `total` in proportion to `weights` (largest remainders), each at least `minimum`."""
    base = np.full(weights.size, minimum)
    left = total - base.sum()
    exact = weights / weights.sum() * left
    counts = np.floor(exact).astype(int)
    short = left - counts.sum()
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:short]] += 1
    return base + counts


ALL_FIRST: tuple[str, ...] = tuple(n for pool in FIRST_NAMES.values() for n in pool)
ALL_LAST: tuple[str, ...] = tuple(n for pool in LAST_NAMES.values() for n in pool)


def _pool_range(names: dict[str, tuple[str, ...]], pool: str) -> tuple[int, int]:
    start = 0
    for key, values in names.items():
        if key == pool:
            return start, start + len(values)
        start += len(values)
    raise KeyError(pool)


@dataclass
class Population:
    """Every player ever licensed, as parallel arrays (index = player number)."""

    licence: np.ndarray
    first: np.ndarray  # index into ALL_FIRST
    last: np.ndarray  # index into ALL_LAST
    birth_year: np.ndarray
    fed: np.ndarray
    club: np.ndarray
    city: np.ndarray
    skill: np.ndarray  # duplicate
    classic_skill: np.ndarray
    dcdl_skill: np.ndarray
    activity: np.ndarray  # relative taste for duplicate events
    classic_activity: np.ndarray  # 0 = never plays classique
    dcdl_activity: np.ndarray
    series: np.ndarray  # 1..7
    joined: np.ndarray  # season index of the licence, -1 before the first season
    active: np.ndarray

    def __len__(self) -> int:
        return int(self.licence.size)

    def extend(self, other: Population) -> None:
        for f in fields(self):
            setattr(self, f.name, np.concatenate([getattr(self, f.name), getattr(other, f.name)]))


def _new_players(
    rng: np.random.Generator,
    world: World,
    n: int,
    next_licence: int,
    season: int,
    year: int,
) -> Population:
    """`n` players licensed at the start of `season` (index; -1 = the existing players)."""
    existing = season < 0
    fed_w = np.array([fed.weight for fed in FEDERATIONS])
    if existing:
        fed = np.repeat(np.arange(len(FEDERATIONS)), _apportion(fed_w, n, minimum=2))
        fed = rng.permutation(fed)
    else:
        fed = rng.choice(len(FEDERATIONS), size=n, p=fed_w / fed_w.sum())
    club = np.empty(n, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    last = np.empty(n, dtype=np.int64)
    for f, federation in enumerate(FEDERATIONS):
        mine = np.flatnonzero(fed == f)
        if mine.size == 0:
            continue
        clubs = np.flatnonzero(world.club_fed == f)
        p = world.club_weight[clubs] / world.club_weight[clubs].sum()
        club[mine] = rng.choice(clubs, size=mine.size, p=p)
        # one in six draws a name from the shared French pool
        for names, target in ((FIRST_NAMES, first), (LAST_NAMES, last)):
            own = _pool_range(names, federation.names)
            shared = _pool_range(names, "fr")
            use_shared = rng.random(mine.size) < (1 / 6)
            target[mine] = np.where(
                use_shared,
                rng.integers(*shared, size=mine.size),
                rng.integers(*own, size=mine.size),
            )
    if existing:
        kind = rng.random(n)
        age = np.where(
            kind < 0.75,
            rng.normal(66, 10, n),
            np.where(kind < 0.9, rng.normal(45, 12, n), rng.uniform(10, 20, n)),
        )
        skill = rng.normal(0.0, 1.0, n)
        activity = rng.lognormal(0.0, 0.8, n)
    else:
        age = np.where(rng.random(n) < 0.35, rng.uniform(9, 18, n), rng.normal(60, 12, n))
        skill = rng.normal(-0.9, 0.8, n)
        activity = rng.lognormal(-0.4, 0.8, n)
    age = np.clip(age, 8, 95)
    classic = rng.random(n) < 0.22
    dcdl = rng.random(n) < 0.08
    gaps = rng.integers(1, 8, size=n)
    return Population(
        licence=next_licence + np.cumsum(gaps),
        first=first,
        last=last,
        birth_year=(year - np.round(age)).astype(np.int64),
        fed=fed,
        club=club,
        city=world.club_city[club],
        skill=skill,
        classic_skill=0.7 * skill + math.sqrt(1 - 0.49) * rng.normal(0.0, 1.0, n),
        dcdl_skill=0.5 * skill + math.sqrt(1 - 0.25) * rng.normal(0.0, 1.0, n),
        activity=activity,
        classic_activity=np.where(classic, rng.lognormal(0.0, 0.7, n), 0.0),
        dcdl_activity=np.where(dcdl, rng.lognormal(0.0, 0.6, n), 0.0),
        series=np.full(n, 7, dtype=np.int64),
        joined=np.full(n, season, dtype=np.int64),
        active=np.ones(n, dtype=bool),
    )


def _classify(values: np.ndarray) -> np.ndarray:
    """Series 1..6 by RULES §3 quotas, best value first (ties broken by position)."""
    n = values.size
    order = np.argsort(-values, kind="stable")
    bounds = np.round(np.array(SERIES_CUMULATIVE) * n).astype(int)
    series = np.empty(n, dtype=np.int64)
    lo = 0
    for s, hi in enumerate(bounds, start=1):
        series[order[lo:hi]] = s
        lo = hi
    return series


# --------------------------------------------------------------------------------------
# Calendar: recurring events, held (almost) every season at about the same date


@dataclass(frozen=True)
class EventTemplate:
    """A recurring tournament."""

    discipline: str
    name: str
    city: int
    category: str
    reach: str  # key of REACH
    size: tuple[int, int]  # low, high (before capping)
    rounds: tuple[int, int]  # games (duplicate) or rounds, low and high inclusive
    days: int  # duration in days (1 = a single day)
    day: int  # day of the season around which it is held
    coefficient: float | None = None
    bonus: tuple[int, int, int] | None = None  # bonus_m, pj_min, pj_max
    duplicate_rank: bool = False
    round_robin: bool = False
    heavy_tail: bool = False
    fed_only: bool = False
    weekend: bool = True
    every_season: bool = False


# Weight of a player by relation to the venue: same city, same region, same federation,
# same cluster of federations, elsewhere.
REACH: dict[str, tuple[float, ...]] = {
    "club": (1.0, 0.15, 0.01, 0.001, 1e-4),
    "local": (1.0, 0.6, 0.12, 0.01, 0.001),
    "regional": (1.0, 1.0, 0.05, 0.005, 5e-4),
    "national": (1.0, 1.0, 1.0, 0.0, 0.0),
    "big": (1.0, 1.0, 0.8, 0.3, 0.05),
    "classique": (1.0, 0.8, 0.3, 0.05, 0.01),
    "international": (1.0, 1.0, 0.8, 0.4, 0.1),
}
MIN_SIZE = {"duplicate": 20, "classique": 10, "dcdl": 8}
MAX_SIZE = {"duplicate": 500, "classique": 80, "dcdl": 32}


def _season_day(rng: np.random.Generator, days: int) -> int:
    """A day of the season: mostly September to June, some in the summer."""
    if rng.random() < 0.85:
        return int(rng.integers(7, 300))
    return int(rng.integers(300, 358 - days))


def _build_calendar(rng: np.random.Generator, world: World, pop: Population) -> list[EventTemplate]:
    """The recurring events: championships, festivals, regional, open and club events,
    classique and DCDL tournaments; their number grows with the number of players."""
    scale = len(pop) / 1000
    n_feds = len(FEDERATIONS)
    fed_counts = np.bincount(pop.fed, minlength=n_feds)
    events: list[EventTemplate] = []
    used: set[str] = set()

    def name_for(patterns: Sequence[str], city: int) -> str:
        """The first unused name among the patterns, from a random one; numbered if all are."""
        first = int(rng.integers(len(patterns)))
        candidates = [
            _named(patterns[(first + k) % len(patterns)], world.city_name[city])
            for k in range(len(patterns))
        ]
        name = next((c for c in candidates if c not in used), "")
        k = 2
        while not name:
            name = next((f"{c} {k}" for c in candidates if f"{c} {k}" not in used), "")
            k += 1
        used.add(name)
        return name

    def city_in(f: int, region: str | None = None) -> int:
        mask = world.city_fed == f
        if region is not None:
            mask &= world.city_region == world.regions.index(region)
        cities = np.flatnonzero(mask)
        p = world.city_weight[cities] / world.city_weight[cities].sum()
        return int(rng.choice(cities, p=p))

    def hosts(counts: np.ndarray, minimum: int, total: int) -> list[int]:
        """`total` host federations, apportioned among those with `minimum` players."""
        weights = np.where(counts >= minimum, counts, 0).astype(float)
        if weights.sum() == 0:
            weights[0] = 1.0
        per_fed = _apportion(weights, total)
        return [int(f) for f in rng.permutation(np.repeat(np.arange(n_feds), per_fed))]

    # national championships of the federations with enough players
    for f, fed in enumerate(FEDERATIONS):
        if fed_counts[f] < 30:
            continue
        big = fed.code == "FRA"
        used.add(fed.championship)
        events.append(
            EventTemplate(
                "duplicate",
                fed.championship,
                city_in(f) if big else world.city(fed.cities[0][0]),
                "championnat",
                "national",
                (150, 500) if big else (20, 80),
                (5, 7) if big else (3, 5),
                3 if big else 2,
                _season_day(rng, 3),
                coefficient=2.0,
                fed_only=True,
                every_season=True,
            )
        )
    # festivals
    for city in FESTIVAL_CITIES[: max(2, round(4 * math.sqrt(scale)))]:
        days = int(rng.integers(3, 7))
        name = f"Festival {de(city)}"
        used.add(name)
        events.append(
            EventTemplate(
                "duplicate",
                name,
                world.city(city),
                "open",
                "big",
                (150, 500),
                (5, 7),
                days,
                _season_day(rng, days),
                coefficient=2.0,
                weekend=False,
            )
        )
    # French regional championships
    for region in list(REGIONS)[: min(len(REGIONS), max(1, round(4 * scale)))]:
        name = f"Championnat régional {REGIONS[region]}"
        used.add(name)
        events.append(
            EventTemplate(
                "duplicate",
                name,
                city_in(0, region),
                "regional",
                "regional",
                (30, 150),
                (3, 4),
                2,
                _season_day(rng, 2),
                coefficient=1.0,
            )
        )
    # opens and club events, hosted in proportion to the players of each federation
    for f in hosts(fed_counts, 20, max(0, round(48 * scale) - len(events))):
        city = city_in(f)
        if rng.random() < 0.15:
            days = 1
            events.append(
                EventTemplate(
                    "duplicate",
                    name_for(CLUB_EVENT_PATTERNS, city),
                    city,
                    "club",
                    "club",
                    (20, 40),
                    (2, 2),
                    days,
                    _season_day(rng, days),
                    coefficient=0.5,
                )
            )
        else:
            days = int(rng.integers(1, 3))
            events.append(
                EventTemplate(
                    "duplicate",
                    name_for(OPEN_PATTERNS, city),
                    city,
                    "open",
                    "local",
                    (20, 500),
                    (2, 3) if days == 1 else (3, 5),
                    days,
                    _season_day(rng, days),
                    coefficient=1.0,
                    heavy_tail=True,
                )
            )

    # classique: an international cup, then national, open and homologue tournaments (a third
    # of them state their bonus and PJ bounds; those in Provence also rank an opening duplicate)
    # categories are those of data/reference/cote_categories.csv
    explicit = {
        "national": (150, -150, 300),
        "open": (100, -130, 260),
        "homologue": (50, -103, 210),
    }
    shape = {
        "national": ((20, 60), (7, 9)),
        "open": ((14, 40), (6, 8)),
        "homologue": ((10, 24), (5, 7)),
    }
    classic_counts = np.bincount(pop.fed[pop.classic_activity > 0], minlength=n_feds)
    n_classic = max(3, round(11 * scale))
    city = world.city(FESTIVAL_CITIES[0])
    events.append(
        EventTemplate(
            "classique",
            "Coupe internationale de Scrabble classique",
            city,
            "mondial",
            "international",
            (40, 80),
            (9, 11),
            3,
            _season_day(rng, 3),
            bonus=(250, -200, 400),
            every_season=True,
        )
    )
    paca = 0  # the first French one is in Provence (RULES §5 circuit), then one in three
    for k, f in enumerate(hosts(classic_counts, 15, n_classic - 1), start=1):
        in_paca = f == 0 and (paca == 0 or rng.random() < 0.33)
        paca += in_paca
        city = city_in(0, "PACA") if in_paca else city_in(f)
        category = str(rng.choice(["national", "open", "homologue"], p=[0.3, 0.4, 0.3]))
        patterns = (
            "Tournoi classique {de}{city}",
            "Open classique {de}{city}",
            "Classique {de}{city}",
            "Coupe classique {de}{city}",
        )
        events.append(
            EventTemplate(
                "classique",
                name_for(patterns, city),
                city,
                category,
                "classique",
                shape[category][0],
                shape[category][1],
                2,
                _season_day(rng, 2),
                bonus=explicit[category] if k % 3 == 1 else None,
                duplicate_rank=world.regions[world.city_region[city]] == "PACA",
            )
        )

    # des chiffres et des lettres: the Masters Grand Sud (round robin of 16), then opens
    events.append(
        EventTemplate(
            "dcdl",
            "Masters Grand Sud",
            world.city("Marseille"),
            "masters",
            "international",
            (16, 16),
            (15, 15),
            2,
            _season_day(rng, 2),
            round_robin=True,
            every_season=True,
        )
    )
    dcdl_counts = np.bincount(pop.fed[pop.dcdl_activity > 0], minlength=n_feds)
    for f in hosts(dcdl_counts, 12, max(2, round(6 * scale)) - 1):
        city = city_in(f)
        patterns = ("Tournoi DCDL {de}{city}", "Open des chiffres et des lettres {de}{city}")
        events.append(
            EventTemplate(
                "dcdl",
                name_for(patterns, city),
                city,
                "open",
                "classique",
                (8, 32),
                (5, 9),
                1,
                _season_day(rng, 1),
            )
        )
    return events


# --------------------------------------------------------------------------------------
# Simulation of one tournament


@dataclass
class Tournament:
    """A held tournament: what is written for it."""

    tid: str
    template: EventTemplate
    start: dt.date
    end: dt.date
    results: dict[str, object]  # canonical column -> scalar or per-row sequence
    games: dict[str, object] | None
    n_rows: int
    n_games: int
    flavour: str = "utf8"  # utf8, bom, fr, xlsx

    @property
    def discipline(self) -> str:
        return self.template.discipline


def competition_rank(*keys: np.ndarray) -> np.ndarray:
    """Ranks 1, 2, 2, 4 (larger keys are better, compared in order)."""
    n = keys[0].size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort(tuple(-k for k in reversed(keys)))
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for k in keys:
        s = k[order]
        new[1:] |= s[1:] != s[:-1]
    pos = np.arange(n)
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = np.maximum.accumulate(np.where(new, pos, 0)) + 1
    return ranks


def _pick(rng: np.random.Generator, weights: np.ndarray, k: int) -> np.ndarray:
    """`k` distinct indices drawn with probability growing with `weights` (sorted)."""
    nz = np.flatnonzero(weights > 0)
    k = min(k, nz.size)
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    keys = rng.exponential(size=nz.size) / weights[nz]
    if k < nz.size:
        nz = nz[np.argpartition(keys, k - 1)[:k]]
    return np.sort(nz)


def _duplicate_scores(rng: np.random.Generator, skill: np.ndarray, tops: np.ndarray) -> np.ndarray:
    """Scores of each player in each game (players x games), at most the game's top."""
    n, g = skill.size, tops.size
    form = rng.normal(0.0, 0.15, size=(n, 1))
    deficit = np.exp(-1.9 - 0.7 * (skill[:, None] + form) + rng.normal(0.0, 0.35, size=(n, g)))
    deficit = np.clip(deficit, 0.0, 0.7)
    return tops[None, :] - np.round(tops[None, :] * deficit).astype(np.int64)


def _match_scores(rng: np.random.Generator, discipline: str, strength: np.ndarray) -> np.ndarray:
    if discipline == "classique":
        mean, slope, sd, lo, hi = 400.0, 30.0, 50.0, 250, 650
    else:
        mean, slope, sd, lo, hi = 80.0, 12.0, 14.0, 30, 140
    return np.clip(np.round(rng.normal(mean + slope * strength, sd)), lo, hi).astype(np.int64)


def _round_robin_pairs(n: int, r: int) -> tuple[list[tuple[int, int]], int | None]:
    """Pairs of round `r` (1-based) of a round robin of players 0..n-1 (RULES §5 tables).

    With m = n - 1 (n even), players i and j of 1..m meet when i + j = 3 - r (mod m); the one
    paired with themself meets player n. An odd n gets a bye instead of player n.
    """
    even = n + (n % 2)
    m = even - 1
    target = (3 - r) % m
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for i in range(1, m + 1):
        j = (target - i) % m or m
        if j == i:
            if n % 2:
                bye = i - 1
            else:
                pairs.append((i - 1, even - 1))
        elif i < j:
            pairs.append((i - 1, j - 1))
    return sorted(pairs), bye


def _swiss(
    rng: np.random.Generator,
    discipline: str,
    strength: np.ndarray,
    seeding: np.ndarray,
    rounds: int,
    round_robin: bool,
) -> tuple[dict[str, list[object]], np.ndarray, np.ndarray]:
    """Play the rounds: games (column lists), wins and spread of each player."""
    n = strength.size
    wins = np.zeros(n)
    spread = np.zeros(n, dtype=np.int64)
    seed_rank = np.argsort(np.argsort(-seeding, kind="stable"), kind="stable")
    played: list[set[int]] = [set() for _ in range(n)]
    had_bye = np.zeros(n, dtype=bool)
    games: dict[str, list[object]] = {
        "round": [],
        "a": [],
        "b": [],
        "sa": [],
        "sb": [],
    }
    by_seed = np.argsort(seed_rank)
    for r in range(1, rounds + 1):
        bye: int | None = None
        if round_robin:
            local, local_bye = _round_robin_pairs(n, r)
            pairs = [(int(by_seed[i]), int(by_seed[j])) for i, j in local]
            bye = None if local_bye is None else int(by_seed[local_bye])
        else:
            order = [int(i) for i in np.lexsort((seed_rank, -spread, -wins))]
            if n % 2:
                for i in reversed(order):
                    if not had_bye[i]:
                        bye = i
                        break
                if bye is None:
                    bye = order[-1]
                order.remove(bye)
            pairs = []
            while order:
                a = order.pop(0)
                pick = next((k for k, b in enumerate(order) if b not in played[a]), 0)
                pairs.append((a, order.pop(pick)))
        a = np.array([p[0] for p in pairs], dtype=np.int64)
        b = np.array([p[1] for p in pairs], dtype=np.int64)
        sa = _match_scores(rng, discipline, strength[a])
        sb = _match_scores(rng, discipline, strength[b])
        np.add.at(wins, a, np.where(sa > sb, 1.0, np.where(sa == sb, 0.5, 0.0)))
        np.add.at(wins, b, np.where(sb > sa, 1.0, np.where(sa == sb, 0.5, 0.0)))
        np.add.at(spread, a, sa - sb)
        np.add.at(spread, b, sb - sa)
        for x, y in pairs:
            played[x].add(y)
            played[y].add(x)
        games["round"].extend([r] * len(pairs))
        games["a"].extend(a.tolist())
        games["b"].extend(b.tolist())
        games["sa"].extend(sa.tolist())
        games["sb"].extend(sb.tolist())
        if bye is not None:
            had_bye[bye] = True
            wins[bye] += 1
            spread[bye] += BYE_SPREAD[discipline]
            games["round"].append(r)
            games["a"].append(bye)
            games["b"].append(None)
            games["sa"].append(None)
            games["sb"].append(None)
    return games, wins, spread


def _player_columns(pop: Population, world: World, sel: np.ndarray) -> dict[str, object]:
    first = np.array(ALL_FIRST, dtype=object)
    last = np.array(ALL_LAST, dtype=object)
    feds = np.array([fed.code for fed in FEDERATIONS], dtype=object)
    clubs = np.array(world.club_name, dtype=object)
    return {
        "player_id": pop.licence[sel].astype(str).tolist(),
        "last_name": last[pop.last[sel]].tolist(),
        "first_name": first[pop.first[sel]].tolist(),
        "birth_year": pop.birth_year[sel].tolist(),
        "federation": feds[pop.fed[sel]].tolist(),
        "club": clubs[pop.club[sel]].tolist(),
    }


def _tournament_columns(
    t: EventTemplate, tid: str, start: dt.date, end: dt.date, world: World, games: int
) -> dict[str, object]:
    city_fed = FEDERATIONS[int(world.city_fed[t.city])]
    columns: dict[str, object] = {
        "tournament_id": tid,
        "tournament_name": t.name,
        "discipline": t.discipline,
        "start_date": start,
        "end_date": end,
        "city": world.city_name[t.city],
        "country": city_fed.country,
        "category": t.category,
        "games": games,
    }
    if t.coefficient is not None:
        columns["coefficient"] = t.coefficient
    return columns


def _ordered(columns: dict[str, object], order: np.ndarray) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in columns.items():
        if isinstance(value, list):
            out[key] = [value[i] for i in order]
        else:
            out[key] = value
    return out


# --------------------------------------------------------------------------------------
# The simulation


@dataclass
class _SeasonState:
    perf_sum: np.ndarray  # sum of coefficient x score / top over the duplicate events
    perf_weight: np.ndarray  # sum of the coefficients
    best: np.ndarray = field(init=False)  # best score / top of an event (0 = none)
    worst: np.ndarray = field(init=False)  # worst score / top of an event (1 = none)

    def __post_init__(self) -> None:
        self.best = np.zeros(self.perf_sum.size)
        self.worst = np.ones(self.perf_sum.size)


@dataclass(frozen=True)
class SeasonRanking:
    """What the simulator knows at the end of a season about the players who played
    duplicate in it (parallel arrays, index = position in `players`): the material of the
    FFSc ranking export. Nothing here is drawn at random."""

    season: str
    as_of: dt.date  # the season's last day
    players: np.ndarray  # population indices
    held: np.ndarray  # series held during the season
    potential: np.ndarray  # series the simulator assigns for next season (`_classify`)
    perf: np.ndarray  # weighted mean score / top of the season (the classification value)
    points: np.ndarray  # sum of coefficient x score / top
    best: np.ndarray  # best score / top of an event
    worst: np.ndarray  # worst score / top of an event
    percentile: np.ndarray  # share (0-1) of the season's players with a lower perf


class Simulator:
    """Runs the seasons one after the other; `seasons()` yields each season's tournaments."""

    def __init__(self, config: GenerateConfig) -> None:
        if config.players < 100:
            raise ValueError("at least 100 players are needed to fill a tournament")
        if config.seasons < 1:
            raise ValueError("at least one season")
        self.config = config
        self.rng = np.random.default_rng(config.seed)
        self.world = _build_world(self.rng, config.players)
        self.pop = _new_players(
            self.rng, self.world, config.players, 100000, -1, config.first_season
        )
        noisy = self.pop.skill + self.rng.normal(0.0, 0.3, len(self.pop))
        self.pop.series = _classify(noisy)
        self.calendar = _build_calendar(self.rng, self.world, self.pop)
        self.initial = len(self.pop)
        self.rating_list = self._rating_list()
        self.rankings: list[SeasonRanking] = []  # one per simulated season, in order

    def _rating_list(self) -> tuple[dt.date, dict[str, object]]:
        """The rating list on the day before the first season: series of every player;
        cote, Elo and Elo games of most classique and DCDL players."""
        rng, pop = self.rng, self.pop
        n = self.initial
        as_of = dt.date(self.config.first_season, 9, 1) - dt.timedelta(days=1)
        plays = (pop.classic_activity[:n] > 0) | (pop.dcdl_activity[:n] > 0)
        rated = plays & (rng.random(n) < 0.85)
        cote = np.clip(
            np.round(1850 + 300 * pop.classic_skill[:n] + rng.normal(0, 80, n)), 1200, 2600
        ).astype(np.int64)
        elo = np.clip(1700 + 200 * pop.classic_skill[:n] + rng.normal(0, 60, n), 1200, 2200)
        elo_games = np.clip(np.round(np.exp(rng.normal(4.0, 1.0, n))), 5, 800).astype(np.int64)
        order = np.argsort(pop.licence[:n], kind="stable")
        return as_of, {
            "player_id": pop.licence[order].astype(str).tolist(),
            "as_of": as_of,
            "cote": [int(c) if r else None for c, r in zip(cote[order], rated[order], strict=True)],
            "elo": [
                round(float(e), 1) if r else None
                for e, r in zip(elo[order], rated[order], strict=True)
            ],
            "elo_games": [
                int(g) if r else None for g, r in zip(elo_games[order], rated[order], strict=True)
            ],
            "series": pop.series[order].astype(str).tolist(),
        }

    def seasons(self) -> Iterator[tuple[str, list[Tournament]]]:
        for s in range(self.config.seasons):
            yield self._season(s)

    def _season(self, s: int) -> tuple[str, list[Tournament]]:
        rng, world = self.rng, self.world
        year = self.config.first_season + s
        label = f"{year}-{year + 1}"
        season_start = dt.date(year, 9, 1)
        # new licensees, series 7
        n_new = round(0.08 * int(self.pop.active.sum()))
        self.pop.extend(_new_players(rng, world, n_new, int(self.pop.licence.max()), s, year))
        pop = self.pop
        n = len(pop)
        state = _SeasonState(np.zeros(n), np.zeros(n))

        # schedule
        held: list[tuple[dt.date, dt.date, int, EventTemplate]] = []
        for k, t in enumerate(self.calendar):
            happens = t.every_season or rng.random() < 0.92
            day = t.day + int(rng.integers(-10, 11))
            sunday = rng.random() < 0.3
            if not happens:
                continue
            day = int(np.clip(day, 0, 364 - t.days - 7))
            start = season_start + dt.timedelta(days=day)
            if t.weekend:
                start += dt.timedelta(days=(5 - start.weekday()) % 7)
                if t.days == 1 and sunday:
                    start += dt.timedelta(days=1)
            end = start + dt.timedelta(days=t.days - 1)
            held.append((start, end, k, t))
        held.sort(key=lambda h: (h[0], h[1], h[2]))
        counters = {"duplicate": 0, "classique": 0, "dcdl": 0}
        prefix = {"duplicate": "D", "classique": "C", "dcdl": "L"}
        totals = {d: sum(1 for h in held if h[3].discipline == d) for d in counters}

        self._prepare_season()
        busy = np.full(self.act.size, -1, dtype=np.int64)  # last busy day (ordinal)
        tournaments: list[Tournament] = []
        for start, end, _k, t in held:
            counters[t.discipline] += 1
            width = max(3, len(str(totals[t.discipline])))
            tid = f"{prefix[t.discipline]}{year}-{counters[t.discipline]:0{width}d}"
            flavour_draw = rng.random()
            tour = self._play(t, tid, start, end, busy, state)
            if tour is None:
                continue
            tour.flavour = "fr" if flavour_draw < 0.2 else "bom" if flavour_draw < 0.25 else "utf8"
            tournaments.append(tour)

        # one or two workbooks a season: a classique one (with its games), and a duplicate
        # one every other season
        classic = [t for t in tournaments if t.discipline == "classique"]
        dup = [t for t in tournaments if t.discipline == "duplicate"]
        if classic:
            classic[len(classic) // 2].flavour = "xlsx"
        if dup and s % 2 == 0:
            dup[len(dup) // 3].flavour = "xlsx"

        self._end_season(s, state)
        return label, tournaments

    def _prepare_season(self) -> None:
        """Arrays of the season's active players, in which tournaments draw their fields."""
        pop, world = self.pop, self.world
        act = np.flatnonzero(pop.active)
        self.act = act
        self.local = {
            "city": pop.city[act],
            "region": world.city_region[pop.city[act]],
            "fed": pop.fed[act],
            "cluster": world.fed_cluster[pop.fed[act]],
            "duplicate": pop.activity[act],
            "classique": pop.classic_activity[act],
            "dcdl": pop.dcdl_activity[act],
            "strong_duplicate": np.exp(0.6 * pop.skill[act]),
            "strong_classique": np.exp(0.6 * pop.classic_skill[act]),
            "strong_dcdl": np.exp(0.6 * pop.dcdl_skill[act]),
        }

    def _weights(
        self, t: EventTemplate, start: dt.date, busy: np.ndarray
    ) -> tuple[np.ndarray, int]:
        """Weight of each active player for the field of `t` (0: cannot play), and how many
        players are near enough (reach factor at least 0.01) to size the field."""
        world, local = self.world, self.local
        venue_fed = world.city_fed[t.city]
        relation = np.select(
            [
                local["city"] == t.city,
                local["region"] == world.city_region[t.city],
                local["fed"] == venue_fed,
                local["cluster"] == world.fed_cluster[venue_fed],
            ],
            [0, 1, 2, 3],
            default=4,
        )
        reach = np.array(REACH[t.reach])[relation]
        w = local[t.discipline] * reach
        if t.fed_only:
            w = w * (local["fed"] == venue_fed)
        near = int(np.count_nonzero((reach >= 0.01) & (w > 0)))
        if t.category in ("championnat", "mondial", "masters") or t.reach == "big":
            w = w * local[f"strong_{t.discipline}"]
        free = busy < start.toordinal()
        if np.count_nonzero(w * free) >= MIN_SIZE[t.discipline]:
            w = w * free
        return w, near

    def _size(self, t: EventTemplate, available: int) -> int:
        rng = self.rng
        lo, hi = t.size
        if lo == hi:  # a fixed field (the round robin of the Masters)
            return lo
        if t.heavy_tail:
            size = lo + int(rng.lognormal(math.log(28), 0.75))
        else:
            size = int(rng.integers(lo, hi + 1))
        cap = MAX_SIZE[t.discipline]
        if t.discipline == "duplicate":
            cap = min(cap, max(MIN_SIZE["duplicate"], int(0.4 * available)))
        else:
            cap = min(cap, max(MIN_SIZE[t.discipline], int(0.6 * available)))
        return int(np.clip(size, MIN_SIZE[t.discipline], min(cap, hi)))

    def _play(
        self,
        t: EventTemplate,
        tid: str,
        start: dt.date,
        end: dt.date,
        busy: np.ndarray,
        state: _SeasonState,
    ) -> Tournament | None:
        rng, pop, world = self.rng, self.pop, self.world
        w, near = self._weights(t, start, busy)
        size = self._size(t, near)
        picked = _pick(rng, w, size)
        if picked.size < MIN_SIZE[t.discipline] or (t.round_robin and picked.size < t.size[0]):
            return None
        busy[picked] = end.toordinal()
        sel = self.act[picked]
        n_rounds = int(rng.integers(t.rounds[0], t.rounds[1] + 1))
        if t.discipline == "duplicate":
            return self._play_duplicate(t, tid, start, end, sel, n_rounds, state)
        rounds = sel.size - 1 + sel.size % 2 if t.round_robin else min(n_rounds, sel.size - 1)
        strength = pop.classic_skill[sel] if t.discipline == "classique" else pop.dcdl_skill[sel]
        seeding = strength + rng.normal(0.0, 0.4, sel.size)
        raw_games, wins, spread = _swiss(
            rng, t.discipline, strength, seeding, rounds, t.round_robin
        )
        rank = competition_rank(wins, spread)
        columns = _tournament_columns(t, tid, start, end, world, rounds)
        columns.update(_player_columns(pop, world, sel))
        columns.update(rank=rank.tolist(), wins=wins.tolist(), spread=spread.tolist())
        if t.duplicate_rank:
            tops = rng.integers(880, 1121, size=1)
            dup_scores = _duplicate_scores(rng, pop.skill[sel], tops)[:, 0]
            columns["duplicate_rank"] = competition_rank(dup_scores).tolist()
        if t.bonus is not None:
            columns.update(bonus_m=t.bonus[0], pj_min=t.bonus[1], pj_max=t.bonus[2])
        licences = pop.licence[sel].astype(str).tolist()
        games = {
            "tournament_id": tid,
            "round": raw_games["round"],
            "player_id": [licences[i] for i in raw_games["a"]],
            "opponent_id": [None if i is None else licences[i] for i in raw_games["b"]],
            "player_score": raw_games["sa"],
            "opponent_score": raw_games["sb"],
        }
        order = np.lexsort((pop.licence[sel], rank))
        return Tournament(
            tid,
            t,
            start,
            end,
            _ordered(columns, order),
            games,
            sel.size,
            len(raw_games["round"]),
        )

    def _play_duplicate(
        self,
        t: EventTemplate,
        tid: str,
        start: dt.date,
        end: dt.date,
        sel: np.ndarray,
        n_games: int,
        state: _SeasonState,
    ) -> Tournament:
        rng, pop, world = self.rng, self.pop, self.world
        tops = rng.integers(880, 1121, size=n_games)
        top_total = int(tops.sum())
        score = np.minimum(_duplicate_scores(rng, pop.skill[sel], tops).sum(axis=1), top_total - 1)
        rank = competition_rank(score)
        coefficient = float(t.coefficient or 1.0)
        state.perf_sum[sel] += coefficient * score / top_total
        state.perf_weight[sel] += coefficient
        state.best[sel] = np.maximum(state.best[sel], score / top_total)
        state.worst[sel] = np.minimum(state.worst[sel], score / top_total)
        columns = _tournament_columns(t, tid, start, end, world, n_games)
        columns["top_total"] = top_total
        columns.update(_player_columns(pop, world, sel))
        columns.update(
            rank=rank.tolist(),
            series=pop.series[sel].astype(str).tolist(),
            score=score.tolist(),
        )
        order = np.lexsort((pop.licence[sel], rank))
        return Tournament(tid, t, start, end, _ordered(columns, order), None, sel.size, 0)

    def _end_season(self, s: int, state: _SeasonState) -> None:
        """Next season's series from this season's results; skill drift; churn."""
        rng, pop = self.rng, self.pop
        n = len(pop)
        played = np.flatnonzero(state.perf_weight > 0)
        perf = state.perf_sum[played] / state.perf_weight[played]
        held = pop.series[played].copy()
        pop.series[played] = _classify(perf)
        year = self.config.first_season + s
        sorted_perf = np.sort(perf)
        self.rankings.append(
            SeasonRanking(
                season=f"{year}-{year + 1}",
                as_of=dt.date(year + 1, 9, 1) - dt.timedelta(days=1),
                players=played,
                held=held,
                potential=pop.series[played].copy(),
                perf=perf,
                points=state.perf_sum[played],
                best=state.best[played],
                worst=state.worst[played],
                percentile=np.searchsorted(sorted_perf, perf, side="left") / max(1, perf.size),
            )
        )
        age = year - pop.birth_year
        young = (age < 20) | ((pop.joined >= 0) & (s - pop.joined < 3))
        drift = rng.normal(0.0, 0.12, n) + 0.12 * young - 0.04 * (age > 75)
        pop.skill += drift
        pop.classic_skill += drift + rng.normal(0.0, 0.05, n)
        pop.dcdl_skill += rng.normal(0.0, 0.1, n)
        p_stop = 0.045 + 0.05 * (pop.activity < 0.5) + 0.1 * (age > 82)
        pop.active &= rng.random(n) >= p_stop


# --------------------------------------------------------------------------------------
# Writing


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return format(value, ".10g")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _column_texts(value: object, n: int) -> list[str]:
    if isinstance(value, list):
        if value and isinstance(value[0], str):
            return value
        return [_text(v) for v in value]
    return [_text(value)] * n


def _headers(columns: Sequence[str], rng: np.random.Generator, french: bool) -> list[str]:
    if not french:
        return list(columns)
    out = []
    for c in columns:
        labels = FRENCH_HEADERS.get(c, (c,))
        out.append(labels[int(rng.integers(len(labels)))])
    return out


# column orders: canonical files follow the schema, French ones put the player first
# fmt: off
_FRENCH_ORDER = (
    "rank", "player_id", "last_name", "first_name", "series", "club", "federation",
    "birth_year", "score", "wins", "spread", "duplicate_rank", "tournament_id",
    "tournament_name", "discipline", "start_date", "end_date", "city", "country", "category",
    "games", "coefficient", "top_total", "bonus_m", "pj_min", "pj_max",
)
_CANONICAL_ORDER = (
    "tournament_id", "tournament_name", "discipline", "start_date", "end_date", "city",
    "country", "category", "games", "coefficient", "top_total", "bonus_m", "pj_min", "pj_max",
    "rank", "player_id", "last_name", "first_name", "birth_year", "federation", "club",
    "series", "score", "wins", "spread", "duplicate_rank",
    "round", "opponent_id", "player_score", "opponent_score",
    "as_of", "cote", "elo", "elo_games",
)
# fmt: on
_GAMES_ORDER = GAMES.required  # the canonical games columns, in order


def _table(
    data: dict[str, object], order: Sequence[str], n: int
) -> tuple[list[str], list[list[object]]]:
    columns = [c for c in order if c in data]
    return columns, [
        data[c] if isinstance(data[c], list) else [data[c]] * n  # type: ignore[misc]
        for c in columns
    ]


def write_csv(
    path: Path,
    data: dict[str, object],
    order: Sequence[str],
    n: int,
    flavour: str,
    rng: np.random.Generator,
) -> int:
    """Write one table as CSV in the given flavour; returns the number of bytes."""
    columns = [c for c in order if c in data]
    french = flavour == "fr"
    header = _headers(columns, rng, french)
    texts = [_column_texts(data[c], n) for c in columns]
    encoding = {"fr": "cp1252", "bom": "utf-8-sig"}.get(flavour, "utf-8")
    with path.open("w", encoding=encoding, newline="") as fh:
        writer = csv.writer(
            fh, delimiter=";" if french else ",", lineterminator="\r\n" if french else "\n"
        )
        writer.writerow(header)
        writer.writerows(zip(*texts, strict=True))
    return path.stat().st_size


XLSX_CREATED = dt.datetime(2020, 1, 1, 0, 0, 0)


def write_xlsx(
    path: Path,
    sheets: list[tuple[str, dict[str, object], Sequence[str], int]],
    rng: np.random.Generator,
) -> int:
    """A workbook with one sheet per kind, French headers, dates as date cells."""
    import xlsxwriter

    workbook = xlsxwriter.Workbook(str(path), {"in_memory": True})
    workbook.set_properties({"created": XLSX_CREATED, "author": "classement generate"})
    date_format = workbook.add_format({"num_format": "yyyy-mm-dd"})
    for name, data, order, n in sheets:
        sheet = workbook.add_worksheet(name)
        columns, values = _table(data, order, n)
        for j, label in enumerate(_headers(columns, rng, True)):
            sheet.write_string(0, j, label)
        for j, column in enumerate(values):
            for i, value in enumerate(column, start=1):
                if value is None:
                    continue
                if isinstance(value, dt.date):
                    sheet.write_datetime(i, j, dt.datetime.combine(value, dt.time()), date_format)
                elif isinstance(value, str):
                    sheet.write_string(i, j, value)
                else:
                    sheet.write_number(i, j, value)
    workbook.close()
    return path.stat().st_size


def _write_tournament(folder: Path, tour: Tournament, rng: np.random.Generator) -> list[int]:
    if tour.flavour == "xlsx":
        sheets: list[tuple[str, dict[str, object], Sequence[str], int]] = [
            ("results", tour.results, _FRENCH_ORDER, tour.n_rows)
        ]
        if tour.games is not None:
            sheets.append(("games", tour.games, _GAMES_ORDER, tour.n_games))
        return [write_xlsx(folder / f"{tour.tid}.xlsx", sheets, rng)]
    order = _FRENCH_ORDER if tour.flavour == "fr" else _CANONICAL_ORDER
    sizes = [
        write_csv(folder / f"{tour.tid}.csv", tour.results, order, tour.n_rows, tour.flavour, rng)
    ]
    if tour.games is not None:
        sizes.append(
            write_csv(
                folder / f"{tour.tid}_games.csv",
                tour.games,
                _GAMES_ORDER,
                tour.n_games,
                tour.flavour,
                rng,
            )
        )
    return sizes


# The FFSc ranking export: the header pipelines/ingest/formats/ffsc.py reads back.
FFSC_HEADER = ffsc.HEADER
# Age categories of the simulated ranking, by the age reached in the calendar year the
# season ends (a simplification of the FFSc's own categories): under 18 Jeunes, 18–59
# Seniors, 60–69 Vermeil, 70 and over Diamant.
AGE_CATEGORIES = ((18, "Jeunes"), (60, "Seniors"), (70, "Vermeil"))
OLDEST_CATEGORY = "Diamant"


def age_category(age: int) -> str:
    """The age category of the simulated FFSc ranking (`AGE_CATEGORIES`)."""
    return next((label for limit, label in AGE_CATEGORIES if age < limit), OLDEST_CATEGORY)


def _decimal(value: float) -> str:
    """Two decimals with a decimal comma, as the FFSc export writes them."""
    return f"{value:.2f}".replace(".", ",")


def write_ffsc_ranking(
    folder: Path, ranking: SeasonRanking, pop: Population, world: World
) -> tuple[int, int]:
    """Write `classement_<as_of>.csv`, the FFSc national ranking at the end of a season, for
    the French (FRA) players who played duplicate in it; returns (bytes, rows).

    `;`-separated, Windows-1252, CRLF, decimal commas, one row per player in place order
    (then licence). Columns:

    - `place`: rank by the season performance `ps1` (two decimals); tied players share the
      best place, written with the `ex` suffix (`12ex`);
    - `joueur`: « NOM Prénom », the last name in upper case; `licence`; `club`;
    - `categorie`: the age category (`age_category`) from the birth year;
    - `serie`: the series held during the season; `serie_potentielle`: the series the
      simulator assigns for the next season (its own quota classification of every player
      of the season, all federations together, by `ps1`): the "official" classification
      the project's own is compared with;
    - `point`: the sum over the season's duplicate events of coefficient × score / top, in
      percent (a season points figure growing with the events played);
    - `ps1`: the weighted mean percentage of the top (score / top × 100, events weighted by
      their coefficient), the simulator's classification value; `ps2`: the best event
      percentage; `ps3`: the worst event percentage; `pp4`: the percentile of `ps1` among
      every player of the season (share of players with a lower value, × 100).

    Everything comes from the simulation as it ran: nothing is drawn at random.
    """
    french = pop.fed[ranking.players] == 0  # FEDERATIONS[0] is FRA
    rows = np.flatnonzero(french)
    path = folder / f"classement_{ranking.as_of.isoformat()}.csv"
    key = np.round(ranking.perf[rows] * 10000).astype(np.int64)
    place = competition_rank(key)
    players = ranking.players[rows]
    order = np.lexsort((pop.licence[players], place))
    tied = np.bincount(place)[place] > 1
    first = np.array(ALL_FIRST, dtype=object)
    last = np.array(ALL_LAST, dtype=object)
    lines: list[list[str]] = []
    for k in order:
        i = int(players[k])
        r = int(rows[k])
        lines.append(
            [
                f"{place[k]}ex" if tied[k] else str(place[k]),
                f"{last[pop.last[i]].upper()} {first[pop.first[i]]}",
                str(pop.licence[i]),
                age_category(ranking.as_of.year - int(pop.birth_year[i])),
                str(ranking.held[r]),
                world.club_name[int(pop.club[i])],
                _decimal(100 * ranking.points[r]),
                _decimal(100 * ranking.perf[r]),
                _decimal(100 * ranking.best[r]),
                _decimal(100 * ranking.worst[r]),
                _decimal(100 * ranking.percentile[r]),
                str(ranking.potential[r]),
            ]
        )
    with path.open("w", encoding="cp1252", newline="") as fh:
        writer = csv.writer(fh, delimiter=";", lineterminator="\r\n")
        writer.writerow(FFSC_HEADER)
        writer.writerows(lines)
    return path.stat().st_size, len(lines)


def generate(out: Path, config: GenerateConfig | None = None) -> GenerateSummary:
    """Simulate and write the exports under `out` (created if needed)."""
    config = config or GenerateConfig()
    out.mkdir(parents=True, exist_ok=True)
    sim = Simulator(config)
    summary = GenerateSummary(out=out)
    # headers and other writing choices draw from their own stream, so that the
    # simulation does not depend on them
    write_rng = np.random.default_rng([config.seed, 1])
    as_of, ratings = sim.rating_list
    n_ratings = len(ratings["player_id"])  # type: ignore[arg-type]
    summary.bytes += write_csv(
        out / f"rating_list_{as_of.isoformat()}.csv",
        ratings,
        _CANONICAL_ORDER,
        n_ratings,
        "utf8",
        write_rng,
    )
    summary.files += 1
    summary.rating_rows = n_ratings
    for label, tournaments in sim.seasons():
        folder = out / label
        folder.mkdir(exist_ok=True)
        for tour in tournaments:
            sizes = _write_tournament(folder, tour, write_rng)
            summary.files += len(sizes)
            summary.bytes += sum(sizes)
            summary.tournaments[tour.discipline] += 1
            summary.result_rows += tour.n_rows
            summary.game_rows += tour.n_games
        size, rows = write_ffsc_ranking(folder, sim.rankings[-1], sim.pop, sim.world)
        summary.files += 1
        summary.bytes += size
        summary.ranking_rows += rows
    summary.players = len(sim.pop)
    return summary
