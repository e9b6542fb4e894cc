"""The wire protocol of the game server: every HTTP body and WebSocket message as a pydantic model.

These models are the single description of the protocol. Incoming messages are parsed with them
(so a malformed message is refused with a precise reason), and ``docs/protocol.md`` carries JSON
schemas generated from them (``python -m hokm.server.protocol --write docs/protocol.md``; a test
fails when the document drifts). Outgoing messages are built as plain dicts for speed, and the
server tests validate every message they receive against :data:`SERVER_MESSAGE`.

Version: every message carries ``v`` (:data:`PROTOCOL_VERSION`). A change that breaks a client
bumps it; adding an optional field does not.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION = 1
#: Largest WebSocket frame the server reads; bigger frames close the connection (code 1009).
MAX_FRAME_BYTES = 16 * 1024
HEX_SEED = r"^[0-9a-fA-F]{2,128}$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ----------------------------------------------------------------------------- shared pieces
class Timers(_Model):
    """Seconds a seat has for each kind of decision before a bot decides for it."""

    trump: float = Field(30.0, ge=0.2, le=600)
    play: float = Field(20.0, ge=0.2, le=600)
    discard: float = Field(30.0, ge=0.2, le=600)
    draw: float = Field(20.0, ge=0.2, le=600)


class ActionPlay(_Model):
    type: Literal["play"]
    card: str = Field(max_length=3, description="a card such as 'AS', 'TD' (also '10D')")


class ActionTrump(_Model):
    type: Literal["trump"]
    suit: str = Field(max_length=8, description="'S', 'H', 'D' or 'C'")


class ActionDiscard(_Model):
    type: Literal["discard"]
    cards: list[Annotated[str, Field(max_length=3)]] = Field(max_length=5)


class ActionDraw(_Model):
    type: Literal["draw"]
    choice: Literal["keep", "pass"]


Action = Annotated[Union[ActionPlay, ActionTrump, ActionDiscard, ActionDraw], Field(discriminator="type")]


class PublicAction(_Model):
    """An action as others see it: a discard shows only its size and a draw hides its choice.

    The acting seat itself receives the full action (``cards``, ``choice``).
    """

    type: Literal["play", "trump", "discard", "draw"]
    card: str | None = None
    suit: str | None = None
    cards: list[str] | None = None
    count: int | None = None
    choice: Literal["keep", "pass"] | None = None


class SeatInfo(_Model):
    """Who holds a seat. ``auto`` is true while a bot plays for an absent human."""

    seat: int
    kind: Literal["empty", "human", "bot"]
    player_id: str | None = None
    name: str | None = None
    bot: str | None = Field(None, description="bot level of a bot seat, or of the bot standing in")
    connected: bool = False
    auto: bool = False
    reclaim_until: float | None = Field(None, description="epoch seconds until the player may take the seat back")


class Deadline(_Model):
    seat: int
    kind: Literal["trump", "discard", "draw", "play"]
    at: float = Field(description="epoch seconds")
    seconds: float = Field(description="the full length of this decision's timer")


class FairHand(_Model):
    """Commit-reveal data of one hand (see docs/fairness.md). Seeds are null until revealed."""

    hand: int
    commit: str
    server_seed: str | None = None
    seat_seeds: list[str | None] | None = None


class TableInfo(_Model):
    table_id: str
    mode: Literal["computer", "private", "public"]
    players: Literal[2, 3, 4]
    rules: dict[str, Any]
    timers: Timers
    bot: str
    hints: bool
    status: Literal["waiting", "playing", "over"]
    host: str | None
    code: str | None = None
    invite_url: str | None = None
    seats: list[SeatInfo]
    game_id: str | None = None
    created_at: float


class TrickJSON(_Model):
    leader: int
    cards: list[str]
    winner: int


class ResultJSON(_Model):
    hakem: int
    trump: str | None
    tricks: list[int]
    winner: int | None
    points: int
    kot: bool
    hakem_koti: bool = False


class View(_Model):
    """``SeatView.to_json()`` of the engine: what one seat (or a spectator, ``seat`` null) may know."""

    players: int
    seat: int | None
    rules: dict[str, Any]
    phase: Literal["deal", "trump", "discard", "draw", "play", "over"]
    to_move: int | None
    hand_index: int
    hakem: int
    dealer: int
    first_hakem: int
    trump: str | None
    scores: list[int]
    hand: list[str]
    hand_counts: list[int]
    leader: int
    trick: list[dict[str, Any]]
    tricks: list[int]
    seat_tricks: list[int]
    completed: list[TrickJSON]
    results: list[ResultJSON]
    legal: list[dict[str, Any]]
    stock_size: int | None = None
    draw_card: str | None = None
    discards: list[str] | None = None
    discarded: list[bool] | None = None
    draw_log: list[dict[str, Any]] | None = None
    hakem_draw: dict[str, Any] | None = None


# ----------------------------------------------------------------------------- table events
class EvSeat(_Model):
    """A seat changed hands: ``reason`` sit, leave, bot, takeover, reclaim, lost."""

    kind: Literal["seat"]
    seat: int
    reason: Literal["sit", "leave", "bot", "takeover", "reclaim", "lost"]
    info: SeatInfo


class EvPresence(_Model):
    kind: Literal["presence"]
    seat: int
    connected: bool


class EvStart(_Model):
    """The game starts: the first Hâkem comes from the ace draw derived from hand 0's seeds."""

    kind: Literal["start"]
    hakem: int
    hakem_draw: dict[str, Any]


