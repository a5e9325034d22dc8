"""Duplicate series (docs/rules.md §3): event percentages, standings, barres d'accès."""
