"""The `classement` command line: a thin layer above the code location (`pipelines`), the
simulator (`simulator`) and the benchmark (`benchmarks`); nothing below imports it."""
