"""Belgian Mort Subite challenge (docs/rules.md §6): qualification, rounds and season standings."""
