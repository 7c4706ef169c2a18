"""The explicit search's compiled code: states packed into integers, and the spec compiled
to successor functions over packed states (one at a time, or a numpy batch at once).

Modules:

- ``packed``: The successor compiler: the elaborated spec compiled to work on packed
  states.
- ``packing``: Packing states into single integers, for compact visited sets.
- ``searchkey``: The explorer's state keys: only what distinguishes one game position.
- ``tidy``: Statement-level clean-ups of generated functions, on Python's ``ast``.
- ``vectorized``: The batch successor compiler: the elaborated spec compiled to numpy
  code. Public: ``BatchModule``, ``Unsupported``, ``compile_batch``, ``expand_bits``,
  ``lexless``.
"""
