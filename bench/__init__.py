"""The benchmarks: every performance figure of the docs, measured as whole commands
(medians of 3, against a baseline in the same run).  Run from the repository root, as
``python -m bench.<name>``; ``bench.common`` holds what they share.

Modules:

- ``baseline_bfs``: A hand-written breadth-first search of the no-option game: the
  baseline.
- ``common``: What every benchmark shares: timing a whole command in a child process,
  the command line as ``itcp-check`` runs it, and another revision's tree to run the
  same command at.
- ``compile``: Commands that mostly compile the spec or tell stories, against another
  revision.
- ``engine``: Random-playout speed of the engine: generated code vs the reference
  evaluator.
- ``explore``: Explicit-state exploration speed and memory, up to 10 million states and
  more.
- ``full_deck``: The symbolic engine at the real table: each property of a variant at
  the full deck, timed as the whole command a user runs (medians of --runs runs, wall-
  clock).
- ``levels``: A table's breadth-first levels: how many states each adds, how fast the
  levels still grow, and the memory in use at the top of each.
- ``smt``: The symbolic engine's speed, three figures (medians of --runs runs, wall-
  clock).
- ``vs_baseline``: The whole `itcp-check check` command against the hand-written
  baseline.
- ``workers``: The whole `itcp-check check` command in one process and spread over
  parts.
"""
