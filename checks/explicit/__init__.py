"""The explicit-state checker: breadth-first search over every reachable position at a
table (in one process, in parts, or on a Ray cluster), and its verdicts.

Modules:

- ``column``: An append-only column of 4-byte integers that never copies itself to grow.
  Public: ``Column``, ``position``.
- ``explore``: Explicit-state exploration: breadth-first over every reachable game
  position.
- ``graph``: The explored state graph, read-only: what a report may show of a search.
  Public: ``ExploredGraph``.
- ``heap``: Memory a process frees kept for its next allocations, while a search runs in
  parts. Public: ``keep_freed_memory``, ``release_kept_memory``.
- ``mailbox``: A pipe between the coordinator and a part whose arrays go through shared
  memory. Public: ``Channel``, ``Mailbox``, ``MAILBOX_BYTES``.
- ``partitioned``: The breadth-first search spread over processes, each owning part of
  the states. Public: ``explore_partitioned``, ``search``, ``Part``, ``PartPlan``,
  ``Parts``, ``ProcessParts``, ``PartError``, ``PartProgress``, ....
- ``raycluster``: The partitioned search's parts as Ray actors, on a Ray cluster.
  Public: ``RayParts``, ``PartActor``, ``connect``, ``transport``, ``ray``.
- ``statestore``: The explorer's visited set: packed keys in arrays, not Python objects.
- ``verdicts``: From an exploration to a verdict per property.
"""
