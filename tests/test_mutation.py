"""Spec mutation: the operators change one fragment each, and the runner kills a
mutant the checks can see, and reports one they cannot see as such.

The full analysis (every mutant, the whole library, five tables) is a bench
run: ``tools/mutation/mutate_spec.py`` (docs/mutation.md).  These tests use one
scenario and one tiny table (14 states)."""
from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path

import pytest

from itcp.model.engine.engine import Game, build_spec
from itcp.spec import ast as A
from itcp.spec.config import Config
from itcp.spec.errors import InputError
from itcp.spec.lang import Define, Guard, Update
from itcp.spec.rules import build_ruleset
from itcp.spec.variants import load_variant
from tools.mutation import mutation as M
from tools.mutation.distinguish import Same, first_difference
from tools.mutation.mutants import (
    OPERATORS,
    Mutant,
    NotApplicable,
    apply,
    equivalent_by_form,
    mutant_change,
    mutant_spec,
    mutants,
    mutants_of,
    mutated_rule,
)
from tools.mutation.report import counts, load_notes, main, render
from tools.mutation.summary import merged_search, read_summary, summarise, write_summary

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"
TINY = M.CheckTable("tiny", (("players", 2), ("suits", 1), ("ranks", (2, 2)), ("hand", 1),
                             ("options", ())),
                    "2 players, 1 suit, ranks 2..2, hand 1, no option cards")


def _config(**kw) -> Config:
    return load_variant("official", {**TINY.config, **kw}).config


@functools.cache
def tiny_baseline() -> M.Baseline:
    return M.baseline([LIBRARY / "pass-only-before-drawing.toml",
                       LIBRARY / "reading-pass-team.toml"], tables=(TINY,),
                      variants=["official"])


def _report(rows: list[dict], notes: dict, header: dict | None = None, **records) -> str:
    """The markdown a run's rows (and its records) render to, through the summary."""
    run, lines = summarise(header or {"run": {}}, rows, **records)
    return render(run, lines, notes)


def _counts(rows: list[dict], notes: dict, **records) -> dict:
    return counts(summarise({"run": {}}, rows, **records)[1], notes)


def _rule(rs, rid):
    return next(r for r in rs.rules if r.id == rid)


def _by_id(ms, mid) -> Mutant:
    found = [m for m in ms if m.id == mid]
    assert found, f"no mutant {mid}"
    return found[0]


# -- the operators ---------------------------------------------------------------------

def test_every_operator_has_mutants_and_ids_are_unique():
    rs = build_ruleset(_config(players=3, options=(("repentance", 1), ("mercy", 1))))
    ms = mutants_of(rs)
    assert {m.operator for m in ms} == set(OPERATORS)
    assert len({m.id for m in ms}) == len(ms)
    # the same mutant at another table has the same name
    other = {m.id for m in mutants_of(build_ruleset(_config()))}
    assert {m.id for m in ms if m.rule == "pass.say"} == {m for m in other if " pass.say " in m}


def test_each_operator_changes_exactly_its_fragment():
    rs = build_ruleset(_config())
    say = _rule(rs, "pass.say")
    guard = next(f for f in say.fragments if isinstance(f, Guard))
    first = next(f for f in say.fragments if isinstance(f, Update) and f.var == "first_passer")

    dropped = _rule(apply(rs, Mutant("drop_guard", "pass.say", "guard[pass]")), "pass.say")
    assert guard not in dropped.fragments and len(dropped.fragments) == len(say.fragments) - 1

    negated = _rule(apply(rs, Mutant("negate_guard", "pass.say", "guard[pass]")), "pass.say")
    g = next(f for f in negated.fragments if isinstance(f, Guard))
    assert g.expr == A.op("not", guard.expr)

    key = "update[pass].first_passer@0"
    flipped = _rule(apply(rs, Mutant("negate_when", "pass.say", key)), "pass.say")
    u = next(f for f in flipped.fragments if isinstance(f, Update) and f.var == "first_passer")
    assert u.when == A.op("not", first.when) and u.value == first.value

    kept = _rule(apply(rs, Mutant("drop_update", "pass.say", key)), "pass.say")
    assert first not in kept.fragments

    shift = _by_id(mutants_of(rs), "shift_seat pass.say update[pass].first_passer@0 "
                                   "value:root>actor")
    shifted = _rule(apply(rs, shift), "pass.say")
    u = next(f for f in shifted.fragments if isinstance(f, Update) and f.var == "first_passer")
    assert u.value == A.op("step", first.value, A.Const(1, A.INT)) and u.when == first.when
    # every other rule is the same object
    assert all(a is b for a, b in zip(rs.rules, apply(rs, shift).rules) if a.id != "pass.say")


