"""Are the checks strong enough?  The spec given small errors (mutants), each told apart
from the spec by a shortest round or proved to play the same game.

Modules:

- ``check_notes``: Random rounds that try to refute the equivalence notes of
  docs/mutation-notes.toml.
- ``distinguish``: The shortest round two games play differently, or the proof that none
  does at a table.
- ``equivalence``: The proof, at one table, that a changed spec (a mutant) plays the
  same game as the spec. Public: ``NotProved``, ``Proved``, ``StepProver``,
  ``live_in_both``.
- ``mutants``: Mutants of the spec: each changes one rule fragment of the rule set.
  Public: ``Change``, ``Mutant``, ``NotApplicable``, ``compiled_elsewhere``,
  ``equivalent_by_form``, ``mutant_change``, ``OPERATORS``, ``OPERATOR_DOCS``, ....
- ``mutate_code``: Mutation testing of the checker's Python code (cosmic-ray), a sample
  per module.
- ``mutate_spec``: Mutation analysis of the spec: are the checks strong enough to catch
  a wrong rule?
- ``mutation``: Are the checks strong enough? Every mutant of the spec against the
  checks. Public: ``Baseline``, ``Check``, ``CheckTable``, ``KILLED``,
  ``MutantTimeout``, ``MutantOutcome``, ``STILLBORN``, ``SURVIVED``, ....
- ``pin_mutants``: For each surviving mutant of the spec, the shortest round it plays
  differently, as a scenario.
- ``prove_mutants``: For each surviving mutant of the spec, a proof that it plays the
  same game, beyond small tables.
- ``report``: The mutation analysis of the spec as markdown: score, operators,
  survivors (``python -m tools.mutation.report [--check]``: docs/mutation.md's generated
  part). Public: ``BEGIN``, ``END``, ``counts``, ``load_notes``, ``render``, ``status``,
  ``with_generated``, ``write_docs``.
- ``summary``: The spec mutation analysis kept in the repository: one line per mutant
  (docs/mutation/spec-mutants.jsonl), reduced from a run's records. Public:
  ``merged_search``, ``read_summary``, ``summarise``, ``write_summary``, ....
"""
