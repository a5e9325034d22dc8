"""Typing and checking of raw exports, vectorised over all files of a kind at once.

Input frames hold the canonical columns as strings plus `_file` (the file's path, the
unit of rejection), `_where` (the name used in messages: the path, with the sheet for a
workbook) and `_row` (the row number the organiser sees). Each check yields error rows
(`_file, _where, _row, column, message, _check`); a file's first error (by row, then by
check) is the message of its rejection.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from pipelines.ingest.errors import CheckKind, empty_errors, error_rows, located_errors
from pipelines.ingest.schema import (
    DISCIPLINES,
    GAMES,
    RATING_LIST,
    RESULTS,
    TOURNAMENT_COLUMNS,
    Kind,
)
from transforms.ranking import competition_places_expr, dense_ranks_expr

_META = ["_file", "_where", "_row"]

_INT_PATTERN = r"^[+-]?\d+(\.0+)?$"
_FLOAT_PATTERN = r"^[+-]?(\d+(\.\d*)?|\.\d+)$"


# A text cell an organiser guarded against spreadsheet formulas with a leading tab
# (`\t=…`): the tab is kept, as a leading `'` is (docs/exports.md).
_GUARDED_FORMULA = r"^[ \u00a0]*\t[=+\-@]"


def _clean(frame: pl.DataFrame, kind: Kind) -> pl.DataFrame:
    """Trim every value (but the guarding tab of a text cell); an empty cell is a null."""

    def cleaned(column: str) -> pl.Expr:
        trimmed = pl.col(column).str.strip_chars()
        if kind.dtypes.get(column) == pl.String and column not in ID_COLUMNS:
            guarded = pl.col(column).str.contains(_GUARDED_FORMULA)
            trimmed = pl.when(guarded).then(pl.lit("\t") + trimmed).otherwise(trimmed)
        return trimmed.replace("", None).alias(column)

    return frame.with_columns([cleaned(c) for c in kind.columns])


# Bounds of what an export may hold: beyond them a value is refused, not truncated.
MAX_NUMBER = 1e15  # whole numbers stay exact as Int64 and as Float64
FIRST_YEAR, LAST_YEAR = 1900, 2199
MAX_TEXT = 1000  # characters of any value
MAX_ID = 64  # characters of an identifier (licence, tournament)
ID_COLUMNS = frozenset({"tournament_id", "player_id", "opponent_id", "first_player_id"})
_ISO_DATE = r"^\d{4}-\d{1,2}-\d{1,2}$"
_FRENCH_DATE = r"^\d{1,2}/\d{1,2}/\d{4}$"
_TWO_DIGIT_YEAR = r"^\d{1,2}[/.-]\d{1,2}[/.-]\d{2}$"


def _typed(column: str, dtype: pl.DataType) -> pl.Expr:
    raw = pl.col(column)
    if dtype == pl.Int64:
        compact = raw.str.replace_all(r"[\s\u00a0\u202f]", "")
        number = compact.cast(pl.Float64, strict=False)
        ok = compact.str.contains(_INT_PATTERN) & (number.abs() < MAX_NUMBER)
        return pl.when(ok).then(number).cast(pl.Int64, strict=False).alias(column)
    if dtype == pl.Float64:
        compact = raw.str.replace_all(r"[\s\u00a0\u202f]", "").str.replace(",", ".")
        number = compact.cast(pl.Float64, strict=False)
        ok = compact.str.contains(_FLOAT_PATTERN) & (number.abs() < MAX_NUMBER)
        return pl.when(ok).then(number).alias(column)
    if dtype == pl.Date:
        date = pl.coalesce(
            pl.when(raw.str.contains(_ISO_DATE)).then(raw.str.to_date("%Y-%m-%d", strict=False)),
            pl.when(raw.str.contains(_FRENCH_DATE)).then(raw.str.to_date("%d/%m/%Y", strict=False)),
        )
        return pl.when(date.dt.year().is_between(FIRST_YEAR, LAST_YEAR)).then(date).alias(column)
    return raw


def _type_message(column: str, dtype: pl.DataType) -> pl.Expr:
    """Why a value does not fit its column's type."""
    raw = pl.col(column)
    if dtype == pl.Date:
        parsed = pl.coalesce(
            raw.str.to_date("%Y-%m-%d", strict=False), raw.str.to_date("%d/%m/%Y", strict=False)
        )
        return (
            pl.when(raw.str.contains(_TWO_DIGIT_YEAR))
            .then(
                pl.format(
                    "« {} » : une année à deux chiffres est ambiguë (1924 ou 2024 ?) : "
                    "écrivez l'année en entier (AAAA-MM-JJ ou JJ/MM/AAAA)",
                    raw,
                )
            )
            .when(parsed.is_not_null())
            .then(
                pl.format(
                    f"« {{}} » : une date de tournoi entre {FIRST_YEAR} et {LAST_YEAR} est "
                    "attendue",
                    raw,
                )
            )
            .when(_month_of(raw).is_between(1, 12).not_())
            .then(
                pl.format(
                    "« {} » : il n'y a pas de mois {} (la date s'écrit AAAA-MM-JJ ou JJ/MM/AAAA)",
                    raw,
                    _month_of(raw),
                )
            )
            .when(_part_of(raw, "day") == 0)
            .then(pl.format("« {} » : cette date n'existe pas (il n'y a pas de jour 0)", raw))
            .when(_month_of(raw).is_not_null())
            .then(
                pl.format(
                    "« {} » : cette date n'existe pas ({} {} n'a que {} jours)",
                    raw,
                    _month_of(raw).replace_strict(_MONTHS, return_dtype=pl.String),
                    _part_of(raw, "year"),
                    pl.date(_part_of(raw, "year"), _month_of(raw), 1).dt.month_end().dt.day(),
                )
            )
            .otherwise(pl.format("« {} » " + _TYPE_WORDS[dtype], raw))
        )
    number = raw.str.replace_all(r"[\s\u00a0\u202f]", "").str.replace(",", ".")
    return (
        pl.when(number.cast(pl.Float64, strict=False).abs() >= MAX_NUMBER)
        .then(pl.format("« {} » : nombre démesuré pour cette colonne", raw))
        .otherwise(pl.format("« {} » " + _TYPE_WORDS[dtype], raw))
    )


