"""The benchmark of `classement bench` (issue 18): the harness and its child processes,
the per-row reference implementation of the rating rules and the season-level inputs both
implementations share. Never imported by the pipeline."""
