"""Benchmarks of the rating pipeline (issue 18, "Federation scale").

`benchmarks.naive` is a straightforward per-row Python implementation of docs/rules.md §1–§3
(the reference the fast transforms are timed against, and an independent check of their
numbers); `benchmarks.season` reads one season's inputs from a warehouse and runs either
implementation on them. Nothing in the pipeline imports this package.
"""
