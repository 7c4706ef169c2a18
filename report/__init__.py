"""What people look at: HTML reports, card pictures, state graph pictures, plots of
random play, the game at the terminal, and the literate rulebook (each rule in
English beside its sentence).

Modules:

- ``cards``: Cards as small SVG pictures, drawn from the card list of the table. Public:
  ``card_symbol``, ``card_symbols``, ``card_svg``, ``card_back``, ``shade``,
  ``SUIT_SHADES``.
- ``english``: A rule in English, generated from its AST: the spec's ``toEnglish()``.
  Public: ``RuleReader``, ``RuleEnglish``, ``Statement``, ``Phrasebook``, ``English``, ....
- ``evidence``: What backs each rule beside the checks run now: the spec's mutation score
  and the scenario library, as data the installed package reads. Public: ``Mutants``,
  ``Evidence``, ``Contrast``, ``load_evidence``, ``library_contrasts``, ....
- ``graph``: A picture of an explored state graph, laid out in pure Python, as SVG.
  Public: ``graph_svg``, ``layout``, ``GraphNode``, ``GRAPH_MAX_STATES``.
- ``html``: The HTML report of a check (``itcp-check check --html``) and of an answer
  (``itcp-check ask --html``). Public: ``check_page``, ``answer_page``,
  ``verdict_table``, ``proof_html``, ``exhaustive_html``, ``coverage_html``,
  ``graph_section``, ``violations_html``, ....
- ``page``: The pieces every HTML page of the report is made of: the document with its
  inline style and script, the table at one state, a trace as a stepper, a rule with its
  rulebook sentences, the variant's readings. Public: ``document``, ``table_html``,
  ``stepper_html``, ``rule_html``, ``rules_list``, ``readings_html``,
  ``variant_header``, ``verdict_badge``, ....
- ``play``: A game at the terminal: a person against bots, each rule explained as it
  fires. Public: ``Session``, ``Replay``, ``choose``, ``BOTS``, ``draw_table``,
  ``explain``, ``use_colour``, ``Style``, ....
- ``plots``: Plots of random play (``itcp-check simulate --plot DIR`` / ``--html
  FILE``). Public: ``SimulationData``, ``Run``, ``Figure``, ``figures``, ``files``,
  ``file_names``, ``simulation_page``, ``require``, ....
- ``rulebook``: The literate rulebook: the rulebook sentence by sentence, each with the
  rules that cite it (in English), the choice points that read it, and what backs them.
  Public: ``Rulebook``, ``SentenceEntry``, ``RuleEntry``, ``ChoiceEntry``, ``TableRun``,
  ``build_rulebook``, ``reading_table``, ....
- ``rulebook_html``: The literate rulebook as one self-contained HTML page. Public:
  ``rulebook_page``, ``mutant_bar``, ....
- ``rulebook_text``: The literate rulebook as the terminal shows it and as Markdown.
  Public: ``rulebook_text``, ``rulebook_markdown``, ....
- ``sweep``: A sweep's matrix as a page: every property against every table, coloured.
  Public: ``SweepColumn``, ``sweep_page``, ``sweep_matrix``, ``cell_anchor``, ``Cell``,
  ``cell``, ....
- ``text``: A check's report as the terminal shows it: one reporter for every engine.
  Public: ``check_text``, ``verdict_lines``, ``violation_stories``, ``coverage_lines``,
  ``saved_text``, ``html_text``, ....
- ``view``: What a person sees of a game: the table at one state, a rule with its words,
  a trace step by step. Public: ``SeatView``, ``TableView``, ``table_view``,
  ``RuleNote``, ``rule_note``, ``ReadingView``, ``readings_view``, ``StepView``, ....
"""
