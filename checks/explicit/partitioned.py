"""The breadth-first search spread over processes, each owning part of the states.

One process's search (``explore.py``) keeps every stored state in one visited
set.  Here the states are *hash-partitioned*: a key belongs to the part its
hash names (``statestore.owner_of``), each part is a process with its own
visited set, its own key rows and its own successor code, and a coordinator
(the calling process) keeps the levels in step.  A level ``d`` is:

1. **expand**: every part expands the states of depth ``d`` it owns (the same
   ``Search.expand_rows`` one process runs) and sends each successor to its
   owner, with the *move key* that orders it (``explore.move_keys``: the
   source's number, the move's place among its moves, a folded chance node's
   outcome); an outcome goes to the level after next, as one process defers it;
2. **close**: every part sorts the rows it received for depth ``d + 1`` by move
   key and stores them, checking the new states (state properties, hand sizes,
   orbits);
3. **number**: the coordinator merges the parts' new states by move key, which
   is the order one process stores them in (a batch's new states are numbered
   by first row, ``StateStore.insert``), so every state gets the number one
   process gives it; each part learns its states' numbers with the call that
   expands the next level (one call a level less; on their own where the
   search stops there).

So a partitioned search stores the same states under the same numbers, with the
same parents, depths, post-Pass edges, deadlocks and first violations as one
process: the same verdicts and the same shortest traces (``tests/test_partitioned.py``
holds the two to each other).  The coordinator keeps every state's key rows in
number order as the levels close (forked parts write them into its key array,
which they share; a state's parent is its move key's source), so the result is
one ``Exploration`` that every reader of a search reads as usual, and a search
stopped (a limit, a signal) goes back to the top of the level it was in, from
which a checkpoint can go on (``explore.Level``).  What differs: rule coverage
is the union of the parts' (each samples on its own once its rules are quiet),
and the limits are polled per level and, for the time limit and a stop, per
chunk in every part.

The first ``WARM_STATES`` states are searched in the calling process and handed
over as a resumed search (the successor code is compiled once; a small table
needs no parts).  Parts run on this machine (``ProcessParts``: part 0 in the
calling process, the others forked, inheriting the compiled game, their arrays
handed over through shared memory, ``mailbox.py``) or as Ray actors
(``raycluster.RayParts``); a part is driven only through its methods, so the
same ``Part`` runs under either transport.  The rows a level's expansion finds
for another part go to it with the call that closes the next level.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from itcp.model.engine.engine import Game

from .explore import (
    CHUNK_STATES,
    Exploration,
    Level,
    Limits,
    Pause,
    Resume,
    Search,
    SearchPlan,
    fired_at_round_end,
    limit_reached,
    resume_point,
    rules_to_cover,
    run_search,
    search_backend,
    search_setup,
)
from .heap import keep_freed_memory, release_kept_memory
from .mailbox import Channel, Mailbox
from .statestore import StateStore, owner_of, populate, shared_rows

#: a part's rows for one level: (words, move keys, post-Pass flags, deals); a row's
#: source is its move key's high bits (``explore.move_keys``), and only the deals'
#: rows (level 0) carry their deal, the others an empty array
Rows = tuple


def _cat(rows: list, width: int) -> Rows:
    """One batch of rows from several."""
    if not rows:
        e = np.empty(0, dtype=np.int64)
        return [e] * width, e, np.empty(0, dtype=bool), e
    words = [np.concatenate([r[0][j] for r in rows]) for j in range(width)]
    return (words, np.concatenate([r[1] for r in rows]), np.concatenate([r[2] for r in rows]),
            np.concatenate([r[3] for r in rows]))


_NONE = np.empty(0, dtype=np.int64)

#: rows a part's ``close`` stores at a time: the visited set's ``insert`` costs a
#: few array operations a round whatever the batch, so a batch four times the
#: search's chunk costs a part about a fifth less than one chunk at a time, and
#: it still fits the caches (a batch sixteen times the chunk cost more); by
#: process time of ``close``, one core, bench/workers.py's table, 2026-12-04
CLOSE_ROWS = 4 * CHUNK_STATES


def _sources(keys: np.ndarray) -> np.ndarray:
    """Each row's source number, from its move key."""
    return keys >> 32


class _PartSearch(Search):
    """One part's expansion: the search's own code, with what it would store
    sent to the part that owns it."""

    def __init__(self, part: Part, *args):
        super().__init__(*args)
        self.part = part
        self.keyed = True

    def store_batch(self, words, src, pp, depth: int, deal=None, keys=None):
        self.part.route(depth, words, keys, pp, deal)

    def defer(self, depth: int, words, src, pp, keys=None):
        self.part.route(depth, words, keys, pp, None)