def test_swap_reading_takes_the_other_readings_body():
    rs = build_ruleset(_config())
    m = _by_id(mutants_of(rs), "swap_reading pass.fail.total define.pass_failed "
                               "from pass.fail.penalty")
    _, rule = mutated_rule(rs, m)
    new = next(f for f in rule.fragments if isinstance(f, Define))
    src = next(f for f in _rule(rs, "pass.fail.penalty").fragments if isinstance(f, Define))
    assert new.body == A.substitute(src.body, {s.name: t for s, t in zip(src.params,
                                                                         new.params)})
    assert new.params == next(f for f in _rule(rs, "pass.fail.total").fragments
                              if isinstance(f, Define)).params


def test_a_swap_between_readings_of_the_same_body_is_equivalent_by_form():
    """Two readings of justice.answer define answer_by_discard alike: swapping the
    body is the spec itself.  Repentance's two readings agree on repentance_skips
    only where more than two play (the body is built per table): equivalent at
    three players, not at two.  A swap that changes the body: no reason."""
    three = build_ruleset(_config(players=3, options=("justice", "repentance")))
    two = build_ruleset(_config(options=("justice", "repentance")))
    same = "swap_reading justice.answer.draw_only define.answer_by_discard from justice.answer.whole_turn"
    why = equivalent_by_form(three, _by_id(mutants_of(three), same))
    assert why and "the same body" in why and "answer_by_discard" in why
    assert mutant_spec(build_spec(three.config, {"justice.answer": "draw_only"}), three,
                       _by_id(mutants_of(three), same)) is None
    rep = "swap_reading repentance.two.no_effect define.repentance_skips from repentance.two.skip"
    assert equivalent_by_form(three, _by_id(mutants_of(three), rep))
    assert equivalent_by_form(two, _by_id(mutants_of(two), rep)) is None
    other = [m for m in mutants_of(two) if m.operator == "swap_reading"
             and m.rule.startswith("justice.answer.is_discard")
             and m.fragment == "define.answer_by_discard"]
    assert other and all(equivalent_by_form(two, m) is None for m in other)
    assert equivalent_by_form(two, Mutant("drop_guard", "play.discard", "guard[discard]")) is None


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_seat_shift_that_only_reorders_a_union_over_the_seats_is_equivalent_by_form(players):
    """play.discard's guard sums the cards of every live hand: a union with one
    term per seat, built from one node shifted everywhere.  Shifting the seat of
    that node gives the same union in another order (equivalent at every table),
    and the mutant compiles to the spec.  Shifting the hand's owner inside the
    test ``hand_of[p] == p`` asks another question of each seat: no reason."""
    rs = build_ruleset(_config(players=players, suits=2, ranks=(2, 4)))
    spec = build_spec(rs.config, {})
    same = _by_id(mutants_of(rs), "shift_seat play.discard guard[discard] expr:get.1>P")
    why = equivalent_by_form(rs, same)
    assert why and "reorder" in why
    assert mutant_spec(spec, rs, same) is None
    other = _by_id(mutants_of(rs), "shift_seat play.discard guard[discard] expr:eq.0>get(hand_of,P)")
    assert equivalent_by_form(rs, other) is None
    assert all(equivalent_by_form(rs, m) is None for m in mutants_of(rs)
               if m.operator in ("drop_guard", "negate_guard", "negate_when", "drop_update"))


