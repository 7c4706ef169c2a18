"""One stored state per game position: which variables a state's future reads.

The explorer stores states, and two states that differ only in a variable
nothing will ever read again are one game position: every move, every check
and every property gives the same answers from both.  This module finds, per
phase, the variables that are *live* there, by a least fixpoint over the
elaborated spec's own actions (a classic liveness analysis, read off the
spec's AST like ``specialise.py``'s constant analysis):

* a variable is live at phase P if a guard or a parameter domain of an action
  taken at P reads it, or a state property or a graph observation
  (``graph_observations``) at P reads it, or a step property on a move from
  P reads it (its next value read through the move's updates), or
* an action taken at P writes a variable live at a phase the move may lead to,
  and that new value reads it, or leaves it unchanged and it is live there.

A variable that is not live at a state's phase is *dead* there: the explorer
resets it to its canonical value (its value before the deal), so states that
differ only in dead variables are stored once.  With dead variables reset,
some variables take one value in every stored state (the card just taken from
the pile, once take-back is allowed; the draws owed, at a table without
Justice): the analysis and ``reachable_values`` are iterated together until
neither finds more, and those variables are constants of the search like the
ones ``constant_fields`` finds.

Nothing here names a variable, a rule or a reading: every fact comes from the
spec (guards, updates, definitions, properties, and the graph properties'
observations of a state: after a Pass, a live hand's size).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from itcp.spec import ast as A
from itcp.spec.ast import Const, Primed, Var
from itcp.spec.lang import Spec
from itcp.spec.properties import observations

from ..engine.codegen import FunctionEmitter, Module
from ..engine.loader import load_generated
from .specialise import base_action, framed, initial_constants, reachable_values, spec_type, specialise


def graph_observations(spec: Spec) -> dict:
    """What the explorer observes in a state besides the state properties, as
    formulas over the state: ``post_pass`` (ROUND_ENDS looks for cycles among
    the states after a Pass) and, per seat, ``live_hand`` (the seat holds a
    hand in play) and ``hand`` (its cards: HAND_BOUNDS reports their number).

    The graph properties declare them in spec/properties.py (``observes``);
    a spec without them observes nothing: no state is after a Pass, no hand
    is live."""
    out = {"post_pass": Const(False, A.BOOL), "live_hand": (), "hand": ()}
    out.update(observations(spec.properties))
    return out


def observed_formulas(spec: Spec) -> list:
    obs = graph_observations(spec)
    return [obs["post_pass"]] + list(obs["live_hand"]) + list(obs["hand"])


@dataclass(frozen=True)
class Reduction:
    """What a search may forget: ``constants`` (variable -> its value in every
    stored state), ``live`` (phase value -> the variables live there; every
    other one is reset to ``canonical``).  ``invariant`` are the constants
    that hold in every reachable state, reset or not (``constant_fields``):
    only those keep their value within a move."""
    constants: dict
    live: dict
    canonical: dict
    all_vars: tuple
    invariant: dict

    def dead(self, phase: int) -> frozenset:
        """The non-constant variables reset at ``phase``."""
        live = self.live.get(phase)
        if live is None:
            return frozenset()
        return frozenset(v for v in self.all_vars if v not in live and v not in self.constants)

    def varying(self) -> list:
        """The variables a stored key holds (live somewhere, not constant)."""
        return [v for v in self.all_vars if v not in self.constants]


def _reads(node) -> set:
    return {x.name for x in A.walk(node) if isinstance(x, Var)}


def _primes(node) -> set:
    return {x.name for x in A.walk(node) if isinstance(x, Primed)}


def _leaves(node):
    if isinstance(node, Const):
        return {node.value}
    if isinstance(node, A.Ite):
        a, b = _leaves(node.then), _leaves(node.else_)
        return None if a is None or b is None else a | b
    return None


class _Action:
    """One action specialised at its phase under the known constants."""

    def __init__(self, spec, act, constants, invariant, inline, step_props):
        self.act = act
        self.phase = act.phase.value
        known = dict(constants)
        known["phase"] = Const(self.phase, spec_type(spec, "phase"))
        # a variable constant in every reachable state keeps its value through
        # the move; one constant only where it is stored (it is reset where
        # dead) may take another value within the move, read by other updates
        primed = {v: c for v, c in invariant.items() if v in act.values}
        fold = lambda e: specialise(e, known, spec, primed)  # noqa: E731
        guard, values, domains = base_action(spec, act, invariant)
        self.guard = fold(guard)
        self.enabled = self.guard != Const(False, A.BOOL)
        self.domains = [fold(d) for d in domains]
        self.values = {v: fold(values[v]) for v in act.order if v not in invariant}
        self.updated = set(act.values)
        nexts = {**primed, **self.values}
        self.steps = [specialise(framed(inline(p.formula), self.updated), known, spec, nexts)
                      for p in step_props]
        phase = self.values.get("phase")
        phases = {self.phase} if "phase" not in act.values else (
            {invariant["phase"].value} if "phase" in invariant else _leaves(phase))
        self.next_phases = phases  # None: any phase


def next_phases(spec: Spec, act) -> set | None:
    """The phases a move of action ``act`` may lead to, read off its updates of
    the phase with nothing assumed constant (None: any phase)."""
    return _Action(spec, act, {}, {}, spec.inliner(), []).next_phases


@dataclass
class LivenessResults:
    """What the liveness analysis derives from one spec's rules, kept with them
    (``Spec.derived``), keyed by what else it read (the constants, the
    properties: a question's spec shares the rules, not the properties)."""
    #: (constants, invariant, step formulas) -> (those formulas, every action specialised)
    actions: dict[tuple, tuple[list, list[_Action]]] = field(default_factory=dict)
    #: (observe, the properties) -> (those properties, the ``Reduction``)
    reductions: dict[tuple, tuple[list, Reduction]] = field(default_factory=dict)


def liveness(spec: Spec, constants: dict, extra=(), invariant: dict | None = None) -> dict:
    """Phase value -> the variables live there (see the module's docstring),
    with ``constants`` known in every stored state (``invariant``: those
    constant in every reachable state, by default all); ``extra`` are
    formulas observed at every state."""
    invariant = constants if invariant is None else invariant
    inline = spec.inliner()
    step_props = [p for p in spec.properties if p.kind == "step" and p.formula is not None]
    state_props = [inline(p.formula) for p in spec.properties
                   if p.kind == "state" and p.formula is not None]
    phases = [p.value for p in spec.phases]
    ptype = spec_type(spec, "phase")
    acts = [a for a in _actions(spec, constants, invariant, inline, step_props) if a.enabled]
    live: dict = {}
    for ph in phases:
        known = dict(constants)
        known["phase"] = Const(ph, ptype)
        seen = {"phase"}
        for f in list(state_props) + list(extra):
            seen |= _reads(specialise(f, known, spec))
        live[ph] = seen - set(constants)
    own = {}  # the reads of each action that do not depend on what is live after it
    for a in acts:
        r = _reads(a.guard)
        for d in a.domains:
            r |= _reads(d)
        for s in a.steps:
            r |= _reads(s)
            r |= _closure(a, _primes(s))
        own[id(a)] = r - set(constants)
    changed = True
    while changed:
        changed = False
        for a in acts:
            after = set()
            for q in (a.next_phases if a.next_phases is not None else phases):
                after |= live.get(q, set())
            reads = set(own[id(a)])
            reads |= {v for v in after if v not in a.updated}
            reads |= _closure(a, {v for v in after if v in a.values})
            reads -= set(constants)
            if not reads <= live[a.phase]:
                live[a.phase] |= reads
                changed = True
    return {ph: frozenset(vs) for ph, vs in live.items()}


def _actions(spec: Spec, constants: dict, invariant: dict, inline, step_props) -> list:
    """Every action of ``spec`` specialised (``_Action``), cached on the rules
    (``Spec.derived``): a question's spec shares them with its variant's, and
    each round of ``reduction``'s fixpoint with the ones before it that knew
    the same constants."""
    cache = spec.derived.record(LivenessResults).actions
    key = (_signature(constants), _signature(invariant),
           tuple(id(p.formula) for p in step_props))
    hit = cache.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], (p.formula for p in step_props))):
        acts = [_Action(spec, a, constants, invariant, inline, step_props) for a in spec.actions]
        hit = cache[key] = ([p.formula for p in step_props], acts)
    return hit[1]


