"""Benchmarks of the rating pipeline (issue 18, "Federation scale"), run by `classement
bench`.

`benchmarks.harness` and `benchmarks.worker` measure the build and its steps (the worker
runs each measured step in a child process of its own); `benchmarks.naive` is a
straightforward per-row Python implementation of docs/rules.md §1–§3 (the reference the
fast transforms are timed against, and an independent check of their numbers);
`benchmarks.season` reads one season's inputs from a warehouse and runs either
implementation on them. Nothing in the pipeline imports this package.
"""
