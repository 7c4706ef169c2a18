"""The one narrator: a trace of the game told as a story, and written as ITF.

Everything the program says about a move in words is said here: who is to
move (``who``), a move in table talk (``say``: "P1 discards blue Desolation"),
what a step changed (``changes``), the deal, a team a Secret Combination
formed, and a step of a checker's trace with the rules (and their choice-point
readings) that made it possible.  A checker's trace is a ``Trace``: the engine
states and moves, each step told, and what went wrong at the end; the reports
(text, JSON, HTML, the sweep's matrix) and the scenario files are made from
it.  The same trace is also exported in the Informal Trace Format (ITF, the
JSON used by Apalache and Quint) so existing viewers read it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from itcp.model.engine import runtime
from itcp.model.engine.engine import CHANCE, TERMINAL, Game
from itcp.spec.rules.vocabulary import PHASE_NAMES

# -- a move in words ----------------------------------------------------------------------

def who(game: Game, s) -> str:
    """Who is to move in ``s``: "P2", "chance", or nobody once the round is over."""
    p = game.current_player(s)
    return {CHANCE: "chance", TERMINAL: "nobody (the round is over)"}.get(p, f"P{p}")


#: a move without a choice, said after who makes it
_VERBS = {
    "reveal": "turns the face-up card into play",
    "draw_pile": "takes the top card of the discard pile",
    "draw_deck": "draws from the deck",
    "pass": "says Pass",
    "skip_discard": "ends the turn without a discard",
    "give_nothing": "has nothing to give",
    "next_round": "totals the scores",
}
#: a move choosing a card (``{card}``), by whom (``{actor}``)
_CARD_MOVES = {
    "deck_card": "the card drawn is {card}",
    "discard": "{actor} discards {card}",
    "answer": "{actor} meets the Justice duty with {card}",
    "give": "{actor} chooses {card} to give (Pride Cycle)",
}


def say(game: Game, s, action) -> str:
    """A move in table talk: "P1 discards blue Desolation"."""
    name, args = action
    actor = who(game, s)
    if name in _VERBS:
        return f"{actor} {_VERBS[name]}"
    if name in _CARD_MOVES:
        return _CARD_MOVES[name].format(actor=actor, card=game.card_name(args[0]))
    if name == "deal":
        hands = "; ".join(f"P{p} {game.cards_str(m)}" for p, m in enumerate(args[:-1]))
        return f"a new round is dealt: {hands}; face up {game.card_name(args[-1])}"
    if name == "race":
        if game.get(s, "racers"):  # a later racer (every racer discards)
            return f"P{args[0]} is next to discard in Mercy's race"
        return f"P{args[0]} wins Mercy's race"
    if name == "keep":
        return f"{actor} keeps P{args[0]}'s hand for the team"
    return f"{actor} {game.action_str(action)}"


def _names(players) -> str:
    names = [f"P{p}" for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def team_change(game: Game, s, s2) -> str | None:
    """A Secret Combination told as the table sees it: who teamed with whom,
    the hand kept, the hand set aside, and the seats the team plays from.
    None when the step formed no team."""
    ho, ho2 = game.get(s, "hand_of"), game.get(s2, "hand_of")
    if ho == ho2:
        return None
    changed = [p for p in range(len(ho)) if ho[p] != ho2[p]]
    kept = ho2[changed[0]]
    members = [p for p in range(len(ho2)) if ho2[p] == kept]
    hands = game.get(s2, "hands")
    set_aside = sorted({ho[p] for p in changed} - {kept})
    aside2 = set(runtime.bits(game.get(s2, "aside")))
    seats = [p for p in members if p not in aside2]
    text = (f"{_names(members)} now play as one team: P{kept}'s hand "
            f"({game.cards_str(hands[kept]) or 'no cards'}) is kept")
    for seat in set_aside:
        text += f", P{seat}'s hand ({game.cards_str(hands[seat]) or 'no cards'}) is set aside"
    where = (f"from P{seats[0]}'s seat" if len(seats) == 1
             else f"from the seats of {_names(seats)}, each keeping its turns")
    return text + f"; the team plays {where}"


def changes(game: Game, s, s2) -> list[str]:
    """What a step changed, in a player's words."""
    d, d2 = game.describe(s), game.describe(s2)
    out = []
    team = team_change(game, s, s2)
    played = set(game.get(s2, "hand_of"))  # the seats whose hand someone plays
    for p, (h, h2) in enumerate(zip(d["hands"], d2["hands"])):
        if h != h2 and p in played:
            out.append(f"P{p}'s hand is now {h2 or 'empty'}")
    if team:
        out.append(team)
    if d["pile"] != d2["pile"]:
        out.append(f"top of the pile: {d2['pile'][-1]}" if d2["pile"] else "the pile is empty")
    if d["deck"] != d2["deck"]:
        out.append(f"{d2['deck']} card(s) left in the deck")
    new_passers = set(d2["passers"]) - set(d["passers"])
    if new_passers:
        out.append(", ".join(f"P{p}" for p in sorted(new_passers)) + " has passed: that hand "
                   "is frozen")
    if d["dir"] != d2["dir"]:
        out.append("play now goes " + ("to the left" if d2["dir"] == 1 else "to the right"))
    if game.spec.scope == "game" and game.get(s2, "round_no") != game.get(s, "round_no"):
        out.append("totals now " + ", ".join(f"P{p} {x}" for p, x in
                                             enumerate(game.get(s2, "totals"))))
        if game.is_terminal(s2):
            out.append("the game is over")
    if d2["ended"] != "live" and d["ended"] == "live":
        out.append(f"the round is over: {d2['ended']}")
    elif not game.is_terminal(s2):
        out.append(f"next: {who(game, s2)}")
    return out


