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
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .phrases import EmoteId, PhraseId

PROTOCOL_VERSION = 1
#: Largest WebSocket frame the server reads; bigger frames close the connection (code 1009).
MAX_FRAME_BYTES = 16 * 1024
HEX_SEED = r"^(?:[0-9a-fA-F]{2}){1,64}$"  # whole bytes: 1 to 64 of them, as hex


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


Action = Annotated[ActionPlay | ActionTrump | ActionDiscard | ActionDraw, Field(discriminator="type")]


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
    code: str | None = Field(None, description="private rooms: the invite code, shown to the host and seated players only")
    invite_url: str | None = Field(None, description="the invite link, when the code is shown")
    seats: list[SeatInfo]
    sides: list[int] = Field(description="each seat's side, by seat (partners share one with four players)")
    game_id: str | None = None
    created_at: float
    previous: str | None = Field(None, description="the table whose rematch this is")
    next: str | None = Field(None, description="this table's rematch, once every person asked for it")
    rematch: list[int] = Field(default_factory=list, description="the seats whose player asked for a rematch")
    node: str | None = Field(None, description="several nodes: the one that runs this table now (connect with "
                             "/ws?node=<it> where a balancer routes by it, docs/deploy.md); one node: null")


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
    tie: bool = Field(False, description="three players: the other two tied for the most tricks after the last one, "
                                         "so the hand went to the seat with the fewest")


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
    #: cards a full hand holds in this game (17 with three players, else 13)
    hand_size: int
    #: cards each seat holds now, by seat (public: counts, never cards)
    hand_counts: list[int]
    #: each seat's side, by seat: partners share one with four players; with two or three, each seat is its own
    sides: list[int]
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


class EvRematch(_Model):
    """After the game: the player of ``seat`` asked to play again at the same seats."""

    kind: Literal["rematch"]
    seat: int


class EvNextTable(_Model):
    """Every person asked for a rematch: it is played at table ``table_id`` (a new fair seed)."""

    kind: Literal["next_table"]
    table_id: str


class EvChat(_Model):
    """Someone at the table said something: a quick phrase or emote (ids), or free text.

    ``channel`` ``table``: a seated player (``seat``) spoke; every seat and every spectator sees it.
    ``spectators``: a spectator (``seat`` null, ``name`` their nickname) wrote to the other spectators;
    seated players never receive it. ``friends``: a seated player wrote at a table that is not a
    private room; only the sender's friends (seated or watching) receive it. ``player`` is the
    sender's player id (as in ``seats``); chat (text, phrases, emotes) from a player the recipient
    blocked is not sent to them. ``text`` is plain text (at most 200 characters, cleaned of bidi
    and invisible characters): show it as text, never as HTML.
    """

    kind: Literal["chat"]
    seat: int | None
    phrase: PhraseId | None
    emote: EmoteId | None
    channel: Literal["table", "spectators", "friends"] = "table"
    player: str | None = None
    name: str | None = None
    text: str | None = None


Event = Annotated[EvSeat | EvPresence | EvStart | EvCommit | EvSeed | EvDeal | EvAction | EvTrick | EvHandOver | EvGameOver | EvRematch | EvNextTable | EvChat, Field(discriminator="kind")]


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
    batch: bool = Field(False, description="receive each batch of table events as one `events` message "
                                           "(the seats only when they changed) instead of one `event` each")
    view_patches: bool = Field(False, description="with `batch`: an `events` message may carry `view_patch`, "
                                                  "the view's changed members, in place of the whole `view`")


class CJoin(_Model):
    """Open a table: as its seated player, else as a spectator. ``last_seq`` asks for missed events.
    A player opens tables 30 times at once, then twice a second (``rate_limited``).

    A private room is watched only by its members (host and seated players) and by whoever gives
    its invite ``code`` (an invitation carries it); anyone else is refused with ``code_required``.
    """

    v: int = PROTOCOL_VERSION
    type: Literal["join"]
    table: str = Field(max_length=64)
    last_seq: int | None = Field(None, ge=0)
    code: str | None = Field(None, max_length=16)


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


