"""The parameters a what-if may change, and the changed copy of the reference folder.

Keys name parameters as the reference files do (docs/rules.md §9):

- a YAML file: `<file stem>.<path>`, the path walking its mappings (`series.min_divisor`,
  `series.super_serie.size`, `cote.series_equivalence.SS`, `elo.preset`,
  `elo.presets.fide.k.k_new`); a list of scalars is one key whose value is written
  comma-separated (`cote.bonus_divisors=1,2,5,10`); a list of `[label, value]` pairs is
  addressed by label (`cote.ranking.series_shares.Joker`);
- `series_quotas.csv`: `series.quotas.<federation>.<series or sub-series>` (`series.quotas.*.4`,
  `series.quotas.FRA.4A`), the share in percent of N or `rest`;
- `cote_categories.csv`: `cote.categories.<category>.<column>` (`bonus_m`, `pj_min`,
  `pj_max`), set on every row of that category (one per `min_games`).

The registry is found by walking the files of the reference folder the what-if starts from,
never listed by hand. A changed series share of the `*` quotas is followed, in proportion, by
each federation's rows of that series that the what-if does not set itself (a federation's
shares of a series must add up to the `*` one: `SeriesQuotas.validate`).

The changes are applied to a copy of the reference folder, which the ordinary loaders then
read: the what-if runs the production code paths. Every message is French.
"""
