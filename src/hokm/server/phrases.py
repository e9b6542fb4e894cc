"""The fixed quick phrases and emotes of the table: ids on the wire, words in the client.

Players send an id from these lists and each client shows the words (or the animation) in its
language, so public and matchmade tables carry no user's text. Free text is for private rooms
only (:mod:`.chattext` cleans it).
The web table's words live in ``static/js/talk.js`` under the same ids.
"""

from __future__ import annotations

from typing import Literal, get_args

#: Short sentences shown in a bubble at the seat.
PhraseId = Literal["well_played", "hurry", "hokm", "thanks", "sorry", "nice_trick", "good_luck", "oops"]
#: Animated faces shown at the seat.
EmoteId = Literal["smile", "laugh", "wow", "sad", "angry", "clap"]

PHRASES: tuple[str, ...] = get_args(PhraseId)
EMOTES: tuple[str, ...] = get_args(EmoteId)

#: Chat messages a player may send: a burst, then one every few seconds (per player, per node).
CHAT_RATE = 0.5
CHAT_BURST = 5
#: Free text messages (private rooms), limited on their own: a burst, then one every few seconds.
TEXT_RATE = 0.4
TEXT_BURST = 5