class CChat(_Model):
    """Say something at the table: exactly one of a quick phrase, an emote (ids from the fixed lists;
    each client shows its own words) or free ``text``.

    Phrases and emotes: seated players only (``spectator`` otherwise). Free text: in a private
    room a seated player's goes to the whole table, a spectator's to the other spectators only; at
    public, matchmade and computer tables a seated player's goes to their friends there alone
    (channel ``friends``; ``chat_closed`` for a spectator). The text is cleaned (NFC, no bidi
    controls or invisible characters; the zero-width non-joiner stays) and refused as ``empty_text``
    when nothing visible is left, ``text_too_long`` over 200 characters. Rate limited per player:
    phrases and emotes together, free text on its own (``rate_limited``).
    """

    v: int = PROTOCOL_VERSION
    type: Literal["chat"]
    phrase: PhraseId | None = None
    emote: EmoteId | None = None
    text: str | None = Field(None, max_length=2000)

    @model_validator(mode="after")
    def _one(self) -> CChat:
        if sum(x is not None for x in (self.phrase, self.emote, self.text)) != 1:
            raise ValueError("send exactly one of phrase, emote and text")
        return self


#: The integers a ping's id may be: those every client (JavaScript's numbers included) reads back exactly.
SAFE_INT = 2**53 - 1


class CPing(_Model):
    v: int = PROTOCOL_VERSION
    type: Literal["ping"]
    id: Annotated[int, Field(ge=-SAFE_INT, le=SAFE_INT)] | str | None = None


