"""The spec compiled: the executable engine, what the spec implies at a table, the
search's batch successor code, and the Z3 encoding.  No module here states a rule.

Sub-packages (lowest layer first: see tests/test_layers.py):

- ``engine``: The executable game.
- ``analysis``: What the spec implies at one table, before any search.
- ``search``: The explicit search's compiled code.
- ``smt``: The spec as Z3 constraints, and the solver queries the symbolic checks ask.
"""
