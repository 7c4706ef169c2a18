"""The Z3 encoding of the spec: operator semantics, conformance with the engine, cores.

* Every operator of ``spec.ast.OPS``, encoded in Z3 and evaluated on concrete
  values, equals ``spec.semantics.apply_op`` (NOCARD/NOBODY = -1 cases included).
* On four tiny tables, at every reachable state and for every action of its
  phase, the engine's successors are exactly the solutions of Next (the tables
  hold every option card between them); on a table with every option card and on
  a three-player clarified table, at a spread sample of explored states; on the
  full game, Hypothesis draws playout states.
* An unsat core of an illegal Pass names the rule that forbids it.
"""
from __future__ import annotations

import itertools
from functools import cache

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from itcp.checks.symbolic.conformance import Checker, conformance, explored_states, playout_states
from itcp.model.engine.engine import Game, build_spec
from itcp.model.smt.encoding import SmtSpec, core_labels, track
from itcp.model.smt.ops import Operators
from itcp.spec import ast as A
from itcp.spec.config import Config, full_deck_options
from itcp.spec.errors import SpecError
from itcp.spec.rules.vocabulary import DEAL, DECK, DISCARD, DRAW, OVER, PRIDE, RACE, SECRET
from itcp.spec.semantics import apply_op

ALL_OPTIONS = full_deck_options()

# -- operators on concrete values ------------------------------------------------------

OPS_CONFIG = Config(players=3, suits=1, ranks=(2, 4), hand=1)  # 5 cards, 3 seats

POOLS = {
    "bool": [False, True],
    "int": [-4, -1, 0, 1, 2, 7],
    "player": [-1, 0, 1, 2],
    "card": [-1, 0, 2, 4],
    "cards": [0, 0b00001, 0b10110, 0b11111],
    "players": [0, 0b001, 0b101, 0b111],
    "pile": [(), (3,), (0, 4, 2), (4, 3, 2, 1), (2, 0, 2)],
    "map[cards]": [(0, 1, 31), (5, 0, 16)],
    "map[player]": [(-1, 0, 2), (1, 1, 1)],
    "map[card]": [(-1, 4, 0)],
    "map[int]": [(0, -2, 5)],
    "map[bool]": [(True, False, True)],
    "cardmap": [(5, 0, 3, -2, 9, 7)],  # one entry per card, then NOCARD's
}
ELEM = {"cards": "card", "players": "player"}
MAPS = ["map[cards]", "map[player]", "map[card]", "map[int]", "map[bool]"]

#: (operator, argument types, result type); "int2" is an int pool for directions
CASES = [
    ("and", ["bool", "bool", "bool"], "bool"),
    ("or", ["bool", "bool", "bool"], "bool"),
    ("not", ["bool"], "bool"),
    *[("eq", [t, t], "bool") for t in POOLS if t != "cardmap"],
    ("add", ["int", "int"], "int"),
    ("sub", ["int", "int"], "int"),
    ("mul", ["int", "int"], "int"),
    ("lt", ["int", "int"], "bool"),
    ("le", ["int", "int"], "bool"),
    *[(o, [t, t], t) for o in ("union", "inter", "diff") for t in ("cards", "players")],
    *[("member", [ELEM[t], t], "bool") for t in ("cards", "players")],
    *[(o, [t, ELEM[t]], t) for o in ("with", "without") for t in ("cards", "players")],
    *[("is_empty", [t], "bool") for t in ("cards", "players")],
    *[("count", [t], "int") for t in ("cards", "players")],
    *[("subset", [t, t], "bool") for t in ("cards", "players")],
    ("tsum", ["cards", "cardmap"], "int"),
    ("attr", ["card", "cardmap"], "int"),
    ("step", ["player", "int"], "player"),
    ("next_in", ["player", "int", "players"], "player"),
    ("top", ["pile"], "card"),
    ("pile_len", ["pile"], "int"),
    ("push", ["pile", "card"], "pile"),
    ("pop", ["pile"], "pile"),
    ("pile_cards", ["pile"], "cards"),
    ("pile_distinct", ["pile"], "bool"),
    ("pile_of", ["card"], "pile"),
    *[("get", [m, "player"], A.map_value_type(m)) for m in MAPS],
    *[("put", [m, "player", A.map_value_type(m)], m) for m in MAPS],
]


