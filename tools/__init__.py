"""Development tools, not installed with the package: the mutation analysis of the spec,
the curation and screenshot tools, the literate rulebook's evidence, random rounds at
scale.  Run from the repository
root, as ``python -m tools.<name>``.

Sub-packages (lowest layer first: see tests/test_layers.py):

- ``mutation``: Are the checks strong enough? The spec given small errors (mutants),
  each told apart from the spec by a shortest round or proved to play the same game.

Modules:

- ``browser``: Opening a report page in a real browser: Debian's Chromium, driven by
  Playwright. Public: ``page``, ``chromium_path``, ``missing``, ``CHROMIUM_ARGS``.
- ``contrast``: Where two readings of a choice point part ways: the shortest such round.
- ``fuzz``: Random rounds at scale: the engine never raises, and agrees with the
  reference.
- ``rule_evidence``: Write the rule evidence the literate rulebook ships with: per rule,
  its mutants' counts and the library scenarios that fire it.
- ``screenshot``: The docs' screenshots, made in headless Chromium: a violation's trace
  at its last step (the README's), and a sentence of the literate rulebook.
- ``tableflags``: The table flags for the argparse tools outside ``itcp-check`` (the
  benchmarks, the curation tool): ``--players``, ``--suits`` and ``--hand`` as numbers,
  ``--ranks`` and ``--options`` as the text ``overrides`` reads.
"""
