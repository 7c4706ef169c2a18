"""The question language: parsing, positions, nearest names, compiling to spec formulas."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from itcp.checks.questions.language import QuestionError, compile_question, is_step, parse, tokenize
from itcp.model.engine.engine import Game, build_spec
from itcp.spec.config import Config
from itcp.spec.errors import InputError

TINY = Config(players=2, suits=1, ranks=(2, 3), hand=1, options=(("pride_cycle", 1),))

GOOD = [
    ("can the passer's hand change", "can", "hand_changes"),
    ("after a pass, eventually the round ends", "after", "round_over"),
    ("can pride_cycle fire while someone has passed", "can", "and"),
    ("can pride.open fires while someone has passed", "can", "and"),
    ("always every player's hand has at most 3 cards", "always", "hand_count"),
    ("never 2 players have passed", "never", "passers_count"),
    ("can the round end by zero", "can", "round_over"),
    ("can P0 hold a Desolation and P1 has passed", "can", "and"),
    ("can (P0 has passed or P1 has passed) and not P0's hand is empty", "can", "and"),
    ("can the round be over while the passer ties for the lowest hand?", "can", "and"),
    ("can the passer join a team", "can", "joins"),
    ("can the top card be red 2", "can", "top_card"),
]


@pytest.mark.parametrize("text,form,op", GOOD)
def test_parses(text, form, op):
    q = parse(text)
    assert q.form == form
    assert q.pred.op == op


def test_differs():
    q = parse("differs pride.passer")
    assert q.form == "differs" and q.choice == "pride.passer"


def test_columns_are_kept():
    toks = tokenize("can  P0's hand change")
    assert [(t.text, t.col) for t in toks[:4]] == [("can", 1), ("P0", 6), ("'s", 8), ("hand", 11)]


@pytest.mark.parametrize("text,col,near", [
    ("can the passer's hnd change", 18, "hand"),
    ("cn the passer has passed", 1, "can"),
    ("can the passer's hand chnge", 23, "change"),
    ("can pride.opn fires", 5, "pride.open"),
    ("differs pride.pasers", 9, "pride.passer"),
    ("after a pass, evntually the round ends", 15, "eventually"),
])
def test_errors_name_the_column_and_the_nearest_word(text, col, near):
    with pytest.raises(QuestionError) as e:
        parse(text)
    err = e.value
    assert err.col == col
    rendered = err.render()
    assert f"column {col}" in rendered
    caret_line = rendered.splitlines()[2]
    assert caret_line.index("^") - 4 == col - 1  # the caret sits under the column
    assert f"did you mean {near!r}" in rendered


def test_early_end_and_empty():
    with pytest.raises(QuestionError, match="ends too early"):
        parse("can the passer's hand")
    with pytest.raises(QuestionError, match="empty"):
        parse("   ")
    with pytest.raises(QuestionError, match="unexpected character"):
        parse("can P0 has passed;")


def test_unknown_card_and_seat_are_errors_at_the_table():
    spec = build_spec(TINY)
    with pytest.raises(QuestionError, match="no card 'blue 2'") as e:
        compile_question(parse("can the top card be blue 2"), spec)
    assert "red 2" in e.value.render()  # the nearest card at this table
    with pytest.raises(QuestionError, match="no player 5"):
        compile_question(parse("can P5 has passed"), spec)


def test_state_and_step_predicates():
    spec = build_spec(TINY)
    f = compile_question(parse("can the passer's hand change"), spec)
    assert f["goal"].kind == "step" and is_step(f["goal"].formula)
    f = compile_question(parse("can 2 players have passed"), spec)
    assert f["goal"].kind == "state"
    f = compile_question(parse("after a pass, eventually the round ends"), spec)
    assert f["event"].kind == "step" and f["goal"].kind == "state"
    with pytest.raises(QuestionError, match="eventually"):
        compile_question(parse("after a pass, eventually the passer's hand changes"), spec)


def test_rule_firing_matches_the_engine():
    """"RULE fires" is derived from the spec; on every step of a search it agrees
    with the engine's own record of the rules that took part (Game.fired)."""
    spec0 = build_spec(TINY)
    for rid in ("pride.open", "play.draw_pile", "pass.say"):
        g = Game(spec0.with_properties([compile_question(parse(f"can {rid} fires"), spec0)["goal"]]))
        seen, frontier, steps = set(), list(g.initial_states())[:40], 0
        while frontier and steps < 3000:
            s = frontier.pop()
            for a, s2 in g.successors(s):
                steps += 1
                fired = rid in g.fired(s, a, s2)
                # the goal is "never fires": false exactly when it fires
                assert g.check_property("Q", s, s2) == (not fired), (rid, g.action_str(a))
                if s2 not in seen:
                    seen.add(s2)
                    frontier.append(s2)


def test_with_properties_rejects_duplicates():
    spec = build_spec(TINY)
    goal = compile_question(parse("can 2 players have passed"), spec, "FROZEN")["goal"]
    with pytest.raises(Exception, match="already defined"):
        spec.with_properties([goal])


WORDS = ["can", "always", "never", "after", "eventually", "differs", "the", "passer", "'s", "hand",
         "changes", "a", "pass", ",", "round", "ends", "P0", "P1", "has", "passed", "and", "or",
         "not", "(", ")", "while", "pride_cycle", "fires", "pride.open", "holds", "2", "cards",
         "at", "least", "someone", "team", "deck", "is", "empty", "red", "Desolation", "?", "x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12))
def test_word_salad_only_raises_input_errors(words):
    try:
        parse(" ".join(words))
    except InputError as e:
        assert "column" in e.render()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_junk_only_raises_input_errors(text):
    try:
        parse(text)
    except InputError:
        pass


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([t for t, _, _ in GOOD]))
def test_round_trip_through_spacing_and_case(text):
    """Extra spaces and capitals do not change the parse."""
    q1 = parse(text)
    q2 = parse("  " + text.replace(" ", "   ").upper().replace("'S", "'s") + " ")
    assert q1.form == q2.form
    assert _shape(q1.pred) == _shape(q2.pred)


def _shape(p):
    """A predicate without its columns (a card's own column is its last argument)."""
    args = p.args[:-1] if p.op.endswith("_card") else p.args
    return (p.op, tuple(_shape(a) if hasattr(a, "op") else
                        a.lower() if isinstance(a, str) else
                        a[:-1] if isinstance(a, tuple) else a for a in args))
