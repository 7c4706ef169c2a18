"""The limits of one command as a whole: time, memory and signals.

A long command (``check``; ``ask``'s search) runs inside a ``Budget``:

- **Time.** ``--timeout S`` bounds the whole command, not only the search: the
  search may use the first ``SEARCH_SHARE`` of S (counted from the start of
  the command), the analysis after it (stories, the cycle search for
  ROUND_ENDS, scenarios) the rest; at S whatever still runs is interrupted,
  and what it had not finished is UNKNOWN naming ``--timeout S``.
- **Memory.** The command's resident memory is watched; past the limit
  (``--max-memory SIZE``, by default ``DEFAULT_SHARE`` of the memory
  available when it starts: MemAvailable in /proc/meminfo, or the cgroup's or
  the address-space limit if lower) the search is interrupted and its open
  verdicts are UNKNOWN naming the memory limit.  The analysis after it may
  use ``HEADROOM`` more before it is interrupted too.
- **Signals.** SIGTERM, SIGHUP and SIGINT (Ctrl-C) take the path Ctrl-C
  always took: the search stops, the report is printed (every undecided
  property UNKNOWN naming the signal) and written; the analysis after a
  signal gets ``GRACE`` seconds.  Outside the parts that may be cut short
  (``interruptible``: the search, the analysis, building the scenarios) a
  stop is only recorded: the report is printed and its files moved into
  place whole, never cut.

Every stop arrives in the main thread as a ``KeyboardInterrupt`` (a watchdog
thread interrupts it for time and memory), so the search's own Ctrl-C
handling serves all of them; ``reason`` says what it was.
"""
from __future__ import annotations

import _thread
import math
import os
import re
import resource
import signal
import threading
import time
from contextlib import contextmanager

from itcp.spec.errors import InputError

from .early import PENDING, STARTED

_started = [time.monotonic()]


def command_started() -> None:
    """The root command calls this as it starts: ``--timeout`` counts from the
    program's first line when it runs as ``itcp-check`` (``cli/entry.py``: the
    second of imports counts), else from this call."""
    _started[0] = STARTED.pop() if STARTED else time.monotonic()


def command_start() -> float:
    return _started[0]


#: the signal that interrupted the last command outside a Budget, if any
last_signal: list[int] = []


def _interrupt(signum, frame):
    last_signal[:] = [signum]
    raise KeyboardInterrupt


@contextmanager
def signals_interrupt():
    """While a command runs: SIGTERM and SIGHUP interrupt it as Ctrl-C does
    (a ``Budget`` takes them over where a search runs); the handlers before
    are restored after."""
    old = {}
    if threading.current_thread() is threading.main_thread():
        for sig in SIGNALS:
            try:
                old[sig] = signal.signal(sig, _interrupt)
            except (OSError, ValueError):
                pass
    try:
        yield
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)


def interrupted_text() -> tuple[str, int]:
    """("interrupted (SIGTERM)", exit code 128 + the signal) for the last
    interrupt outside a Budget (Ctrl-C: 130)."""
    signum = signal.Signals((last_signal or PENDING or [signal.SIGINT])[0])
    return f"interrupted ({SIGNALS.get(signum, f'signal {signum}')})", 128 + signum

#: the share of ``--timeout`` the search may use; the analysis after it has the rest
SEARCH_SHARE = 0.9
#: the share of the available memory a command may use by default
DEFAULT_SHARE = 0.8
#: seconds the analysis may still run after a signal or the memory limit stopped the search
GRACE = 5.0
#: after the memory limit stopped the search, the analysis may use this share of
#: the limit more before it is stopped too
HEADROOM = 0.1
#: how often the watchdog looks at the clock and the memory (seconds)
POLL = 0.05
#: how often, at most, it adds up the parts' proportional set sizes once their
#: resident sizes together pass the limit (reading them costs tens of
#: milliseconds a process at a big table)
FAIR_POLL = 0.5