class EvCommit(_Model):
    """The server committed to the secret seed of hand ``hand``; seats may now send seeds for it."""

    kind: Literal["commit"]
    hand: int
    commit: str


class EvSeed(_Model):
    kind: Literal["seed"]
    seat: int
    hand: int


class EvDeal(_Model):
    kind: Literal["deal"]
    hand: int
    hakem: int
    commit: str


class EvAction(_Model):
    kind: Literal["action"]
    seat: int
    action: PublicAction
    by: Literal["player", "bot", "timeout", "auto"]


class EvTrick(_Model):
    kind: Literal["trick"]
    hand: int
    leader: int
    cards: list[str]
    winner: int


class EvHandOver(_Model):
    kind: Literal["hand_over"]
    hand: int
    result: ResultJSON
    scores: list[int]
    fair: FairHand


class EvGameOver(_Model):
    kind: Literal["game_over"]
    scores: list[int]
    winner: int
    game_id: str


Event = Annotated[Union[EvSeat, EvPresence, EvStart, EvCommit, EvSeed, EvDeal, EvAction, EvTrick, EvHandOver,
                        EvGameOver], Field(discriminator="kind")]


class SeqEvent(_Model):
    seq: int
    at: float
    event: Event


# ----------------------------------------------------------------------------- client -> server
class CHello(_Model):
    """First message on a WebSocket: authenticate with the player token (within 10 seconds)."""

    v: int = PROTOCOL_VERSION
    type: Literal["hello"]
    token: str = Field(max_length=200)


class CJoin(_Model):
    """Open a table: as its seated player, else as a spectator. ``last_seq`` asks for missed events."""

    v: int = PROTOCOL_VERSION
    type: Literal["join"]
    table: str = Field(max_length=64)
    last_seq: int | None = Field(None, ge=0)


class CAction(_Model):
    """Play a decision. ``seq``: the last event seen; refused as ``stale_seq`` if the game moved since."""

    v: int = PROTOCOL_VERSION
    type: Literal["action"]
    action: Action
    seq: int | None = Field(None, ge=0)


class CHint(_Model):
    v: int = PROTOCOL_VERSION
    type: Literal["hint"]


