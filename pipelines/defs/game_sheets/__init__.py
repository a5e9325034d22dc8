"""Game sheets (docs/rules.md §7): every duplicate master game replayed and re-scored, its tops
checked against the tournament's `top_total`."""