ClientMessage = Annotated[CHello | CJoin | CAction | CHint | CSeed | CBack | CChat | CPing,
                          Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# ----------------------------------------------------------------------------- server -> client
class SWelcome(_Model):
    v: int
    type: Literal["welcome"]
    player_id: str
    nickname: str


class SState(_Model):
    """A full, fresh picture of a table (reply to ``join``). ``missed``: the events after the
    client's ``last_seq`` when the server still has them and they are at most 300, else null
    (rebuild from ``view``)."""

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


class SEvents(_Model):
    """A batch of table events in one message (to a client that said ``batch`` in ``hello``), with
    the recipient's view after the whole batch. ``seq`` is the last event's. ``seats`` is there when
    the seats changed since the last message that carried them (``state`` counts: its table's
    seats); the events come one by one, as ``event`` messages, when the batch holds a chat message.

    To a client that also said ``view_patches``, the message may carry ``view_patch`` in place of
    ``view``: the members of the view that differ from the view of the last message this
    connection received (an ``event``, ``events`` or ``state`` message of this table), whose other
    members stay as they were. Exactly one of the two is there."""

    v: int
    type: Literal["events"]
    seq: int
    events: list[SeqEvent]
    view: View | None = Field(None, description="absent when `view_patch` is there")
    view_patch: dict[str, Any] | None = Field(None, description="the members of the view that changed since "
                                                                "the last message's view; absent when `view` is there")
    status: Literal["waiting", "playing", "over"]
    deadline: Deadline | None
    seats: list[SeatInfo] | None = Field(None, description="absent: the same as in the last message that had them")

    @model_validator(mode="after")
    def _one_view(self) -> SEvents:
        if ("view" in self.model_fields_set) == (self.view_patch is not None):
            raise ValueError("an events message carries exactly one of view and view_patch")
        return self


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
    suit: str | None = Field(None, description="an illegal action: the suit the seat had to follow")
    card: str | None = Field(None, description="an illegal action: the card the seat named")
    count: int | None = Field(None, description="an illegal discard: how many cards the seat had to lay down")


# ----------------------------------------------------------------------------- social: people and invitations
class Person(_Model):
    """Another player as the social layer shows them: id, nickname, and username when claimed."""

    player_id: str
    nickname: str
    username: str | None = Field(None, description="null for a guest who has not claimed a username")


class Invitation(_Model):
    """An invitation to a private room."""

    id: str
    sender: Person
    table_id: str
    code: str | None = Field(description="the room's invite code, to sit with: only in the answer that accepts "
                                         "the invitation, null before")
    mode: str
    players: int
    created_at: float = Field(description="epoch seconds")


class SFriendPresence(_Model):
    """A friend came online, went offline, or opened or left a table."""

    v: int
    type: Literal["friend_presence"]
    player_id: str
    online: bool
    table: str | None = Field(None, description="the table the friend has open, if any")


class SFriendRequest(_Model):
    """Someone asked to be this player's friend."""

    v: int
    type: Literal["friend_request"]
    sender: Person


class SFriendAccepted(_Model):
    """A friend request this player sent was accepted (or crossed one from the same player)."""

    v: int
    type: Literal["friend_accepted"]
    friend: Person


class SInvitation(_Model):
    """A friend invites this player to a private room (also listed by ``GET /api/invitations``)."""

    v: int
    type: Literal["invitation"]
    invitation: Invitation


ServerMessage = Annotated[SWelcome | SState | SEvent | SEvents | SHint | SSeedOk | SPong | SMatched | SError | SFriendPresence | SFriendRequest | SFriendAccepted | SInvitation,
                          Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)


# ----------------------------------------------------------------------------- HTTP bodies
class GuestRequest(_Model):
    # As typed: the display form (at most 24 characters, codes name_too_long and the others of
    # hokm.names) is checked after cleaning, which removes invisible characters.
    nickname: str = Field(min_length=1, max_length=96)


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
    """In a private room, a seat needs the room's invite code unless you are its host."""

    seat: int = Field(ge=0, le=3)
    seed: str | None = Field(None, pattern=HEX_SEED)
    code: str | None = Field(None, max_length=16, description="the room's invite code (private rooms)")


class SignOutRequest(_Model):
    """``POST /api/signout``: revoke the token of this request, or every token of its player."""

    everywhere: bool = False


class SignOutResponse(_Model):
    revoked: int = Field(description="how many tokens were revoked")


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
    fill_in: float | None = Field(None, description="seconds until bots take the seats still empty (0: being seated)")


class GameSummary(_Model):
    game_id: str
    table_id: str
    mode: str
    players: int
    names: list[str]
    player_ids: list[str | None]
    sides: list[int] = Field(description="each seat's side, by seat; ``scores`` and ``winner`` are by side")
    scores: list[int]
    winner: int
    hands: int
    started_at: float
    ended_at: float


class GamesResponse(_Model):
    games: list[GameSummary]


class LeaderRow(_Model):
    """A player of the leaderboard: those with rated games (against people) first, by rating; then the others
    by wins, their ``rating`` the starting one."""

    rank: int
    player_id: str
    nickname: str
    username: str | None = Field(None, description="null for a guest who has not claimed a username")
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


class VerifySignature(_Model):
    """The record's Ed25519 signature (``meta.signature``, see docs/record-format.md)."""

    status: Literal["signed", "unsigned", "bad_signature", "other_key"]
    message: str
    public_key: str | None = Field(description="the signer's public key, 64 hex digits")
    fingerprint: str | None = Field(description="first 16 hex digits of the SHA-256 of the public key")
    server: str | None = Field(description="meta.server of the record, when it names one")
    this_server: bool = Field(description="signed, intact, by this server's key (InfoResponse.signing_key)")


class VerifyResponse(_Model):
    """``ok``: replays, every shuffle checks, and the signature (if any) is intact. A record that
    fails its replay or is not JSON is refused with ``bad_record`` (``too_deep`` beyond 32 levels)."""

    ok: bool
    stage: Literal["fairness", "signature"] | None = Field(description="the check that failed, or null")
    code: str | None
    message: str
    hakem_draw_ok: bool | None
    hands: list[VerifyHand]
    signature: VerifySignature


class AnalysisProspect(_Model):
    """The best result a side can force double-dummy, seen from that side (docs/analysis.md)."""

    wins: bool
    value: int = Field(description="+points if the side wins the hand, -points if it loses")
    margin: int = Field(description="2 sides: 7 - the losers' most tricks (winning) or the side's most - 7 (losing); "
                                    "3 players: tricks the seat can make sure of")
    kot: bool
    hakem_koti: bool
    text: str = Field(description="the same in a short English phrase")


class AnalysisPlay(_Model):
    """One card played, judged: ``best`` before it, ``played`` after it, ``better`` the cards that kept ``best``."""

    index: int
    trick: int = Field(description="0-based trick of the hand")
    seat: int
    card: str
    legal: int = Field(description="how many cards the seat could play")
    forced: bool
    mark: Literal["fine", "inaccuracy", "mistake", "blunder", "unsolved"]
    best: AnalysisProspect | None = Field(description="null when the card is unsolved")
    played: AnalysisProspect | None
    better: list[str]


class AnalysisHand(_Model):
    hand: int
    hakem: int
    trump: str
    tricks: list[int]
    winner: int
    points: int
    kot: bool
    counts: list[dict[str, int]] = Field(description="per seat: how many cards got each mark")
    trump_choice: dict[str, Any] | None = Field(description="the trump choice judged (only when asked for)")
    last_draw: dict[str, Any] | None = Field(description="2 players: the stock's last draw (keep or pass) judged")
    plays: list[AnalysisPlay]


class AnalysisResponse(_Model):
    """``GET /api/games/{game_id}/analysis?hand=N``: one finished hand of a finished game, for its players."""

    v: int
    game_id: str
    players: int
    paranoid: bool = Field(description="3 players: each seat judged against the other two together")
    in_progress: int | None = Field(description="always null: hands in progress are never analysed")
    notes: list[str]
    hands: list[AnalysisHand]


class Words(_Model):
    """The same text for a player, in English and in Persian."""

    en: str
    fa: str


class LevelStrength(_Model):
    """How a level fared against the level below it, as measured in the strength report."""

    against: str = Field(description="the level it played")
    players: int
    games: int
    won: int = Field(description="games this level won")
    win_rate: float = Field(ge=0, le=1)
    source: str = Field(description="the report and the `hokm arena` command behind the figure")
    words: Words = Field(description="the figure in a sentence, for the level picker")


class BotLevel(_Model):
    """A bot level on offer; ``InfoResponse.bots`` lists them weakest first."""

    name: str = Field(description="what to send as `bot` or `level`")
    description: str = Field(description="how it plays, for developers (the bot registry's words)")
    label: Words = Field(description="its name on the level picker")
    about: Words = Field(description="how it plays, in words a player understands")
    strength: LevelStrength | None = None


class InfoResponse(_Model):
    v: int
    version: str
    bots: list[BotLevel] = Field(description="the levels on offer, weakest first")
    default_bot: str
    hint_bot: str
    timers: Timers
    rule_keys: list[str]
    max_frame_bytes: int
    server_name: str = Field(description="meta.server of the records this server signs")
    signing_key: str = Field(description="Ed25519 public key that signs this server's records, 64 hex digits")
    signing_key_fingerprint: str = Field(description="first 16 hex digits of the SHA-256 of signing_key")


# ----------------------------------------------------------------------------- HTTP bodies: accounts and friends
class ClaimRequest(_Model):
    """Claim the signed-in guest: a username (3-24 letters, digits, _ . -) and a password (8-256 characters)."""

    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class SignInRequest(_Model):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class AccountResponse(_Model):
    player_id: str
    nickname: str
    username: str | None = Field(description="null while the player is a guest")
    friend_code: str = Field(description="other players add this player by it")
    friend_url: str = Field(description="the friend code as a link")


class SignInResponse(_Model):
    """A new token of the account's player (one per device; each can be signed out alone)."""

    player_id: str
    nickname: str
    username: str | None
    token: str


class DeviceLinkResponse(_Model):
    """A one-time code that signs another device in as this player, until ``expires_at``."""

    code: str = Field(description="8 letters and digits, shown as ABCD-EFGH")
    url: str = Field(description="the link that redeems the code when opened")
    qr_svg: str = Field(description="a QR code of the link, an SVG document")
    expires_at: float = Field(description="epoch seconds")


class RedeemLinkRequest(_Model):
    code: str = Field(min_length=1, max_length=32)


class AddFriendRequest(_Model):
    """One of: a username, a friend code, or a player id (from a recent game)."""

    username: str | None = Field(None, max_length=64)
    code: str | None = Field(None, max_length=32)
    player_id: str | None = Field(None, max_length=32)


class FriendStateResponse(_Model):
    state: Literal["requested", "friends"]
    player: Person


class Friend(Person):
    online: bool
    table: str | None = Field(None, description="the table the friend has open, if any")


class FriendsResponse(_Model):
    code: str = Field(description="this player's friend code")
    friends: list[Friend]
    incoming: list[Person] = Field(description="asked this player to be friends")
    outgoing: list[Person] = Field(description="this player asked them")
    blocked: list[Person]
    recent: list[Person] = Field(description="recent opponents and partners who are not friends yet")


class InviteRequest(_Model):
    friend: str = Field(max_length=32, description="the friend's player id")
    table: str = Field(max_length=64, description="a private room of the inviter, still waiting for players")


class InvitationsResponse(_Model):
    invitations: list[Invitation]


class InvitationAnswer(_Model):
    """Accepting returns the invitation (with the room's code); declining returns it as null."""

    invitation: Invitation | None


# ----------------------------------------------------------------------------- HTTP bodies: profiles
#: The avatars a player may choose: the people of the web's avatar set (js/avatars.js, PEOPLE_IDS).
Avatar = Literal["shah", "banu", "pahlevan", "darvish", "shaer", "golbanu", "chupan", "shirin", "mirza", "bibi",
                 "javan", "sarbaz", "khorshid", "sarv", "anar", "bolbol"]


class ProfileSettingsRequest(_Model):
    """``PUT /api/me/profile``: change what is given (a field left out stays as it was)."""

    avatar: Avatar | None = Field(None, description="the avatar others see; null: the one derived from the player id")
    public: bool | None = Field(None, description="show stats and rating history on the public profile page")


class ModeStats(_Model):
    """Finished games of one kind: ``computer`` (you and bots, never rated), ``private`` (a room
    with a code), ``public`` (quick match); ``players`` at the table."""

    mode: str
    players: int
    games: int
    wins: int = Field(description="games the player's side won")


class RatingPoint(_Model):
    """The rating (``mu - 3 sigma``) a rated game left the player with."""

    game_id: str
    rating: float
    at: float = Field(description="epoch seconds the game ended")


class ProfileGame(GameSummary):
    """A recent game of the player, with where its record and replay are (for its players only)."""

    seat: int
    won: bool
    record_url: str
    replay_url: str


class Tally(_Model):
    games: int
    wins: int


class HeadToHead(_Model):
    """Finished games shared with one friend: as partners (same side) and as opponents."""

    friend: Person
    partners: Tally
    opponents: Tally = Field(description="wins: games the player (not the friend) won")


class PublicStats(_Model):
    """What a public profile shows, and the caller's own profile always."""

    stats: Stats
    modes: list[ModeStats]
    rating_start: float = Field(description="the rating before the first rated game")
    rating_history: list[RatingPoint] = Field(description="oldest first, at most the last 100")


class ProfileResponse(_Model):
    """``GET /api/me/profile``: the caller's own profile, all of it."""

    player_id: str
    nickname: str
    username: str | None
    avatar: Avatar | None = Field(description="null: the avatar derived from the player id")
    public: bool = Field(description="whether ``/api/profiles/{username}`` shows ``shown``; false until changed")
    shown: PublicStats
    recent: list[ProfileGame]
    head_to_head: list[HeadToHead] = Field(description="one entry per friend, most games together first")


class PublicProfileResponse(_Model):
    """``GET /api/profiles/{username}``: a claimed player as others see them. A private profile
    gives the names and the avatar only (``shown`` is null)."""

    username: str
    nickname: str
    avatar: Avatar | None
    player_id: str = Field(description="the id seats and friend lists show; the avatar is derived from it when null")
    public: bool
    shown: PublicStats | None


class HttpError(_Model):
    v: int
    error: dict[str, str] = Field(description="{'code': ..., 'message': ...}")


#: Every model documented in docs/protocol.md, by section.
DOCUMENTED: dict[str, list[type[BaseModel]]] = {
    "Client to server (WebSocket)": [CHello, CJoin, CAction, CHint, CSeed, CBack, CChat, CPing],
    "Server to client (WebSocket)": [SWelcome, SState, SEvent, SEvents, SHint, SSeedOk, SPong, SMatched, SError,
                                     SFriendPresence, SFriendRequest, SFriendAccepted, SInvitation],
    "Table events (the `event` field)": [EvSeat, EvPresence, EvStart, EvCommit, EvSeed, EvDeal, EvAction, EvTrick,
                                         EvHandOver, EvGameOver, EvRematch, EvNextTable, EvChat],
    "HTTP bodies": [GuestRequest, GuestResponse, SignOutRequest, SignOutResponse, MeResponse, CreateTable, SitRequest,
                    BotRequest, FreeRequest,
                    QueueRequest, QueueStatus, GamesResponse, GameSummary, LeaderboardResponse, VerifyResponse,
                    VerifySignature, AnalysisResponse, AnalysisHand, AnalysisPlay, AnalysisProspect,
                    InfoResponse, HttpError],
    "HTTP bodies: accounts and friends": [ClaimRequest, SignInRequest, AccountResponse, SignInResponse,
                                          DeviceLinkResponse, RedeemLinkRequest, AddFriendRequest,
                                          FriendStateResponse, FriendsResponse, Friend, InviteRequest,
                                          InvitationsResponse, InvitationAnswer, Invitation, Person],
    "HTTP bodies: profiles": [ProfileSettingsRequest, ProfileResponse, PublicProfileResponse, PublicStats, ModeStats,
                              RatingPoint, ProfileGame, HeadToHead, Tally],
    "Shared pieces": [TableInfo, SeatInfo, Timers, Deadline, FairHand, View, PublicAction, TrickJSON, ResultJSON,
                      Stats, BotLevel, LevelStrength, Words],
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
