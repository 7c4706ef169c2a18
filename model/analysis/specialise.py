"""Partial evaluation of an elaborated spec against what is known of a state.

Elaboration fixes the table and the readings; this goes one step further for
the explorer's generated code (``model/search/packed.py``):

* ``constant_fields(spec)``: the state variables that keep their initial value
  in every reachable state.  Found as a greatest fixpoint over the spec's own
  actions: assume every variable keeps its initial value, evaluate each action
  under that assumption, drop every variable some enabled action may change,
  repeat.  What is left is an inductive invariant (the initial state satisfies
  it and every move preserves it), so code that reads such a variable may use
  the constant.  At a table without option cards this removes the option
  cards' bookkeeping (gifts, teams, races, duties) and the phases it drives.
* ``specialise(node, known)``: ``node`` with the variables of ``known``
  replaced by constants and folded, with the map rules ``spec/simplify.py``
  leaves out (a read of a map built in place, an identity map).

Both only rewrite the spec's AST; no rule is restated here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from itcp.spec import ast as A
from itcp.spec.ast import Const, Op, Primed, Var
from itcp.spec.simplify import simplify
from itcp.spec.walk import OperatorTable, Walker, all_but, handles

from ..engine.reference import Evaluator


def initial_constants(spec) -> dict:
    """Each state variable's value before the deal, as a constant node."""
    ev = Evaluator(spec)
    out = {}
    for v in spec.variables:
        value = ev.eval(spec.initial[v.name], {"state": {}})
        out[v.name] = Const(tuple(value) if isinstance(value, (tuple, list)) else value, v.type)
    return out


def constant_fields(spec, values: dict | None = None) -> dict:
    """Variable name -> the constant it holds in every reachable state
    (``values``: ``reachable_values(spec)`` if already computed)."""
    values = reachable_values(spec) if values is None else values
    return {v: Const(next(iter(vals)), spec_type(spec, v))
            for v, vals in values.items() if vals is not None and len(vals) == 1}


def spec_type(spec, name: str) -> str:
    return next(v.type for v in spec.variables if v.name == name)


#: a variable seen taking more values than this is no longer tracked
MAX_VALUES = 16


@dataclass
class Specialisations:
    """What partial evaluation derives from one spec's rules, kept with them
    (``Spec.derived``: a question's spec shares it with its variant's)."""
    #: (action, the invariant's values) -> ``base_action``'s (guard, values, domains)
    base_actions: dict[tuple, tuple] = field(default_factory=dict)
    #: ``reachable_values(spec)``: variable -> the values it may hold (None: any)
    reachable_values: dict[str, frozenset | None] | None = None
    #: the fixpoint's ``specialise`` remembered by what it reads
    folded: _Folded | None = None
    #: ``specialise``'s memos of ``simplify`` and ``_fold_maps`` (``_memos``)
    fold_memos: tuple[dict, dict] | None = None


def specialisations(spec) -> Specialisations:
    """The spec's ``Specialisations`` record."""
    return spec.derived.record(Specialisations)


def base_action(spec, act, invariant: dict) -> tuple:
    """(guard, values, domains) of ``act`` specialised at its phase with the
    constants ``invariant`` (those of every reachable state, ``constant_fields``),
    cached per spec: the smaller trees every later specialisation starts from.
    Specialising again with more known values gives what specialising the
    original would (substitution and folding compose)."""
    cache = specialisations(spec).base_actions
    key = (act.name, tuple(sorted((v, c.value) for v, c in invariant.items())))
    hit = cache.get(key)
    if hit is None:
        known = dict(invariant)
        known["phase"] = Const(act.phase.value, spec_type(spec, "phase"))
        primed = {v: c for v, c in invariant.items() if v in act.values}
        inline = spec.inliner()
        fold = lambda e: specialise(e, known, spec, primed)  # noqa: E731
        hit = cache[key] = (fold(act.guard), {v: fold(act.values[v]) for v in act.order},
                            [fold(inline(p.domain)) for p in act.decl.params])
    return hit


