"""``view(seat)``: the information set of one seat, built by picking only what it may know.

A :class:`SeatView` is what bots, clients and spectators receive. It is assembled field by field
from public facts plus the seat's own cards, so a hidden card cannot reach it by accident: no
field is copied from another seat's hand, the stock, or another seat's two-player discards. It
converts to JSON (:meth:`SeatView.to_json`) for the bot protocol and the server, and back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from ..cards import Card, Suit, card_names, card_of, cards_in
from ..rules import Rules, partner_of, side_of
from .actions import Action, action_from_json
from .phase import Phase
from .results import HandResult, TrickRecord


class ViewSource(Protocol):
    """What :func:`make_view` reads of a game (:class:`hokm.engine.game.Game` provides it)."""

    @property
    def n(self) -> int: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def hand_index(self) -> int: ...

    @property
    def hakem(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def first_hakem(self) -> int: ...

    @property
    def trump(self) -> Suit | None: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def hands(self) -> Sequence[int]: ...

    @property
    def leader(self) -> int: ...

    @property
    def trick(self) -> Sequence[Card]: ...

    @property
    def trick_seats(self) -> Sequence[int]: ...

    @property
    def tricks(self) -> Sequence[int]: ...

    @property
    def seat_tricks(self) -> Sequence[int]: ...

    @property
    def completed(self) -> Sequence[TrickRecord]: ...

    @property
    def results(self) -> Sequence[HandResult]: ...

    @property
    def stock_size(self) -> int: ...

    @property
    def draw_card(self) -> Card | None: ...

    @property
    def discards(self) -> Sequence[int]: ...

    @property
    def discarded(self) -> Sequence[bool]: ...

    @property
    def draw_log(self) -> Sequence[tuple[tuple[Card, Card, bool], ...]]: ...

    @property
    def hakem_draw(self) -> Any: ...

    def legal_actions(self) -> list[Action]: ...


@dataclass(frozen=True)
class SeatView:
    """Everything one seat (or, with ``seat=None``, a spectator) may know at this moment."""

    players: int
    seat: int | None
    rules: Rules
    phase: Phase
    to_move: int | None
    hand_index: int
    hakem: int
    dealer: int
    first_hakem: int
    trump: Suit | None
    scores: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[int, ...]
    seat_tricks: tuple[int, ...]
    completed: tuple[TrickRecord, ...]
    results: tuple[HandResult, ...]  # finished hands
    legal: tuple[Action, ...]
    # two players
    stock_size: int = 0
    draw_card: Card | None = None
    discards: tuple[Card, ...] = ()
    discarded: tuple[bool, ...] = ()
    draw_log: tuple[tuple[Card, Card, bool], ...] = ()
    hakem_draw: dict[str, Any] | None = field(default=None)

    # ----- conveniences for bots ------------------------------------------------------------
    @property
    def side(self) -> int | None:
        if self.seat is None:
            return None
        return side_of(self.seat, self.players)

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    @property
    def partner(self) -> int | None:
        return None if self.seat is None else partner_of(self.seat, self.players)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_move == self.seat

    @property
    def led_suit(self) -> Suit | None:
        return self.trick[0][1].suit if self.trick else None

    def played_cards(self) -> list[Card]:
        """Cards played so far this hand, in play order (finished tricks, then the open one)."""
        out: list[Card] = []
        for t in self.completed:
            out.extend(t.cards)
        out.extend(c for _, c in self.trick)
        return out

    # ----- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "players": self.players,
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hand_index": self.hand_index,
            "hakem": self.hakem,
            "dealer": self.dealer,
            "first_hakem": self.first_hakem,
            "trump": None if self.trump is None else str(self.trump),
            "scores": list(self.scores),
            "hand": [str(c) for c in self.hand],
            "hand_size": self.rules.hand_size,
            "hand_counts": list(self.hand_counts),
            "sides": [side_of(seat, self.players) for seat in range(self.players)],
            "leader": self.leader,
            "trick": [{"seat": s, "card": str(c)} for s, c in self.trick],
            "tricks": list(self.tricks),
            "seat_tricks": list(self.seat_tricks),
            "completed": [_trick_json(t) for t in self.completed],
            "results": [r.view_json() for r in self.results],
            "legal": [a.to_json() for a in self.legal],
        }
        if self.players == 2:
            d.update({
                "stock_size": self.stock_size,
                "draw_card": None if self.draw_card is None else str(self.draw_card),
                "discards": [str(c) for c in self.discards],
                "discarded": list(self.discarded),
                "draw_log": [{"first": str(a), "second": str(b), "choice": "keep" if k else "pass"}
                             for a, b, k in self.draw_log],
            })
        if self.hakem_draw is not None:
            d["hakem_draw"] = self.hakem_draw
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatView:
        """Rebuild a view from :meth:`to_json` output (for bots written against JSON)."""

        players = d["players"]
        return cls(
            players=players,
            seat=d["seat"],
            rules=Rules.from_dict(players, d.get("rules")),
            phase=Phase(d["phase"]),
            to_move=d["to_move"],
            hand_index=d["hand_index"],
            hakem=d["hakem"],
            dealer=d["dealer"],
            first_hakem=d["first_hakem"],
            trump=None if d["trump"] is None else Suit.parse(d["trump"]),
            scores=tuple(d["scores"]),
            hand=tuple(card_of(c) for c in d["hand"]),
            hand_counts=tuple(d["hand_counts"]),
            leader=d["leader"],
            trick=tuple((t["seat"], card_of(t["card"])) for t in d["trick"]),
            tricks=tuple(d["tricks"]),
            seat_tricks=tuple(d["seat_tricks"]),
            completed=tuple(TrickRecord(t["leader"], tuple(card_of(c) for c in t["cards"]), t["winner"])
                            for t in d["completed"]),
            results=tuple(HandResult(r["hakem"], None if r["trump"] is None else Suit.parse(r["trump"]),
                                     tuple(r["tricks"]), r["winner"], r["points"], r["kot"],
                                     r.get("hakem_koti", False), True, r.get("tie", False)) for r in d["results"]),
            legal=tuple(action_from_json(a) for a in d["legal"]),
            stock_size=d.get("stock_size", 0),
            draw_card=None if d.get("draw_card") is None else card_of(d["draw_card"]),
            discards=tuple(card_of(c) for c in d.get("discards", [])),
            discarded=tuple(d.get("discarded", [])),
            draw_log=tuple((card_of(x["first"]), card_of(x["second"]), x["choice"] == "keep")
                           for x in d.get("draw_log", [])),
            hakem_draw=d.get("hakem_draw"),
        )


def make_view(game: ViewSource, seat: int | None) -> SeatView:
    """Assemble the view of ``seat`` (``None``: spectator) from public facts and its own cards."""
    n = game.n
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
    mine_to_move = seat is not None and game.to_move == seat
    hand = tuple(cards_in(game.hands[seat])) if seat is not None else ()
    draw_card = game.draw_card if mine_to_move else None
    return SeatView(
        players=n,
        seat=seat,
        rules=game.rules,
        phase=game.phase,
        to_move=game.to_move,
        hand_index=game.hand_index,
        hakem=game.hakem,
        dealer=game.dealer,
        first_hakem=game.first_hakem,
        trump=game.trump,
        scores=tuple(game.scores),
        hand=hand,
        hand_counts=tuple(h.bit_count() for h in game.hands),
        leader=game.leader,
        trick=tuple(zip(game.trick_seats, game.trick)),
        tricks=tuple(game.tricks),
        seat_tricks=tuple(game.seat_tricks),
        completed=tuple(game.completed),
        results=tuple(game.results),
        legal=tuple(game.legal_actions()) if mine_to_move else (),
        stock_size=game.stock_size,
        draw_card=draw_card,
        discards=tuple(cards_in(game.discards[seat])) if seat is not None and n == 2 else (),
        discarded=tuple(game.discarded) if n == 2 else (),
        draw_log=game.draw_log[seat] if seat is not None and n == 2 else (),
        hakem_draw=game.hakem_draw.to_json() if game.hakem_draw is not None else None,
    )


@lru_cache(maxsize=64)
def _rules_json(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()``, made once per rule set (the same for every view of every game under it)."""
    return rules.to_dict()


