"""The partitioned search's parts as Ray actors, on a Ray cluster.

``checks/explicit/partitioned.py`` drives its parts through a handful of methods
(``Part``); here each part is a Ray actor that builds the game from its table
and readings (the spec is compiled in the actor, wherever the cluster puts
it) and answers the same calls, so the search, its merge order and its result
are the same as with processes on one machine.  Rows between parts travel
through Ray's object store.

Ray is the optional ``cluster`` extra (``pip install 'itcp[cluster]'``); this
module is imported only when ``--ray`` is given.  ``connect("local")`` starts a
cluster inside this process (what the tests run); any other address joins a
running cluster (``ray start --head`` on one machine, ``ray start --address
HEAD:6379`` on the others, then ``itcp-check check ... --ray HEAD:6379``): the
machines need the same version of itcp installed.
"""
from __future__ import annotations

import signal
import socket
import time
from contextlib import contextmanager
from typing import Any

import ray

from itcp.model.engine.engine import Game

from .partitioned import Part, PartError, PartPlan

#: seconds to wait for a cluster's address to answer
CONNECT_SECONDS = 5.0


class _Flag:
    """The coordinator's "stop expanding" for actors (an Event across machines)."""

    def __init__(self):
        self.on = False

    def set(self, on: bool) -> None:
        self.on = on

    def is_set(self) -> bool:
        return self.on


class _RemoteStop:
    """What a part polls between chunks: the flag actor, asked at most every
    half second (a call costs a round trip)."""

    def __init__(self, flag):
        self.flag, self.last, self.value = flag, 0.0, False

    def is_set(self) -> bool:
        now = time.monotonic()
        if now - self.last > 0.5:
            self.last, self.value = now, ray.get(self.flag.is_set.remote())
        return self.value


class _Part:
    """One part in a Ray worker: the game built here from its table and readings."""

    def __init__(self, config, readings: dict, scope: str, plan: PartPlan, index: int, flag):
        game = Game.make(config, readings, scope)
        self.part: Part = plan.part(game, index, _RemoteStop(flag))

    def call(self, name: str, args: tuple):
        return getattr(self.part, name)(*args)


#: the two as Ray actor classes (``ray.remote`` makes them; typed loosely: Ray's
#: decorator is not one a type checker follows)
_StopFlag: Any = ray.remote(_Flag)
PartActor: Any = ray.remote(_Part)


@contextmanager
def _own_signal_handlers():
    """The signal handlers as they were, after Ray is started: ``ray.init``
    installs its own SIGTERM handler in this process, which would take SIGTERM
    from a caller that set its own first (the command connects before its
    ``cli.limits.Budget`` installs its handlers, a library user or a test may
    not)."""
    held = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in held.items():
            if handler is not None and signal.getsignal(sig) is not handler:
                try:
                    signal.signal(sig, handler)
                except ValueError:   # not the main thread: nothing was set here either
                    pass


def connect(address: str) -> None:
    """Join the cluster at ``address`` (``HOST:PORT``, checked to answer first:
    Ray itself waits minutes for an address where nothing listens), or start
    one in this process on the loopback interface (``local``)."""
    if ray.is_initialized():
        return
    if address == "local":
        with _own_signal_handlers():
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                     _node_ip_address="127.0.0.1")
        return
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"{address!r} is not HOST:PORT")
    with socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS):
        pass
    with _own_signal_handlers():
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)


class RayParts:
    """Parts as Ray actors: ``call`` runs a method on every actor and gathers
    the answers (the same interface as ``ProcessParts``)."""

    def __init__(self, game: Game, plan: PartPlan):
        spec = game.spec
        self.flag = _StopFlag.remote()
        self.actors = [PartActor.remote(spec.config, dict(spec.readings), spec.scope, plan, i,
                                        self.flag) for i in range(plan.parts)]
        self.pids: list[int] = []   # not processes of this machine's: nothing to watch here
        self.owed: list = []
        self._get([a.call.remote("counts", ()) for a in self.actors])   # built, or failed

    def _get(self, refs: list) -> list:
        self.owed = refs
        try:
            out = ray.get(refs)
        except ray.exceptions.RayError as e:
            raise PartError(f"a part on the Ray cluster failed: {e}") from None
        self.owed = []
        return out

    def call(self, name: str, args_per_part: list) -> list:
        return self._get([a.call.remote(name, tuple(args))
                          for a, args in zip(self.actors, args_per_part)])

    def settle(self) -> None:
        ray.get(self.flag.set.remote(True))
        if self.owed:
            ray.wait(self.owed, num_returns=len(self.owed))
            self.owed = []
        ray.get(self.flag.set.remote(False))

    def close(self, kill: bool = False) -> None:
        for a in self.actors:
            ray.kill(a)
        ray.kill(self.flag)


class _Transport:
    """``RayParts`` as the partitioned search's transport, with the cluster's size."""

    def __init__(self):
        self.cpus = max(2, int(ray.cluster_resources().get("CPU", 2)))

    def __call__(self, game: Game, plan: PartPlan) -> RayParts:
        return RayParts(game, plan)


def transport() -> _Transport:
    """The transport for the cluster this process is connected to."""
    return _Transport()


__all__ = ["RayParts", "PartActor", "connect", "transport", "ray"]
