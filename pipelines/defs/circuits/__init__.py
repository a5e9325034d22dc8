"""Regional circuits (docs/rules.md §5), by calendar year: the PACA ranking, the round-robin finals
(Masters Grand Sud, Grand Est championship) and their reports."""