def reachable_values(spec, live: dict | None = None, canonical: dict | None = None,
                     invariant: dict | None = None) -> dict:
    """Variable name -> a set of values covering every reachable state's, or None.

    A non-relational abstract interpretation over finite value sets: start
    from the initial state, run each action whose phase may be reached with
    the variables known to be constant substituted (and ``phase`` its own
    phase: an action is only ever taken there), and add the values each new
    value may take (the leaves of an if-then-else of constants; anything else
    makes the variable unknown).  The result over-approximates every
    reachable state, so a variable with one value is constant.  With
    ``invariant`` (constants already proved) the actions are read from their
    ``base_action`` forms.

    With ``live`` (phase value -> the variables live there, ``liveness.py``)
    the states are the explorer's, each variable dead at a state's phase reset
    to its ``canonical`` value: a new value goes to the phases the move may
    lead to, and counts only if the variable is live at one of them.
    """
    plain = live is None and canonical is None and invariant is None
    kept = specialisations(spec)
    if plain and kept.reachable_values is not None:
        return {v: (None if x is None else set(x)) for v, x in kept.reachable_values.items()}
    values: dict = {name: {c.value} for name, c in initial_constants(spec).items()}
    types = {v.name: v.type for v in spec.variables}
    folded = kept.folded
    if folded is None or len(folded.memo) > MEMO_LIMIT:
        folded = kept.folded = _Folded(spec)
    done: dict = {}  # action -> the known values it was last run with
    changed = True
    while changed:
        changed = False
        for act in spec.actions:
            phases = values.get("phase")
            if phases is not None and act.phase.value not in phases:
                continue
            env = {v: Const(next(iter(s)), types[v])
                   for v, s in values.items() if s is not None and len(s) == 1}
            env["phase"] = Const(act.phase.value, types["phase"])
            if live is not None and act.phase.value in live:
                assert canonical is not None  # given with ``live``
                for v in types:  # a variable dead here holds its canonical value
                    if v not in live[act.phase.value] and v in canonical and v not in env:
                        env[v] = canonical[v]
            sig = (tuple(sorted((v, c.value) for v, c in env.items())),
                   tuple(v for v, x in values.items() if x is None))
            if done.get(act.name) == sig:
                continue  # run with the same knowledge before: nothing new
            done[act.name] = sig
            guard, base, _ = (base_action(spec, act, invariant) if invariant is not None
                              else (act.guard, act.values, None))
            if folded(guard, env, {}) == Const(False, A.BOOL):
                continue  # never enabled where the action's phase is reached
            news: dict = {}
            for var in act.order:
                news[var] = folded(base[var], env, news)
            after = _leaves(news["phase"]) if "phase" in news else {act.phase.value}
            for var in act.order:
                old = values[var]
                if old is None:
                    continue
                got = _leaves(news[var])
                if live is not None and after is not None and any(
                        var not in live.get(q, ()) for q in after):
                    assert canonical is not None  # given with ``live``
                    got = _kept(spec, act, env, news, var, got, live, canonical[var],
                                base.get("phase"))
                grown = None if got is None or len(old | got) > MAX_VALUES else old | got
                if grown != old:
                    values[var] = grown
                    changed = True
    if plain:  # a function of the rules alone: kept for the next caller
        kept.reachable_values = {v: (None if x is None else frozenset(x))
                                 for v, x in values.items()}
    return values


class _Folded:
    """``specialise`` remembered by what it reads: the fixpoint runs every action
    again whenever anything new is known, but most of an action's new values read
    a few variables whose knowledge has not changed, and fold to the same node."""

    def __init__(self, spec):
        self.spec = spec
        self.reads: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self.memo: dict = {}

    def _reads(self, node) -> tuple[tuple[str, ...], tuple[str, ...]]:
        hit = self.reads.get(id(node))
        if hit is None:
            names, primed, seen = set(), set(), set()
            stack = [node]
            while stack:
                x = stack.pop()
                if id(x) in seen:
                    continue
                seen.add(id(x))
                if isinstance(x, Var):
                    names.add(x.name)
                elif isinstance(x, Primed):
                    primed.add(x.name)
                stack.extend(A.children(x))
            hit = self.reads[id(node)] = (tuple(sorted(names)), tuple(sorted(primed)))
        return hit

    def __call__(self, node, env: dict, news: dict):
        names, primed = self._reads(node)
        key = (id(node), tuple((v, env[v].value) for v in names if v in env),
               tuple((v, id(news[v])) for v in primed if v in news))
        hit = self.memo.get(key)
        if hit is None:
            # the node is kept with its result: the ids in the key stay its own
            hit = self.memo[key] = (node, specialise(node, env, self.spec, news))
        return hit[1]


