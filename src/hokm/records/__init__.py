"""Game records in the ``hokm/1`` JSON format (see ``docs/record-format.md``).

- :func:`load_record` replays a record through the engine and returns the :class:`~hokm.engine.Game`
  it reaches, or raises :class:`RecordError` (``code``, ``hand``, ``action``, message);
- :func:`replay_summary` gives the ``hokm replay --json`` object for a record, valid or not;
- :func:`replay_frames` gives every hand face up, trick by trick, for replay viewers;
- :func:`record_from_game` and :func:`dumps` write a game (finished or in progress) as a record.
"""

from .errors import RECORD_CODES, RecordError
from .frames import replay_frames
from .load import FORMAT, game_summary, load_record, parse_card, replay_summary
from .write import dumps, record_from_game

__all__ = [
    "FORMAT", "RECORD_CODES", "RecordError", "dumps", "game_summary", "load_record", "parse_card",
    "record_from_game", "replay_frames", "replay_summary",
]
