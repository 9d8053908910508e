"""`deaddrop bench http`: the web server under load, beside a bare Litestar app (issue 15).

The pieces, one thing each: `world` (the seeded games and the players' cookies), `seed` (made
through the app itself), `servers` (the processes measured, pinned to a core), `wire` (raw
HTTP/1.1), `saturate` and `open_loop` (the load), `live` (SSE readers), `pouch_wave` (the
worker), `report` (the tables), `run` (all of it in order).
"""
