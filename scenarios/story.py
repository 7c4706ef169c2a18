"""Traces told as a story of the game, and written as ITF.

Each step names who moved, what they did, and the rules (with their
choice-point readings) that made the step possible, in the words a player
would use at the table.  The same trace is also exported in the Informal Trace
Format (ITF, the JSON used by Apalache and Quint) so existing viewers read it.
"""
from __future__ import annotations

from typing import Any

from itcp.model.engine import runtime
from itcp.model.engine.engine import CHANCE, Game
from itcp.spec.rules.vocabulary import PHASE_NAMES


def who(game: Game, s) -> str:
    p = game.current_player(s)
    return "chance" if p == CHANCE else f"P{p}"


def rule_note(game: Game, rule_ids) -> str:
    """Rule ids, with the reading for those that interpret a choice point."""
    notes = []
    for rid in rule_ids:
        r = game.spec.rule(rid)
        if r.choice:
            notes.append(f"{rid} ({r.choice} = {r.reading})")
    plain = [rid for rid in rule_ids if not game.spec.rule(rid).choice]
    return "; ".join(plain + notes)


def describe_deal(game: Game, s) -> list[str]:
    d = game.describe(s)
    lines = ["deal: " + "; ".join(f"P{i} holds {h}" for i, h in enumerate(d["hands"]))]
    lines.append(f"      face-up card {', '.join(d['pile']) or 'none'}; "
                 f"{d['deck']} card(s) in the deck; P{d['turn']} to play")
    return lines


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


def step_line(game: Game, s, action, s2, n: int) -> dict:
    rules = game.decided(s, action, s2)
    actor = who(game, s)
    verb = game.action_str(action)
    team = team_change(game, s, s2)
    text = f"{n:>3}. {actor} {verb}  [{rule_note(game, rules)}]"
    if team:
        text += f"\n       ({team})"
    return {"step": n, "actor": actor, "action": verb,
            "rules": rules, "readings": {game.spec.rule(r).choice: game.spec.rule(r).reading
                                         for r in rules if game.spec.rule(r).choice},
            **({"team": team} if team else {}),
            "text": text}


def story(game: Game, start, steps, ending: str) -> dict:
    """A trace: the deal, each step, and what went wrong at the end."""
    lines = describe_deal(game, start)
    out_steps = []
    for n, (s, a, s2) in enumerate(steps, 1):
        st = step_line(game, s, a, s2, n)
        out_steps.append(st)
        lines.append(st["text"])
    lines.append(f"  -> {ending}")
    # the trace itself (engine states and actions), so it can be saved as a
    # scenario; not part of the JSON report
    raw = {"states": [start] + [s2 for _, _, s2 in steps], "actions": [a for _, a, _ in steps]}
    return {"steps": out_steps, "story": lines, "ending": ending, "raw": raw}


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


def itf(game: Game, states, actions, description: str) -> dict:
    """The trace in the Informal Trace Format (https://apalache-mc.org/docs/adr/015adr-trace.html)."""
    types = {v.name: v.type for v in game.spec.variables}
    out_states = []
    for i, s in enumerate(states):
        st: dict[str, Any] = {"#meta": {"index": i}}
        if i > 0:
            st["#meta"]["action"] = game.action_str(actions[i - 1])
        for var in game.var_names:
            st[var] = _itf_value(game, var, types[var], s[game.index[var]])
        out_states.append(st)
    return {"#meta": {"format": "ITF", "format-description":
                      "https://apalache-mc.org/docs/adr/015adr-trace.html",
                      "source": "itcp", "description": description},
            "vars": list(game.var_names), "states": out_states}