SIGNALS = {signal.SIGINT: "SIGINT (Ctrl-C)", signal.SIGTERM: "SIGTERM",
           signal.SIGHUP: "SIGHUP"}

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """``2G``, ``500M``, ``1.5g``, ``800000K``, ``123456`` (bytes) -> bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.I)
    if not m:
        raise ValueError(f"cannot read a size from {str(text)[:40]!r}")
    n = float(m[1]) * _UNITS[m[2].upper()]
    if not math.isfinite(n) or n < 1:
        raise ValueError(f"{str(text)[:40]!r} is not a positive size")
    return int(n)


def show_size(n: float) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


def _statm_rss(pid: str) -> int:
    with open(f"/proc/{pid}/statm", "rb") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _children() -> list[str]:
    """This process's child processes (a partitioned search's parts)."""
    out: list[str] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as f:
                out += f.read().split()
    except OSError:
        pass
    return out


def resident() -> int:
    """The resident memory in bytes of this process and its child processes
    (the parts of a partitioned search), 0 if it cannot be read."""
    try:
        own = _statm_rss("self")
    except (OSError, ValueError, IndexError):
        try:  # peak, not current: the best there is without /proc
            r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            return r * 1024 if os.uname().sysname == "Linux" else r
        except (OSError, ValueError):
            return 0
    for pid in _children():
        try:
            own += _statm_rss(pid)
        except (OSError, ValueError, IndexError):
            pass  # ended meanwhile
    return own


def _pss(pid: str) -> int:
    with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
        for line in f:
            if line.startswith(b"Pss:"):
                return int(line.split()[1]) * 1024
    raise ValueError(f"no Pss line for process {pid}")


def in_use() -> int:
    """The memory this process and its child processes use, each page they share
    (a partitioned search's key array and mailboxes) counted once: the sum of
    their proportional set sizes.  Without child processes, or where the kernel
    does not tell, the resident size (``resident``), which counts a shared page
    once per process that touched it and so is never less."""
    kids = _children()
    if not kids:
        return resident()
    try:
        total = _pss("self")
    except (OSError, ValueError):
        return resident()
    for pid in kids:
        try:
            total += _pss(pid)
        except (OSError, ValueError):
            pass  # ended meanwhile
    return total


def available_memory() -> int | None:
    """The memory this process may still take: MemAvailable, or the cgroup's
    limit less its usage, or the address-space limit, whichever is least."""
    found = []
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError):
        pass
    for cap_file, used_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                 "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(cap_file) as f:
                cap = f.read().strip()
            if cap == "max" or int(cap) >= 1 << 60:  # no limit (cgroup v2, v1)
                continue
            used = 0
            try:
                with open(used_file) as f:
                    used = int(f.read())
            except (OSError, ValueError):
                pass
            found.append(max(0, int(cap) - used))
        except (OSError, ValueError):
            continue
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        found.append(soft)
    return min(found) if found else None


def default_memory_limit() -> int | None:
    """``DEFAULT_SHARE`` of the memory available now, on top of what this process holds."""
    free = available_memory()
    if free is None:
        return None
    return int(resident() + DEFAULT_SHARE * free)


class Budget:
    """One command's limits.  ``with Budget(...) as b:`` installs the signal
    handlers and starts the watchdog; ``b.reason`` names what stopped the
    command (None while nothing has)."""

    def __init__(self, timeout: float | None = None, max_memory: int | None = None,
                 start: float | None = None, memory_option: str = "--max-memory"):
        self.timeout = timeout
        self.start = command_start() if start is None else start
        self.limit_given = max_memory is not None
        self.memory = max_memory if max_memory is not None else default_memory_limit()
        self.reason: str | None = None
        self._deadline = None if timeout is None else self.start + timeout
        self._mem_at = self.memory
        self._fair_at = 0.0
        self._armed = False
        self._held: list[int] | None = None
        self._old: dict = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: held by the watchdog from its look at ``_armed`` and ``_held`` to its
        #: interrupt, and by the main thread to change them: an interrupt asked
        #: for inside an interruptible part is never delivered after it (it
        #: would be raised anywhere, even after the handlers are put back)
        self._lock = threading.Lock()

    # -- what the command asks --------------------------------------------------
    def search_timeout(self) -> float | None:
        """Seconds the search may take from now (its share of ``--timeout``)."""
        if self.timeout is None:
            return None
        return max(0.001, self.start + SEARCH_SHARE * self.timeout - time.monotonic())

    def memory_text(self) -> str:
        if self.memory is None:
            return "memory limit"
        how = "--max-memory" if self.limit_given else "the default memory limit"
        return f"memory limit ({how}: {show_size(self.memory)})"

    def timeout_name(self) -> str | None:
        """The time limit as the user set it (``--timeout S``): what a check names
        when its share of it runs out."""
        return None if self.timeout is None else f"--timeout {self.timeout:g}"

    # -- the machinery --------------------------------------------------------------
    def __enter__(self) -> Budget:
        """Installs the signal handlers and starts the watchdog.  Stops are
        *held* (recorded, not raised) except inside ``interruptible()``."""
        self._held = list(PENDING)  # signals that came while the program started
        PENDING.clear()
        if self._held:
            self._record(self._held[0])
        if threading.current_thread() is threading.main_thread():
            for sig in SIGNALS:
                try:
                    self._old[sig] = signal.signal(sig, self._on_signal)
                except (OSError, ValueError):
                    pass
        # the watchdog interrupts the main thread: only a command running there has one
        self._armed = threading.current_thread() is threading.main_thread()
        if self._armed and (self._deadline is not None or self.memory is not None):
            self._thread = threading.Thread(target=self._watch, name="itcp-budget",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        with self._lock:
            self._armed = False
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old = {}
        return False

    @contextmanager
    def interruptible(self):
        """A stop (a signal, the time or memory limit) raises KeyboardInterrupt
        in here; outside, it is only recorded.  The caller catches the
        KeyboardInterrupt around this block too: one can arrive as it ends."""
        held = self._held or []
        with self._lock:
            self._held = None
        try:
            if held:  # a signal came while stops were held: act on it now
                raise KeyboardInterrupt
            yield
        finally:
            with self._lock:
                self._held = []

    def _record(self, signum):
        if self.reason is None:
            self.reason = SIGNALS.get(signum, f"signal {signum}")
        self._grace()

    def _on_signal(self, signum, frame):
        if self._held is not None:  # not in an interruptible part: noted, acted on later
            self._record(signum)
            self._held.append(signum)
            return
        self._record(signum)
        raise KeyboardInterrupt

    def _grace(self):
        end = time.monotonic() + GRACE
        self._deadline = end if self._deadline is None else min(self._deadline, end)

    def _fire(self, reason: str) -> bool:
        with self._lock:
            if not self._armed or self._held is not None:
                return False
            if self.reason is None:
                self.reason = reason
            _thread.interrupt_main()  # runs the SIGINT handler in the main thread
            return True

    def _watch(self):
        timeout_text = None if self.timeout is None else f"--timeout {self.timeout:g}"
        while not self._stop.wait(POLL):
            if not self._armed or self._held is not None:
                continue
            if self._deadline is not None and time.monotonic() >= self._deadline:
                if self._fire(timeout_text or self.reason or "interrupted"):
                    self._deadline = None
            if self._mem_at is not None and resident() > self._mem_at and \
                    self._over(self._mem_at):
                if self._fire(self.memory_text()):
                    self._mem_at = int(in_use() + HEADROOM * self.memory)

    def _over(self, limit: int) -> bool:
        """Past ``limit``, the pages the processes share counted once: the
        resident sizes, cheap to read, are an upper bound that is checked first;
        this closer count is taken at most every ``FAIR_POLL`` seconds."""
        now = time.monotonic()
        if now < self._fair_at:
            return False
        if in_use() > limit:
            return True
        self._fair_at = now + FAIR_POLL
        return False


def memory_option_value(n: int | None) -> int | None:
    """``--max-memory`` in bytes (None: the default), checked against what the
    program already holds."""
    if n is None:
        return None
    now = resident()
    if n <= now:
        raise InputError(f"--max-memory {show_size(n)}: the program already uses "
                         f"{show_size(now)}", hint="give more, e.g. --max-memory 2G")
    return n


__all__ = ["Budget", "command_started", "signals_interrupt", "interrupted_text", "parse_size",
           "show_size", "resident", "in_use", "default_memory_limit",
           "memory_option_value", "SEARCH_SHARE", "GRACE"]