def test_a_seat_shift_under_a_condition_the_rule_fixes_is_equivalent_by_form():
    """At a Pass no card takes effect: the skip test of turn.advance's update of
    ``ended`` at a Pass sits under a constant false the rule builds, so shifting
    the seat inside it folds away at every readings; at a discard the same
    shift acts (no reason)."""
    rs = build_ruleset(_config(players=3, ranks=(2, 4), options=("unbelief",)))
    at_pass = "shift_seat turn.advance update[pass].ended@0 when:skip_stops.1>first_passer'"
    why = equivalent_by_form(rs, _by_id(mutants_of(rs), at_pass))
    assert why and "folds away" in why
    at_discard = at_pass.replace("update[pass]", "update[discard]")
    assert equivalent_by_form(rs, _by_id(mutants_of(rs), at_discard)) is None


def test_a_mutant_without_its_spot_is_not_applicable():
    rs = build_ruleset(_config())
    with pytest.raises(NotApplicable):
        apply(rs, Mutant("drop_guard", "pass.say", "guard[no_such_action]"))
    with pytest.raises(NotApplicable):
        apply(rs, Mutant("drop_guard", "no.such.rule", "guard[pass]"))


def test_mutant_spec_is_none_where_the_rule_is_not_read():
    """A mutant of a reading the table's readings do not select compiles to the
    unmutated spec there: no check at that table can kill it."""
    base = tiny_baseline()
    key = next(k for k in base.keys if dict(k[1]).get("pass.fail") == "total")
    rs = build_ruleset(key[0])
    spec = base.specs[key]
    assert mutant_spec(spec, rs, Mutant("swap_reading", "pass.fail.penalty",
                                        "define.pass_failed", spot="pass.fail.total")) is None
    assert mutant_spec(spec, rs, Mutant("drop_guard", "pass.say", "guard[pass]")) is not None


# -- the runner ------------------------------------------------------------------------

def test_runner_kills_by_a_scenario():
    base = tiny_baseline()
    out = M.run_mutant(base, _by_id(M.all_mutants(base), "drop_guard pass.say guard[pass]"),
                       seconds=60)
    assert out.status == M.KILLED
    assert out.kills[0][0] == "pass-only-before-drawing.toml"
    assert "expected to be illegal" in out.kills[0][1]


def test_runner_kills_by_a_contrast():
    """Under its [contrast] reading a scenario's outcome differs; a mutant that gives
    that reading the other one's body makes it come out again: killed."""
    base = tiny_baseline()
    assert [c.name for c in base.checks if c.kind == "contrast"] == [
        "reading-pass-team.toml~pass.team=team"]
    out = M.run_mutant(base, Mutant("swap_reading", "pass.team.team", "define.pass_for",
                                    spot="pass.team.seat"), seconds=60)
    assert out.status == M.KILLED
    assert out.kills == [("reading-pass-team.toml~pass.team=team",
                          "the contrast reading no longer changes the outcome")]


def test_runner_kills_by_a_property_verdict():
    """Dropping the new actor at the end of a Pass turn: the scenario (Justice, a
    table of its own) cannot see it; the property verdicts at the tiny table do."""
    base = tiny_baseline()
    out = M.run_mutant(base, _by_id(M.all_mutants(base),
                                    "drop_update turn.advance update[pass].actor@0"), seconds=60)
    assert out.status == M.KILLED
    name, how = out.kills[0]
    assert name == "official@tiny" and "HOLDS -> VIOLATED" in how