class CSeed(_Model):
    """Add this seat's seed to the next hand's shuffle (the hand of the latest ``commit``)."""

    v: int = PROTOCOL_VERSION
    type: Literal["seed"]
    seed: str = Field(pattern=HEX_SEED)


class CBack(_Model):
    """Take the seat back from the bot standing in for this player."""

    v: int = PROTOCOL_VERSION
    type: Literal["back"]


class CPing(_Model):
    v: int = PROTOCOL_VERSION
    type: Literal["ping"]
    id: int | str | None = None


ClientMessage = Annotated[Union[CHello, CJoin, CAction, CHint, CSeed, CBack, CPing], Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# ----------------------------------------------------------------------------- server -> client
class SWelcome(_Model):
    v: int
    type: Literal["welcome"]
    player_id: str
    nickname: str


class SState(_Model):
    """A full, fresh picture of a table (reply to ``join``). ``missed``: the events after the
    client's ``last_seq`` when the server still has them, else null (rebuild from ``view``)."""

    v: int
    type: Literal["state"]
    seq: int
    table: TableInfo
    seat: int | None = Field(description="the seat this connection plays, null for a spectator")
    view: View | None = Field(description="null before the game starts")
    deadline: Deadline | None
    fair: list[FairHand]
    last_trick: TrickJSON | None
    missed: list[SeqEvent] | None


class SEvent(_Model):
    """One table event, with the recipient's view after it."""

    v: int
    type: Literal["event"]
    seq: int
    at: float
    event: Event
    view: View | None
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "over"]
    deadline: Deadline | None


class SHint(_Model):
    v: int
    type: Literal["hint"]
    action: dict[str, Any]
    level: str


class SSeedOk(_Model):
    v: int
    type: Literal["seed_ok"]
    hand: int


class SPong(_Model):
    v: int
    type: Literal["pong"]
    id: int | str | None = None


class SMatched(_Model):
    """Public matchmaking found a table for this player; ``join`` it."""

    v: int
    type: Literal["matched"]
    table: str


class SError(_Model):
    """Something the client sent was refused. ``ref`` is the type of that message, when known."""

    v: int
    type: Literal["error"]
    code: str
    message: str
    ref: str | None = None


ServerMessage = Annotated[Union[SWelcome, SState, SEvent, SHint, SSeedOk, SPong, SMatched, SError],
                          Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)


# ----------------------------------------------------------------------------- HTTP bodies
class GuestRequest(_Model):
    nickname: str = Field(min_length=1, max_length=24)


class GuestResponse(_Model):
    player_id: str
    nickname: str
    token: str = Field(description="keep it secret: it authenticates every call (Authorization: Bearer)")


class Stats(_Model):
    games: int
    wins: int
    kots: int
    rating: float
    rated_games: int


class MeResponse(_Model):
    player_id: str
    nickname: str
    stats: Stats
    tables: list[str] = Field(description="unfinished tables where this player holds a seat")


class CreateTable(_Model):
    """``computer``: you and bots, starts at once. ``private``: a room with an invite code."""

    mode: Literal["computer", "private"]
    players: Literal[2, 3, 4] = 4
    bot: str | None = Field(None, description="bot level for bot seats; default: the server's default level")
    rules: dict[str, Any] = Field(default_factory=dict)
    timers: Timers = Field(default_factory=Timers)
    hints: bool = True
    seat: int = Field(0, ge=0, le=3)
    seed: str | None = Field(None, pattern=HEX_SEED)


class SitRequest(_Model):
    seat: int = Field(ge=0, le=3)
    seed: str | None = Field(None, pattern=HEX_SEED)


class BotRequest(_Model):
    seat: int = Field(ge=0, le=3)
    level: str | None = None


class FreeRequest(_Model):
    seat: int = Field(ge=0, le=3)


class QueueRequest(_Model):
    players: Literal[2, 3, 4] = 4
    seed: str | None = Field(None, pattern=HEX_SEED, description="your seed for the first hand's shuffle")