class Part:
    """The states one part owns, and its share of every level's work.  Driven
    by the coordinator through its methods alone (``expand``, ``receive``,
    ``close``, ``number``, ``load``, ``rollback``, ``waiting``), each taking and
    returning plain data."""

    def __init__(self, game: Game, index: int, parts: int, symmetry: bool, reduce: bool,
                 fast: bool, fold: bool, track_rules: bool, stop=None, shared=None):
        self.index, self.parts = index, parts
        self.stop = stop   # an Event the coordinator sets to stop an expansion early
        #: the coordinator's key array, shared: the rows go there, not through a pipe
        self.shared = shared
        red, layout, _, nperms = search_setup(game, symmetry, reduce)
        self.store = StateStore(layout.words)
        self.ex = Exploration(game, symmetry, permutations=nperms, reduction=red, layout=layout,
                              store=self.store)
        self.b = search_backend(game, red, layout, symmetry, reduce, fast)
        self.search = _PartSearch(self, self.ex, game, Limits(), self.b,
                                  SearchPlan(symmetry, track_rules, fast, fold, reduce))
        self.width = layout.words
        # local number -> global number (4 bytes: the search numbers fewer than
        # 2**31 states, ``StateStore``)
        self._glob = np.empty(1 << 16, dtype=np.int32)
        self.globbed = 0                                  # (its first ``globbed`` entries)
        self.lo = self.hi = 0                      # this level's states (local numbers)
        self.buffers: dict[int, list] = {}         # depth -> rows this part owns
        self.outgoing: dict[int, list] = {}        # part -> [(depth, rows)]
        self.pending: tuple = ()                   # the closed level, waiting for its numbers
        self.numbered: dict = {}                   # what numbering it gave
        self.reported: dict = {}                   # violations already sent
        self.origin = -1                           # the level whose expansion routes rows
        self.at: tuple = ()                        # the part at the top of the level expanded
        self.consumed: dict[int, list] = {}        # depth -> the rows its close stored

    @property
    def glob(self) -> np.ndarray:
        """Each local state number's global number."""
        return self._glob[:self.globbed]

    @glob.setter
    def glob(self, numbers: np.ndarray) -> None:
        self.globbed = 0
        self._add_numbers(numbers)

    def _add_numbers(self, numbers: np.ndarray) -> None:
        """Append global numbers (grown by doubling: a level's copy, not the whole)."""
        need = self.globbed + len(numbers)
        if need > len(self._glob):
            grown = np.empty(max(need, 2 * len(self._glob)), dtype=np.int32)
            grown[:self.globbed] = self._glob[:self.globbed]
            self._glob = grown
        self._glob[self.globbed:need] = numbers
        self.globbed = need

    # -- routing ---------------------------------------------------------------------
    def route(self, depth, words, keys, pp, deal):
        if not len(keys):
            return
        pp = np.zeros(len(keys), dtype=bool) if pp is None else pp
        owner = owner_of(words, self.parts)
        for j in range(self.parts):
            sel = np.flatnonzero(owner == j)
            if not len(sel):
                continue
            rows = ([w[sel] for w in words], keys[sel], pp[sel],
                    deal[sel] if deal is not None else _NONE)
            if j == self.index:
                self.buffers.setdefault(depth, []).append((self.origin, rows))
            else:
                self.outgoing.setdefault(j, []).append((depth, rows))

    def receive(self, bundles: list, origin: int) -> None:
        """Rows other parts found for this part, expanding level ``origin``:
        [(depth, rows)]."""
        for depth, rows in bundles:
            self.buffers.setdefault(depth, []).append((origin, rows))

    def take_outgoing(self) -> dict:
        """The rows for the other parts, one bundle per part (merged per depth)."""
        out = {}
        for j, items in self.outgoing.items():
            by_depth: dict = {}
            for depth, rows in items:
                by_depth.setdefault(depth, []).append(rows)
            out[j] = [(depth, _cat(rs, self.width)) for depth, rs in sorted(by_depth.items())]
        self.outgoing = {}
        return out

    # -- a level ---------------------------------------------------------------------
    def root(self, words, deals) -> dict:
        """The deals (the root's successors, in order): each to its owner."""
        self.route(0, words, np.arange(len(deals), dtype=np.int64), None, deals)
        return self.take_outgoing()

    def expand(self, d: int, deadline: float | None, numbers: np.ndarray | None = None) -> dict:
        """Expand this part's states at depth ``d`` (stopping between chunks past
        ``deadline``, or when the coordinator says stop): the rows for the
        other parts and what was found.  With ``numbers``, the level closed
        last is numbered first (``number``; one call a level less) and what
        that gives comes back as ``numbered``."""
        numbered = None if numbers is None else self.number(numbers)
        s, ex = self.search, self.ex
        self.at = (d, self.store.n, len(self.glob), self.lo, self.hi, ex.transitions,
                   ex.terminal, ex._waiting_peak, set(ex.fired),
                   {a: set(r) for a, r in s.unseen_rules.items()}, dict(s.quiet), set(s.taken),
                   dict(self.reported), dict(ex.violations))
        self.origin = d
        # the rows stored before this level's top are part of the search for good
        self.consumed = {k: v for k, v in self.consumed.items() if k > d}
        stopped = False
        # a chunk spans the stretch of the search's order one process's chunk does
        # (the part owns about one state in ``parts`` of it): the same kinds of
        # state, so the batch code is called as often in all as in one process
        step = CHUNK_STATES * self.parts
        for lo in range(self.lo, self.hi, step):
            hi = min(self.hi, lo + step)
            rows = self.store.rows(lo, hi)
            words = [np.ascontiguousarray(rows[:, j]) for j in range(self.width)]
            self.search.expand_rows(words, self.glob[lo:hi].astype(np.int64), d)
            if (deadline is not None and time.monotonic() > deadline) or \
                    (self.stop is not None and self.stop.is_set()):
                stopped = True
                break
        ex = self.ex
        found = {p: w for p, w in ex.violations.items() if p not in self.reported}
        self.reported.update(found)
        deadlocks = list(ex.deadlocks)
        ex.deadlocks.clear()
        return {"out": self.take_outgoing(), "stopped": stopped, "violations": found,
                "deadlocks": deadlocks, "numbered": numbered,
                "counted": (ex.transitions, ex.terminal, ex._waiting_peak)}

    def close(self, depth: int, bundles: list | None = None, origin: int = -1) -> dict:
        """Store the rows received for ``depth`` (with ``bundles``, the rows the
        other parts found for this one expanding level ``origin``, see
        ``receive``) in move-key order: the new states, their move keys
        (sorted), parents, deals and checks."""
        if bundles:
            self.receive(bundles, origin)
            bundles.clear()   # the rows are this part's now (part 0's come by reference)
        entries = self.buffers.pop(depth, [])
        # given back if the level is undone (``rollback``), but for the rows the
        # undone expansion found (``depth - 1``'s): that expansion runs again
        self.consumed[depth] = [(o, r) for o, r in entries if o < depth - 1]
        words, keys, pp, deal = _cat([r for _, r in entries], self.width)
        entries = []   # a level's rows: one copy at a time
        order = np.argsort(keys, kind="stable")
        if len(order) and not bool(np.all(order[1:] > order[:-1])):
            words, keys, pp = [w[order] for w in words], keys[order], pp[order]
            deal = deal[order] if depth == 0 else deal
        src = _sources(keys) if depth else np.full(len(keys), -1, dtype=np.int64)
        n0 = self.store.n
        b = self.b
        nums = np.empty(len(keys), dtype=np.int64)
        new = np.zeros(len(keys), dtype=bool)
        bad: dict = {}
        lo, hi, orbits = 999, -1, 0
        # a chunk at a time, in move-key order: the same numbers as one batch
        # (first rows first), and arrays small enough to stay in the caches
        for c in range(0, len(keys), CLOSE_ROWS):
            cw = [w[c:c + CLOSE_ROWS] for w in words]
            nums[c:c + len(cw[0])], new[c:c + len(cw[0])] = self.store.insert(cw)
            fresh = np.flatnonzero(new[c:c + len(cw[0])])
            if not len(fresh):
                continue
            nw = [w[fresh] for w in cw]
            for p, flags in b.state_bad(nw):
                pid = b.state_ids[p]
                if pid not in bad and flags.any():
                    bad[pid] = int(nums[c + fresh[int(np.argmax(flags))]]) - n0
            a, z = b.hand_range(nw)
            lo, hi = min(lo, a), max(hi, z)
            orbits += int(b.orbit(nw).sum()) if b.symmetric else len(fresh)
        rows = np.flatnonzero(new)   # in number order (the store numbers by first row)
        sel = np.flatnonzero(pp)
        self.pending = (n0, src[sel], nums[sel], keys[sel], bad)
        later = sum(len(r[1]) for rs in self.buffers.values() for _, r in rs)
        # a state's parent is its first move's source (the move key's high bits),
        # but at the deal; the rows go through the shared array when there is one
        out = {"keys": keys[rows], "hand_sizes": (lo, hi), "orbits": orbits, "later": later,
               "states": self.store.n}
        if depth == 0:
            out["deal"] = deal[rows]
        if self.shared is None:
            out["words"] = self.store.rows(n0, self.store.n)
        return out

    def number(self, numbers: np.ndarray) -> dict:
        """The global numbers of the states the last ``close`` stored (in their
        order): the level's post-Pass edges and first state-property
        violations, in global numbers.  The stored states become the frontier.
        Asked again for the same level (its answer lost to a stop), the same answer."""
        if not self.pending:
            return self.numbered
        n0, e_src, e_dst, e_keys, bad = self.pending
        self.pending = ()
        self._add_numbers(numbers)
        self.lo, self.hi = n0, self.store.n
        if self.shared is not None and len(numbers):
            # this part's rows lie between its first and last number, between
            # the other parts': each part gives its slice of that span memory
            # at once (``populate``: not a page fault at a time), then writes
            lo, hi = int(numbers[0]), int(numbers[-1]) + 1
            step = -(-(hi - lo) // self.parts)
            populate(self.shared, lo + self.index * step, min(hi, lo + (self.index + 1) * step))
            self.shared[numbers] = self.store.keys[n0:self.store.n]
        self.numbered = {"edges": (e_src, self.glob[e_dst], e_keys),
                         "violations": {p: int(self.glob[n0 + i]) for p, i in bad.items()}}
        return self.numbered

    # -- levels: handing over, going back ---------------------------------------------
    def load(self, rows: np.ndarray, numbers: np.ndarray, first: int, unseen: dict,
             quiet: dict, taken: set) -> None:
        """Take the states this part owns of a search stopped at a level (their
        rows and numbers in number order; those numbered ``first`` and up are the
        level's frontier) and its rule coverage so far."""
        if len(rows):
            self.store.insert([np.ascontiguousarray(rows[:, j]) for j in range(self.width)])
        self.glob = numbers.astype(np.int64)
        self.lo, self.hi = int(np.searchsorted(self.glob, first)), self.store.n
        s = self.search
        s.unseen_rules = {a: set(r) for a, r in unseen.items()}
        s.quiet, s.taken = dict(quiet), set(taken)

    def rollback(self, d: int) -> None:
        """Back to the top of level ``d`` (an expansion stopped midway): the rows
        its expansion routed, the states a later close stored, the counts."""
        if not self.at or self.at[0] != d:
            return
        (_, n, g, self.lo, self.hi, tr, term, peak, fired, unseen, quiet, taken, reported,
         violations) = self.at
        self.store.rollback(n)
        self.globbed = g
        ex, s = self.ex, self.search
        ex.transitions, ex.terminal, ex._waiting_peak = tr, term, peak
        ex.fired, s.unseen_rules, s.quiet, s.taken = fired, unseen, quiet, taken
        self.reported, ex.violations = reported, violations
        ex.deadlocks.clear()
        self.outgoing = {}
        for depth, entries in self.consumed.items():   # stored after the top: undone
            if depth > d:
                self.buffers.setdefault(depth, [])[:0] = entries
        self.consumed = {}
        self.buffers = {depth: [(o, r) for o, r in rs if o < d]
                        for depth, rs in self.buffers.items()}

    def waiting(self, depth: int) -> Rows:
        """The rows this part holds for level ``depth`` from expansions before
        ``depth - 1`` (folded outcomes), in move-key order."""
        words, keys, pp, _ = _cat([r for o, r in self.buffers.get(depth, []) if o < depth - 1],
                                  self.width)
        order = np.argsort(keys, kind="stable")
        return [w[order] for w in words], keys[order], pp[order]

    def coverage(self) -> dict:
        s = self.search
        return {"unseen": s.unseen_rules, "quiet": s.quiet, "phases_met": s.taken}

    def counts(self) -> dict:
        """What the part counted, for the search's totals (and its rule coverage)."""
        ex = self.ex
        return {"transitions": ex.transitions, "terminal": ex.terminal, "fired": ex.fired,
                "sampled": self.search.coverage_sampled(), "waiting": ex._waiting_peak,
                "states": self.store.n}


# -- transports ------------------------------------------------------------------------

def _serve(conn, make: Callable[[], Part], inherited: list) -> None:
    """A part's process: build the part, then answer (method, args) calls.
    ``inherited``: the coordinator's ends of the pipes, open here since the fork."""
    # the coordinator handles Ctrl-C and the signals a job scheduler sends, to the
    # process group as often as not: a part ends when the coordinator says so, or
    # when its pipe closes (the coordinator gone, even killed: so this process
    # must not hold the coordinator's end open itself)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    for end in inherited:
        end.close()
    gc.disable()   # no reference cycles; the collector would walk the tables
    try:
        part = make()
    except BaseException:   # noqa: BLE001 - reported to the coordinator
        conn.send(("error", traceback.format_exc()))
        return
    conn.send(("ok", None))
    while True:
        try:
            call = conn.recv()
        except (EOFError, OSError):
            return   # the coordinator is gone
        if call is None:
            return
        name, args = call
        try:
            answer = ("ok", getattr(part, name)(*args))
        except BaseException:   # noqa: BLE001 - reported to the coordinator
            answer = ("error", traceback.format_exc())
        try:
            conn.send(answer)
        except OSError:
            return   # the coordinator is gone
        if answer[0] == "error":
            return


#: the signals a stop comes by (Ctrl-C, a scheduler's SIGTERM, a closed terminal)
_STOPS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


@contextmanager
def _whole_messages():
    """The stops held back while a message goes through a pipe and is counted:
    one that comes then is delivered (as the usual KeyboardInterrupt) once the
    message has gone through whole and ``owed`` says so, so a pipe never holds
    half a message and the count of answers owed is never off by one (which
    left ``settle`` waiting for an answer already read: seen after a SIGTERM).

    Blocking the signals in this thread is not enough: a process-directed
    signal that this thread blocks goes to another thread (the budget's
    watchdog), whose handler runs here all the same, and the watchdog's own
    stops (``_thread.interrupt_main``) are no signals at all.  So in the main
    thread the stops' handlers are swapped for ones that note them
    (``_stops_deferred``); elsewhere the signals are blocked."""
    if threading.current_thread() is threading.main_thread():
        with _stops_deferred(None):
            yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class PartError(RuntimeError):
    """A part failed: its traceback."""


@dataclass(frozen=True)
class PartPlan:
    """How many parts, and how each searches (what ``Part`` is made with)."""
    parts: int
    symmetry: bool
    reduce: bool
    fast: bool
    fold: bool
    track_rules: bool
    width: int = 0   # words per key (a transport that shares the key array needs it)

    def part(self, game: Game, index: int, stop=None, shared=None) -> Part:
        return Part(game, index, self.parts, self.symmetry, self.reduce, self.fast, self.fold,
                    self.track_rules, stop, shared)


class Parts(Protocol):
    """What the coordinator needs of the parts, wherever they run: call a method
    on every part (each with its arguments) and get every answer; after an
    interrupt, stop them early and read what is owed; end them."""
    pids: list[int]

    def call(self, name: str, args_per_part: list) -> list: ...

    def settle(self) -> None: ...

    def close(self, kill: bool = False) -> None: ...


class ProcessParts:
    """Parts on this machine: part 0 in this process (its rows go to the
    coordinator and come from it by reference, through no pipe, and the
    machine runs one process less), the others forked processes (they inherit
    the compiled game), one pipe each.  A call sends every forked part its
    share, does part 0's here meanwhile, then reads the others' answers."""

    def __init__(self, game: Game, plan: PartPlan):
        parts = plan.parts
        # a level's arrays reuse the last level's memory, here and in the parts
        # forked below (``heap.py``: the pages are not zeroed again each level)
        self.kept = keep_freed_memory()
        ctx = multiprocessing.get_context("fork")
        self.conns: list[Channel] = []
        self.procs: list = []
        self.stop = ctx.Event()   # set: the parts stop expanding between chunks
        self.owed = [0] * (parts - 1)   # answers sent for and not yet read
        #: the coordinator's key array, shared with the parts (made before they fork)
        self.shared = shared_rows(plan.width) if plan.width else None
        self.boxes: list[Mailbox] = []
        try:
            self._start(game, plan, ctx)
        except BaseException:
            self.close(kill=True)   # the parts started so far, and the settings above
            raise

    def _start(self, game: Game, plan: PartPlan, ctx) -> None:
        """Fork the parts, make part 0 here, and wait until every part is ready."""
        parts = plan.parts
        for i in range(1, parts):
            mine, theirs = ctx.Pipe()
            # the arrays of a call and of its answer go through shared memory
            down, up = Mailbox.make(), Mailbox.make()
            self.boxes += [b for b in (down, up) if b is not None]
            p = ctx.Process(target=_serve,
                            args=(Channel(theirs, up, down),
                                  lambda i=i: plan.part(game, i, self.stop, self.shared),
                                  [mine, *self.conns]),
                            daemon=True, name=f"itcp-part-{i}")
            p.start()
            theirs.close()
            self.conns.append(Channel(mine, down, up))
            self.procs.append(p)
            self.owed[i - 1] = 1
        self.local = plan.part(game, 0, self.stop, self.shared)
        self.pids = [os.getpid()] + [p.pid for p in self.procs if p.pid is not None]
        self._answers()

    def call(self, name: str, args_per_part: list) -> list:
        for i, (conn, args) in enumerate(zip(self.conns, args_per_part[1:])):
            with _whole_messages():
                conn.send((name, tuple(args)))
                self.owed[i] += 1
        with _stops_deferred(self.stop):
            mine = getattr(self.local, name)(*args_per_part[0])
        return [mine] + self._answers()

    def _recv(self, i: int):
        """Part ``i + 1``'s next answer. An interrupt may come while it is
        awaited but not while it is read: a message read half would leave the
        pipe mid-message and the next read waiting for ever (seen under load: a
        SIGTERM during a level's answers left the check and its parts idle)."""
        conn = self.conns[i]
        conn.poll(None)   # interruptible: nothing is read yet
        with _whole_messages():
            got = conn.recv()
            self.owed[i] -= 1
        return got

    def _answers(self) -> list:
        out = []
        for i in range(len(self.conns)):
            try:
                status, value = self._recv(i)
            except EOFError:
                raise PartError(f"part {i + 1} ended unexpectedly "
                                f"(exit code {self.procs[i].exitcode})") from None
            if status == "error":
                raise PartError(f"part {i + 1} failed:\n{value}")
            out.append(value)
        return out

    def settle(self) -> None:
        """After an interrupt: tell the parts to stop expanding and read the
        answers still owed, so the pipes are ready for the next call."""
        self.stop.set()
        for i in range(len(self.conns)):
            while self.owed[i] > 0:
                self._recv(i)
        self.stop.clear()

    def close(self, kill: bool = False) -> None:
        """End the parts: asked to (``None``), or at once with ``kill``."""
        for conn in self.conns:
            try:
                if not kill:
                    conn.send(None)
            except OSError:
                pass
        for p in self.procs:
            if kill:
                p.kill()
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
        for conn in self.conns:
            conn.close()
        for box in self.boxes:
            box.close()
        if self.kept:
            release_kept_memory()
            self.kept = False


@contextmanager
def _stops_deferred(stop):
    """Part 0's share of a call, done in this process, is never cut midway (a
    part left half-way through storing a level could not be rolled back): a
    stop that comes meanwhile (a signal, or the budget's watchdog, which runs
    the SIGINT handler) sets ``stop``, so an expansion ends after its chunk as
    the forked parts' do, and is acted on once the share is done (``stop``: the
    parts' Event, or None where only the deferring is wanted)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list = []

    def note(signum, frame):
        came.append(signum)
        if stop is not None:
            stop.set()

    old = {sig: signal.signal(sig, note) for sig in _STOPS}
    try:
        yield
    finally:
        for sig, handler in old.items():   # (None: a handler not set from Python)
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        if came:   # delivered again, to the handler it was meant for
            signal.raise_signal(came[0])


#: states searched in the calling process before the parts take over: the code
#: for every kind of state met so far is compiled once, and small tables need no
#: parts at all
WARM_STATES = 200_000


# -- the coordinator ---------------------------------------------------------------------

@dataclass
class PartProgress:
    """One part's figures after a level, for a progress display."""
    states: int
    frontier: int
    rss: int


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def explore_partitioned(game: Game, workers: int, limits: Limits | None = None,
                        resume: Resume | None = None,
                        part_progress: Callable[[list[PartProgress]], None] | None = None,
                        warm: int = WARM_STATES,
                        transport: Callable[[Game, PartPlan], Parts] | None = None,
                        **options) -> Exploration:
    """``explore`` with the states spread over ``workers`` processes (see the
    module's docstring): the same Exploration, found in parallel, as
    ``options`` say (a ``SearchPlan``'s fields).  ``resume`` goes on from a
    level reached before (by either search); ``on_level(ex, level)`` is called
    at the top of each level, where ``level()`` builds the search's ``Level``
    there (it asks the parts: call it only when needed), and may raise
    ``Pause``.  After an interrupt the search stands at the top of the level it
    was expanding (``ex.level``, built then), so a checkpoint can be written
    from it.  ``part_progress`` is told each part's figures.  The first
    ``warm`` states are searched in this process (0: in the parts from the deal
    on).  ``transport`` makes the parts (``ProcessParts`` by default;
    ``raycluster.RayParts`` on a Ray cluster)."""
    limits = limits or Limits()
    how = SearchPlan(**options)
    start = time.monotonic()
    if resume is None and warm:
        # the first levels in this process: the successor code each kind of
        # state needs is compiled here once (the parts inherit it), and a
        # search that ends within them needs no parts at all
        def pause(ex, level):
            if ex.states >= warm:
                raise Pause
            if how.on_level is not None:
                how.on_level(ex, level)
        first = run_search(game, limits, replace(how, on_level=pause))
        if first.limit != "paused":
            return first
        resume = resume_point(first)
        del first
    red, layout, key_of, nperms = search_setup(game, how.symmetry, how.reduce)
    store = StateStore(layout.words)
    ex = Exploration(game, how.symmetry, permutations=nperms, reduction=red, layout=layout,
                     store=store)
    # compiled once, inherited
    b = search_backend(game, red, layout, how.symmetry, how.reduce, how.fast)
    ex.backend = b.name
    deadline = None if limits.timeout is None else start + limits.timeout

    plan = PartPlan(workers, how.symmetry, how.reduce, how.fast, how.fold,
                    how.track_rules, layout.words)
    parts = (transport or ProcessParts)(game, plan)
    try:
        shared = getattr(parts, "shared", None)
        if shared is not None:
            store.over(shared)
        coord = _Coordinator(ex, store, b, parts, workers, limits, deadline, how, start,
                             part_progress)
    except BaseException:
        # the parts ignore the stop signals (the coordinator ends them): ended here
        parts.close(kill=True)
        raise
    killed = False
    collecting = gc.isenabled()
    gc.disable()   # no reference cycles here; the collector would walk the tables
    try:
        coord.run(resume)
    except Pause:
        ex.limit = "paused"
        ex.level = coord.level_now()
    except KeyboardInterrupt:
        ex.interrupted = True
        ex.limit = how.interrupted()
        try:   # back to the top of the level under way, and the search as it stood there
            parts.settle()
            coord.back_to_mark()
            ex.level = coord.level_now()
        except (KeyboardInterrupt, PartError, OSError, EOFError):
            killed = True
    finally:
        if collecting:
            gc.enable()
        totals = []
        if not killed:
            try:
                totals = parts.call("counts", [()] * workers)
            except (KeyboardInterrupt, PartError, OSError, EOFError):
                killed = True
        parts.close(kill=killed)
    if killed:
        # the parts ended before they told their counts: those of the last
        # expansion they finished (every state stored since came from it); the
        # rules they saw fire are lost, so coverage is only sampled
        totals = [{"transitions": t, "terminal": term, "waiting": w, "fired": set(),
                   "sampled": True} for t, term, w in coord.counted]
    coord.finish(totals)
    ex.seconds = time.monotonic() - start
    ex.unpack, ex.key_of = layout.compile()[1], key_of
    return ex


class _Coordinator:
    """The levels kept in step, and the parts' results merged in the order one
    process stores them."""

    def __init__(self, ex, store, b, parts, n, limits, deadline, plan: SearchPlan, start,
                 part_progress=None):
        self.ex, self.store, self.b, self.parts, self.n = ex, store, b, parts, n
        self.limits, self.deadline, self.track_rules, self.start = limits, deadline, \
            plan.track_rules, start
        self.progress, self.on_level = plan.progress, plan.on_level
        self.part_progress = part_progress
        self.bounds = [999, -1]
        self.frontier = [0] * n
        self.unseen = rules_to_cover(ex.game.spec)
        self.depth = 0
        self.mark: tuple = ()
        #: each part's (transitions, terminal, waiting peak) after the last expansion
        #: it finished: the counts of a search whose parts end before they are asked
        self.counted: list = []
        self.base: Level | None = None   # the level a resumed search started from
        #: each part's numbers for the level closed last, until they are sent
        #: (with the next expansion, or on their own where the level ends there)
        self.unnumbered: list | None = None

    def inboxes(self, outs: list) -> list[list]:
        """The rows the parts found for each part, one list per part."""
        inbox: list[list] = [[] for _ in range(self.n)]
        for out in outs:
            for j, bundle in out.items():
                inbox[j].extend(bundle)
        return inbox

    def exchange(self, outs: list, origin: int) -> None:
        """Hand every part the rows the others found for it."""
        self.parts.call("receive", [(box, origin) for box in self.inboxes(outs)])

    # -- the start: the deals, or a level reached before --------------------------------
    def begin(self) -> tuple[int, int]:
        ex, b = self.ex, self.b
        s0 = ex.game.initial_state()
        legal = b.legal(s0)
        if self.track_rules:
            b.cover_root(legal, ex.fired, self.unseen)
        mv = b.root(legal)
        words = b.canon(mv.words)
        # the deals go to their owners through part 0's routing
        shares = [(words, mv.prm) if i == 0 else
                  ([w[:0] for w in words], mv.prm[:0]) for i in range(self.n)]
        self.exchange(self.parts.call("root", shares), -1)
        new, later = self.close(0)
        ex.initial = ex.states
        return new, later

    def resume(self, r: Resume) -> tuple[int, int]:
        """Take over a level reached before: the arrays here, each part its states."""
        ex, lv = self.ex, r.level
        self.base = lv
        r.restore(ex, self.store)
        ex.initial, ex.unreduced_states = lv.initial, lv.unreduced
        ex.fired = set(lv.fired)
        self.bounds = list(lv.hands)
        self.unseen = {a: set(v) for a, v in lv.unseen.items()}
        ex.depth = lv.depth
        keys = r.keys
        owner = owner_of([np.ascontiguousarray(keys[:, j]) for j in range(keys.shape[1])],
                         self.n) if len(keys) else np.empty(0, dtype=np.int64)
        first = int(r.depth_starts[lv.depth])
        loads = []
        for j in range(self.n):
            mine = np.flatnonzero(owner == j)
            loads.append((keys[mine], mine, first, lv.unseen, lv.quiet, lv.taken))
        self.parts.call("load", loads)
        # the rows waiting for the next level: move keys in their order (every
        # source of theirs is older than the level's, so they come first)
        later = 0
        if lv.waiting:
            outs: list[dict] = [{} for _ in range(self.n)]
            rows: list = []
            for words, src, pp in lv.waiting:
                rows.append((words, np.asarray(src, dtype=np.int64), np.asarray(pp, dtype=bool)))
            words = [np.concatenate([r[0][j] for r in rows]) for j in range(len(rows[0][0]))]
            src = np.concatenate([r[1] for r in rows])
            pp = np.concatenate([r[2] for r in rows])
            keys_w = (src << 32) | np.arange(len(src), dtype=np.int64)
            own = owner_of(words, self.n)
            for j in range(self.n):
                sel = np.flatnonzero(own == j)
                if len(sel):
                    outs[j] = {j: [(lv.depth + 1, ([w[sel] for w in words], keys_w[sel],
                                                   pp[sel], _NONE))]}
            self.exchange(outs, -1)
            later = len(src)
        return self.store.n - first, later

    # -- the levels ----------------------------------------------------------------------
    def run(self, resume: Resume | None) -> None:
        ex, limits = self.ex, self.limits
        new, later = self.begin() if resume is None else self.resume(resume)
        d = ex.depth
        while new or later:
            self.depth = d
            self.take_mark(d)
            if self.on_level is not None:
                self.on_level(ex, self.level_now)
            if self.poll():
                ex.level = self.level_now()   # a limit: where a checkpoint goes on from
                return
            if limits.max_depth is not None and d >= limits.max_depth:
                ex.limit = f"--depth {limits.max_depth}"
                ex.level = self.level_now()
                return
            numbers = self.unnumbered   # kept until answered: a stop in between flushes them
            results = self.parts.call("expand", [(d, self.deadline) if numbers is None else
                                                 (d, self.deadline, numbers[j][0])
                                                 for j in range(self.n)])
            if numbers is not None:   # the level closed last, numbered: part of the mark
                self.unnumbered = None
                self.numbered([r["numbered"] for r in results])
                self.take_mark(d)
            self.counted = [r["counted"] for r in results]
            for r in results:
                self.found(r)
            # the rows go with the next level's close (one call less a level)
            inbox = self.inboxes([r["out"] for r in results])
            if any(r["stopped"] for r in results):
                ex.limit = limits.timeout_text()
                self.back_to_mark()
                ex.level = self.level_now()
                return
            d += 1
            ex.depth = d
            new, later = self.close(d, inbox, d - 1)
            # the level's rows are stored in the parts: not kept here through
            # the next expansion (a level's rows are a large share of the memory)
            del results, inbox
            if self.progress is not None:
                self.progress(ex.states, d, time.monotonic() - self.start)
        self.flush()
        ex.complete = True

    def take_mark(self, d: int) -> None:
        """Where the search stands at the top of level ``d`` (``back_to_mark``)."""
        ex = self.ex
        self.mark = (d, ex.states, len(ex._edge_src), len(ex.deadlocks), dict(ex.violations),
                     list(self.bounds), ex.unreduced_states)

    def back_to_mark(self) -> None:
        """Back to the top of the level under way (the parts too)."""
        if not self.mark:
            return
        ex = self.ex
        d, n, edges, dead, violations, bounds, unreduced = self.mark
        self.parts.call("rollback", [(d,)] * self.n)
        self.store.rollback(n)
        del ex.parent[n:], ex._edge_src[edges:], ex._edge_dst[edges:], ex.deadlocks[dead:]
        ex.depth_of.truncate(n)
        ex.violations, self.bounds, ex.unreduced_states = violations, bounds, unreduced
        ex.depth = d

    def level_now(self) -> Level:
        """The search's ``Level`` at the top of the current level (asks the parts
        for their counts, coverage and the rows waiting for the next level)."""
        self.flush()
        ex, d = self.ex, self.depth
        counts = self.parts.call("counts", [()] * self.n)
        waits = self.parts.call("waiting", [(d + 1,)] * self.n)
        width = self.store.words
        keys = np.concatenate([w[1] for w in waits]) if waits else np.empty(0, dtype=np.int64)
        waiting = []
        if len(keys):
            order = np.argsort(keys, kind="stable")
            words = [np.concatenate([w[0][j] for w in waits])[order] for j in range(width)]
            src = _sources(keys[order])
            pp = np.concatenate([w[2] for w in waits])[order]
            waiting = [(words, src, pp)]
        cover = self.parts.call("coverage", [()] * self.n)
        unseen = {a: set.intersection(set(self.unseen.get(a, set())),
                                      *[c["unseen"].get(a, set()) for c in cover])
                  for a in self.unseen}
        quiet = {a: max(c["quiet"].get(a, 0) for c in cover) for a in unseen}
        taken = set().union(*[c["phases_met"] for c in cover])
        fired = set(ex.fired).union(*[c["fired"] for c in counts])
        base = self.base
        return Level(d, ex.states, len(ex._edge_src), len(ex.deadlocks), len(ex.deal_action),
                     dict(ex.violations), waiting,
                     (base.transitions if base else 0) + sum(c["transitions"] for c in counts),
                     (base.terminal if base else 0) + sum(c["terminal"] for c in counts),
                     ex.initial, tuple(self.bounds), ex.unreduced_states,
                     max([c["waiting"] for c in counts] + [base.waiting_peak if base else 0]),
                     fired, unseen, quiet, taken)

    def poll(self) -> bool:
        return limit_reached(self.ex, self.limits, self.deadline)

    def found(self, r: dict) -> None:
        """A part's deadlocks and step violations (each the first in its order;
        the search's first is the one with the smallest source number)."""
        ex = self.ex
        ex.deadlocks.extend(r["deadlocks"])
        for pid, w in r["violations"].items():
            if pid not in ex.violations or w[1] < ex.violations[pid][1]:
                ex.violations[pid] = w

    def close(self, depth: int, inbox: list | None = None, origin: int = -1) -> tuple[int, int]:
        """Close level ``depth`` in every part (handing each part first the rows
        ``inbox`` holds for it, found expanding level ``origin``) and number its
        new states: how many, and how many rows the parts hold for later levels."""
        ex = self.ex
        got = self.parts.call("close", [(depth,) if inbox is None else (depth, inbox[j], origin)
                                        for j in range(self.n)])
        keys = np.concatenate([g["keys"] for g in got])
        k = len(keys)
        if k:
            order = np.argsort(keys, kind="stable")
            rank = np.empty(k, dtype=np.int64)
            rank[order] = np.arange(k, dtype=np.int64)
            n0 = ex.states
            parent = (keys[order] >> 32) if depth else np.full(k, -1, dtype=np.int64)
            ex.parent.extend(parent)
            ex.depth_of.add(depth, k)
            if depth == 0:
                deal = np.concatenate([g["deal"] for g in got])[order]
                ex.deal_action.extend(deal)
            if "words" in got[0]:
                self.store.extend(np.concatenate([g["words"] for g in got])[order])
            else:   # the parts write their rows into the shared array (``number``)
                self.store.adopt(k)
            numbers, at = [], 0
            for g in got:
                m = len(g["keys"])
                numbers.append((n0 + rank[at:at + m],))
                at += m
            for g in got:
                lo, hi = g["hand_sizes"]
                self.bounds[0] = min(self.bounds[0], lo)
                self.bounds[1] = max(self.bounds[1], hi)
                ex.unreduced_states += g["orbits"]
        else:
            if depth > ex.depth_of.deepest() and ex.depth_of.n:
                ex.depth_of.add(depth, 0)
            numbers = [(np.empty(0, dtype=np.int64),)] * self.n
        self.unnumbered = numbers   # sent with the next expansion, or by ``flush``
        self.frontier = [len(n[0]) for n in numbers]
        if self.part_progress is not None:
            self.part_progress([PartProgress(g["states"], f, _rss(pid))
                                for g, f, pid in zip(got, self.frontier, self.parts.pids)])
        return k, sum(g["later"] for g in got)

    def flush(self) -> None:
        """The parts' numbers for the level closed last, if not yet sent (what
        they give is part of the top of the level under way: its mark)."""
        numbers = self.unnumbered
        if numbers is not None:
            done = self.parts.call("number", numbers)
            self.unnumbered = None
            self.numbered(done)
            if self.mark:
                self.take_mark(self.mark[0])

    def numbered(self, done: list) -> None:
        """What the parts' numbering of a level gave: its post-Pass edges (in move
        key order) and its first state-property violations."""
        ex = self.ex
        e_src = np.concatenate([x["edges"][0] for x in done])
        e_dst = np.concatenate([x["edges"][1] for x in done])
        e_key = np.concatenate([x["edges"][2] for x in done])
        if len(e_key):
            o = np.argsort(e_key, kind="stable")
            ex._edge_src.extend(e_src[o])
            ex._edge_dst.extend(e_dst[o])
        for x in done:
            for pid, num in x["violations"].items():
                if pid not in ex.violations or num < ex.violations[pid][1]:
                    ex.violations[pid] = ("state", num)

    def finish(self, totals: list) -> None:
        ex, base = self.ex, self.base
        if base is not None:   # what the search counted before it was resumed
            ex.transitions, ex.terminal = base.transitions, base.terminal
        for t in totals:
            ex.transitions += t["transitions"]
            ex.terminal += t["terminal"]
            ex.fired |= t["fired"]
            ex.coverage_sampled = ex.coverage_sampled or t["sampled"]
            ex._waiting_peak += t["waiting"]
        ex.deadlocks.sort()
        if not self.b.symmetric:
            ex.unreduced_states = ex.states
        if ex.terminal and self.track_rules:
            ex.fired |= fired_at_round_end(ex.game)
        ex.complete = ex.complete and ex.limit is None
        if self.bounds[1] >= 0:
            ex.hand_min, ex.hand_max = self.bounds
        ex.depth = max(ex.depth, ex.depth_of.deepest())


def search(game: Game, limits: Limits | None = None, workers: int = 1,
           resume: Resume | None = None, **kw) -> Exploration:
    """The explicit search, in this process (``workers=1``) or partitioned over
    ``workers`` processes: the same result either way (``resume``: a checkpoint
    to go on from; ``kw``: a ``SearchPlan``'s fields, and for the parts
    ``part_progress``, ``warm`` and ``transport``)."""
    if workers <= 1:
        for only_parts in ("part_progress", "warm", "transport"):
            kw.pop(only_parts, None)
        return run_search(game, limits or Limits(), SearchPlan(**kw), resume)
    return explore_partitioned(game, workers, limits, resume=resume, **kw)


__all__ = ["explore_partitioned", "search", "Part", "PartPlan", "Parts", "ProcessParts",
           "PartError", "PartProgress", "WARM_STATES"]
