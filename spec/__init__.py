"""The rulebook as data: its sentences, the spec language, the rules, the choice points
and their readings, the properties, the variants.  The game's knowledge lives here
and nowhere else; every layer above reads it.

Sub-packages (lowest layer first: see tests/test_layers.py):

- ``rules``: The whole rulebook in the spec language, bound to one configuration.

Modules:

- ``ast``: The expression AST every rule is written in.
- ``choices``: Every place the rulebook is silent or can be read two ways: a choice
  point.
- ``config``: The table a game is played at: players, the deck, hand size.
- ``derived``: What the layers above derive from a spec (or a game), kept beside it:
  one typed record per kind. Public: ``Derived``.
- ``errors``: One exception hierarchy for the whole program.
- ``invariants``: Candidate invariants: simple facts about every reachable state, for
  induction.
- ``lang``: The spec language above expressions: state, phases, actions, rules.
- ``layout``: The numbers a state is stored in, and the order of what the rules
  declare.
- ``properties``: The properties a variant is checked against.
- ``rulebook``: The rulebook, sentence by sentence, under stable ids.
- ``semantics``: What each core operator means, on concrete values: the language's
  semantics.
- ``simplify``: Normalise an inlined expression: fold constants, prune dead branches.
- ``tomlpos``: Reading TOML input files: every failure a clean error, and where keys
  stand.
- ``variants``: Variants as data: which reading of each choice point, at which table.
  Public: ``Variant``, ``list_variants``, ``load_variant``, ``parse_options``,
  ``parse_ranks``, ``FULL_DECK_OVERRIDES``, ``CONFIG_KEYS``, ``DEFAULT_TABLE``, ....
- ``walk``: One contract for every walk over the expression AST: a case per node type
  and per operator, checked when the walker's class is defined. Public: ``Walker``,
  ``OperatorTable``, ``handles``, ``all_but``, ``IncompleteWalker``, ``NODE_TYPES``.
"""