def rule_note(game: Game, rule_ids) -> str:
    """Rule ids, with the reading for those that interpret a choice point."""
    notes = []
    for rid in rule_ids:
        r = game.spec.rule(rid)
        if r.choice:
            notes.append(f"{rid} ({r.choice} = {r.reading})")
    plain = [rid for rid in rule_ids if not game.spec.rule(rid).choice]
    return "; ".join(plain + notes)


def rule_lines(game: Game, rule_ids) -> list[str]:
    """Each rule on a line of its own: its id, the reading it stands for, and what it says."""
    out = []
    for rid in rule_ids:
        r = game.spec.rule(rid)
        reading = f" (reading {r.choice} = {r.reading})" if r.choice else ""
        out.append(f"rule {rid}{reading}: {r.doc}")
    return out


def describe_deal(game: Game, s) -> list[str]:
    """The table after the deal: each hand, the face-up card, the deck, who plays."""
    d = game.describe(s)
    lines = ["deal: " + "; ".join(f"P{i} holds {h}" for i, h in enumerate(d["hands"]))]
    lines.append(f"      face-up card {', '.join(d['pile']) or 'none'}; "
                 f"{d['deck']} card(s) in the deck; P{d['turn']} to play")
    return lines


# -- a checker's trace --------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One move of a trace, told: its number, who moved, the move in the engine's
    words, the rules that made it possible (with the readings among them), the
    team it formed (a Secret Combination), and its line of the story."""
    n: int
    actor: str
    action: str
    rules: tuple[str, ...]
    readings: dict = field(compare=False)
    team: str | None
    text: str

    def as_json(self) -> dict:
        return {"step": self.n, "actor": self.actor, "action": self.action,
                "rules": list(self.rules), "readings": dict(self.readings),
                **({"team": self.team} if self.team else {}), "text": self.text}

    @classmethod
    def from_json(cls, d: dict) -> Step:
        return cls(d["step"], d["actor"], d["action"], tuple(d["rules"]), dict(d["readings"]),
                   d.get("team"), d["text"])


def step_told(game: Game, s, action, s2, n: int) -> Step:
    """Move number ``n``, ``action`` from ``s`` to ``s2``, told with its rules."""
    rules = tuple(game.decided(s, action, s2))
    actor = who(game, s)
    verb = game.action_str(action)
    team = team_change(game, s, s2)
    text = f"{n:>3}. {actor} {verb}  [{rule_note(game, rules)}]"
    if team:
        text += f"\n       ({team})"
    return Step(n, actor, verb, rules,
                {game.spec.rule(r).choice: game.spec.rule(r).reading
                 for r in rules if game.spec.rule(r).choice}, team, text)


@dataclass(frozen=True)
class Trace:
    """A trace of the game told as a story: the deal, each step, and what went
    wrong at the end (``ending``).  ``states`` and ``actions`` are the engine's
    (the state after the deal, then one per move), so the trace can be drawn,
    saved as a scenario and exported as ITF; None where they are not known (a
    trace read back from JSON without them).  A lasso's loop starts after step
    ``loop_from`` (the state there recurs at the end); ``replayed``: a trace Z3
    found that the engine played again."""
    steps: tuple[Step, ...]
    story: tuple[str, ...]
    ending: str
    states: tuple | None = field(default=None, compare=False)
    actions: tuple | None = field(default=None, compare=False)
    loop_from: int | None = None
    replayed: bool = False

    @property
    def length(self) -> int:
        """Its moves."""
        return len(self.steps)

    @property
    def rules(self) -> list[str]:
        """The rules on its path, sorted."""
        return sorted({r for st in self.steps for r in st.rules})

    @property
    def readings(self) -> dict:
        """The choice points' readings of the rules on its path."""
        return {k: v for st in self.steps for k, v in st.readings.items()}

    def as_json(self) -> dict:
        out = {"steps": [st.as_json() for st in self.steps], "story": list(self.story),
               "ending": self.ending, "length": self.length}
        if self.replayed:
            out["replayed"] = True
        if self.loop_from is not None:
            out["loop_starts_at_step"] = self.loop_from
        return out

    @classmethod
    def from_json(cls, d: dict, states=None, actions=None) -> Trace:
        """The trace ``as_json`` gave, with the engine's states and moves if known."""
        return cls(tuple(Step.from_json(x) for x in d["steps"]), tuple(d["story"]), d["ending"],
                   None if states is None else tuple(states),
                   None if actions is None else tuple(actions),
                   d.get("loop_starts_at_step"), bool(d.get("replayed")))


