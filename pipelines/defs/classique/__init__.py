"""Classique ratings: cote, Elo, rankings and classique series (RULES §1, §2)."""
