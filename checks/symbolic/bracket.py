"""A reported range through Z3: the tightest bracket 1-induction proves (HAND_BOUNDS).

HAND_BOUNDS reports the range of the live hands' sizes.  The explicit search
reports the exact range at a table it exhausts.  The symbolic engine proves a
bracket instead: "every live hand holds lo to hi cards" in every reachable
state, a state formula the spec gives (``Property.bracket``), proved by
1-induction like any state property (``induction.py``, with the candidate
invariants).  It tries upper ends from the narrowest (one more than the deal)
up, then lower ends from the deal's hand size down, and reports the tightest
pair proved.  The bracket 0..cards needs no proof (a hand is a set of the
table's cards) and is what is left when nothing tighter is proved; on a big
table (the full deck) it is all that is given, since each failed try there is a
search over every candidate invariant that takes Z3 minutes.

The bracket is sound, not necessarily tight: no state at either end is shown
reachable, and the evidence says so.

No z3 here: the proofs are asked through the inductor.
"""
from __future__ import annotations

from ..results import Bracket, NotChecked, PropertyResult, Support, Verdict


def _uppers(deal: int, cards: int) -> list[int]:
    """Upper ends to try, narrowest first: one or two above the deal, then doubling."""
    out, hi = [], deal + 1
    while hi < cards:
        out.append(hi)
        hi = hi + 1 if hi < deal + 2 else hi * 2
    return out


def hand_bounds(ch, pid: str) -> PropertyResult:
    """The tightest bracket of ``pid``'s reported range that 1-induction proves."""
    prop, ind = ch.props[pid], ch.inductor
    if prop.bracket is None:
        return ch.unknown(pid, NotChecked("the spec states no bracket for it"))
    cfg = ch.spec.config
    deal, cards = cfg.hand, cfg.n_cards
    proofs: dict = {}

    def proved(lo: int, hi: int) -> bool:
        name = f"{pid}[{lo}..{hi}]"
        ind.pool[name] = (f"every live hand holds {lo} to {hi} cards", prop.bracket(lo, hi))
        ch.progress(f"{pid}: is {lo}..{hi} inductive?")
        out = ind.prove(name)
        if out.proved:
            proofs[(lo, hi)] = out
        return out.proved

    # on a big table (the full deck) each failed try is a search over every
    # candidate invariant taking Z3 minutes: only the card count is given there
    uppers = [] if ind.big else _uppers(deal, cards)
    hi = next((h for h in uppers if proved(0, h)), cards)
    lo = next((low for low in (range(deal, 0, -1) if uppers else ()) if proved(low, hi)), 0)
    out = proofs.get((lo, hi)) or proofs.get((0, hi))
    used = out.used if out else []
    note = (f"every live hand holds {lo} to {hi} cards in every reachable state "
            + ("(proved by 1-induction)" if out is not None else
               ("(a hand is a set of the table's cards; on a table this big no "
                "tighter bracket is sought)" if ind.big else
                "(no tighter bracket proved: a hand is a set of the table's cards)"))
            + "; a bracket, not the exact range: no state at either end is shown reachable")
    return ch.result(pid, Verdict.HOLDS, Bracket(lo, hi, out is not None, Support(
        out.rules if out else [], ch.scope, note, used,
        {n: ind.proven[n][0] for n in used if n in ind.proven})))


__all__ = ["hand_bounds"]
