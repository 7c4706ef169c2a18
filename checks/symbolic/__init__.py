"""The symbolic checker: bounded model checking, induction with invariants found on
demand, ranking functions and lassos, proved brackets, up to the full deck.

Modules:

- ``bracket``: A reported range through Z3: the tightest bracket 1-induction proves
  (HAND_BOUNDS). Public: ``hand_bounds``.
- ``checker``: Symbolic checks: bounded model checking and k-induction through Z3.
  Public: ``symbolic_verdicts``, ``SymbolicChecker``, ``DEFAULT_DEPTH``,
  ``LASSO_DEPTH``.
- ``conformance``: Conformance: the generated engine and the Z3 encoding agree, state by
  state. Public: ``conformance``, ``Checker``, ``Report``, ``Disagreement``,
  ``explored_states``, ``playout_states``.
- ``deadline``: The symbolic run's time budget: the exception that ends it. Public:
  ``OutOfTime``, ``seconds_left``.
- ``deadlock``: NO_DEADLOCK through Z3: a live state with no legal move, or a proof
  there is none. Public: ``no_deadlock``.
- ``induction``: 1-induction with strengthening invariants chosen on demand (Houdini
  with expansion). Public: ``Inductor``, ``Outcome``, ``Undecided``, ``STRUCTURE``,
  ``subset_query``.
- ``ranking``: ROUND_ENDS through Z3: a ranking function's proof, or a lasso found by
  BMC. Public: ``ranked``, ``lasso``, ``RankingQueries``, ``region_of``.
- ``replayed``: A trace Z3 found, played again by the engine: only what the engine
  reproduces is a violation. Public: ``engine_replay``, ``EngineReplay``,
  ``replayed_violation``.
- ``reproof``: Re-proving at the real table the proof a scout table found
  (``checks/symbolic/scout.py``). Public: ``Reproof``, ``PARALLEL_CAP``,
  ``CARD_SPLIT_AFTER``, ``SPLIT_AFTER``, ``CHOICE_CASE``.
- ``sampled``: Drop candidate invariants that a random playout of the engine already
  refutes. Public: ``refuted_by_playouts``, ``ROUNDS``, ``SEED``.
- ``scout``: Scouting a proof at a small table: which invariants, and which rules, a
  proof at the full table needs. Public: ``Scout``, ``Plan``, ``scout_config``,
  ``forget_plans``, ``cut_to_core``.
"""