@lru_cache(maxsize=8)
def _sides(n: int) -> list[int]:
    return [side_of(seat, n) for seat in range(n)]


def _trick_json(t: TrickRecord) -> dict[str, Any]:
    """A finished trick as a view lists it."""
    return {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}


def _listed(src: Sequence[Any], before: object, done: list[dict[str, Any]],
            item: Callable[[Any], dict[str, Any]]) -> list[dict[str, Any]]:
    """``src``'s items as ``item`` makes them, given ``done``, the list made for ``before``: ``done``
    itself while ``src`` is ``before`` at the same length, ``done`` and the items added since while it
    grew, and a new list otherwise."""
    if src is not before or len(src) < len(done):
        return [item(x) for x in src]
    if len(src) > len(done):
        return done + [item(x) for x in src[len(done):]]
    return done


class HistoryMemo:
    """One game's finished tricks and hands as a view lists them, kept from one view to the next.

    A finished trick or hand never changes, and a game only adds to its lists of them (a new hand
    and an undo put new lists in their place): so a view reuses the list the view before it got
    when the game's list is the same one at the same length, and otherwise makes a new list,
    reusing the items of the old one that the game kept. The lists handed out are never changed.
    """

    __slots__ = ("_completed", "_completed_json", "_results", "_results_json")

    def __init__(self) -> None:
        self._completed: object = None
        self._completed_json: list[dict[str, Any]] = []
        self._results: object = None
        self._results_json: list[dict[str, Any]] = []

    def completed(self, game: ViewSource) -> list[dict[str, Any]]:
        src = game.completed
        self._completed_json = _listed(src, self._completed, self._completed_json, _trick_json)
        self._completed = src
        return self._completed_json

    def results(self, game: ViewSource) -> list[dict[str, Any]]:
        src = game.results
        self._results_json = _listed(src, self._results, self._results_json, HandResult.view_json)
        self._results = src
        return self._results_json


