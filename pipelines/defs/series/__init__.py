"""Duplicate series (RULES §3): event percentages, standings, barres d'accès, provisional."""
