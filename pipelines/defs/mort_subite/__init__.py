"""Belgian Mort Subite challenge (RULES §6): qualification, rounds and season standings."""
