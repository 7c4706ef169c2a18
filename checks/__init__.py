"""The checkers: the explicit-state search and its verdicts, the symbolic proofs through
Z3, and the questions people ask (ask, diff, disputes).

Modules:

- ``run``: One front door for checking: what to check goes in, an immutable ``Report``
  comes out. Public: ``Check``, ``Limits``, ``Stops``, ``NoStops``, ``CheckpointSink``,
  ``merge``.
- ``results``: What a check finds, as types: a verdict per property, with its evidence.
  Public: ``Verdict``, ``PropertyResult``, ``Evidence``, ``Exhaustive``, ``Bounded``,
  ``Shortest``, ``Replayed``, ``Inductive``, ``exit_code``, ....

Sub-packages (lowest layer first: see tests/test_layers.py):

- ``explicit``: The explicit-state checker.
- ``symbolic``: The symbolic checker.
- ``questions``: Questions people ask of the rules.
"""
