"""What-if for committees (docs/rules.md §9): a season recomputed with changed rule
parameters and compared, launched from the UI with a run config; reads the warehouse,
writes only its own folder (`data/whatif/`)."""
