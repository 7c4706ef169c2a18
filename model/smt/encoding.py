"""The spec as Z3 constraints: Init(s), Next(s, a, params, s'), properties.

The SMT backend is the only part of the project that imports z3: this module,
the pieces it assembles and ``queries.py`` (the queries on top).  ``SmtSpec``
is compiled from an elaborated ``Spec`` (one configuration, one reading per
choice point), from the same AST the engine is generated from; the value
semantics are exactly ``spec.semantics.apply_op``'s, NOCARD/NOBODY (-1) cases
included.  It is split by responsibility, one piece per module:

* ``values.py``: how a value of each type is a term (``Values``, ``Pile``);
* ``ops.py``: one encoder per operator of ``spec.ast.OPS`` (``Operators``);
* ``translate.py``: the walk over expressions (``Translator``, ``Env``);
* ``codec.py``: engine states <-> terms and models (``StateCodec``);
* this module: the transition relation assembled from the spec's actions
  (``SmtSpec``: states, well-formedness, Init, Next, guards, properties), and
  the solver helpers (``track``, ``core_labels``, ``block``, ``SuccessorQuery``).

Every fragment of ``Next`` is labelled (a rule id, "phase", "domain", "frame"),
and ``track`` asserts each under its own Boolean, so an unsat core is a list of
rule ids.
"""
from __future__ import annotations

import z3

from itcp.spec import ast as A
from itcp.spec.ast import INT, PILE, Primed
from itcp.spec.errors import SpecError
from itcp.spec.lang import Spec

from .codec import StateCodec
from .ops import Operators
from .translate import Env, Translator
from .values import (
    ELEM_WIDTH,
    Pile,
    Values,
    boolval,
    mk_and,
    mk_eq,
    mk_or,
    needed_int_width,
)


