"""Sub-commands of `classement`: each module exposes `add_parser(subparsers)`, which adds
its parser(s) and sets `func` (taking the parsed args, returning the exit status)."""
