"""The ``itcp-check`` program: one module per command, the flags they share, the files
they write, and the limits (time, memory, signals) of a command as a whole.  It parses
flags and renders; the work is done in the layers below.

Modules:

- ``ask_cmd``: ``itcp-check ask "QUESTION" [VARIANT]``: settle a rules dispute. Public:
  ``ask_cmd``, ``parse_players``.
- ``check_cmd``: ``itcp-check check``: every property's verdict for a variant at a small
  table.
- ``checkpoint``: A search's checkpoint: a folder it writes as it goes, and goes on
  from. Public: ``Checkpoints``, ``read_checkpoint``, ``search_identity``, ``MANIFEST``.
- ``codehash``: The version of the code a result depends on: a cache entry or a
  checkpoint made by other code (another release, an edited rule) is not used again.
  Public: ``code_version``.
- ``common``: What every ``itcp-check`` command shares: config flags, errors, exit
  codes, JSON. Public: ``Command``, ``Group``, ``COUNT``, ``WORKERS``, ``ray_cluster``,
  ``NATURAL``, ``SECONDS``, ``SEED``, ....
- ``conformance_cmd``: ``itcp-check conformance``: the generated engine and the Z3
  encoding agree.
- ``diff_cmd``: ``itcp-check diff VARIANT_A VARIANT_B``: where two variants part ways.
  Public: ``diff_cmd``.
- ``disputes_cmd``: ``itcp-check disputes [--out FILE]``: the rulings document. Public:
  ``disputes_cmd``.
- ``early``: What the program notes before it has imported anything else: the signals
  that came meanwhile and when it started (``entry.py`` fills them in). Public:
  ``PENDING``, ``STARTED``.
- ``entry``: The ``itcp-check`` program's entry point: signals first, then everything
  else. Public: ``main``, ``PENDING``.
- ``limits``: The limits of one command as a whole: time, memory and signals. Public:
  ``Budget``, ``command_started``, ``signals_interrupt``, ``interrupted_text``,
  ``parse_size``, ``show_size``, ``resident``, ``in_use``, ....
- ``main``: ``itcp-check``: the root command.
- ``output``: Every file and folder ``itcp-check`` writes goes through this module.
  Public: ``Outputs``, ``FileOut``, ``FolderOut``, ``OutputError``, ``component``,
  ``NAME_MAX``, ``checked_folder``, ``make_folder``.
- ``play_cmd``: ``itcp-check play [VARIANT]``: play a round (or a game) at the terminal
  against bots. Public: ``play_cmd``.
- ``replay_cmd``: ``itcp-check replay FILE...``: replay scenario files and check what
  they expect. Public: ``replay``.
- ``rulebook_cmd``: ``itcp-check rulebook [VARIANT]``: the literate rulebook, sentence
  by sentence.
- ``rules_cmd``: ``itcp-check rules``: the rulebook as the checker sees it.
- ``scenarios_cmd``: ``itcp-check scenarios``: generate edge-case scenarios, list the
  library. Public: ``scenarios``.
- ``simulate_cmd``: ``itcp-check simulate``: random rounds of a variant, and how they
  ended.
- ``sweep_cmd``: ``itcp-check sweep``: the check at many tables as one job, a matrix of
  verdicts. Public: ``sweep``, ``int_range``, ``rank_list``, ``option_subsets``,
  ``copies_of``.
- ``sweep_jobs``: The jobs of ``itcp-check sweep``: one explicit-state check per table,
  run in worker processes, each result cached by job. Public: ``run_job``,
  ``worker_init``, ``Cache``, ``job_key``, ``code_version``, ``table_label``,
  ``table_slug``, ``table_json``, ....
"""