# A date written in an accepted shape (AAAA-MM-JJ, JJ/MM/AAAA) whose day does not exist.
_DATE_PARTS = {
    "year": (r"^(\d{4})-", r"/(\d{4})$"),
    "month": (r"^\d{4}-(\d{1,2})-", r"^\d{1,2}/(\d{1,2})/"),
    "day": (r"-(\d{1,2})$", r"^(\d{1,2})/"),
}


def _part_of(raw: pl.Expr, part: str) -> pl.Expr:
    """The year, month or day of a date in an accepted shape (null in any other)."""
    iso, french = _DATE_PARTS[part]
    return (
        pl.when(raw.str.contains(_ISO_DATE))
        .then(raw.str.extract(iso, 1))
        .when(raw.str.contains(_FRENCH_DATE))
        .then(raw.str.extract(french, 1))
        .cast(pl.Int64)
    )


_MONTHS = dict(
    enumerate(
        [
            "janvier",
            "février",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "août",
            "septembre",
            "octobre",
            "novembre",
            "décembre",
        ],
        start=1,
    )
)


def _month_of(raw: pl.Expr) -> pl.Expr:
    return _part_of(raw, "month")


_TYPE_WORDS: dict[pl.DataType, str] = {
    pl.Int64(): "n'est pas un nombre entier",
    pl.Float64(): "n'est pas un nombre",
    pl.Date(): "n'est pas une date (attendu : AAAA-MM-JJ ou JJ/MM/AAAA)",
}


