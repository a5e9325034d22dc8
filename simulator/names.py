"""The simulated federations' places and people: name pools, regions, federations and their
cities, and the patterns event and club names are made of.

Everything here is plain data of the simulated world (no randomness); `world.py` and
`calendar.py` draw from it. Every name must be encodable in Windows-1252: a fifth of the
files are written in it.
"""

from __future__ import annotations

from dataclasses import dataclass

# Name pools: "fr" (France, Belgium, Switzerland, Luxembourg, UK), "qc" (Quebec), "wa"
# (West Africa), "ca" (Central Africa).
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
        "FRA", "France", 0.73, "europe", "fr", "Championnat de France",
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
        "LUX", "Luxembourg", 0.02, "europe", "fr", "Championnat du Luxembourg",
        (("Luxembourg", "LUX"), ("Esch-sur-Alzette", "LUX"), ("Dudelange", "LUX")),
    ),
    Federation(
        "GBR", "Royaume-Uni", 0.02, "europe", "fr", "Championnat du Royaume-Uni",
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

# Cities of the big duplicate festivals, in the order they are used; the patterns of the
# names of opens, club events and clubs (`{de}{city}`: see `de`).
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


# The pool of the French names, which one player in six of every federation draws from.
SHARED_POOL = "fr"
# The index of the French federation in FEDERATIONS: its regions, its ranking export.
FRANCE = next(i for i, fed in enumerate(FEDERATIONS) if fed.code == "FRA")

# Every first and last name, pool after pool: a player's name is an index into these.
ALL_FIRST: tuple[str, ...] = tuple(n for pool in FIRST_NAMES.values() for n in pool)
ALL_LAST: tuple[str, ...] = tuple(n for pool in LAST_NAMES.values() for n in pool)


def pool_range(names: dict[str, tuple[str, ...]], pool: str) -> tuple[int, int]:
    """The indices (start, stop) of `pool`'s names in the flattened list of `names`."""
    start = 0
    for key, values in names.items():
        if key == pool:
            return start, start + len(values)
        start += len(values)
    raise KeyError(pool)


def de(city: str) -> str:
    """The French 'de' before a city name, elided or contracted: `d'`, `du `, `des `."""
    if city.startswith("Le "):
        return "du " + city[3:]
    if city.startswith("Les "):
        return "des " + city[4:]
    if city[0] in "AEIOUYÉÈÊÂÎÔH":
        return "d'" + city
    return "de " + city


def named(pattern: str, city: str) -> str:
    """A name pattern filled with a city: `Open {de}{city}` → `Open d'Annecy`."""
    return pattern.replace("{de}{city}", de(city)).replace("{city}", city)