def test_runner_reports_an_unreached_mutant_and_its_note_makes_it_equivalent(tmp_path):
    base = tiny_baseline()
    m = Mutant("swap_reading", "pass.fail.penalty", "define.pass_failed", spot="pass.fail.total")
    out = M.run_mutant(base, m, seconds=60)
    assert out.status == M.SURVIVED and out.reached == [] and out.kills == []
    killed = M.run_mutant(base, Mutant("drop_guard", "pass.say", "guard[pass]"), seconds=60)
    rows = [out.as_json(), killed.as_json()]
    assert _counts(rows, {})["score"] == 0.5
    notes = tmp_path / "notes.toml"
    notes.write_text('[[equivalent]]\nmutants = [%s]\nwhy = "no table reads it"\n'
                     % json.dumps(m.id))
    s = _counts(rows, load_notes(notes))
    assert (s["equivalent"], s["survived"], s["score"], s["unexplained"]) == (1, 0, 1.0, 0)
    text = _report(rows, load_notes(notes))
    assert "Equivalent mutants (1)" in text and "no table reads it" in text
    # without the note, the survivor's row says what the pair search found
    search = {m.id: {"id": m.id, "outcome": "same", "same": [["2p ...", 40], ["3p ...", 2]],
                     "limit": None}}
    text = _report(rows, {}, search=search)
    assert "not told apart at 2 tables exhausted (42 state pairs) (every table tried)" in text
    search[m.id].update(outcome="unread", same=[], unread=["2p ...", "3p ..."], limit="5 s")
    text = _report(rows, {}, search=search)
    assert "never read at 2 tables and readings (stopped at 5 s)" in text
    # random rounds at larger tables that found nothing add to the row
    search[m.id]["sampled"] = [["3p 1s 2..3 h2 ...", 900, 8000], ["2p ...", 100, 700]]
    text = _report(rows, {}, search=search)
    assert ("never read at 2 tables and readings (stopped at 5 s); nothing in 1,000 random "
            "rounds at 2 larger tables and readings") in text
    del search[m.id]["sampled"]
    pinned = {"id": m.id, "outcome": "pinned", "at": "3p", "file": "x.toml"}
    unseen = {"id": m.id, "outcome": "unseen", "sampled": [["3p", 5, 50]]}
    assert merged_search([search[m.id], unseen])[m.id] == {**search[m.id], "sampled": [["3p", 5, 50]]}
    assert merged_search([unseen])[m.id] == unseen
    assert merged_search([search[m.id], unseen, pinned])[m.id] == pinned
    nowhere = {"id": m.id, "outcome": "inert", "sampled": [], "same": [], "limit": "9 s"}
    assert merged_search([search[m.id], nowhere])[m.id] == {**search[m.id], "sampled": []}
    # a proof of tools/mutation/prove_mutants.py takes it out of the denominator, and the
    # report gives the score both ways; a failed proof leaves it a survivor
    at = "3p 1s 2..3 h2 [every card] official"
    proofs = {m.id: {"id": m.id, "outcome": "proved",
                     "proofs": [{"at": at, "result": "proved"}, {"at": "x", "result": "same"}]}}
    s = _counts(rows, {}, proofs=proofs)
    assert (s["proved"], s["survived"], s["scored"], s["score"]) == (1, 0, 1, 1.0)
    text = _report(rows, {}, search=search, proofs=proofs)
    assert "Proved equivalent beyond the small tables (1)" in text and at in text
    assert "Counting the mutants proved equivalent as survivors: 1 / 2 = 50.0%" in text
    proofs[m.id].update(outcome="not proved", proofs=[
        {"at": at, "result": "not proved", "action": "discard", "why": "it differs"}])
    assert _counts(rows, {}, proofs=proofs)["survived"] == 1
    text = _report(rows, {}, search=search, proofs=proofs)
    assert f"not proved at 1 of 1 (first: {at}: discard: it differs)" in text