@cache
def ops_smt() -> SmtSpec:
    return SmtSpec(build_spec(OPS_CONFIG))


def _empty_model():
    s = z3.Solver()
    assert s.check() == z3.sat
    return s.model()


def test_every_operator_has_a_case():
    assert {c[0] for c in CASES} == set(A.OPS)
    smt = ops_smt()
    assert set(smt.ops.table) == set(A.OPS)


def test_an_operator_without_an_encoding_is_refused(monkeypatch):
    """An operator the encoders do not cover stops the class when it is
    defined: here a language grown by one operator, and the encoders again."""
    monkeypatch.setitem(A.OPS, "frobnicate", A.Sig([A.INT], A.INT, "no encoding"))
    with pytest.raises(SpecError, match="Encoders has no case for the operator frobnicate"):
        class Encoders(Operators):
            pass


@pytest.mark.parametrize("name,types,rtype", CASES, ids=lambda x: x if isinstance(x, str) else None)
def test_operator_matches_semantics(name, types, rtype):
    smt = ops_smt()
    model = _empty_model()
    n = OPS_CONFIG.players
    pools = [([-1, 0, 1, 2, -3] if (name in ("step", "next_in") and t == "int") else POOLS[t])
             for t in types]
    checked = 0
    for vals in itertools.product(*pools):
        try:
            want = apply_op(name, rtype, list(vals), n)
        except (ValueError, IndexError):
            continue  # undefined in Python too (a negative shift, an index out of range)
        if rtype == "pile" and len(want) > OPS_CONFIG.n_cards:
            continue
        got = smt.encode_op(name, [smt.const(v, t) for v, t in zip(vals, types)], types, rtype)
        assert smt.decode_value(model, got, rtype) == want, (name, vals)
        # the canonical form too: equal values are equal terms (pile slots past the end = -1)
        same = z3.simplify(smt.eq(got, smt.const(want, rtype), rtype))
        assert z3.is_true(same), (name, vals)
        checked += 1
    assert checked


@pytest.mark.parametrize("what", ["cards", "distinct", "top"])
def test_the_pile_set_and_distinctness_stay_exact_through_push_and_pop(what):
    """A pile term carries its set of cards, whether no card is in it twice and
    its top card beside the slots; ``pile_cards``, ``pile_distinct`` and ``top``
    read those.  For every well-formed pile (a card twice included) whose
    ``distinct`` and top card are tied to its slots, and every card (NOCARD
    too), each after a push and after a pop is exactly what the slots left say
    (Z3 proves it at a 5-card table; a push needs a free slot, as the pile of a
    well-formed state holding a card elsewhere has): so none drifts from the
    slots on any path from a well-formed state."""
    smt = SmtSpec(build_spec(OPS_CONFIG))
    s = smt.state("s")
    p = s["pile"]
    c = z3.BitVec("c", 8)
    for after, pre in ((smt.ops.op_push((p, c), None), z3.ULT(p.length, smt.n_cards)),
                       (smt.ops.op_pop((p,), None), z3.BoolVal(True))):
        solver = z3.Solver()
        parts = smt.wf_parts(s)
        solver.add(*smt.values.well_formed(p, A.PILE), *parts["ties"], *parts["top"], pre)
        if what == "cards":
            solver.add(after.cards != smt.values.slot_union(after.length, after.slots))
        elif what == "top":
            solver.add(after.top != smt.values.top(after))
        else:
            solver.add(after.distinct != smt.values.ladder(after.slots))
        assert solver.check() == z3.unsat, solver.model()


def test_without_the_ties_a_pile_may_claim_distinct_falsely():
    """The ties are what make ``distinct`` mean something: without them a pile
    holding a card twice can claim to be distinct (so a query without them is a
    relaxation, whose sat answers prove nothing)."""
    smt = SmtSpec(build_spec(OPS_CONFIG))
    s = smt.state("s")
    p = s["pile"]
    solver = z3.Solver()
    parts = smt.wf_parts(s)
    solver.add(*parts["ranges"], *parts["layout"], p.length == 2, p.slots[0] == p.slots[1],
               p.distinct)
    assert solver.check() == z3.sat
    solver.add(*parts["ties"])
    assert solver.check() == z3.unsat