def type_frame(frame: pl.DataFrame, kind: Kind) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Clean and type a kind's frame; return it with the errors of emptiness and type."""
    cleaned = _clean(frame, kind)
    typed = cleaned.with_columns(
        [_typed(c, kind.dtypes[c]) for c in kind.columns if kind.dtypes[c] != pl.String]
    )
    # (mask, column, message, kind) of every check, run in one pass (`_error_frames`)
    checks: list[tuple[pl.Expr, str, pl.Expr, CheckKind]] = []
    for col in kind.required:
        if kind is GAMES and col in _OPTIONAL_IN_GAMES:
            continue
        if kind is RESULTS and col in _NAMES:
            continue
        checks.append(
            (
                pl.col(col).is_null(),
                col,
                pl.lit(
                    "valeur vide : cette colonne doit être remplie sur chaque ligne d'un "
                    f"fichier de {kind.label}"
                ),
                CheckKind.EMPTY,
            )
        )
    for col in kind.columns:
        dtype = kind.dtypes[col]
        if dtype == pl.String:
            continue
        bad = pl.col(col).is_not_null() & typed[col].is_null()
        checks.append((bad, col, _type_message(col, dtype), CheckKind.TYPE))
    for col in kind.columns:
        if kind.dtypes[col] != pl.String:
            continue
        length = pl.col(col).str.len_chars()
        limit = MAX_ID if col in ID_COLUMNS else MAX_TEXT
        checks.append(
            (
                length > limit,
                col,
                pl.format(
                    f"valeur de {{}} caractères : {limit} au plus dans cette colonne", length
                ),
                CheckKind.TYPE,
            )
        )
    if kind is RESULTS:
        # Players known by one name (Malaysia, Indonesia, parts of Africa): one of the two
        # name columns may be empty, not both.
        checks.append(
            (
                pl.col("last_name").is_null() & pl.col("first_name").is_null(),
                "last_name",
                pl.lit(
                    "nom et prénom vides : écrivez au moins le nom du joueur (un joueur connu "
                    "par un seul nom le met dans « last_name » ou dans « first_name »)"
                ),
                CheckKind.EMPTY,
            )
        )
    errors = _error_frames(cleaned, checks)
    return typed, pl.concat(errors) if errors else empty_errors()


def _error_frames(
    frame: pl.DataFrame, checks: list[tuple[pl.Expr, str, pl.Expr, CheckKind]]
) -> list[pl.DataFrame]:
    """`error_rows` of each check that finds something, in order: whether each finds
    anything is asked of the frame in one pass."""
    if not checks:
        return []
    found = frame.select(
        mask.fill_null(False).any().alias(str(i)) for i, (mask, _, _, _) in enumerate(checks)
    ).row(0)
    return [
        error_rows(frame, mask, column, message, kind=kind)
        for (mask, column, message, kind), hit in zip(checks, found, strict=True)
        if hit
    ]


_NAMES = frozenset({"last_name", "first_name"})

# A bye has no opponent and no opponent score; an event without scores has none at all.
_OPTIONAL_IN_GAMES = frozenset({"opponent_id", "player_score", "opponent_score"})


def _first_row_per_group(keys: list[str]) -> pl.Expr:
    return pl.col("_row").min().over(keys)


_TOURNAMENT = ["_file", "tournament_id"]