class SmtSpec:
    """An elaborated spec compiled to Z3 terms: the transition relation.

    Holds the pieces (``values``, ``ops``, ``translator``, ``codec``) and
    assembles states, Init, Next and the properties from the spec's actions;
    the attributes set from the pieces below are the interface the checkers
    and tests use."""

    def __init__(self, spec: Spec, int_width: int | None = None):
        self.spec = spec
        self.n = spec.config.players
        self.n_cards = spec.config.n_cards
        self.var_names = [v.name for v in spec.variables]
        self.var_types = {v.name: v.type for v in spec.variables}
        self.iw = needed_int_width(spec.variables) if int_width is None else int_width
        self.inline = spec.inliner()
        self.actions = {a.name: a for a in spec.actions}
        self._update_labels: dict[tuple[str, str], list[str]] = {}
        self.values = Values(self.n, self.n_cards, self.iw)
        self.ops = Operators(self.values)
        self.translator = Translator(self.values, self.ops, self.inline)
        self.codec = StateCodec(self.values, self.var_names, self.var_types,
                                {a.name: a.decl.params for a in spec.actions})
        # the interface the checkers and tests use, from the pieces
        self.aggregates = self.values.aggregates
        self.set_width, self.const, self.bv = self.values.set_width, self.values.const, \
            self.values.bv
        self.eq = self.values.eq
        self.tr, self.formula = self.translator.tr, self.translator.formula
        self.encode_op = self.ops.encode_op
        c = self.codec
        self.fix = self.value_of = c.fix
        self.flat_state, self.pack_state, self.unpack_state = \
            c.flat_state, c.pack_state, c.unpack_state
        self.flat_params, self.unpack_params = c.flat_params, c.unpack_params
        self.decode_value, self.decode, self.decode_params = \
            c.decode_value, c.decode, c.decode_params

    def state(self, prefix: str = "s") -> dict:
        """A fresh symbolic state: variable name -> z3 value."""
        return {v: self.values.fresh(t, f"{prefix}_{v}") for v, t in self.var_types.items()}

    def wf(self, s: dict) -> list:
        """Well-formedness of a symbolic state: every part of ``wf_parts``."""
        return [c for part in self.wf_parts(s).values() for c in part]

    def wf_parts(self, s: dict) -> dict:
        """The well-formedness of ``s`` in four parts: "ranges" (each value in
        its type's range), "layout" (each pile's slots, and its set of cards
        tied to them), "ties" (each pile's ``distinct`` tied to a ladder over its
        slots) and "top" (a pile's ``top`` is the card in the slot under its
        length, and a card of its set: all a move reading or taking the top
        card needs of the pile).

        Apart because a query may go without the last three and stay sound:
        without them every state is still a model (its set and ``distinct``
        what the slots say), so unsat still proves; only a sat answer may then
        be no state at all.  At 72 cards "layout" and "ties" are most of a
        one-step query, "top" is one slot lookup."""
        out: dict = {"ranges": [], "layout": [], "ties": [], "top": []}
        for v in self.spec.variables:
            x, vt = s[v.name], A.map_value_type(v.type)
            piles = [x] if v.type == PILE else list(x) if vt == PILE else []
            if not piles:
                out["ranges"].extend(self.values.well_formed(x, v.type, v.bounds))
            for p in piles:
                out["layout"].extend(self.values.well_formed(p, PILE))
                out["ties"].append(mk_eq(p.distinct, self.values.ladder(p.slots)))
                out["top"].append(p.top == self.values.top(p))
                out["top"].append(z3.Implies(p.length != 0, self.values.has(
                    p.cards, p.top, self.n_cards)))
        return out

    def init(self, s: dict) -> list:
        """Constraints: ``s`` is the initial (pre-deal) state."""
        self.translator.reset()
        e = Env({}, ())
        return [self.eq(s[v], self.tr(self.inline(self.spec.initial[v]), s, e), self.var_types[v])
                for v in self.var_names]

    def params(self, action: str, prefix: str = "p") -> dict:
        act = self.actions[action]
        return {p.name: self.values.fresh(p.type, f"{prefix}_{action}_{p.name}") for p in act.decl.params}

    def next(self, s: dict, action: str, params: dict, s2: dict) -> list:
        """Next(s, action, params, s2) as labelled fragments [(label, z3 Bool)].

        Labels: "phase" (the action belongs to the state's phase), "domain"
        (each parameter is drawn from its domain), the rule id of each guard
        fragment, for each updated variable the ids of the rules updating it
        (joined by "+"), and "frame" for the variables the action leaves alone.
        """
        guards, defs = self.next_parts(s, action, params, s2)
        return guards + [defs[v] for v in self.var_names]

    def next_parts(self, s: dict, action: str, params: dict, s2: dict):
        """Next as (guard fragments, {variable: the one fragment defining it in s2}).

        Each update or frame fragment is ``s2[v] == (a term over s and the
        parameters)`` and is the only fragment that reads ``s2[v]``: a query may
        drop those of the variables its goal does not read (cone of influence)
        and stays equisatisfiable."""
        act = self.actions[action]
        frags, env = self._guarded(s, act, params)
        new = dict(s)
        for var in act.order:
            new[var] = self.tr(act.values[var], s, env, new)
        defs = {}
        for var in self.var_names:
            t = self.var_types[var]
            if var in act.values:
                defs[var] = ("+".join(self._update_rules(act, var)) or "update",
                             self.eq(s2[var], new[var], t))
            else:
                defs[var] = ("frame", self.eq(s2[var], s[var], t))
        return frags, defs

    def _update_rules(self, act, var: str) -> list:
        """The ids of the rules that shape ``var``'s new value in ``act``: those
        updating it, then those updating each variable whose new value it reads
        (``x'`` in a value is that variable's new value, built into this term).

        Why: a core naming this fragment depends on all of them.  E.g. a round
        ends (``phase' = OVER``) when ``ended'`` is set, and ``ended'`` is set
        by the zero rule: the phase fragment holds the zero rule's condition."""
        key = (act.name, var)
        hit = self._update_labels.get(key)
        if hit is None:
            hit, seen, todo = [], set(), [var]
            while todo:
                v = todo.pop(0)
                if v in seen or v not in act.values:
                    continue
                seen.add(v)
                for rid, *_ in act.updates.get(v, ()):
                    if rid not in hit:
                        hit.append(rid)
                todo.extend(sorted({n.name for n in A.walk(act.values[v])
                                    if isinstance(n, Primed)}))
            self._update_labels[key] = hit
        return hit

    def writes(self, action: str) -> frozenset:
        """The variables ``action`` may change (all others are kept by its frame)."""
        return frozenset(self.actions[action].values)

    def enabled(self, s: dict, action: str, params: dict) -> list:
        """The guard part of Next(s, action, params, _): labelled fragments ("phase",
        "domain", one per guard rule) whose conjunction says the move is legal."""
        return self._guarded(s, self.actions[action], params)[0]

    def _guarded(self, s: dict, act, params: dict):
        """(the guard fragments of ``act`` at ``s``, the environment binding its parameters)."""
        self.translator.reset()
        env = Env({}, ())
        frags = [("phase", s["phase"] == self.const(act.phase.value, INT))]
        for prm in act.decl.params:
            x = params[prm.name]
            dom = self.tr(self.inline(prm.domain), s, env)
            width = self.set_width(prm.domain.type)
            if prm.size is None:
                frags.append(("domain", self.values.has(dom, x, width)))
            else:
                frags.append(("domain", mk_and(self.values.popcount(x, width) == prm.size,
                                               x & ~dom == 0)))
            env = env.bind(prm.name, x)
        for rid, g in act.guards:
            frags.append((rid, self.tr(g, s, env)))
        return frags, env

    def prop(self, pid: str, s: dict, s2: dict | None = None):
        """Property ``pid``'s formula on ``s`` (and ``s2`` for a step property)."""
        p = next((p for p in self.spec.properties if p.id == pid), None)
        if p is None or p.formula is None:
            raise SpecError(f"property {pid} has no formula")
        if p.kind == "step" and s2 is None:
            raise SpecError(f"{pid} is a step property: give the next state")
        return self.formula(p.formula, s, s2)


