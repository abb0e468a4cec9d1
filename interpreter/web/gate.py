"""Who may come in: the client's address as the limits count it, the Origin check, the rate of new
tables per address and the websockets that have not yet said which seat they are. Standard library only."""
from __future__ import annotations

import ipaddress
import time
from collections import Counter, deque
from urllib.parse import urlsplit

from interpreter.web import limits


def address_of(host: str | None) -> str:
    """The key the per-address limits count by: an IPv4 address, an IPv6 address's /64 network (an
    IPv4 address mapped into IPv6 as the IPv4 address), or the host as given when it is no address."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a request's Origin header names the server it reached (the Host header). A request
    without an Origin is no browser's cross-site request (browsers send it on every POST and
    websocket); an Origin of "null", of another host or port, or unreadable, is refused."""
    if origin is None:
        return True
    if not host:
        return False
    try:
        o = urlsplit(origin.strip())
        h = urlsplit("//" + host.strip())
        if o.scheme not in ("http", "https") or not o.hostname or not h.hostname:
            return False
        default = 443 if o.scheme == "https" else 80
        return o.hostname == h.hostname and (o.port or default) == (h.port or default)
    except ValueError:          # a port out of range or a malformed address
        return False


class Window:
    """At most `n` events per key in a sliding window of `seconds`; keys with no recent event are forgotten."""

    def __init__(self, n: int, seconds: float):
        self.n, self.seconds = n, seconds
        self.times: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        if len(self.times) > 4096:             # forget the quiet keys now and then
            self.times = {k: q for k, q in self.times.items() if q and now - q[-1] < self.seconds}
        q = self.times.setdefault(key, deque())
        while q and now - q[0] >= self.seconds:
            q.popleft()
        if len(q) >= self.n:
            return False
        q.append(now)
        return True


class Gate:
    """The limits kept before a websocket joins a seat: unjoined sockets per address and in all, and
    the rate of new tables per address."""

    def __init__(self) -> None:
        self.unjoined: Counter[str] = Counter()
        self.tables = Window(*limits.TABLE_RATE)

    def enter(self, address: str) -> bool:
        """Count a new websocket that has not joined yet, if the limits allow it."""
        if self.unjoined[address] >= limits.MAX_UNJOINED_PER_ADDRESS or \
                sum(self.unjoined.values()) >= limits.MAX_UNJOINED:
            return False
        self.unjoined[address] += 1
        return True

    def joined(self, address: str) -> None:
        """The websocket joined, or left before it did."""
        self.unjoined[address] -= 1
        if self.unjoined[address] <= 0:
            del self.unjoined[address]
