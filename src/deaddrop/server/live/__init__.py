"""Live updates: a journal of audience-tagged events per game, and Server-Sent Events.

The design keeps secrets off the broker: an event's content is written to the database in the
same transaction as the change that caused it; the broker (Litestar channels: in memory in one
process, Redis between processes) only carries a wake-up naming the stream and its newest
sequence number. Each listener then reads, from the database, the events its audience allows
(`journal.events_since`), so a reconnecting client with `Last-Event-ID` gets exactly what it
missed, and nobody can receive an event by listening to the wrong channel. A listener is told
its own cursor (`journal.cursor_at`: how many events it may see so far), never the sequence
number, which counts everyone's private events.
"""