def _signature(known: dict) -> tuple:
    return tuple(sorted((v, c.value) for v, c in known.items()))


def _closure(a: _Action, needed: set) -> set:
    """The state variables read to compute the next values ``needed`` of ``a``
    (a next value may read another's)."""
    reads, todo, done = set(), [v for v in needed if v in a.values], set()
    while todo:
        v = todo.pop()
        if v in done:
            continue
        done.add(v)
        reads |= _reads(a.values[v])
        todo.extend(w for w in _primes(a.values[v]) if w in a.values and w not in done)
    return reads


def no_reduction(spec: Spec) -> Reduction:
    """The reduction that forgets nothing: every variable live everywhere (only
    the variables constant in every reachable state have no field)."""
    invariant = _single(spec, reachable_values(spec))
    names = tuple(v.name for v in spec.variables)
    return Reduction(dict(invariant), {p.value: frozenset(names) for p in spec.phases},
                     initial_constants(spec), names, invariant)


def reduction(spec: Spec, observe: bool = True) -> Reduction:
    """The constants and per-phase live variables of a search of ``spec``,
    iterated to a common fixpoint (``observe``: the graph observations count
    as reads)."""
    cache = spec.derived.record(LivenessResults).reductions
    key = (observe, tuple(id(p) for p in spec.properties))
    hit = cache.get(key)
    if hit is not None and all(a is p for a, p in zip(hit[0], spec.properties)):
        return hit[1]  # the same rules and the same properties
    extra = observed_formulas(spec) if observe else []
    canonical = initial_constants(spec)
    invariant = _single(spec, reachable_values(spec))
    constants = dict(invariant)
    while True:
        live = liveness(spec, constants, extra, invariant)
        values = reachable_values(spec, live=live, canonical=canonical, invariant=invariant)
        more = {**_single(spec, values), **constants}
        if more.keys() == constants.keys():
            break
        constants = more
    out = Reduction(constants, live, canonical, tuple(v.name for v in spec.variables),
                    invariant)
    cache[key] = (list(spec.properties), out)
    return out