def test_a_seat_shift_only_compared_with_nobody_is_equivalent_by_form():
    """repentance.pass = no_effect asks whether anyone has passed
    (``first_passer == nobody``); a seat moved on by one is nobody only if it was
    nobody, so shifting it changes nothing, in the definition itself and in the
    rules that call it (under each reading's body of repentance_acts: the other
    reading ignores its argument).  Shifting the seat that plays the Repentance
    (the turn's new value) is no such case."""
    rs = build_ruleset(_config(players=3, ranks=(2, 4), options=("repentance",)))
    ms = mutants_of(rs)
    body = "shift_seat repentance.pass.no_effect define.repentance_acts body:eq.0>arg0"
    assert "compared with nobody" in equivalent_by_form(rs, _by_id(ms, body))
    call = "shift_seat repentance.reverse update[discard].dir@0 when:repentance_acts.0>first_passer"
    why = equivalent_by_form(rs, _by_id(ms, call))
    assert why and "compared with nobody" in why and "repentance_acts" in why
    others = [m for m in ms if m.operator == "shift_seat" and m.rule == "turn.advance"
              and m.fragment == "update[discard].turn@0" and m.part == "value"
              and "repentance_acts" not in m.spot]
    assert len(others) > 5 and all(equivalent_by_form(rs, m) is None for m in others)


def test_every_seat_shift_equivalent_by_form_plays_the_same_game_where_a_search_can_tell():
    """Soundness of the form argument against the exhaustive pair search: at a
    table small enough to exhaust (2 players, ranks 2..3, hands of one,
    Repentance), every seat shift ``equivalent_by_form`` claims and that
    compiles differently there (under official's readings with the rule's own
    reading in force) plays every round the spec plays, move for move."""
    cfg = _config(ranks=(2, 3), options=("repentance",))
    rs = build_ruleset(cfg)
    official = dict(load_variant("official").readings)
    claims = [m for m in mutants_of(rs) if m.operator == "shift_seat"
              and equivalent_by_form(rs, m)]
    compared = 0
    for m in claims:
        rule = _rule(rs, m.rule)
        readings = {**official, **({rule.choice: rule.reading} if rule.choice else {})}
        base = build_spec(cfg, readings, scope=rule.scope)
        mutated = mutant_spec(base, rs, m)
        if mutated is None:
            continue
        compared += 1
        assert isinstance(first_difference(Game(base), Game(mutated)), Same), m.id
    assert compared >= 5


def test_a_resumed_run_records_the_mutants_the_spec_gained(tmp_path):
    """``tools/mutation/mutate_spec.py --resume`` on a spec that has gained mutants since
    the run began appends a line saying so: the record then counts the mutants
    the spec has now, and the report names the resumed command."""
    from tools.mutation import mutate_spec as bench
    record = tmp_path / "run.jsonl"
    row = {"id": "drop_guard play.discard guard[discard]", "operator": "drop_guard",
           "rule": "play.discard", "fragment": "guard[discard]", "part": "", "spot": "",
           "description": "play.discard: drop guard[discard]", "status": "killed",
           "kills": [["x.toml", "refused"]]}
    record.write_text("\n".join(json.dumps(x) for x in (
        {"run": {"command": "python -m tools.mutation.mutate_spec --out run.jsonl", "mutants": 2}},
        row,
        {"resumed": {"command": "python -m tools.mutation.mutate_spec --resume", "mutants": 3}},
        {**row, "id": "drop_guard play.discard guard[pass]", "fragment": "guard[pass]"})) + "\n")
    header, rows = bench.read_results(record)
    assert header["run"]["mutants"] == 3 and len(rows) == 2
    assert header["run"]["resumed"] == ["python -m tools.mutation.mutate_spec --resume"]
    assert "Resumed on the spec as it was later" in _report(rows, {}, header)


def test_a_check_that_never_takes_the_changed_action_is_skipped():
    """The reveal of the first card (setup.first_card = applies) changes the
    table's spec, but no check here reaches its phase or plays it: nothing runs."""
    base = tiny_baseline()
    m = Mutant("negate_when", "turn.advance", "update[reveal].ended@0")
    key = next(k for k in base.keys if k[0].options == ())
    spec, change = mutant_change(base.specs[key], build_ruleset(key[0]), m)
    assert change.actions == {"reveal"} and not change.guards and not change.elsewhere
    tiny = next(c for c in base.checks if c.name == "official@tiny")
    assert "reveal" not in tiny.played and "pass" in tiny.played
    assert change.invisible(tiny.played) and not change.invisible({"reveal"})
    out = M.run_mutant(base, m, seconds=60)
    assert out.status == M.SURVIVED and out.reached == []