def test_a_push_leaves_the_card_pushed_on_top_without_reading_the_slots():
    """The pile's top card is a field of its own (``Pile.top``): after a push it
    is the card pushed, for any pile, well-formed or not, so a step proof that a
    discard leaves a card on the pile needs no count over the slots (at the full
    deck that count was a pigeonhole Z3 did not refute in 30 s)."""
    smt = SmtSpec(build_spec(OPS_CONFIG))
    p = smt.state("s")["pile"]
    c = z3.BitVec("c", 8)
    after = smt.ops.op_push((p, c), None)
    solver = z3.Solver()
    solver.add(after.top != c)
    assert solver.check() == z3.unsat


def test_the_card_cases_of_an_action_cover_every_card_it_can_take():
    """``Symbolic.choice_cases``: one condition per card and one for any other
    value of the action's card, so every step is in some case (a step is
    unsat exactly when every case is); an action without a card has none."""
    from itcp.model.smt.queries import Symbolic
    sym = Symbolic(build_spec(OPS_CONFIG))
    cases = sym.choice_cases("discard")
    assert cases is not None and len(cases) == sym.smt.n_cards + 1
    solver = z3.Solver()
    solver.add(z3.Not(z3.Or(*cases)))
    assert solver.check() == z3.unsat
    assert sym.choice_cases("pass") is None


def test_flat_state_roundtrip():
    game = Game.make(Config(players=2, suits=1, ranks=(2, 3), hand=1))
    smt = SmtSpec(game.spec)
    s = smt.state("s")
    flat = smt.flat_state(s)
    for st_ in itertools.islice(explored_states(game, 50), 50):
        assert smt.unpack_state(smt.pack_state(st_)) == st_
        solver = z3.Solver()
        solver.add(flat == smt.pack_state(st_))
        assert solver.check() == z3.sat
        assert smt.decode(solver.model(), s) == st_


def test_init_is_the_engine_initial_state():
    game = Game.make(Config(players=3, suits=1, ranks=(2, 3), hand=1))
    smt = SmtSpec(game.spec)
    s = smt.state("s")
    solver = z3.Solver()
    solver.add(*smt.init(s))
    assert solver.check() == z3.sat
    assert smt.decode(solver.model(), s) == game.initial_state()
    solver.add(z3.Not(z3.And(*smt.fix(s, game.initial_state()))))
    assert solver.check() == z3.unsat


# -- conformance: engine successors == solutions of Next ---------------------------------

def _assert_agree(report, game):
    msgs = [f"{d.action} at {game.describe(d.state)}: engine only {d.engine_only[:3]}, "
            f"z3 only {d.z3_only[:3]}" for d in report.disagreements[:3]]
    assert not report.disagreements, "\n".join(msgs)
    assert report.unknown == 0
    assert report.truncated == 0
    assert report.queries > report.pairs  # every pair ended with an unsat answer


def test_conformance_tiny_table_exhaustive():
    game = Game.make(Config(players=2, suits=1, ranks=(2, 3), hand=1))
    states = list(explored_states(game))  # no limit: every reachable state
    report = conformance(game, states)
    _assert_agree(report, game)
    assert report.states == len(states) > 200


#: tiny tables whose every reachable state is checked; together they hold all six
#: option cards (the all-option table below is too big to exhaust, so it is sampled)
EXHAUSTIVE_OPTION_TABLES = {
    "mercy+justice": (("mercy", 1), ("justice", 1)),
    "pride+secret": (("pride_cycle", 1), ("secret_combination", 1)),
    "repentance+unbelief+secret": (("repentance", 1), ("unbelief", 1),
                                   ("secret_combination", 1)),
}


@pytest.mark.parametrize("name", [
    "mercy+justice", "pride+secret",
    pytest.param("repentance+unbelief+secret", marks=pytest.mark.slow)])  # 1,561 states