def _single(spec, values) -> dict:
    return {v: Const(next(iter(vals)), spec_type(spec, v))
            for v, vals in values.items() if vals is not None and len(vals) == 1}


def compile_observations(spec: Spec):
    """(post_pass(s), hand_range(s)) on state tuples, from ``graph_observations``
    (the generic path's; the batch path compiles the same formulas)."""
    obs = graph_observations(spec)
    module = Module()
    names = ", ".join("v_" + v.name for v in spec.variables)
    funcs = []
    em = FunctionEmitter(module, spec.config.players)
    em.line(f"({names},) = s")
    em.line(f"return {em.expr(obs['post_pass'])}")
    funcs.append("def post_pass(s):\n" + "\n".join(em.lines))
    em = FunctionEmitter(module, spec.config.players)
    em.line(f"({names},) = s")
    em.line("lo, hi = 999, -1")
    for live, hand in zip(obs["live_hand"], obs["hand"]):
        em.line(f"if {em.expr(live)}:")
        em.push()
        em.line(f"x = ({em.expr(hand)}).bit_count()")
        em.line("if x < lo: lo = x")
        em.line("if x > hi: hi = x")
        em.pop()
    em.line("return lo, hi")
    funcs.append("def hand_range(s):\n" + "\n".join(em.lines))
    src = "\n".join(module.lines) + "\n" + "\n\n".join(funcs) + "\n"
    env = load_generated(src, "<itcp-observations>")
    return env["post_pass"], env["hand_range"]
