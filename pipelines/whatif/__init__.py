"""What-if for committees (docs/rules.md §9): the consequences of changed rule parameters,
computed by the production code paths against the current warehouse, which is only read.

- `settings`: the keys (`series.min_divisor`, `series.quotas.FRA.4A`…) found by walking the
  reference files, the values they accept, and the changed copy of the reference folder;
- `compute`: the affected rule families recomputed from the warehouse's inputs with the
  ordinary loaders and transforms, beside the tables the warehouse holds;
- `report`: the French comparison report (HTML, same look as the season report);
- `run`: the outputs (`index.html`, `whatif-<season>.pdf`, `changements.csv`) in their own
  folder, never in the warehouse nor in the reports.
"""
