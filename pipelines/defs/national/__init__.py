"""National classifications (docs/rules.md §4): France, Belgium, Switzerland, Luxembourg and the
United Kingdom (median and clé de répartition), from the season's duplicate series."""
