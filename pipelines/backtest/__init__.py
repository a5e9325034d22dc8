"""`classement backtest`: which rating system predicts the games best (docs/rules.md §10)."""
