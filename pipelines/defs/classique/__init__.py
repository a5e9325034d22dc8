"""Classique ratings: cote, Elo, rankings and classique series (docs/rules.md §1, §2)."""
