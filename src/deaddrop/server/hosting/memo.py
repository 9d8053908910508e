"""`Memo`: a bounded, thread-safe map that forgets the least recently used entry first.

For what a page may reuse within this process only when its key holds every value the answer
depends on (a journal position, a row version): other processes keep their own, and nothing
needs telling when the database moves on, since a moved database makes a new key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """At most `size` entries; reading one makes it the most recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The entry under `key`, if kept."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        """Keep `value` under `key`, forgetting the oldest entries beyond the size."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
