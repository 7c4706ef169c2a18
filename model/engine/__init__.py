"""The executable game: the spec compiled to Python, the reference evaluator beside it,
and the Game API (deal, legal actions, apply, scores) every layer above plays through.

Modules:

- ``codegen``: The engine compiler: an elaborated spec in, Python source out.
- ``engine``: The executable game: an OpenSpiel-style API over a compiled spec. Public:
  ``Game``, ``CHANCE``, ``TERMINAL``, ``build_spec``, ``generated_source``.
- ``loader``: Loading generated code: the one place that compiles and runs the Python
  the spec's compilers write (``ITCP_DUMP_GENERATED`` dumps it). Public:
  ``load_generated``, ``DUMP_ENV``.
- ``origins``: Where the generated code comes from: each fragment's rule id and spec
  source line. Public: ``Origins``, ``comment_above``, ``shown_loc``, ``shown_path``.
- ``reference``: The reference evaluator: walks the AST directly, slowly and obviously.
- ``runtime``: Helpers the generated engine imports at run time. Public: ``bits``,
  ``pile_mask``, ``subsets``, ``zero_of``, ``next_in_table``, ``NOCARD``, ``NOBODY``.
- ``simulate``: Random playouts: deal, then play uniformly random legal moves until the
  round ends. Public: ``simulate``, ``play_round``, ``round_record``, ``ENDINGS``,
  ``RULE_ENDINGS``.
- ``steprules``: The rules that decided one step: those on the path the spec's
  evaluation took.
"""
