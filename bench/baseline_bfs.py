"""A hand-written breadth-first search of the no-option game: the baseline.

What a user would write instead of the checker, in the style of a careful
competition solution: one file, integers and bitmasks for hands, no framework
and nothing from itcp.  It plays the rulebook's basic game with the literal
readings of the official variant (the ones ``itcp-check check official`` uses
at a table without option cards):

- every deal: a hand of HAND cards to each player, one card face up on the
  pile, the rest face down as the deck (unordered: a deck draw is a chance
  outcome); the player to the dealer's left (seat 1, the dealer being seat 0)
  begins and play goes to the left;
- a turn: draw the top card of the pile or of the deck, then discard any card;
  a Desolation may only be discarded on a card of its own suit (not on an
  empty pile); with no legal discard there is no move; when the deck is empty
  only the pile can be drawn;
- instead of drawing, a player may say Pass; the round stops when play
  reaches the passer again (a second Pass, which the official reading
  allows, hands the turn straight to the first passer at two players: it
  ends the round and adds no position, so it is not followed here);
- a hand's points: its cards' values, a suit's Charity cancelling every card
  of its suit in that hand; a hand at zero points stops the round at once,
  at the deal too.

A position is the state of play at a player's decision: whose turn, whether
they are to draw or to discard, the hands, the deck (a set), the pile (in
order) and who has passed.  The search stores each distinct position once
with its parent (so a shortest trace can be told), counts the round's ends,
finds positions where the player to act has no legal move (NO_DEADLOCK),
the range of the live hand sizes (HAND_BOUNDS), and whether play can go round
in a loop after a Pass (ROUND_ENDS: a cycle among post-Pass positions, found
by peeling the positions no post-Pass edge enters).

    python -m bench.baseline_bfs [--players 2] [--suits 2] [--ranks 2..4] [--hand 3] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from array import array
from itertools import combinations


def cards_of(suits: int, lo: int, hi: int):
    """(suit, kind, value) of every card: per suit its numbers, Charity, Desolation."""
    out = []
    for s in range(suits):
        out += [(s, "number", r) for r in range(lo, hi + 1)]
        out += [(s, "charity", 0), (s, "desolation", 25)]
    return out


def search(players: int, suits: int, lo: int, hi: int, hand: int) -> dict:
    cards = cards_of(suits, lo, hi)
    n = len(cards)
    full = (1 << n) - 1
    suit_mask = [sum(1 << c for c in range(n) if cards[c][0] == s) for s in range(suits)]
    charity = [next(c for c in range(n) if cards[c][:2] == (s, "charity")) for s in range(suits)]

    def points(m: int) -> int:
        total = 0
        for s in range(suits):
            if not m >> charity[s] & 1:
                total += sum(cards[c][2] for c in range(n) if m >> c & suit_mask[s] >> c & 1)
        return total

    zero = bytes(points(m) == 0 for m in range(1 << n))  # zero[hand]: at zero points
    members = [tuple(c for c in range(n) if m >> c & 1) for m in range(1 << n)]
    # discards[top + 1][hand]: the cards of the hand that may go on ``top`` (-1: empty pile)
    desolation = [cards[c][1] == "desolation" for c in range(n)]
    discards = [[tuple(c for c in members[m]
                       if not desolation[c] or (top >= 0 and cards[top][0] == cards[c][0]))
                 for m in range(1 << n)] for top in range(-1, n)]

    # a position as one integer: phase (0 draw, 1 discard) | turn | passer + 1
    # | each hand | deck | pile (4 bits a card, the top card lowest)
    TB = max(1, (players - 1).bit_length())
    PB = players.bit_length()
    H0 = 1 + TB + PB
    DECK = H0 + n * players
    PILE = DECK + n
    CB = (n + 1).bit_length()  # a pile card is stored plus one (0 ends the pile)
    CM = (1 << CB) - 1
    TM, PM = (1 << TB) - 1, (1 << PB) - 1
    HAND_BITS = [H0 + n * p for p in range(players)]
    NEXT = [(p + 1) % players for p in range(players)]

    index: dict = {}          # position -> its number (breadth-first order)
    keys: list = []           # number -> position
    parent = array("i")       # number -> the number it was first reached from
    edge_src, edge_dst = array("i"), array("i")  # post-Pass moves
    deadlocks: list = []
    ends = 0                  # moves that end the round
    lo_hand, hi_hand = 10 ** 9, -1

    # every deal (seat 0 deals, seat 1 begins)
    first = NEXT[0]
    for hs in _deals(n, players, hand):
        dealt = 0
        for h in hs:
            dealt |= h
        rest = full & ~dealt
        for up in members[rest]:
            if any(zero[h] for h in hs):
                ends += 1
                continue
            key = first << 1
            for p, h in enumerate(hs):
                key |= h << HAND_BITS[p]
                c = h.bit_count()
                lo_hand, hi_hand = min(lo_hand, c), max(hi_hand, c)
            key |= (rest & ~(1 << up)) << DECK | (up + 1) << PILE
            if key not in index:
                index[key] = len(keys)
                keys.append(key)
                parent.append(-1)
    initial = len(keys)

    get, add_key, add_parent = index.get, keys.append, parent.append
    add_src, add_dst = edge_src.append, edge_dst.append
    low = (1 << PILE) - 1
    frontier_lo, frontier_hi, depth, transitions = 0, len(keys), 0, 0
    back = False  # a post-Pass move to a position no deeper than its source
    while frontier_lo < frontier_hi:
        for i in range(frontier_lo, frontier_hi):
            key = keys[i]
            turn = key >> 1 & TM
            at = HAND_BITS[turn]
            mine = key >> at & full
            pile = key >> PILE
            post_pass = key >> (1 + TB) & PM
            moves = 0
            if not key & 1:  # to draw: the pile's top card, a deck card (chance) or Pass
                base = key & low & ~(full << at) | 1
                top = (pile & CM) - 1
                news = []
                if top >= 0:
                    h = mine | 1 << top
                    moves += 1
                    if zero[h]:
                        ends += 1
                    else:
                        news.append((base & low | h << at | (pile >> CB) << PILE, h))
                deck = key >> DECK & full
                if deck:
                    base_deck = base & ~(full << DECK) | pile << PILE
                    for c in members[deck]:
                        h = mine | 1 << c
                        moves += 1
                        if zero[h]:
                            ends += 1
                        else:
                            news.append((base_deck | h << at | (deck & ~(1 << c)) << DECK, h))
                if not post_pass:  # the turn ends; nobody passed before
                    moves += 1
                    news.append((key & ~(TM << 1) | NEXT[turn] << 1 | (turn + 1) << (1 + TB),
                                 mine))
            else:  # to discard: the turn ends, play goes to the next seat
                nxt = NEXT[turn]
                if nxt == post_pass - 1:  # play reaches the passer: the round stops
                    n_moves = len(discards[pile & CM][mine])
                    moves += n_moves
                    ends += n_moves
                    news = ()
                else:
                    base = key & low & ~(full << at) & ~(TM << 1) & ~1 | nxt << 1
                    news = []
                    for c in discards[pile & CM][mine]:
                        h = mine & ~(1 << c)
                        moves += 1
                        if zero[h]:
                            ends += 1
                        else:
                            news.append((base | h << at | (pile << CB | c + 1) << PILE, h))
            if not moves:
                deadlocks.append(i)
                continue
            transitions += moves
            for s2, h in news:
                j = get(s2)
                if j is None:
                    j = index[s2] = len(keys)
                    add_key(s2)
                    add_parent(i)
                    c = h.bit_count()
                    if c < lo_hand:
                        lo_hand = c
                    if c > hi_hand:
                        hi_hand = c
                if post_pass:
                    add_src(i)
                    add_dst(j)
                    if j < frontier_hi:  # to a state no deeper than this one
                        back = True
        frontier_lo, frontier_hi = frontier_hi, len(keys)
        depth += 1

    # with every post-Pass move one level deeper there is no loop; else peel
    loops = back and _post_pass_cycle(len(keys), edge_src, edge_dst)
    return {"live_positions": len(keys), "initial_positions": initial,
            "transitions": transitions, "round_ending_moves": ends, "depth": depth,
            "deadlocks": len(deadlocks), "hand_sizes": [lo_hand, hi_hand],
            "post_pass_edges": len(edge_src), "round_ends": not loops,
            "first_deadlock_trace": len(_path(parent, deadlocks[0])) - 1 if deadlocks else None}


def _deals(n: int, players: int, hand: int):
    """Every tuple of disjoint hands, seat by seat."""
    def go(p, avail):
        if p == players:
            yield ()
            return
        for combo in combinations([c for c in range(n) if avail >> c & 1], hand):
            h = sum(1 << c for c in combo)
            for rest in go(p + 1, avail & ~h):
                yield (h,) + rest
    yield from go(0, (1 << n) - 1)


def _post_pass_cycle(nodes: int, src: array, dst: array) -> bool:
    """Whether the post-Pass edges hold a cycle: peel the nodes no edge enters
    until none is left (no cycle) or every one left is entered (a cycle)."""
    indeg = array("i", bytes(4 * nodes))
    out: dict = {}
    for a, b in zip(src, dst):
        indeg[b] += 1
        out.setdefault(a, []).append(b)
    stack = [v for v in set(src) | set(dst) if not indeg[v]]
    left = len(set(src) | set(dst))
    while stack:
        v = stack.pop()
        left -= 1
        for w in out.get(v, ()):
            indeg[w] -= 1
            if not indeg[w]:
                stack.append(w)
    return left > 0


def _path(parent: array, i: int) -> list:
    out = []
    while i >= 0:
        out.append(i)
        i = parent[i]
    return out[::-1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--suits", type=int, default=2)
    ap.add_argument("--ranks", default="2..4")
    ap.add_argument("--hand", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    lo, hi = (int(x) for x in args.ranks.split(".."))
    start = time.perf_counter()
    out = search(args.players, args.suits, lo, hi, args.hand)
    out["seconds"] = round(time.perf_counter() - start, 3)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:<22} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