def public_json(game: ViewSource, memo: HistoryMemo | None = None) -> dict[str, Any]:
    """The fields of a view that anyone at the table may know, as in :meth:`SeatView.to_json`.

    The same list as :func:`make_view`'s public fields; a recipient's view is this object and
    :func:`own_json`'s for its seat together. Its lists may be shared: read them, do not change them.
    ``memo``: the same game's history lists kept from the views before (:class:`HistoryMemo`).
    """
    n = game.n
    public: dict[str, Any] = {
        "players": n,
        "rules": _rules_json(game.rules),
        "phase": game.phase.value,
        "to_move": game.to_move,
        "hand_index": game.hand_index,
        "hakem": game.hakem,
        "dealer": game.dealer,
        "first_hakem": game.first_hakem,
        "trump": None if game.trump is None else str(game.trump),
        "scores": list(game.scores),
        "hand_size": game.rules.hand_size,
        "hand_counts": [h.bit_count() for h in game.hands],
        "sides": _sides(n),
        "leader": game.leader,
        "trick": [{"seat": s, "card": str(c)} for s, c in zip(game.trick_seats, game.trick)],
        "tricks": list(game.tricks),
        "seat_tricks": list(game.seat_tricks),
        "completed": ([_trick_json(t) for t in game.completed] if memo is None else memo.completed(game)),
        "results": [r.view_json() for r in game.results] if memo is None else memo.results(game),
    }
    if n == 2:
        public["stock_size"] = game.stock_size
        public["discarded"] = list(game.discarded)
    if game.hakem_draw is not None:
        public["hakem_draw"] = game.hakem_draw.to_json()
    return public


def own_json(game: ViewSource, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """Each of ``seats``' own fields (``None``: a spectator's, which are empty or ``None``).

    Its hand, its legal actions (empty unless it is to move), and with two players the card it
    draws, its discards and its draws: what :func:`make_view` takes from the seat alone.
    """
    n = game.n
    two = n == 2
    to_move = game.to_move
    legal: list[dict[str, Any]] | None = None
    out: list[dict[str, Any]] = []
    for seat in seats:
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
        mine_to_move = seat is not None and to_move == seat
        d: dict[str, Any] = {"seat": seat,
                             "hand": card_names(game.hands[seat]) if seat is not None else []}
        if mine_to_move:
            if legal is None:
                legal = [a.to_json() for a in game.legal_actions()]
            d["legal"] = legal
        else:
            d["legal"] = []
        if two:
            draw_card = game.draw_card if mine_to_move else None
            d["draw_card"] = None if draw_card is None else str(draw_card)
            d["discards"] = card_names(game.discards[seat]) if seat is not None else []
            d["draw_log"] = ([{"first": str(a), "second": str(b), "choice": "keep" if k else "pass"}
                              for a, b, k in game.draw_log[seat]] if seat is not None else [])
        out.append(d)
    return out


def views_json(game: ViewSource, seats: Sequence[int | None], memo: HistoryMemo | None = None) -> list[dict[str, Any]]:
    """``make_view(game, seat).to_json()`` for each of ``seats``, the public part built once.

    What a server sends after every event: one view per seat and one for spectators, each
    :func:`public_json` and the recipient's :func:`own_json`. The objects share their public lists:
    read them, do not change them. ``memo``: as for :func:`public_json`.
    """
    own = own_json(game, seats)
    public = public_json(game, memo)
    return [public | mine for mine in own]
