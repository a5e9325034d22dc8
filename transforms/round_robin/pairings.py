"""The pairing table of a final (docs/rules.md §5b): the default table of 16 players, its
consistency, and the played matches it does not schedule (`pairing_errors`).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from transforms.round_robin.params import ERROR_SCHEMA, Pairing


def default_pairings(players: int = 16) -> tuple[Pairing, ...]:
    """The default pairing table of docs/rules.md §5b for an even number of players: in match r,
    players i and j of 1..n−1 meet when i + j ≡ 3 − r (mod n − 1), the one paired with
    themself meets player n, and tables are numbered by the better-ranked player of each
    pair (match 3, table 2: the 2nd meets the 13th for n = 16)."""
    if players < 2 or players % 2:
        raise ValueError(f"a pairing table needs an even number of players, got {players}")
    m = players - 1
    rows: list[Pairing] = []
    for r in range(1, m + 1):
        pairs: list[tuple[int, int]] = []
        for i in range(1, m + 1):
            j = (3 - r - i) % m or m
            if j == i:
                pairs.append((i, players))
            elif i < j:
                pairs.append((i, j))
        pairs.sort()
        rows.extend(Pairing(r, t, a, b) for t, (a, b) in enumerate(pairs, start=1))
    return tuple(rows)


def pairing_problems(pairings: Sequence[Pairing], players: int) -> list[str]:
    """What makes `pairings` other than a single round robin of `players` (French messages;
    empty when it is one): n − 1 matches of n/2 tables, each player once per match, each
    pair once."""
    problems: list[str] = []
    matches = players - 1
    tables = players // 2
    seen_pairs: dict[frozenset[int], int] = {}
    by_match: dict[int, list[Pairing]] = {}
    for p in pairings:
        by_match.setdefault(p.match, []).append(p)
        for seat in (p.player_a, p.player_b):
            if not 1 <= seat <= players:
                problems.append(
                    f"match {p.match}, table {p.table} : le joueur n°{seat} n'existe pas "
                    f"(1 à {players})"
                )
        if p.player_a == p.player_b:
            problems.append(f"match {p.match}, table {p.table} : un joueur contre lui-même")
            continue
        pair = frozenset((p.player_a, p.player_b))
        if pair in seen_pairs:
            problems.append(
                f"match {p.match} : les joueurs n°{min(pair)} et n°{max(pair)} se sont déjà "
                f"rencontrés au match {seen_pairs[pair]}"
            )
        seen_pairs.setdefault(pair, p.match)
    if sorted(by_match) != list(range(1, matches + 1)):
        problems.append(
            f"la table doit compter les matchs 1 à {matches}, elle a "
            f"{', '.join(str(m) for m in sorted(by_match))}"
        )
    for match, rows in sorted(by_match.items()):
        if sorted(p.table for p in rows) != list(range(1, tables + 1)):
            problems.append(f"match {match} : il faut les tables 1 à {tables}, une fois chacune")
        seats = sorted(s for p in rows for s in (p.player_a, p.player_b))
        if seats != list(range(1, players + 1)):
            problems.append(f"match {match} : chaque joueur doit jouer une fois et une seule")
    return problems


def _ordinal(column: str) -> pl.Expr:
    """1 → « 1er », 13 → « 13e »."""
    value = pl.col(column)
    return pl.when(value == 1).then(pl.lit("1er")).otherwise(pl.format("{}e", value))


def pairing_errors(
    matches: pl.DataFrame, field: pl.DataFrame, pairings: Sequence[Pairing]
) -> pl.DataFrame:
    """Rows of a Masters matches export that do not follow the pairing table.

    `field` gives each participant's `seed` (`masters_field`). Returns error rows `row`
    (0-based position in `matches`), `column`, `message` (French), sorted by row."""
    seeds = field.select(pl.col("player_id").cast(pl.String), pl.col("seed").cast(pl.Int64))
    schedule = pl.DataFrame(
        [(p.match, p.table, p.player_a, p.player_b) for p in pairings]
        + [(p.match, p.table, p.player_b, p.player_a) for p in pairings],
        schema={"_m": pl.Int64, "_t": pl.Int64, "_sp": pl.Int64, "_so": pl.Int64},
        orient="row",
    )
    frame = (
        matches.with_row_index("row")
        .with_columns(
            pl.col("row").cast(pl.Int64),
            pl.col("player_id").cast(pl.String),
            pl.col("opponent_id").cast(pl.String),
        )
        .join(seeds.rename({"seed": "_sp"}), on="player_id", how="left")
        .join(
            seeds.rename({"player_id": "opponent_id", "seed": "_so"}), on="opponent_id", how="left"
        )
        .join(
            schedule.rename({"_m": "round", "_t": "_expected_table"}),
            on=["round", "_sp", "_so"],
            how="left",
        )
        .join(schedule.rename({"_t": "_other_table"}), on=["_sp", "_so"], how="left")
    )
    who = pl.format("le {} et le {} du classement annuel", _ordinal("_sp"), _ordinal("_so"))
    errors = [
        frame.filter(pl.col(c).is_not_null() & pl.col(s).is_null()).select(
            "row",
            pl.lit(c).alias("column"),
            pl.format("le joueur {} n'est pas parmi les participants du Masters", pl.col(c)).alias(
                "message"
            ),
        )
        for c, s in (("player_id", "_sp"), ("opponent_id", "_so"))
    ]
    known = frame.filter(pl.col("_sp").is_not_null() & pl.col("_so").is_not_null())
    errors.append(
        known.filter(pl.col("_expected_table").is_null() & pl.col("_m").is_not_null()).select(
            "row",
            pl.lit("opponent_id").alias("column"),
            pl.format(
                "au match {}, {} ne se rencontrent pas : la table des matchs les oppose au "
                "match {}",
                pl.col("round"),
                who,
                pl.col("_m"),
            ).alias("message"),
        )
    )
    errors.append(
        known.filter(
            pl.col("_expected_table").is_not_null() & (pl.col("_expected_table") != pl.col("table"))
        ).select(
            "row",
            pl.lit("table").alias("column"),
            pl.format(
                "au match {}, {} jouent en table {} d'après la table des matchs, pas en table {}",
                pl.col("round"),
                who,
                pl.col("_expected_table"),
                pl.col("table"),
            ).alias("message"),
        )
    )
    return pl.concat(errors).cast(ERROR_SCHEMA).sort("row", "column")