def test_mutants_of_several_tables_are_listed_once():
    base = tiny_baseline()
    rss = base.rule_sets
    assert mutants(rss + rss) == mutants(rss)


def test_bad_notes_name_the_file(tmp_path):
    bad = tmp_path / "notes.toml"
    bad.write_text("[[equivalent]]\nmutants = []\n")
    with pytest.raises(InputError) as e:
        load_notes(bad)
    assert str(bad) in str(e.value) and "why" in str(e.value)


def test_choices_read_follow_the_definitions_a_fragment_calls():
    from tools.mutation.mutants import choices_read
    rs = build_ruleset(_config(options=(("justice", 1),)))
    # play_or_extra's guard on the discard asks whether the answer is the discard
    read = choices_read(rs, Mutant("drop_guard", "justice.duty.play_or_extra", "guard[discard]"))
    assert "justice.answer" in read and "pass.when" not in read


def test_pinned_stems_of_long_ids_alike_in_their_start_differ():
    from tools.mutation.mutants import pinned_stem
    head = "shift_seat zero.when.every_change update[" + "reveal," * 20 + "keep].ended@50 when:"
    a, b = pinned_stem(head + "get.1>P"), pinned_stem(head + "get.1>z")
    assert a != b and len(a) == len(b) == 120
    assert pinned_stem("drop_guard pass.say guard[pass]") == "drop-guard-pass-say-guard-pass"


def test_a_mutant_whose_value_folds_a_condition_away_still_plays():
    """Negating the condition of Pride Cycle's actor update at a discard makes it
    apply whenever the one above it does not, so the lower updates' conditions
    (which read the new hands) fold out of the actor's value, and the actor comes
    first in the order of new values.  The engine once computed every condition
    up front and read the new hands before they existed (UnboundLocalError)."""
    from_table = {"players": 2, "suits": 1, "ranks": (2, 2), "hand": 1,
                  "options": ("mercy", "justice")}
    v = load_variant("official", from_table)
    base = build_spec(v.config, dict(v.readings))
    m = _by_id(mutants_of(build_ruleset(v.config)),
               "negate_when pride.open update[discard].actor@11")
    ms = mutant_spec(base, build_ruleset(v.config), m)
    g = Game(ms)
    assert g.spec.action("discard").order[0] == "actor"
    s = g.initial_state()
    seen = 0
    todo = [s]
    while todo and seen < 500:   # every move of the first states, through discards
        s = todo.pop()
        seen += 1
        if g.is_terminal(s):
            continue
        for a in g.legal_actions(s):
            todo.append(g.apply(s, a))
    assert seen == 500 or not todo


def _pin_mutants():
    from tools.mutation import pin_mutants
    return pin_mutants


def test_random_rounds_under_the_readings_a_proof_failed_at_tell_a_survivor_apart(tmp_path):
    """``tools/mutation/pin_mutants.py --sampled --from-proofs``: the readings of each
    failed proof are read back from the record, and random rounds side by side
    under them find the round that a mutant clearing a Justice duty's seat at a
    race's last discard plays differently (it outlasts the turn only when a
    racer set it: ``mercy.discards = every_racer``)."""
    bench = _pin_mutants()
    at = "3p 1s 2..3 h2 [mercy, justice] official"
    record = tmp_path / "proofs.jsonl"
    record.write_text(json.dumps({"id": "m", "proofs": [
        {"at": f"{at} + mercy.discards=every_racer, justice.duty=stacking", "result": "not proved"},
        {"at": at, "result": "not proved"},
        {"at": f"{at} + pass.reached=circuit", "result": "proved"},
        {"at": f"{at} + pass.reached=circuit", "result": "same"}]}) + "\n")
    assert bench.failed_proof_readings([str(record)]) == {
        "m": [{"mercy.discards": "every_racer", "justice.duty": "stacking"}, {}]}
    mid = "negate_when turn.advance update[discard].duty_on@0"
    found, evidence = bench.tell_apart_sampled(
        mid, bench.Tables(), bench.choice_points(), seconds=60, each=30,
        first=[{"mercy.discards": "every_racer"}])
    assert found is not None, evidence
    d, config, g = found
    assert "mercy.discards=every_racer" in evidence["at"]
    # the round is the spec's own, and the scenario made of it replays under the spec
    s = g.initial_state()
    for a, want in zip(d.actions, d.states[1:]):
        s = g.apply(s, a)
        assert s == want
    assert "[[move]]" in bench.scenario(config, g, mid, d)