def test_conformance_option_tables_exhaustive(name):
    game = Game.make(Config(players=2, suits=1, ranks=(2, 2), hand=1, charity=False,
                            desolation=False, options=EXHAUSTIVE_OPTION_TABLES[name]))
    states = list(explored_states(game))  # no limit: every reachable state
    report = conformance(game, states)
    _assert_agree(report, game)
    assert report.states == len(states) >= 100


def test_conformance_all_option_cards():
    # the round's state space here is beyond 200,000 states (the pile's order): check
    # a spread-out sample of the first 40,000 breadth-first states, deep levels included
    game = Game.make(Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL_OPTIONS))
    states = list(explored_states(game, 40000))[::60]
    report = conformance(game, states)
    _assert_agree(report, game)
    phases = {s[game.index["phase"]] for s in states}
    assert {DEAL, DRAW, DECK, DISCARD, RACE, PRIDE, OVER} <= phases


def test_conformance_three_players_clarified_readings():
    # clarified, except that the team chooses its best hand: the SECRET phase is reached
    from itcp.spec.variants import load_variant
    v = load_variant("clarified", dict(players=3, suits=1, ranks=(2, 2), hand=1, options=(
        ("mercy", 1), ("justice", 1), ("pride_cycle", 1), ("secret_combination", 1))))
    readings = dict(v.readings)
    readings["secret.best"] = "team_chooses"
    game = Game.make(v.config, readings)
    states = list(explored_states(game, 20000))[::50]
    report = conformance(game, states)
    _assert_agree(report, game)
    assert SECRET in {s[game.index["phase"]] for s in states}


@cache
def full_game() -> tuple:
    game = Game.make(Config(players=4, suits=6, ranks=(2, 10), hand=6, options=ALL_OPTIONS))
    return game, Checker(game)


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), steps=st.integers(0, 60))
def test_conformance_full_game_playouts(seed, steps):
    game, checker = full_game()
    states = list(itertools.islice(playout_states(game, 1, seed), steps + 1))
    report = conformance(game, states[-1:], max_solutions=200, checker=checker)
    assert not report.disagreements, report.disagreements[0]
    assert report.unknown == 0


# -- unsat cores name rules ----------------------------------------------------------------

def test_core_of_an_illegal_pass_names_the_rule():
    game = Game.make(Config(players=2, suits=1, ranks=(2, 3), hand=1),
                     {"pass.multiple": "not_allowed"})
    ix = game.index
    target = None
    for s in explored_states(game):
        if (s[ix["phase"]] == DRAW and s[ix["passers"]] and s[ix["owed"]] == 1
                and not s[ix["drew"]] and s[ix["duty"]] == 0
                and not any(a[0] == "pass" for a in game.legal_actions(s))):
            target = s
            break
    assert target is not None, "no state where a second Pass is refused"
    smt = SmtSpec(game.spec)
    s, s2 = smt.state("s"), smt.state("t")
    solver = z3.Solver()
    solver.set("core.minimize", True)
    solver.add(*smt.fix(s, target))
    names = track(solver, smt.next(s, "pass", smt.params("pass"), s2))
    assert solver.check() == z3.unsat
    core = core_labels(solver, names)
    assert "pass.multiple.not_allowed" in core
    assert core == ["pass.multiple.not_allowed"]


def test_random_playout_states_are_distinct_inputs():
    # the playout generator is deterministic for a seed (the Hypothesis test relies on it)
    game, _ = full_game()
    a = list(itertools.islice(playout_states(game, 1, 7), 10))
    b = list(itertools.islice(playout_states(game, 1, 7), 10))
    assert a == b and len(a) == 10


