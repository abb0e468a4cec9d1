"""Chunks of a simulation as Ray tasks: the same jobs in the same order as on one machine, folded in
order as they come back, so the totals are byte-identical to a single process (docs/scale.md).

At most two tasks per CPU of the cluster are in flight, so memory stays flat however many deals;
Ctrl-C cancels what is in flight and keeps the results so far."""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any


def connect(address: str | None) -> Any:
    """Ray, initialised: joined to the cluster at `address` ("auto" = the one this machine belongs to), or
    a local instance started for this run when `address` is None."""
    import ray

    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False, "configure_logging": False}
        if address:
            ray.init(address=address, **kwargs)
        else:
            ray.init(include_dashboard=False, **kwargs)
    return ray


def run_on_ray(fn: Callable, jobs: Iterable, address: str | None, on_result: Callable) -> bool:
    ray = connect(address)
    task = ray.remote(fn)
    window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    pending: deque = deque()
    try:
        for job in jobs:
            pending.append(task.remote(job))
            if len(pending) >= window:
                on_result(ray.get(pending.popleft()))
        while pending:
            on_result(ray.get(pending.popleft()))
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        return False
    return True