def track(solver: z3.Solver, fragments, tag: str = "") -> dict:
    """Assert each labelled fragment under its own tracking Boolean.

    Returns tracking-name -> label, so ``core_labels`` can turn an unsat core
    back into rule ids.
    """
    names = {}
    for k, (label, expr) in enumerate(fragments):
        name = f"{tag}{label}#{k}"
        solver.assert_and_track(expr, z3.Bool(name))
        names[name] = label
    return names


def core_labels(solver: z3.Solver, names: dict) -> list:
    """The labels (rule ids, ...) of the last unsat core, each once, in order."""
    out = []
    for b in solver.unsat_core():
        label = names.get(str(b))
        if label is not None:
            for part in label.split("+"):
                if part not in out:
                    out.append(part)
    return out


def block(params: dict, values: dict) -> z3.BoolRef:
    """A clause excluding one assignment (``values``: name -> z3 constant term)."""
    return mk_or(*[params[k] != values[k] for k in params]) if params else boolval(False)


__all__ = ["SmtSpec", "Pile", "Env", "track", "core_labels", "block", "ELEM_WIDTH"]


class SuccessorQuery:
    """All solutions of Next(s, action, params, s') for a fixed concrete s.

    One incremental solver per action holds Next; each call fixes the state by
    one equation on its flat bit-vector form inside a push/pop scope, reads a
    solution's parameters and successor from the model, blocks the parameters
    (the successor is a function of the state and the parameters) and asks
    again until unsat.
    """

    def __init__(self, smt: SmtSpec, action: str):
        self.smt, self.action = smt, action
        s, s2 = smt.state("s"), smt.state("t")
        params = smt.params(action, "p")
        self.solver = z3.SimpleSolver()  # fastest for these small incremental queries
        for _, f in smt.next(s, action, params, s2):
            self.solver.add(f)
        self.S, self.P, self.S2 = (smt.flat_state(s), smt.flat_params(action, params),
                                   smt.flat_state(s2))

    def solutions(self, state: tuple, max_solutions: int):
        """(set of (args, successor) or None if the solver gave up, truncated, queries)."""
        smt, solver = self.smt, self.solver
        out: set[tuple[tuple, tuple]] = set()
        queries = 0
        solver.push()
        try:
            solver.add(self.S == z3.BitVecVal(smt.pack_state(state), self.S.size()))
            while True:
                queries += 1
                r = solver.check()
                if r == z3.unsat:
                    return out, False, queries
                if r != z3.sat:
                    return None, False, queries
                m = solver.model()
                succ = smt.unpack_state(m.eval(self.S2, model_completion=True).as_long())
                if self.P is None:
                    out.add(((), succ))
                    solver.add(boolval(False))
                else:
                    pv = m.eval(self.P, model_completion=True)
                    out.add((smt.unpack_params(self.action, pv.as_long()), succ))
                    solver.add(self.P != pv)
                if len(out) >= max_solutions:
                    return out, True, queries
        finally:
            solver.pop()

