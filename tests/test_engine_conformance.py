"""The generated engine and the reference evaluator agree, state by state.

Both backends are compiled from one elaborated spec; here they are run side by side
over every reachable state of tiny tables (breadth-first from every deal), over a
deep, seeded sample of larger ones (a beam search: every state of a level is
checked, a fixed-size random sample of it is expanded), and over random playouts
of the real game.  At each state: the player to move, the legal actions (sorted),
the action validator, every successor, every state and step property and, at the
end of a round, the scores.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from itcp.model.engine.engine import Game, build_spec
from itcp.spec.config import Config, full_deck_options
from itcp.spec.errors import IllegalAction
from itcp.spec.rules.vocabulary import DEAL, DECK_OUT, GAME_OVER, OVER, PASS_REACHED, PHASE_NAMES, ZERO

ALL_OPTIONS = full_deck_options()


def opts(*names):
    return tuple((n, 1) for n in names)


def accepts(game: Game, s, action) -> bool:
    try:
        game.apply(s, action, validate=True)
    except IllegalAction:
        return False
    return True


@dataclass
class Report:
    states: int = 0
    transitions: int = 0
    exhausted: bool = True
    phases: set = field(default_factory=set)
    endings: set = field(default_factory=set)
    depth: int = 0


class Pair:
    """One spec, both backends, and the comparisons."""

    def __init__(self, config: Config, readings: dict | None = None, scope: str = "round"):
        spec = build_spec(config, readings, scope)
        self.gen = Game(spec, backend="generated")
        self.ref = Game(spec, backend="reference")
        formulas = [p for p in spec.properties if p.formula is not None]
        self.state_props = [p.id for p in formulas if p.kind == "state"]
        self.step_props = [p.id for p in formulas if p.kind == "step"]
        assert self.state_props and self.step_props
        self.phase_i = self.gen.index["phase"]
        self.ended_i = self.gen.index["ended"]
        # single-parameter actions whose validator can be probed with every value
        self.probe = {a.name: a for a in spec.actions
                      if all(p.size is None for p in a.decl.params) and len(a.decl.params) <= 1}
        self.domain = {"card": range(-1, config.n_cards), "player": range(-1, config.players)}

    def step(self, s, a):
        """Apply ``a`` in both backends (the generated one validating it); compare."""
        s2 = self.gen.apply(s, a)
        assert s2 == self.ref.apply(s, a, validate=False), self.where(s, a)
        for pid in self.step_props:
            assert self.gen.check_property(pid, s, s2) == self.ref.check_property(pid, s, s2), \
                (pid, self.where(s, a))
        return s2

    def where(self, s, action=None) -> str:
        text = f"state {self.gen.describe(s)} (raw {s})"
        return text + (f", action {self.gen.action_str(action)}" if action else "")

    def check(self, s, *, compare_legal=True, expand=True) -> list:
        """Compare everything at ``s``; return its successors (from the generated engine).

        ``compare_legal=False`` (for a deal at the real table, far too many to list)
        compares the state alone; ``expand=False`` compares the legal actions but
        neither probes the validator nor applies them (the caller applies one)."""
        g, r = self.gen, self.ref
        assert g.current_player(s) == r.current_player(s), self.where(s)
        assert g.is_terminal(s) == r.is_terminal(s), self.where(s)
        for pid in self.state_props:
            assert g.check_property(pid, s) == r.check_property(pid, s), (pid, self.where(s))
        if g.is_terminal(s):
            assert g.scores(s) == r.scores(s), self.where(s)
        if not compare_legal:
            return []
        legal = sorted(g.legal_actions(s))
        assert legal == sorted(r.legal_actions(s)), self.where(s)
        if not expand:
            return legal
        self.check_validator(s, legal)
        out = []
        for a in legal:
            s2 = g.apply(s, a, validate=False)
            assert s2 == r.apply(s, a, validate=False), self.where(s, a)
            for pid in self.step_props:
                assert g.check_property(pid, s, s2) == r.check_property(pid, s, s2), \
                    (pid, self.where(s, a))
            out.append(s2)
        return out

    def deals(self) -> list:
        """Every dealt state; both backends must deal the same set."""
        if not hasattr(self, "_deals"):
            gen_deals = set(self.gen.initial_states())
            assert gen_deals == set(self.ref.initial_states())
            self._deals = sorted(gen_deals)
        return self._deals

    def check_validator(self, s, legal):
        """``apply(validate=True)`` accepts exactly the legal moves.

        The generated engine validates with its own generated ``allowed_<a>``
        functions, so they are probed with every value of the parameter's type (the
        reference validates by enumeration: equal to its legal actions by design)."""
        legal = set(legal)
        phase = s[self.phase_i]
        for name, act in self.probe.items():
            if act.phase.value != phase:
                continue
            candidates = [()] if not act.decl.params else \
                [(v,) for v in self.domain[act.decl.params[0].type]]
            for args in candidates:
                want = (name, args) in legal
                assert accepts(self.gen, s, (name, args)) == want, self.where(s, (name, args))

    def explore(self, max_states: int | None = None, beam: int | None = None,
                seed: int = 0) -> Report:
        """Breadth-first from every deal, level by level, comparing every state.

        With ``beam``, only a seeded random sample of ``beam`` states of each level is
        expanded (so a bounded search still reaches the end of rounds); with
        ``max_states`` the search stops after that many states.  ``exhausted`` is true
        only if neither limit cut anything off.
        """
        rng = random.Random(seed)
        rep = Report()
        level, seen = self.deals(), set(self.deals())
        while level:
            if beam is not None and len(level) > beam:
                level = rng.sample(level, beam)
                rep.exhausted = False
            nxt = []
            for s in level:
                if max_states is not None and rep.states >= max_states:
                    rep.exhausted = False
                    return rep
                rep.states += 1
                rep.phases.add(PHASE_NAMES[s[self.phase_i]])
                if s[self.phase_i] == OVER:
                    rep.endings.add(s[self.ended_i])
                succ = self.check(s)
                rep.transitions += len(succ)
                for s2 in succ:
                    if s2 not in seen:
                        seen.add(s2)
                        nxt.append(s2)
            level = sorted(nxt)
            rep.depth += bool(level)
        return rep


# -- exhaustive: every reachable state of tiny tables ------------------------------

EXHAUSTIVE = [
    pytest.param(Config(players=2, suits=1, ranks=(2, 4), hand=1), {}, id="a-2p-1suit-literal"),
    pytest.param(Config(players=2, suits=1, ranks=(2, 2), hand=1, options=opts("mercy", "justice"),
                        charity=False),
                 {"justice.duty": "stacking", "mercy.race": "anyone", "mercy.effect": "applies",
                  "desolation.target": "or_mercy", "pass.multiple": "allowed",
                  "discard.none": "skip_discard", "deck.exhausted": "reshuffle"},
                 id="b0-2p-mercy-justice-stacking"),
    pytest.param(Config(players=2, suits=1, ranks=(2, 2), hand=1, desolation=False,
                        options=opts("mercy", "secret_combination")),
                 {"discard.lower": "constraint", "zero.when": "after_move",
                  "secret.score": "own_hand", "pass.team": "team", "pass.zero": "reached_only",
                  "pass.fail": "penalty", "pass.score": "strictly_lowest",
                  "discard.none": "skip_discard"},
                 id="d0-2p-mercy-secret-memory-and-scoring"),
    pytest.param(Config(players=3, suits=1, ranks=(2, 2), hand=1, charity=False,
                        desolation=False, options=opts("mercy", "pride_cycle",
                                                       "secret_combination")),
                 {"secret.best": "team_chooses", "pride.timing": "in_turn"},
                 id="c0-3p-mercy-pride-secret-chooses"),
    pytest.param(Config(players=3, suits=1, ranks=(2, 2), hand=1,
                        options=opts("repentance", "unbelief")), {},
                 id="c0-3p-repentance-unbelief", marks=pytest.mark.slow),
    pytest.param(Config(players=2, suits=1, ranks=(2, 3), hand=2, options=opts("mercy", "justice")),
                 {"justice.duty": "stacking"}, id="b1-2p-mercy-justice", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("config, readings", EXHAUSTIVE)
def test_backends_agree_on_every_reachable_state(config, readings):
    rep = Pair(config, readings).explore()
    assert rep.exhausted
    assert "OVER" in rep.phases and rep.states > 100
    print(f"{config.describe()} {readings}: {rep.states} states, {rep.transitions} transitions, "
          f"depth {rep.depth}, phases {sorted(rep.phases)}")


# -- bounded: the brief's larger tables, breadth-first plus a deep beam ---------------

SECOND_READINGS = {"pride.timing": "in_turn", "secret.best": "team_chooses",
                   "mercy.effect": "applies", "justice.duty": "stacking",
                   "secret.seat": "both_seats"}
B_READINGS = {"justice.duty": "stacking", "desolation.target": "or_mercy",
              "turn.take_back": "not_allowed", "pass.score": "strictly_lowest",
              "mercy.after": "from_winner", "justice.passer": "skips"}
C_CONFIG = Config(players=3, suits=1, ranks=(2, 2), hand=1, options=ALL_OPTIONS)
B_CONFIG = Config(players=2, suits=2, ranks=(2, 3), hand=2, options=opts("mercy", "justice"))

BOUNDED = [
    pytest.param(B_CONFIG, B_READINGS, {"RACE", "DECK", "OVER"}, id="b-2p-2suits-mercy-justice"),
    pytest.param(C_CONFIG, {}, {"RACE", "PRIDE", "DECK", "OVER"}, id="c-3p-all-options-literal"),
    pytest.param(C_CONFIG, SECOND_READINGS, {"RACE", "PRIDE", "SECRET", "OVER"},
                 id="c-3p-all-options-second"),
    # four option cards at 3 players: exhaustively about two minutes of the suite's
    # ten, for transitions the tables above already reach
    pytest.param(Config(players=3, suits=1, ranks=(2, 2), hand=1, charity=False,
                        desolation=False,
                        options=opts("justice", "mercy", "pride_cycle", "secret_combination")),
                 {"justice.duty": "stacking"}, {"RACE", "PRIDE", "DECK", "OVER"},
                 id="c1-3p-four-options"),
    # Pride Cycle and the team with Charity and Desolation in the deck (without them
    # exhaustively above, c0-3p-mercy-pride-secret-chooses)
    pytest.param(Config(players=3, suits=1, ranks=(2, 2), hand=1,
                        options=opts("pride_cycle", "secret_combination")),
                 {"secret.best": "team_chooses", "pride.timing": "in_turn"},
                 {"PRIDE", "SECRET", "OVER"}, id="c0-3p-pride-secret-chooses"),
]
BFS_STATES, BEAM, BEAM_STATES = 300, 30, 900


@pytest.mark.parametrize("config, readings, must_reach", BOUNDED)
def test_backends_agree_on_bounded_exploration(config, readings, must_reach):
    pair = Pair(config, readings)
    wide = pair.explore(max_states=BFS_STATES)
    deep = pair.explore(max_states=BEAM_STATES, beam=BEAM, seed=7)
    assert deep.depth > wide.depth
    reached = wide.phases | deep.phases
    assert must_reach <= reached, f"the search missed {must_reach - reached}"
    print(f"{config.describe()} {readings}: breadth-first {wide.states} states "
          f"(depth {wide.depth}), beam {deep.states} states (depth {deep.depth}), "
          f"phases {sorted(reached)}")


@pytest.mark.slow
@pytest.mark.parametrize("config, readings, must_reach", BOUNDED)
def test_backends_agree_on_larger_bounded_exploration(config, readings, must_reach):
    pair = Pair(config, readings)
    wide = pair.explore(max_states=3_000)
    deep = pair.explore(max_states=3_000, beam=300, seed=11)
    assert must_reach <= wide.phases | deep.phases
    assert {PASS_REACHED} <= wide.endings | deep.endings


# -- random playouts of the real game ---------------------------------------------

FULL = Config(players=4, suits=6, ranks=(2, 10), hand=6, options=ALL_OPTIONS)


def policy(rng: random.Random, legal: list):
    """Uniform, except that Pass is rarer, so rounds run long enough to use the options."""
    others = [a for a in legal if a[0] != "pass"]
    if others and (len(others) < len(legal)) and rng.random() > 0.15:
        return rng.choice(others)
    return rng.choice(legal)


def playout(pair: Pair, rng: random.Random, s, max_steps: int, until_game_over=False):
    """Play from ``s``, comparing the backends at every state and step.

    The deal (far too many outcomes to list at a real table) is sampled and only the
    dealt state is compared.  Stops at a terminal state, after ``max_steps``, or at a
    state with no legal move (returned for the caller to judge)."""
    g = pair.gen
    steps = 0
    while steps < max_steps:
        if g.get(s, "phase") == DEAL:
            pair.check(s, compare_legal=False)
            a = g.sample_chance(s, rng)
        else:
            legal = pair.check(s, expand=False)
            if not legal or (g.is_terminal(s) and not until_game_over):
                break
            a = rng.choice(legal) if g.is_chance(s) else policy(rng, legal)
        s, steps = pair.step(s, a), steps + 1
    return s, steps


def test_random_playouts_of_the_full_game_agree():
    pair = Pair(FULL, {})
    rng = random.Random(2024)
    lengths, endings = [], set()
    for _ in range(30):
        s, steps = playout(pair, rng, pair.gen.initial_state(), max_steps=200)
        lengths.append(steps)
        if pair.gen.is_terminal(s):
            endings.add(pair.gen.get(s, "ended"))
    assert max(lengths) > 30  # long enough to exercise more than the first circuit
    assert endings & {PASS_REACHED, ZERO, DECK_OUT}
    print(f"30 rounds, {sum(lengths)} steps (longest {max(lengths)}), endings {endings}")


def test_random_game_scope_playout_agrees():
    """Several rounds in game scope: totals, the rotating dealer, the end of the game."""
    cfg = Config(players=3, suits=2, ranks=(2, 6), hand=3, options=ALL_OPTIONS, rounds=3)
    pair = Pair(cfg, {"deck.exhausted": "reshuffle", "discard.none": "any_card"}, scope="game")
    rng = random.Random(5)
    s, steps = playout(pair, rng, pair.gen.initial_state(), max_steps=3000,
                       until_game_over=True)
    assert pair.gen.get(s, "phase") == GAME_OVER, pair.where(s)
    assert pair.gen.get(s, "round_no") == 3
    assert pair.gen.legal_actions(s) == []


def test_game_scope_round_end_is_not_terminal():
    cfg = Config(players=2, suits=1, ranks=(2, 4), hand=1, rounds=2)
    g = Game.make(cfg, scope="game")
    rng = random.Random(0)
    s = g.deal(rng)
    while g.get(s, "phase") != OVER:
        s = g.apply(s, rng.choice(g.legal_actions(s)))
    assert g.legal_actions(s) == [("next_round", ())]
    assert not g.is_terminal(s)


# -- regression: the Justice duty counter stays bounded -----------------------------

def test_justice_duty_counter_is_bounded_under_the_literal_reading():
    cfg = Config(players=2, suits=1, ranks=(2, 3), hand=2, options=opts("mercy", "justice"))
    g = Game.make(cfg)
    c = {x.name: x.index for x in cfg.cards}
    s = g.apply(g.initial_state(), ("deal", (1 << c["red 2"] | 1 << c["red 3"],
                                             1 << c["red Charity"] | 1 << c["Mercy"],
                                             c["Justice"])))
    # P1 takes the Justice and discards it; P0 takes it back and discards it; and so on.
    for _ in range(3):
        s = g.apply(s, ("draw_pile", ()))
        s = g.apply(s, ("discard", (c["Justice"],)))
    assert g.get(s, "duty") <= cfg.option_copies["justice"], g.get(s, "duty")
