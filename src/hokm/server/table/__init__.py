"""One table: its actor (:mod:`.actor`, the single writer of its events) and the parts it is made of.

- :mod:`.room`: who sits where, who is connected, the seat changes before the start;
- :mod:`.log`: the numbered events, stored before they are published, and each recipient's copy;
- :mod:`.absence`: a bot standing in for a person who is away, and the seat lost after the window;
- :mod:`.turns`: who decides next and when: a deal, a bot's move, a person's deadline.
"""

from .actor import GAME_KINDS, TableActor
from .errors import TableError

__all__ = ["GAME_KINDS", "TableActor", "TableError"]
