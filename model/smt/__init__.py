"""The spec as Z3 constraints, and the solver queries the symbolic checks ask.  The only
place that builds Z3 terms from the spec.

Modules:

- ``codec``: Engine states <-> Z3 terms: fixing a symbolic state to a concrete one, flat
  bit-vector forms, and reading states and parameters back from a model.
- ``encoding``: The spec as Z3 constraints: Init(s), Next(s, a, params, s'), properties.
  Public: ``SmtSpec``, ``Pile``, ``Env``, ``track``, ``core_labels``, ``block``,
  ``ELEM_WIDTH``.
- ``ops``: The operators of the spec language (``spec.ast.OPS``) on Z3 terms.
- ``queries``: Solver queries for the symbolic checks: BMC, k-induction, Houdini
  strengthening. Public: ``Symbolic``, ``Query``, ``SolverAnswer``, ``SolverResult``.
- ``translate``: Spec expressions to Z3 terms: the walk over the AST.
- ``values``: How a value of each spec type is a Z3 term, and the term-level helpers.
"""