def _kept(spec, act, env, news, var, got, live, canonical, base_phase):
    """The values of ``var`` a move stores: a value after which every phase the
    move may lead to has ``var`` dead is stored as ``canonical``.  The phase
    reached is worked out for each value on its own (a round that ends because
    of the value stores it nowhere)."""
    if got is None:
        after = _leaves(news["phase"]) if "phase" in news else {act.phase.value}
        dead = after is not None and all(var not in live.get(q, ()) for q in after)
        return {canonical.value} if dead else None
    if "phase" not in news:
        after = {act.phase.value}
        return got if any(var in live.get(q, ()) for q in after) else {canonical.value}
    out = set()
    for x in got:
        phase = specialise(base_phase, env, spec, {**news, var: Const(x, news[var].type)})
        after = _leaves(phase)
        if after is None or any(var in live.get(q, ()) for q in after):
            out.add(x)
        else:
            out.add(canonical.value)
    return out


def _leaves(node):
    """The constants an if-then-else tree of constants may yield, or None."""
    if isinstance(node, Const):
        return {node.value}
    if isinstance(node, A.Ite):
        a, b = _leaves(node.then), _leaves(node.else_)
        return None if a is None or b is None else a | b
    return None


def specialise(node, known: dict, spec, primed: dict | None = None):
    """``node`` with ``Var(x)`` (and ``Primed(x)`` for x in ``primed``) replaced
    by the given nodes, folded to a fixpoint."""
    n = spec.config.players
    simp, folds = _memos(spec)
    out = simplify(_substitute(node, known, primed or {}), n, simp)
    for _ in range(4):
        folded = _fold_maps(out, n, folds)
        if folded is out:
            break
        out = simplify(folded, n, simp)
    return out


#: entries kept per memo of ``_memos`` before it starts afresh (memory stays bounded)
MEMO_LIMIT = 200_000


def _memos(spec) -> tuple[dict, dict]:
    """The spec's memos of ``simplify`` and ``_fold_maps`` (id -> the node, its
    result): both are functions of the node alone, and the many specialisations
    of one spec (every action at every phase, every round of the fixpoint) share
    most of their subtrees: a substitution leaves what it does not touch as it
    was."""
    kept = specialisations(spec)
    memos = kept.fold_memos
    if memos is None or len(memos[0]) + len(memos[1]) > MEMO_LIMIT:
        memos = kept.fold_memos = ({}, {})
    return memos


def framed(node, updated):
    """``node`` with ``x'`` read as ``x`` for every variable ``x`` an action does
    not update (``updated``): the frame, as elaboration applies it."""
    if isinstance(node, Primed):
        return node if node.name in updated else Var(node.name, node.type)
    kids = A.children(node)
    if not kids:
        return node
    new = tuple(framed(k, updated) for k in kids)
    return node if all(a is b for a, b in zip(new, kids)) else A.rebuild(node, new)


def _same(a, b) -> bool:
    return isinstance(a, Const) and isinstance(b, Const) and a.value == b.value


def _substitute(node, known: dict, primed: dict):
    memo: dict = {}

    def go(x):
        key = id(x)
        if key in memo:
            return memo[key][1]
        if isinstance(x, Var) and x.name in known:
            y = known[x.name]
        elif isinstance(x, Primed) and x.name in primed:
            y = primed[x.name]
        else:
            kids = A.children(x)
            new = tuple(go(k) for k in kids)
            y = x if all(a is b for a, b in zip(new, kids)) else A.rebuild(x, new)
        memo[key] = (x, y)
        return y

    return go(node)


