"""The rules that decided one step: those on the path the spec's evaluation took.

``Game.fired`` (generated, fast) answers "which rules could this step have
consulted": every guard of the action, every definition a guard or an applied
update mentions anywhere, and every update whose condition held.  The
explorer's coverage wants exactly that, and wants it fast.  A story told to a
player wants less: a discarded Pride Cycle is not shaped by the Mercy reading
merely because the turn-advance formula mentions Mercy in a branch a Mercy
card would take.

This module walks the rule fragments as written (definitions not inlined) on
one concrete step, lazily: ``and``/``or`` stop at their first deciding
argument and an ``if`` evaluates one branch, so a definition counts only if
its body was evaluated.  A step's rules are

* each guard rule of the action, with the definitions its guard evaluated;
* per written variable, the update that gave the new value (of the updates
  whose condition held, the one with the highest priority, as elaboration
  combines them), with the definitions its value evaluated.  The definitions
  an update's condition read are not listed (as for ``Game.fired``): the
  condition says when the rule applies, the value is what it did.

A rule that interprets a choice point is listed only where its reading made
a difference on this step: the other readings of the same choice point are
tried in its place, one fragment at a time, everything else held fixed (the
same arguments for a definition, the same state for a guard, the same other
updates for a variable).  If each gives the same value, the reading did not
decide the step (a Desolation reading consulted for a Pride Cycle, the
take-back reading for a card that was not just taken) and is not named.
"""
from __future__ import annotations

from itcp.spec.ast import Call, walk
from itcp.spec.lang import Define, Guard, Spec, Update
from itcp.spec.rules import build_ruleset

from .reference import Evaluator


class _Tracing(Evaluator):
    """The reference evaluator, calling definitions instead of inlining them and
    noting the rule of each definition it evaluates whose reading mattered."""

    def __init__(self, spec: Spec, others: dict):
        super().__init__(spec)
        self.others = others          # choice point -> {other reading: [rules]}
        self.rule = {r.id: r for r in spec.rules}
        self.called: list[str] = []
        #: definitions of another reading, in place of this spec's (``StepRules._swap``)
        self.override: dict = {}
        #: note the definitions evaluated (off inside ``value``: what it would
        #: note is thrown away, and asking ``decides`` there is most of the cost)
        self.tracing = True

    def value(self, expr, env: dict):
        """``expr``'s value, its definitions not noted (a condition, another reading)."""
        kept, tracing = self.called, self.tracing
        self.called, self.tracing = [], False
        try:
            return self.eval(expr, env)
        finally:
            self.called, self.tracing = kept, tracing

    @staticmethod
    def _bind(params, args, env: dict) -> dict:
        """A definition body's environment: the states, and its parameters."""
        inner = {k: env[k] for k in ("state", "next") if k in env}
        inner.update({p.name: v for p, v in zip(params, args)})
        return inner

    def on_Call(self, node: Call, env: dict):
        """A definition called, not inlined: its body evaluated on the arguments
        (and its rule noted when its reading decided the value)."""
        if node.name in self.override:
            d = self.override[node.name]
            return self.eval(d.body, self._bind(
                d.params, [self.eval(a, env) for a in node.args], env))
        rid, d = self.spec.definitions[node.name]
        args = [self.eval(a, env) for a in node.args]
        value = self.eval(d.body, self._bind(d.params, args, env))
        if (self.tracing and rid not in self.called
                and self.decides(rid, node.name, args, value, env)):
            self.called.append(rid)
        return value

    def decides(self, rid: str, name: str, args, value, env) -> bool:
        """Would another reading of the rule's choice point define ``name`` to
        give another value here?  (Always true for a rule without one.)"""
        choice = self.rule[rid].choice
        if not choice:
            return True
        for rules in self.others.get(choice, {}).values():
            alt = [f for r in rules for f in r.fragments
                   if isinstance(f, Define) and f.name == name]
            if not alt:
                return True
            try:
                if self.value(alt[0].body, self._bind(alt[0].params, args, env)) != value:
                    return True
            except (KeyError, LookupError):   # it relies on a definition not in this spec
                return True
        return False