def _bench(name: str):
    return importlib.import_module(f"tools.mutation.{name}")


def test_random_rounds_refute_a_wrong_note_and_not_a_right_one(tmp_path):
    """``tools/mutation/check_notes.py``: a mutant that plays differently (a dropped turn
    change after a Pass) is refuted, its round saved as a scenario of the spec;
    a noted one (the reveal's owed reset, which gives owed the value it has)
    plays on, and the rounds count the steps where only a hidden variable
    differed.  The report shows both."""
    import random

    check_notes = _bench("check_notes")
    choices = check_notes.choice_points()
    wrong = check_notes.check("drop_update turn.advance update[pass].actor@0", choices, 20.0,
                              random.Random(1), tmp_path)
    assert wrong.get("refuted") and Path(wrong["refuted"]).exists()
    assert "[[move]]" in Path(wrong["refuted"]).read_text()
    right = check_notes.check("drop_update turn.advance update[discard].duty_on@0", choices,
                              3.0, random.Random(1), tmp_path)
    assert "refuted" not in right and right["rounds"] > 0 and right["differed"] > 0
    assert set(right["where"]) <= {f"duty_on in {p}" for p in
                                   ("DRAW", "DECK", "DISCARD", "RACE", "PRIDE", "SECRET", "OVER")}
    rows = [{"id": i, "status": "survived", "operator": "drop_update", "rule": i.split()[1],
             "detail": "", "reached": [], "kills": []} for i in (wrong["id"], right["id"])]
    notes = {i: ("an argument", 1) for i in (wrong["id"], right["id"])}
    text = _report(rows, notes, checked={r["id"]: r for r in (wrong, right)})
    assert f"{right['rounds']:,} rounds" in text and "**refuted**" in text
    assert f"Notes that random rounds refute (the round is in the scenario named): `{wrong['id']}`" \
        in text


def test_a_mutant_that_leaves_a_declared_bound_is_killed_by_its_pinned_round():
    """The pinned round of a mutant that plays every move as the spec does but
    drives ``owed`` below its declared bounds passes on the spec and fails on
    the mutant, naming the variable and the bounds."""
    pinned = Path(__file__).parent / "regression"
    base = M.baseline([pinned / "negate-when-turn-advance-update-give-owed-0.toml"], tables=())
    out = M.run_mutant(base, Mutant("negate_when", "turn.advance", "update[give].owed@0"),
                       seconds=60)
    assert out.status == M.KILLED
    assert "owed = -1 is outside the bounds 0..31" in out.kills[0][1]