def test_properties_match_the_engine():
    game = Game.make(Config(players=2, suits=1, ranks=(2, 2), hand=1, options=ALL_OPTIONS))
    smt = SmtSpec(game.spec)
    props = [p for p in game.spec.properties if p.formula is not None]
    concrete = lambda st_: {v: smt.const(x, smt.var_types[v])
                            for v, x in zip(smt.var_names, st_)}
    for s in list(explored_states(game, 3000))[::20]:
        cs = concrete(s)
        for a, s2 in game.successors(s):
            for p in props:
                if p.kind == "step":
                    got = z3.simplify(smt.prop(p.id, cs, concrete(s2)))
                    assert z3.is_true(got) == game.check_property(p.id, s, s2), (p.id, s, a)
        for p in props:
            if p.kind == "state":
                got = z3.simplify(smt.prop(p.id, cs))
                assert z3.is_true(got) == game.check_property(p.id, s), (p.id, s)


def _sum_and_count(smt: SmtSpec, S, values):
    from types import SimpleNamespace
    node = SimpleNamespace(args=[SimpleNamespace(type=A.CARDS)])
    return smt.ops.op_tsum((S, values), None), smt.ops.op_count((S,), node)


@pytest.mark.parametrize("config", [OPS_CONFIG, Config(players=8, suits=6, ranks=(2, 10),
                                                       hand=6, options=full_deck_options())],
                         ids=["ops-table", "full-deck"])
def test_a_sum_at_zero_is_stated_as_a_mask_and_means_the_same(config):
    """``points == 0`` and ``count == 0`` are encoded as "no card that counts is in
    the set" (no adder chain); Z3 proves that equal to the sum being zero, for
    every set, at the full deck too."""
    smt = SmtSpec(build_spec(config))
    values = tuple(c.value for c in config.cards) + (0,)
    S = z3.BitVec("S", smt.n_cards)
    for term in _sum_and_count(smt, S, values):
        encoded = smt.eq(term, smt.bv(0, smt.iw), A.INT)
        assert "bvadd" not in encoded.sexpr()          # no sum left in it
        assert smt.eq(smt.bv(0, smt.iw), term, A.INT).eq(encoded)
        solver = z3.Solver()
        solver.add(encoded != (term == 0))
        assert solver.check() == z3.unsat


def test_a_sum_that_could_wrap_or_go_negative_stays_a_sum():
    """The mask is only exact when no summand is negative and the largest sum
    fits the width: otherwise the equation is left as it is."""
    smt = SmtSpec(build_spec(OPS_CONFIG))
    S = z3.BitVec("S", smt.n_cards)
    n = smt.n_cards
    for values in ((-1,) + (1,) * n, (1 << (smt.iw - 2),) * (n + 1)):
        term = smt.ops.op_tsum((S, values), None)
        assert smt.eq(term, smt.bv(0, smt.iw), A.INT).eq(term == 0)


def test_an_update_fragment_names_the_rules_of_the_new_values_it_reads():
    """A round stops (``phase' = OVER``) when ``ended'`` is set, and after a
    discard the zero rule sets it: the phase fragment is built from the zero
    rule's condition, so its label names that rule and a core using it does too."""
    game = Game.make(Config(players=2, suits=2, ranks=(2, 3), hand=2),
                     {"zero.when": "every_change"})
    smt = SmtSpec(game.spec)
    s, s2 = smt.state("s"), smt.state("t")
    params = smt.params("discard", "p")
    _, defs = smt.next_parts(s, "discard", params, s2)
    label = defs["phase"][0].split("+")
    assert "round.stop" in label and "zero.when.every_change" in label
    assert "round.stop" not in defs["ended"][0].split("+")   # ended' reads no phase'


def test_a_substitution_built_once_gives_what_z3_substitute_gives():
    from itcp.model.smt.queries import Substitution
    x, y, z = z3.BitVecs("sx sy sz", 8)
    b = z3.Bool("sb")
    pairs = [(x, y + 1), (b, z == 3)]
    sub = Substitution(pairs)
    for e in (x + z == 2, z3.And(b, x < y), z3.If(b, x, z), z):
        got = sub(e)
        assert type(got) is type(z3.substitute(e, *pairs))
        assert got.eq(z3.substitute(e, *pairs)), e
    assert Substitution([])(x + 1).eq(x + 1)
    with pytest.raises(ValueError, match="substitution of"):
        Substitution([(x, b)])
    with pytest.raises(ValueError, match="another Z3 context"):
        sub(z3.BitVec("other", 8, z3.Context()))