def renumber_dense_ranks(typed: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Results with densely numbered ranks (1, 1, 2) renumbered to competition places
    (1, 1, 3), docs/rules.md §0, and one note per tournament renumbered (`_file, _where,
    tournament_id, message`)."""
    rank = pl.col("rank")
    places = competition_places_expr(rank).over(_TOURNAMENT)
    keyed = typed.select(*_TOURNAMENT, "_where", "rank").filter(
        pl.col("tournament_id").is_not_null()
    )
    needs = (
        keyed.filter(rank.is_not_null())
        .with_columns(
            _dense=dense_ranks_expr(rank).over(_TOURNAMENT),
            _differs=(rank != places).any().over(_TOURNAMENT),
        )
        .filter(pl.col("_dense") & pl.col("_differs"))
        .select(*_TOURNAMENT, "_where")
        .unique(_TOURNAMENT, keep="first", maintain_order=True)
    )
    if needs.height == 0:
        return typed, needs.with_columns(pl.lit(None, dtype=pl.String).alias("message"))
    # only the rank column is computed again: the other columns stay shared, not copied
    fix = (
        typed.select(*_TOURNAMENT)
        .join(
            needs.select(*_TOURNAMENT, _fix=pl.lit(True)),
            on=_TOURNAMENT,
            how="left",
            maintain_order="left",
        )
        .get_column("_fix")
    )
    renumbered = typed.with_columns(
        pl.when(fix & rank.is_not_null())
        .then(competition_places_expr(rank).over(_TOURNAMENT))
        .otherwise(rank)
        .alias("rank")
    )
    notes = needs.select(
        *_TOURNAMENT,
        "_where",
        pl.format(
            "tournoi {} : places numérotées sans saut après les ex æquo (1, 1, 2…), "
            "renumérotées en places de compétition (1, 1, 3…)",
            pl.col("tournament_id"),
        ).alias("message"),
    )
    return renumbered, notes


def rank_errors(typed: pl.DataFrame) -> pl.DataFrame:
    """Ranks must be the competition places 1..N of each tournament (docs/rules.md §0):
    the first row whose rank is above N or leaves a gap rejects its file."""
    rank = pl.col("rank")
    ranked = (
        typed.select("_file", "_where", "_row", "tournament_id", "rank").filter(
            pl.col("tournament_id").is_not_null() & (rank >= 1)
        )
    ).with_columns(
        _n=pl.len().over(_TOURNAMENT),
        _place=competition_places_expr(rank).over(_TOURNAMENT),
    )
    return pl.concat(
        [
            error_rows(
                ranked,
                rank > pl.col("_n"),
                "rank",
                pl.format(
                    "la place {} dépasse le nombre de joueurs du tournoi {} ({}) : les places "
                    "vont de 1 au nombre de joueurs",
                    rank,
                    pl.col("tournament_id"),
                    pl.col("_n"),
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                ranked,
                (rank <= pl.col("_n")) & (rank != pl.col("_place")),
                "rank",
                pl.format(
                    "la place {} ne suit pas les places du tournoi {} : à cette ligne, la "
                    "place devrait être {} (des ex æquo partagent la meilleure place et la "
                    "suivante est sautée : 1, 2, 2, 4)",
                    rank,
                    pl.col("tournament_id"),
                    pl.col("_place"),
                ),
                kind=CheckKind.VALUE,
            ),
        ]
    )


def category_errors(typed: pl.DataFrame, categories: frozenset[str]) -> pl.DataFrame:
    """A classique tournament is rated with the parameters of its category (the cote,
    docs/rules.md §1): its category must be one of `categories` (compared trimmed and
    case-insensitively), unless its rows state `bonus_m`, `pj_min` and `pj_max`."""
    if not categories:
        return empty_errors()
    known = [c.strip().lower() for c in categories]
    stated = pl.all_horizontal(pl.col(c).is_not_null() for c in ("bonus_m", "pj_min", "pj_max"))
    # only the columns the check reads: no copy of every column of every classique row
    classique = typed.select(
        *_META, "tournament_id", "discipline", "category", "bonus_m", "pj_min", "pj_max"
    ).filter(pl.col("discipline").str.to_lowercase() == "classique")
    unknown = ~pl.col("category").str.strip_chars().str.to_lowercase().is_in(known)
    first_row = pl.col("_row") == pl.col("_row").min().over(_TOURNAMENT)
    choices = (
        f"utilisez l'une de {', '.join(sorted(set(known)))} "
        "(data/reference/cote_categories.csv), ou indiquez bonus_m, pj_min et pj_max"
    )
    return error_rows(
        classique,
        (pl.col("category").is_null() | unknown) & ~stated.any().over(_TOURNAMENT) & first_row,
        "category",
        pl.when(pl.col("category").is_null())
        .then(
            pl.format(
                "la colonne « category » est absente ou vide pour le tournoi classique {} : "
                "elle est obligatoire en classique (la cote en dépend) : {}",
                pl.col("tournament_id"),
                pl.lit(choices),
            )
        )
        .otherwise(
            pl.format(
                "la catégorie « {} » du tournoi classique {} est inconnue : {}",
                pl.col("category"),
                pl.col("tournament_id"),
                pl.lit(choices),
            )
        ),
        kind=CheckKind.VALUE,
    )


def duplicate_errors(typed: pl.DataFrame) -> pl.DataFrame:
    """A duplicate tournament needs its number of games (its classification points depend
    on it); an event's coefficient, where given, must be above 0."""
    duplicate = typed.select(
        "_file", "_where", "_row", "tournament_id", "games", "discipline"
    ).filter(pl.col("discipline").str.to_lowercase() == "duplicate")
    first_row = pl.col("_row") == pl.col("_row").min().over(_TOURNAMENT)
    return pl.concat(
        [
            error_rows(
                duplicate,
                pl.col("games").is_null().all().over(_TOURNAMENT) & first_row,
                "games",
                pl.format(
                    "le tournoi de duplicate {} n'indique pas son nombre de parties : la "
                    "colonne « games » est obligatoire en duplicate (les points de classement "
                    "en dépendent)",
                    pl.col("tournament_id"),
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                duplicate,
                pl.col("games") < 1,
                "games",
                pl.format("{} parties : un tournoi en compte au moins une", pl.col("games")),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                typed,
                pl.col("coefficient") <= 0,
                "coefficient",
                pl.format(
                    "le coefficient {} doit être supérieur à 0 (il pondère les pourcentages)",
                    pl.col("coefficient"),
                ),
                kind=CheckKind.VALUE,
            ),
        ]
    )


def results_errors(typed: pl.DataFrame) -> pl.DataFrame:
    """Checks of results rows beyond their types (one file at a time, all files at once)."""
    errors: list[pl.DataFrame] = []
    discipline = pl.col("discipline").str.to_lowercase()
    errors.append(
        error_rows(
            typed,
            pl.col("discipline").is_not_null() & ~discipline.is_in(list(DISCIPLINES)),
            "discipline",
            pl.format(
                "« {} » n'est pas une discipline : écrivez duplicate, classique ou dcdl",
                pl.col("discipline"),
            ),
            kind=CheckKind.VALUE,
        )
    )
    errors.append(
        error_rows(
            typed,
            pl.col("rank") < 1,
            "rank",
            pl.format("le rang {} n'est pas une place (1 ou plus)", pl.col("rank")),
            kind=CheckKind.VALUE,
        )
    )
    errors.append(
        error_rows(
            typed,
            pl.col("start_date") > pl.col("end_date"),
            "start_date",
            pl.format(
                "le tournoi commence ({}) après sa date de fin ({})",
                pl.col("start_date"),
                pl.col("end_date"),
            ),
            kind=CheckKind.VALUE,
        )
    )
    keyed = typed.select("_file", "_where", "_row", "tournament_id", "player_id").filter(
        pl.col("tournament_id").is_not_null() & pl.col("player_id").is_not_null()
    )
    first = _first_row_per_group(["_file", "tournament_id", "player_id"])
    errors.append(
        error_rows(
            keyed,
            pl.col("_row") > first,
            "player_id",
            pl.format(
                "le joueur {} apparaît deux fois dans le tournoi {} (lignes {} et {})",
                pl.col("player_id"),
                pl.col("tournament_id"),
                first,
                pl.col("_row"),
            ),
            kind=CheckKind.ROWS,
        )
    )
    per_tournament = typed.select(
        "_file", "_where", "_row", *dict.fromkeys(TOURNAMENT_COLUMNS)
    ).filter(pl.col("tournament_id").is_not_null())
    for col in TOURNAMENT_COLUMNS[1:]:
        ref = pl.col(col).drop_nulls().first().over(["_file", "tournament_id"])
        ref_row = (
            pl.when(pl.col(col).is_not_null())
            .then(pl.col("_row"))
            .min()
            .over(["_file", "tournament_id"])
        )
        errors.append(
            error_rows(
                per_tournament,
                pl.col(col).is_not_null() & (pl.col(col) != ref),
                col,
                pl.format(
                    "« {} » diffère de la valeur « {} » de la ligne {} : cette colonne doit "
                    "être la même sur toutes les lignes d'un tournoi",
                    pl.col(col),
                    ref,
                    ref_row,
                ),
                kind=CheckKind.EVENT,
            )
        )
    return pl.concat(errors)


def tournament_owner_errors(typed: pl.DataFrame, kind_label: str) -> pl.DataFrame:
    """A tournament must come from one file: every later file (by path) is rejected.
    `kind_label` names the content in the message (`Kind.label`: « résultats »)."""
    ids = typed.select(*_META, "tournament_id").filter(pl.col("tournament_id").is_not_null())
    owner = pl.col("_file").min().over("tournament_id")
    owner_where = pl.col("_where").sort_by("_file").first().over("tournament_id")
    return error_rows(
        ids.with_columns(_owner=owner, _owner_where=owner_where),
        (pl.col("_file") != pl.col("_owner"))
        & (pl.col("_row") == pl.col("_row").min().over(["_file", "tournament_id"])),
        "tournament_id",
        pl.format(
            "le tournoi {} a déjà ses {} dans {} : un tournoi doit figurer dans un seul "
            "fichier (pour le corriger, remplacez ce fichier)",
            pl.col("tournament_id"),
            pl.lit(kind_label),
            pl.col("_owner_where"),
        ),
        kind=CheckKind.FILES,
    )


def unlisted_player_errors(rows: pl.DataFrame, roster: pl.DataFrame) -> list[pl.DataFrame]:
    """The rows (of games or matches) whose `player_id` or `opponent_id` is not in their
    tournament's results (`roster`: `tournament_id, player_id` rows), one frame a column."""
    members = (
        roster.select("tournament_id", "player_id").unique().with_columns(_member=pl.lit(True))
    )
    errors = []
    for column in ("player_id", "opponent_id"):
        joined = rows.join(
            members.rename({"player_id": column}), on=["tournament_id", column], how="left"
        )
        errors.append(
            error_rows(
                joined,
                pl.col(column).is_not_null() & pl.col("_member").is_null(),
                column,
                pl.format(
                    "le joueur {} ne figure pas dans les résultats du tournoi {}",
                    pl.col(column),
                    pl.col("tournament_id"),
                ),
                kind=CheckKind.ROWS,
            )
        )
    return errors


def games_errors(typed: pl.DataFrame, roster: pl.DataFrame) -> pl.DataFrame:
    """Checks of game rows against the accepted results (`roster`: tournament_id, player_id)."""
    errors: list[pl.DataFrame] = [
        error_rows(
            typed,
            pl.col("opponent_id").is_not_null()
            & pl.col("player_result").is_null()
            & (pl.col("player_score").is_null() | pl.col("opponent_score").is_null()),
            "player_score",
            pl.format(
                "la partie de {} contre {} n'a ni les deux scores ni le résultat "
                "(player_result : 1, 0.5 ou 0) : l'Elo ne peut la compter",
                pl.col("player_id"),
                pl.col("opponent_id"),
            ),
            kind=CheckKind.ROWS,
        )
    ]
    known_tournaments = roster.select("tournament_id").unique()
    # the columns these checks read only are joined (not a copy of every game column)
    with_known = typed.select(*_META, "tournament_id", "player_id", "opponent_id").join(
        known_tournaments.with_columns(_known=pl.lit(True)), on="tournament_id", how="left"
    )
    errors.append(
        error_rows(
            with_known,
            pl.col("tournament_id").is_not_null() & pl.col("_known").is_null(),
            "tournament_id",
            pl.format(
                "le tournoi {} n'a pas de résultats (son fichier de résultats manque ou a été "
                "refusé)",
                pl.col("tournament_id"),
            ),
            kind=CheckKind.VALUE,
        )
    )
    errors += unlisted_player_errors(with_known.filter(pl.col("_known").is_not_null()), roster)
    errors.append(
        error_rows(
            typed,
            pl.col("player_id") == pl.col("opponent_id"),
            "opponent_id",
            pl.format("le joueur {} ne peut pas être son propre adversaire", pl.col("player_id")),
            kind=CheckKind.ROWS,
        )
    )
    errors.append(
        error_rows(
            typed,
            pl.col("round") < 1,
            "round",
            pl.format("la ronde {} n'est pas un numéro de ronde (1 ou plus)", pl.col("round")),
            kind=CheckKind.ROWS,
        )
    )
    seats = pl.concat(
        [
            typed.select(
                *_META,
                "tournament_id",
                "round",
                pl.col("player_id").alias("_seat"),
                pl.lit("player_id").alias("_col"),
            ),
            typed.select(
                *_META,
                "tournament_id",
                "round",
                pl.col("opponent_id").alias("_seat"),
                pl.lit("opponent_id").alias("_col"),
            ),
        ]
    ).filter(
        pl.col("_seat").is_not_null()
        & pl.col("tournament_id").is_not_null()
        & pl.col("round").is_not_null()
    )
    keys = ["_file", "tournament_id", "round", "_seat"]
    # a seat's first row is its lowest (row, column): every other is a duplicate (found by
    # windows, not by sorting every seat of every file: the errors' order does not count,
    # `first_error_per_file` sorts them)
    order = pl.col("_row") * 2 + (pl.col("_col") == "player_id").cast(pl.Int64)
    dup = seats.with_columns(_first=pl.col("_row").min().over(keys), _order=order).filter(
        pl.col("_order") != pl.col("_order").min().over(keys)
    )
    errors.append(
        located_errors(
            dup,
            pl.col("_col"),
            pl.format(
                "le joueur {} joue déjà à la ronde {} du tournoi {} (ligne {}) : "
                "chaque partie ne doit figurer qu'une fois",
                pl.col("_seat"),
                pl.col("round"),
                pl.col("tournament_id"),
                pl.col("_first"),
            ),
            CheckKind.EVENT,
        )
    )
    return pl.concat(errors)


def rating_list_errors(typed: pl.DataFrame) -> pl.DataFrame:
    keyed = typed.select(*_META, "player_id", "as_of").filter(
        pl.col("player_id").is_not_null() & pl.col("as_of").is_not_null()
    )
    first = _first_row_per_group(["_file", "player_id", "as_of"])
    return pl.concat(
        [
            error_rows(
                keyed,
                pl.col("_row") > first,
                "player_id",
                pl.format(
                    "le joueur {} figure deux fois dans la liste du {} (lignes {} et {})",
                    pl.col("player_id"),
                    pl.col("as_of"),
                    first,
                    pl.col("_row"),
                ),
                kind=CheckKind.ROWS,
            ),
            error_rows(
                typed,
                pl.col("elo_games") < 0,
                "elo_games",
                pl.format("le nombre de parties {} ne peut pas être négatif", pl.col("elo_games")),
                kind=CheckKind.VALUE,
            ),
        ]
    )


def rating_owner_errors(typed: pl.DataFrame) -> pl.DataFrame:
    """A (player, date) pair of a rating list must come from one file."""
    keyed = typed.select(*_META, "player_id", "as_of").filter(
        pl.col("player_id").is_not_null() & pl.col("as_of").is_not_null()
    )
    keys = ["player_id", "as_of"]
    return error_rows(
        keyed.with_columns(
            _owner=pl.col("_file").min().over(keys),
            _owner_where=pl.col("_where").sort_by("_file").first().over(keys),
        ),
        pl.col("_file") != pl.col("_owner"),
        "player_id",
        pl.format(
            "le joueur {} au {} figure déjà dans la liste de classement {} : un joueur ne "
            "figure qu'une fois par date de liste, dans un seul fichier",
            pl.col("player_id"),
            pl.col("as_of"),
            pl.col("_owner_where"),
        ),
        kind=CheckKind.FILES,
    )


def first_error_per_file(errors: Iterable[pl.DataFrame]) -> pl.DataFrame:
    """One row per rejected file: its first error (by row, then check, then column)."""
    frames = [e for e in errors if e.height]
    if not frames:
        return empty_errors()
    return (
        pl.concat(frames)
        .sort(["_file", "_row", "_check", "column", "message"], nulls_last=True)
        .group_by("_file", maintain_order=True)
        .first()
    )


__all__ = [
    "GAMES",
    "RATING_LIST",
    "RESULTS",
    "first_error_per_file",
    "games_errors",
    "rating_list_errors",
    "rating_owner_errors",
    "results_errors",
    "tournament_owner_errors",
    "type_frame",
]