def _fold_maps(node, n: int, memo: dict | None = None):
    """One bottom-up pass of the map rules; the same object if nothing applied
    (``memo``: id -> the node and its result, may be shared between calls)."""
    memo = {} if memo is None else memo
    rules = MapRules(n)

    def go(x):
        key = id(x)
        hit = memo.get(key)
        if hit is not None and hit[0] is x:
            return hit[1]
        kids = A.children(x)
        new = tuple(go(k) for k in kids)
        y = x if all(a is b for a, b in zip(new, kids)) else A.rebuild(x, new)
        y = rules.visit(y)
        memo[key] = (x, y)
        return y

    return go(node)


class MapRules(Walker, OperatorTable):
    """The rewrites ``_fold_maps`` applies to a node whose children are already
    rewritten: one case per node type, and per operator; a node no rule
    applies to is given back as it is."""

    def __init__(self, n_players: int):
        self.n = n_players

    def same(self, x):
        return x

    on_Const = on_Var = on_Primed = on_Param = on_Bound = on_Ite = on_Let = on_Call = same

    def on_Quant(self, x: A.Quant):
        n = self.n
        if isinstance(x.domain, Const) and x.kind in ("forall", "exists", "sum"):
            # over a known set: one term per element, each folded on its own
            # (a seat-by-seat property of a table whose seats are all known)
            bodies = [simplify(A.substitute(x.body, {x.var.name: Const(i, x.var.type)}), n)
                      for i in A.bits(x.domain.value)]
            if x.kind == "sum":
                if not bodies:
                    return Const(0, A.INT, src_loc=x.src_loc)
                out = bodies[0]
                for b in bodies[1:]:
                    out = Op("add", (out, b), src_loc=x.src_loc)
                return out
            if not bodies:
                return Const(x.kind == "forall", A.BOOL, src_loc=x.src_loc)
            if len(bodies) == 1:
                return bodies[0]
            return Op("and" if x.kind == "forall" else "or", tuple(bodies), src_loc=x.src_loc)
        if x.kind in ("forall", "exists") and x.domain.type == A.PLAYERS:
            return self.seat_by_seat(x)
        if x.kind == "mapof" and isinstance(x.domain, Const):
            # a map of constants is a constant
            bodies = [simplify(A.substitute(x.body, {x.var.name: Const(i, x.var.type)}), n)
                      for i in range(n)]
            consts = [b for b in bodies if isinstance(b, Const)]
            if len(consts) == len(bodies):
                return Const(tuple(b.value for b in consts), x.type, src_loc=x.src_loc)
        return x

    def seat_by_seat(self, x: A.Quant):
        """A quantifier over a set of seats known only when the code runs: one
        term per seat (a seat's term may fold, e.g. a hand the move leaves
        alone is frozen)."""
        n, loc = self.n, x.src_loc
        terms = []
        for i in range(n):
            body = simplify(A.substitute(x.body, {x.var.name: Const(i, x.var.type)}), n)
            inside = Op("member", (Const(i, A.PLAYER, src_loc=loc), x.domain), src_loc=loc)
            if x.kind == "forall":
                terms.append(simplify(Op("or", (Op("not", (inside,), src_loc=loc), body),
                                         src_loc=loc), n))
            else:
                terms.append(simplify(Op("and", (inside, body), src_loc=loc), n))
        joined = simplify(Op("and" if x.kind == "forall" else "or", tuple(terms), src_loc=loc), n)
        empty = Op("is_empty", (x.domain,), src_loc=loc)
        if x.kind == "forall":  # nobody in the set: nothing to check
            return simplify(Op("or", (empty, joined), src_loc=loc), n)
        return simplify(Op("and", (Op("not", (empty,), src_loc=loc), joined), src_loc=loc), n)

    def on_Op(self, x: Op):
        return self.op_cases[x.op](self, x)

    @handles(*all_but("get", "pile_cards", "pile_len", "top", "pop", "union", "add", "put"))
    def op_same(self, x: Op):
        return x

    @handles("get")
    def op_get(self, x: Op):
        m, k = x.args
        if isinstance(m, Op) and m.op == "put" and isinstance(k, Const) and isinstance(m.args[1], Const):
            # (m with [i] = v)[j]: v if i == j (a real seat), else m[j]
            if m.args[1].value == k.value and k.value >= 0:
                return m.args[2]
            if m.args[1].value != k.value:
                return Op("get", (m.args[0], k), src_loc=x.src_loc)
        if (isinstance(m, Const) and x.type == A.PLAYER
                and tuple(m.value) == tuple(range(self.n))):
            return k  # the identity map (NOBODY reads as NOBODY)
        return x

    # a pile just pushed: its old self plus the card (so a term over the
    # parent's pile can be computed once, before the moves are tried)
    @staticmethod
    def pushed(x: Op):
        """(the old pile, the card) when ``x``'s pile is a push, else None."""
        a = x.args[0]
        return a.args if isinstance(a, Op) and a.op == "push" else None

    @handles("pile_cards")
    def op_pile_cards(self, x: Op):
        pushed = self.pushed(x)
        if pushed is None:
            return x
        return Op("with", (Op("pile_cards", (pushed[0],), src_loc=x.src_loc), pushed[1]),
                  src_loc=x.src_loc)

    @handles("pile_len")
    def op_pile_len(self, x: Op):
        pushed = self.pushed(x)
        if pushed is None:
            return x
        return Op("add", (Op("pile_len", (pushed[0],), src_loc=x.src_loc),
                          Const(1, A.INT, src_loc=x.src_loc)), src_loc=x.src_loc)

    @handles("top")
    def op_top(self, x: Op):
        pushed = self.pushed(x)
        return x if pushed is None else pushed[1]

    @handles("pop")
    def op_pop(self, x: Op):
        pushed = self.pushed(x)
        return x if pushed is None else pushed[0]

    @handles("union")
    def op_union(self, x: Op):
        return _regroup(x) if _chained(x) else x

    @handles("add")
    def op_add(self, x: Op):
        a = x.args
        if _chained(x):
            return _regroup(x)
        if isinstance(a[1], Const) and a[1].value == 0:
            return a[0]
        if isinstance(a[0], Const) and a[0].value == 0:
            return a[1]
        return x

    @handles("put")
    def op_put(self, x: Op):
        if all(isinstance(y, Const) for y in x.args):
            m, k, v = (y.value for y in x.args)
            return Const(m[:k] + (v,) + m[k + 1:] if k >= 0 else m, x.type, src_loc=x.src_loc)
        return x