class QueueStatus(_Model):
    status: Literal["idle", "queued", "matched"]
    players: int | None = None
    table: str | None = None
    waited: float | None = None
    queued: int | None = Field(None, description="players waiting in this queue")


class GameSummary(_Model):
    game_id: str
    table_id: str
    mode: str
    players: int
    names: list[str]
    player_ids: list[str | None]
    scores: list[int]
    winner: int
    hands: int
    started_at: float
    ended_at: float


class GamesResponse(_Model):
    games: list[GameSummary]


class LeaderRow(_Model):
    rank: int
    player_id: str
    nickname: str
    rating: float
    games: int
    wins: int
    kots: int
    rated_games: int


class LeaderboardResponse(_Model):
    players: list[LeaderRow]


class VerifyHand(_Model):
    hand: int
    ok: bool
    message: str


class VerifyResponse(_Model):
    ok: bool
    message: str
    hakem_draw_ok: bool | None
    hands: list[VerifyHand]


class BotLevel(_Model):
    name: str
    description: str


class InfoResponse(_Model):
    v: int
    version: str
    bots: list[BotLevel]
    default_bot: str
    hint_bot: str
    timers: Timers
    rule_keys: list[str]
    max_frame_bytes: int


class HttpError(_Model):
    v: int
    error: dict[str, str] = Field(description="{'code': ..., 'message': ...}")


#: Every model documented in docs/protocol.md, by section.
DOCUMENTED: dict[str, list[type[BaseModel]]] = {
    "Client to server (WebSocket)": [CHello, CJoin, CAction, CHint, CSeed, CBack, CPing],
    "Server to client (WebSocket)": [SWelcome, SState, SEvent, SHint, SSeedOk, SPong, SMatched, SError],
    "Table events (the `event` field)": [EvSeat, EvPresence, EvStart, EvCommit, EvSeed, EvDeal, EvAction, EvTrick,
                                         EvHandOver, EvGameOver],
    "HTTP bodies": [GuestRequest, GuestResponse, MeResponse, CreateTable, SitRequest, BotRequest, FreeRequest,
                    QueueRequest, QueueStatus, GamesResponse, GameSummary, LeaderboardResponse, VerifyResponse,
                    InfoResponse, HttpError],
    "Shared pieces": [TableInfo, SeatInfo, Timers, Deadline, FairHand, View, PublicAction, TrickJSON, ResultJSON,
                      Stats],
}

BEGIN = "<!-- schemas:begin (generated by `python -m hokm.server.protocol --write docs/protocol.md`) -->"
END = "<!-- schemas:end -->"


def schema_section() -> str:
    """The generated Markdown section: one JSON schema per model."""
    out = [BEGIN, ""]
    for title, models in DOCUMENTED.items():
        out.append(f"### {title}\n")
        for m in models:
            schema = m.model_json_schema(ref_template="#/$defs/{model}")
            schema.pop("$defs", None)
            out.append(f"#### `{m.__name__}`\n")
            doc = (m.__doc__ or "").strip()
            if doc and not doc.startswith("!!!") and "Usage docs" not in doc:
                out.append(" ".join(doc.split()) + "\n")
            out.append("```json\n" + json.dumps(schema, indent=1, ensure_ascii=False) + "\n```\n")
    out.append(END)
    return "\n".join(out)


def render(document: str) -> str:
    """``document`` with its schema section replaced by a freshly generated one."""
    if BEGIN not in document or END not in document:
        raise ValueError("the document has no schema section markers")
    head, rest = document.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + schema_section() + tail


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("--write", "--check"):
        print("usage: python -m hokm.server.protocol --write|--check docs/protocol.md", file=sys.stderr)
        return 2
    path = argv[1]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    fresh = render(text)
    if argv[0] == "--check":
        if fresh != text:
            print(f"{path}: schema section is out of date; run with --write", file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
