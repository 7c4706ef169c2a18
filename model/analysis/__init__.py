"""What the spec implies at one table, before any search: the variables that never change
(partial evaluation), those a state's future never reads (liveness), and which suits
and copies are interchangeable (symmetry).

Modules:

- ``liveness``: One stored state per game position: which variables a state's future
  reads.
- ``specialise``: Partial evaluation of an elaborated spec against what is known of a
  state.
- ``symmetry``: Symmetry reduction: suits are interchangeable, and so are copies of a
  card.
"""