def reads_move(x) -> bool:
    """``x`` reads something a move chooses (a parameter, a bound variable,
    a next value): it is computed per move, not per state."""
    return any(isinstance(y, (A.Param, A.Bound, Primed)) for y in A.walk(x))


def _operands(x, op: str) -> list:
    if isinstance(x, Op) and x.op == op:
        return [y for a in x.args for y in _operands(a, op)]
    return [x]


def _chained(x) -> bool:
    """A union or sum chain whose per-state operands are not already first."""
    parts = _operands(x, x.op)
    if x.op == "union" and any(isinstance(p, Op) and p.op == "with" for p in parts):
        return True
    flags = [reads_move(p) for p in parts]
    return len(parts) > 2 and flags != sorted(flags)


def _regroup(x):
    """A union or sum chain with its per-state operands first, and (for a
    union) each element added by ``with`` added last: the per-state part is
    then one subterm, computed once per state.  Sets and integers are
    commutative and associative under these operators, so the value is the
    same."""
    loc, op = x.src_loc, x.op
    parts, added = [], []
    for p in _operands(x, op):
        while op == "union" and isinstance(p, Op) and p.op == "with":
            added.append(p.args[1])
            p = p.args[0]
        parts.append(p)
    parts.sort(key=reads_move)  # stable: per-state operands first, in their order
    out = parts[0]
    for p in parts[1:]:
        out = Op(op, (out, p), src_loc=loc)
    for c in added:
        out = Op("with", (out, c), src_loc=loc)
    return out