def test_the_summary_keeps_what_killed_each_mutant_and_why_a_survivor_survives(tmp_path):
    """One line per mutant: the first check that killed it, or what the search,
    the proof and the random rounds found; written and read back whole, it
    renders what the run's records render."""
    killed = {"id": "drop_guard pass.say guard[pass]", "operator": "drop_guard",
              "rule": "pass.say", "status": "killed", "detail": "", "reached": ["a.toml"],
              "kills": [["a.toml", "refused"], ["official@A", "HOLDS -> VIOLATED"]]}
    alive = {"id": "drop_update turn.advance update[pass].drew@0", "operator": "drop_update",
             "rule": "turn.advance", "status": "timeout", "detail": "time limit 60 s",
             "reached": ["a.toml", "official@A"], "kills": []}
    proved = {**alive, "id": "drop_update turn.advance update[pass].owed@0", "status": "survived",
              "detail": ""}
    at = "3p 1s 2..3 h2 [every card] official + pass.fail=total"
    records = {
        "search": {alive["id"]: {"id": alive["id"], "outcome": "inert", "same": [], "limit": None}},
        "proofs": {proved["id"]: {"id": proved["id"], "outcome": "proved",
                                  "proofs": [{"at": "x", "result": "same"},
                                             {"at": at, "result": "proved"}]}},
        "checked": {alive["id"]: {"id": alive["id"], "rounds": 1200, "steps": 9000,
                                  "differed": 0, "where": {}}}}
    header = {"run": {"command": "python -m tools.mutation.mutate_spec --out r.jsonl",
                      "mutants": 3, "scenarios": 1, "tables": {"A": "2 players"},
                      "baseline": {"official@A": {"states": 14, "verdicts": {}}},
                      "seconds_per_mutant": 60}}
    run, lines = summarise(header, [killed, alive, proved], **records)
    assert run["baseline"] == {"official@A": 14} and "seconds_per_mutant" not in run
    assert lines[0] == {"id": killed["id"], "operator": "drop_guard", "rule": "pass.say",
                        "status": "killed", "by": "a.toml"}
    assert lines[1]["detail"] == "time limit 60 s" and lines[1]["reached"] == 2
    assert lines[1]["search"] == "changes no elaborated spec at the tables tried (every table tried)"
    assert lines[1]["proof"] == "not tried" and "proved" not in lines[1]
    assert lines[1]["rounds"].startswith("1,200 rounds, 9,000 steps; the states never differed")
    assert lines[2]["proved"] == at and lines[2]["proof"] == "proved at 1 (same at 1)"
    assert "search" not in lines[2]
    path = tmp_path / "spec-mutants.jsonl"
    write_summary(path, run, lines)
    assert read_summary(path) == (run, lines)
    notes = {alive["id"]: ("the pass leaves drew false", 1)}
    text = render(*read_summary(path), notes)
    assert text == render(run, lines, notes)
    assert "**Mutation score: 1 / 1 = 100.0%**" in text
    assert "| 3p 1s 2..3 h2 [every card] official | 1 |" in text
    assert "**Note 1.** the pass leaves drew false" in text and "| 14 states" not in text
    assert "official 14" in text


def test_the_report_command_writes_the_docs_generated_part_and_checks_it(tmp_path, capsys):
    """``python -m tools.mutation.report`` renders the summary and the notes into
    the page's generated part, leaving the hand-written text around it;
    ``--check`` writes nothing and fails when that part is stale."""
    row = {"id": "drop_guard pass.say guard[pass]", "operator": "drop_guard", "rule": "pass.say",
           "status": "killed", "detail": "", "reached": [], "kills": [["a.toml", "refused"]]}
    summary, notes, docs = tmp_path / "s.jsonl", tmp_path / "n.toml", tmp_path / "m.md"
    write_summary(summary, *summarise({"run": {}}, [row]))
    docs.write_text("# Mutation\n\nBy hand.\n")
    args = ["--summary", str(summary), "--notes", str(notes), "--docs", str(docs)]
    assert main(args + ["--check"]) == 1 and "stale" in capsys.readouterr().err
    assert main(args) == 0
    text = docs.read_text()
    assert text.startswith("# Mutation\n\nBy hand.\n\n<!-- BEGIN GENERATED")
    assert "**Mutation score: 1 / 1 = 100.0%**" in text
    assert main(args + ["--check"]) == 0
    docs.write_text(text.replace("100.0%", "99.0%") + "More by hand.\n")
    assert main(args + ["--check"]) == 1
    assert main(args) == 0
    assert docs.read_text() == text + "More by hand.\n"
