"""Questions people ask of the rules: a small question language, its answers with a
witness or a proof, readings compared, and the catalogue of disputes.

Modules:

- ``answer``: An answer to a question (``ask.py``, ``diff.py``): yes, no or unknown, its
  scope and evidence. Public: ``Answer``, ``answer_word``, ``slug``.
- ``ask``: Answering a question: a witness, a proof, or the limit that stopped us.
  Public: ``ask``, ``ask_many``, ``Answer``, ``Options``, ``table_scope``.
- ``diff``: Comparing readings: where do two variants (or two readings) part ways?
  Public: ``diff_variants``, ``compare_readings``, ``compare_games``,
  ``differs_answer``, ``describe``, ``Comparison``, ``cp_tables``.
- ``disputes``: The rulings: a catalogue of disputes, answered under the shipped
  variants. Public: ``load_catalogue``, ``rulings``, ``render``, ``document``,
  ``rulings_paths``, ``Dispute``, ``VARIANTS``.
- ``divergence``: Where two games part ways: one breadth-first search, two ideas of
  "different". Public: ``first_difference``, ``Found``, ``DivergenceSearch``, ``Exact``,
  ``Observable``, ``legality_difference``.
- ``language``: The question language: rule disputes as text, parsed without eval.
  Public: ``parse``, ``compile_question``, ``Question``, ``Pred``, ``QuestionError``,
  ``tokenize``, ``mentions_cards``, ``FORMS``.
"""
