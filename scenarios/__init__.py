"""Scenario files: one round, written the way players talk, replayed on the engine and
told as a story.  The narrator every report and command shares lives here.

Modules:

- ``format``: Scenario files: one hand of "It Came to Pass", written the way players
  talk. Public: ``Scenario``, ``Move``, ``SCOPES``, ``load_scenario``, ``loads``,
  ``to_toml``, ``from_trace``, ``resolve``, ....
- ``generate``: Edge-case scenarios chosen by coverage: one per pair of rules that can
  interact. Public: ``Pair``, ``PairOutcome``, ``Events``, ``all_pairs``,
  ``option_topics``, ``search``, ``generate``, ``coverage_markdown``, ....
- ``replay``: Replaying a scenario on the engine, and telling it as a story. Public:
  ``replay``, ``narrate``, ``Result``, ``Refusal``, ``explain_refusal``, ``facts``,
  ``say``.
- ``save``: Saving traces as scenario files: their text, checked before anything is
  written. Public: ``verdict_scenario``, ``checked_texts``, ``verdict_scenarios``,
  ``verdict_file_name``, ``close_lasso``, ``variant_ref``, ``Collected``,
  ``trace_scenario``, ....
- ``stateful``: A Hypothesis state machine derived from the spec: random deep rounds
  that shrink. Public: ``machine_for``, ``hunt``, ``to_scenario``, ``Failure``.
- ``story``: Traces told as a story of the game, and written as ITF.
- ``watch``: Properties watched along one trace, one watcher per kind a trace
  decides. Public: ``Watch``, ``WATCHES``, ``on_a_trace``, ``watch``,
  ``property_verdict``.
"""