def story(game: Game, states, actions, ending: str, loop_from: int | None = None,
          replayed: bool = False) -> Trace:
    """The trace through ``states`` (the state after the deal, then one per move of
    ``actions``), told: the deal, each step, and ``ending``."""
    states, actions = tuple(states), tuple(actions)
    steps = tuple(step_told(game, states[i], a, states[i + 1], i + 1)
                  for i, a in enumerate(actions))
    lines = describe_deal(game, states[0]) + [st.text for st in steps] + [f"  -> {ending}"]
    return Trace(steps, tuple(lines), ending, states, actions, loop_from, replayed)


def _itf_value(game: Game, var: str, t: str, v):
    if t == "cards":
        return {"#set": [game.card_name(c) for c in runtime.bits(v)]}
    if t == "players":
        return {"#set": [{"#bigint": str(p)} for p in runtime.bits(v)]}
    if t == "pile":
        return [game.card_name(c) for c in v]
    if t == "card":
        return game.card_name(v)
    if t == "bool":
        return bool(v)
    if t.startswith("map["):
        inner = t[4:-1]
        return {"#map": [[{"#bigint": str(p)}, _itf_value(game, var, inner, x)]
                         for p, x in enumerate(v)]}
    if var == "phase":
        return PHASE_NAMES[v]
    return {"#bigint": str(v)}


def itf(game: Game, trace: Trace) -> dict:
    """The trace in the Informal Trace Format (https://apalache-mc.org/docs/adr/015adr-trace.html)."""
    assert trace.states is not None and trace.actions is not None  # a trace of this run
    types = {v.name: v.type for v in game.spec.variables}
    out_states = []
    for i, s in enumerate(trace.states):
        st: dict[str, Any] = {"#meta": {"index": i}}
        if i > 0:
            st["#meta"]["action"] = game.action_str(trace.actions[i - 1])
        for var in game.var_names:
            st[var] = _itf_value(game, var, types[var], s[game.index[var]])
        out_states.append(st)
    return {"#meta": {"format": "ITF", "format-description":
                      "https://apalache-mc.org/docs/adr/015adr-trace.html",
                      "source": "itcp", "description": trace.ending},
            "vars": list(game.var_names), "states": out_states}


__all__ = ["who", "say", "changes", "team_change", "rule_note", "rule_lines", "describe_deal",
           "Step", "step_told", "Trace", "story", "itf"]