class StepRules:
    """``rules(s, action, s2)``: the rule ids that decided the step, in rule order."""

    def __init__(self, spec: Spec):
        self.spec = spec
        included = {r.id for r in spec.rules}
        others: dict = {}
        for r in build_ruleset(spec.config).rules:
            if r.choice and r.id not in included:
                others.setdefault(r.choice, {}).setdefault(r.reading, []).append(r)
        self.others = others
        self.ev = _Tracing(spec, others)
        self.vars = [v.name for v in spec.variables]
        self.params = {a.name: [p.name for p in a.decl.params] for a in spec.actions}
        self.order = {r.id: i for i, r in enumerate(spec.rules)}
        self._own = {a.name: self._fragments(spec.rules, a.name) for a in spec.actions}
        #: choice point -> the rule of this spec's reading (named when the reading
        #: decided a step though none of its fragments is on the step's path)
        self.reading_rule: dict = {}
        for r in spec.rules:
            if r.choice:
                self.reading_rule.setdefault(r.choice, r.id)
        #: what a swap compares: the table after the step, not the rules' records
        #: of it (discard.lower's record of the points before the draw)
        self.compared = {v.name for v in spec.variables if not v.record}
        self._reaches: dict = {}  # id(expr) -> (expr, its _reach)

    def _reach(self, expr) -> frozenset:
        """The definitions evaluating ``expr`` may call, through this spec's
        definition bodies too (cached per fragment: fragments live as long as the
        rules)."""
        if expr is None:
            return frozenset()
        hit = self._reaches.get(id(expr))
        if hit is None or hit[0] is not expr:
            seen: set = set()
            todo = [n.name for n in walk(expr) if type(n) is Call]
            while todo:
                d = todo.pop()
                if d not in seen:
                    seen.add(d)
                    if d in self.spec.definitions:
                        body = self.spec.definitions[d][1].body
                        todo.extend(n.name for n in walk(body) if type(n) is Call)
            hit = self._reaches[id(expr)] = (expr, frozenset(seen))
        return hit[1]

    def _touched(self, expr, override: dict) -> bool:
        """Can ``expr`` evaluate differently with the definitions ``override``?"""
        return bool(override) and not self._reach(expr).isdisjoint(override)

    @staticmethod
    def _fragments(rules, name: str):
        """(guards [(rule, expr)], updates {var: [(priority, order, rule, when, value)]})
        of ``rules`` for action ``name``."""
        guards: list = []
        updates: dict[str, list] = {}
        for order, r in enumerate(rules):
            for f in r.fragments:
                if name in getattr(f, "actions", ()):
                    if isinstance(f, Guard):
                        guards.append((r, f.expr))
                    elif isinstance(f, Update):
                        updates.setdefault(f.var, []).append(
                            (f.priority, order, r, f.when, f.value))
        return guards, updates

    def _trace(self, expr, env) -> tuple[object, list[str]]:
        self.ev.called = []
        value = self.ev.eval(expr, env)
        return value, self.ev.called

    def _new_value(self, ups, env):
        """The value elaboration gives ``var``: the highest-priority update whose
        condition holds (None: the frame, the variable keeps its value)."""
        applied = None
        for up in sorted(ups, key=lambda u: u[:2]):
            if self.ev.value(up[3], env):
                applied = up
        return applied

    def _value(self, up, var, env):
        return env["state"][var] if up is None else self.ev.value(up[4], env)

    def _allows(self, guards, env) -> bool:
        """Do ``guards`` (another reading's) all hold here?  False when one relies
        on a definition this spec lacks: the reading is then named, to be safe."""
        try:
            return all(self.ev.value(e, env) for _, e in guards)
        except (KeyError, LookupError):
            return False

    def _alternatives(self, choice: str, name: str):
        for rules in self.others.get(choice, {}).values():
            yield self._fragments(rules, name)

    def reading_decides(self, choice: str, name: str, env) -> bool:
        """Would the step come out otherwise (refused, or another successor) with
        another reading of ``choice`` in place of this spec's, guards, updates and
        definitions alike, everything else held fixed?

        Only what the swap can change is evaluated again: this spec's guards that
        reach an overridden definition (the others held on this legal step), and
        the variables with an update of ``choice`` on either side or one that
        reaches an overridden definition (the others come out as they did)."""
        guards, updates = self._own.get(name, ([], {}))
        for _reading, rules in self.others.get(choice, {}).items():
            alt_guards, alt_updates = self._fragments(rules, name)
            override = {f.name: f for r in rules for f in r.fragments if isinstance(f, Define)}
            self.ev.override = override
            try:
                kept = [(r, e) for r, e in guards
                        if r.choice != choice and self._touched(e, override)] + alt_guards
                if not all(self.ev.value(e, env) for _, e in kept):
                    return True
                for var in (set(updates) | set(alt_updates)) & self.compared:
                    own = updates.get(var, [])
                    if var not in alt_updates and not any(
                            u[2].choice == choice or self._touched(u[3], override)
                            or self._touched(u[4], override) for u in own):
                        continue
                    ups = [u for u in own if u[2].choice != choice]
                    ups += alt_updates.get(var, [])
                    if self._value(self._new_value(ups, env), var, env) != env["next"][var]:
                        return True
            except (KeyError, LookupError):  # it needs a definition this spec lacks
                return True
            finally:
                self.ev.override = {}
        return False

    def env(self, s, action, s2) -> dict:
        """The evaluation environment of the step ``s --action--> s2``."""
        name, args = action
        env = {"state": dict(zip(self.vars, s)), "next": dict(zip(self.vars, s2))}
        env.update(zip(self.params[name], args))
        return env

    def rules(self, s, action, s2) -> list[str]:
        name, args = action
        env = self.env(s, action, s2)
        guards, updates = self._own.get(name, ([], {}))
        out: list[str] = []

        def note(ids):
            out.extend(i for i in ids if i not in out)

        for r, expr in guards:
            _, called = self._trace(expr, env)
            note(called)
            if not r.choice or any(not self._allows(alt_guards, env)
                                   for alt_guards, _ in self._alternatives(r.choice, name)):
                note([r.id])
        for var in self.vars:
            if var not in updates:
                continue
            applied = self._new_value(updates[var], env)
            if applied is None:
                continue
            r = applied[2]
            _, called = self._trace(applied[4], env)
            note(called)
            if r.choice:
                value = env["next"][var]
                same = True
                for _, alt_updates in self._alternatives(r.choice, name):
                    ups = [u for u in updates[var] if u[2].choice != r.choice] + \
                        alt_updates.get(var, [])
                    try:
                        if self._value(self._new_value(ups, env), var, env) != value:
                            same = False
                    except (KeyError, LookupError):
                        same = False
                    if not same:
                        break
                if same:
                    continue
            note([r.id])
        # a reading whose fragments are not on the path (a reading that does
        # nothing, or acts through a condition) still decided the step if
        # another reading of its point would have changed it: pass.multiple =
        # allowed for a second Pass, secret.seat = both_seats for a team formed
        decided = {self.ev.rule[r].choice for r in out}
        for choice, rid in self.reading_rule.items():
            if choice not in decided and self.reading_decides(choice, name, env):
                note([rid])
        return sorted(out, key=lambda r: self.order.get(r, len(self.order)))
