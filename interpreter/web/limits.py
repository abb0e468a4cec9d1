"""The web server's limits, in one place; docs/web.md ("Threat model and limits") explains each.

An "address" is the client's IP address as the server sees it, an IPv6 address by its /64 network
(one household or one machine holds a whole /64). Counts are kept by the server that runs them;
nothing here is a promise about a server behind a proxy that hides the addresses.
"""
from __future__ import annotations

# ---- tables -----------------------------------------------------------------------------------------
MAX_TABLES = 32                 # tables held at once; a finished or idle table without browsers gives way
MAX_TABLES_PER_ADDRESS = 8      # tables held that one address opened; its oldest without browsers gives way
TABLE_RATE = (10, 600.0)        # POST /tables: at most 10 tables opened per address in 10 minutes
IDLE_SECONDS = 6 * 3600         # a table nobody touched for this long may be closed to make room
UNUSED_SECONDS = 15 * 60        # ... and a table no browser ever joined, after this
MAX_FORM = 4096                 # bytes of the form that opens a table

# ---- browsers -----------------------------------------------------------------------------------------
MAX_CONNECTIONS = 200           # joined websockets, server-wide
MAX_PER_ADDRESS = 40            # joined websockets from one address
MAX_PER_SEAT = 4                # tabs of one seat
MAX_UNJOINED = 64               # websockets not yet joined to a seat, server-wide
MAX_UNJOINED_PER_ADDRESS = 8    # ... from one address
JOIN_SECONDS = 5.0              # a new websocket must say which seat it is within this
MAX_MESSAGE = 2048              # characters of one websocket message (uvicorn refuses frames over WS_MAX_SIZE)
WS_MAX_SIZE = 16 * 1024         # bytes of one websocket frame, refused by uvicorn before it reaches the table
RATE = (40, 10.0)               # at most 40 messages in 10 seconds per websocket, every message counted

# ---- sending ------------------------------------------------------------------------------------------
OUTBOX = 32                     # messages waiting for one browser; one more and it is dropped as a slow reader
SEND_SECONDS = 10.0             # one message must leave for a browser within this, or it is dropped as a slow reader
PRESENCE_SECONDS = 0.5          # who is connected is re-sent to the others at most this often

# ---- the server -----------------------------------------------------------------------------------------
MAX_CONCURRENCY = 256           # uvicorn's limit on open connections and tasks (beyond it, 503)
TCP_USER_TIMEOUT = 30.0         # seconds the kernel keeps sending to a peer that acknowledges nothing
