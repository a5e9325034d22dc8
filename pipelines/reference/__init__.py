"""Loaders of the reviewed rule parameters in `data/reference/` (one module per rule family).

Transforms take parameters as plain values; only these loaders read the files."""
