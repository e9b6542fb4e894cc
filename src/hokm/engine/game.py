"""The Hokm game state machine: the one place where the rules are decided.

A :class:`Game` runs a whole match: the first-Hâkem ace draw, then hand after hand of dealing
(a chance step, :meth:`Game.deal`), trump, the two-player discards and draws, trick play, scoring
and Hâkem rotation, until a side reaches the target. Everything else in the project (records,
bots, the server, the clients) drives it through this public API:

- :attr:`Game.phase`, :attr:`Game.to_move`, :meth:`Game.legal_actions`, :meth:`Game.apply`
- :meth:`Game.deal` for the chance step, :meth:`Game.copy` and :meth:`Game.undo` for search
- :meth:`Game.view` for what one seat may know (see :mod:`hokm.engine.view`)

Seats are numbered in turn order (``seat + 1`` plays after ``seat``); sides are teams ``seat % 2``
with four players and seats otherwise. Hands are held internally as 52-bit masks.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import CARDS, SUIT_MASKS, Card, Suit, card_of, cards_in, full_deck, mask_of
from ..rules import TRICKS_TO_WIN, TWO_PLAYER_DISCARDS, TWO_PLAYER_DRAW_TURNS, Rules, partner_of, side_of
from .actions import KEEP, PASS, PLAYS, TRUMPS, Action, ChooseTrump, Discard, Draw, Play, as_action, discard_options
from .errors import DealError, IllegalActionError, SetupError
from .phase import Phase
from .results import HandResult, TrickRecord
from .scoring import hand_outcome, next_hakem
from .tricks import legal_mask, winning_index

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class _SuitSubsets:
    """Maps a set of cards of one suit (a mask) to a tuple of items per card, lowest card first.

    Listing legal moves is the innermost step of every search and simulation; a dict lookup per
    suit replaces a bit-by-bit loop. ``table`` is a plain dict (a dict subclass's lookups are not
    specialised by the interpreter and cost about twice as much); a lookup that misses raises
    ``KeyError`` and the caller has :meth:`fill` make the entries, at most 4 x 8192 of them.
    """

    def __init__(self, items: Sequence[Any]) -> None:
        self.table: dict[int, tuple[Any, ...]] = {}
        self._items = items

    def fill(self, mask: int) -> None:
        """Make the entries for each suit's part of ``mask``."""
        table, items = self.table, self._items
        for suit in SUIT_MASKS:
            part = mask & suit
            if part not in table:
                table[part] = tuple(items[c] for c in cards_in(part))


_PLAYS = _SuitSubsets(PLAYS)
_CARDS = _SuitSubsets(CARDS)
_PLAYS_OF = _PLAYS.table
_CARDS_OF = _CARDS.table
_S0, _S1, _S2, _S3 = SUIT_MASKS
#: Per card: its bit (a table lookup is cheaper than shifting a Card).
_BIT = tuple(1 << c for c in range(52))
#: The history entry of each card play, made once (entries are immutable, so sharing is safe).
_PLAY_ENTRIES = tuple(("act", p) for p in PLAYS)
_PLAY = Phase.PLAY  # a module global: the hot path would otherwise pay for an Enum class lookup


# The engine makes one TrickRecord per trick; filling the slots directly costs half of the frozen
# dataclass's __init__ (which goes through object.__setattr__ three times). Same object, same fields.
_new_trick_record = TrickRecord.__new__
_slots: Any = TrickRecord  # the slot descriptors, which the type checker does not model
_set_trick_leader = _slots.leader.__set__
_set_trick_cards = _slots.cards.__set__
_set_trick_winner = _slots.winner.__set__


@dataclass(frozen=True, slots=True)
class HakemDraw:
    """The face-up ace draw that picks the first Hâkem (and, with ``partner_draw``, his partner).

    ``cards[i]`` was turned to seat ``(start + k) % n`` where seats that already hold the Hâkem
    role are skipped once he is found.
    """

    start: int
    cards: tuple[Card, ...]
    hakem: int
    partner: int | None = None

    @property
    def swap(self) -> tuple[int, int] | None:
        """Seats whose players change places so that the partner sits opposite the Hâkem."""
        opposite = partner_of(self.hakem, 4)
        if self.partner is None or opposite is None or self.partner == opposite:
            return None
        return (self.partner, opposite)

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "cards": [str(c) for c in self.cards]}


def run_hakem_draw(rules: Rules, start: int, cards: Sequence[Card | str]) -> HakemDraw:
    """Check a turned-card sequence and find the Hâkem (and partner); raise ``SetupError``.

    The sequence must stop exactly at the deciding ace: the first ace, or with ``partner_draw``
    the second (cards after the first ace skip the Hâkem).
    """
    n = rules.players
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < n:
        raise SetupError(f"hakem_draw start must be a seat from 0 to {n - 1}, not {start!r}")
    try:
        turned = [card_of(c) for c in cards]
    except ValueError as e:
        raise SetupError(str(e), code="bad_card") from None
    if len(set(turned)) != len(turned):
        raise SetupError("hakem_draw turns the same card twice")
    removed = rules.removed_cards
    for c in turned:
        if c in removed:
            raise SetupError(f"hakem_draw turns {c}, which is not in the {n}-player deck")
    seat = start
    hakem: int | None = None
    partner: int | None = None
    for i, c in enumerate(turned):
        if c.rank == 12:
            if hakem is None:
                hakem = seat
            else:
                partner = seat
        last = i == len(turned) - 1
        done = hakem is not None and (not rules.partner_draw or partner is not None)
        if done and not last:
            raise SetupError(f"hakem_draw goes on after the deciding ace ({c} at position {i})")
        if done:
            break
        seat = (seat + 1) % n
        if hakem is not None and seat == hakem:
            seat = (seat + 1) % n
    if hakem is None or (rules.partner_draw and partner is None):
        raise SetupError("hakem_draw ends before the deciding ace")
    return HakemDraw(start=start, cards=tuple(turned), hakem=hakem, partner=partner)


def draw_hakem(rules: Rules, rng: random.Random | None = None, start: int | None = None) -> HakemDraw:
    """Shuffle and turn cards face up until the deciding ace (``secrets`` when no ``rng``)."""
    rng = rng or secrets.SystemRandom()
    deck = full_deck(rules.removed_cards)
    rng.shuffle(deck)
    start = rng.randrange(rules.players) if start is None else start
    aces_needed = 2 if rules.partner_draw else 1
    turned: list[Card] = []
    aces = 0
    for c in deck:
        turned.append(c)
        if c.rank == 12:
            aces += 1
            if aces == aces_needed:
                break
    return run_hakem_draw(rules, start, turned)


def shuffled_deck(rules: Rules, rng: random.Random | None = None) -> list[Card]:
    """A shuffled deck for one hand; live games pass no ``rng`` and get ``secrets``."""
    deck = full_deck(rules.removed_cards)
    (rng or secrets.SystemRandom()).shuffle(deck)
    return deck


def deal_layout(rules: Rules, hakem: int, deck: Sequence[Card]) -> tuple[list[list[Card]], list[list[Card]]]:
    """Who gets which card: ``(before_trump, full)`` holdings per seat for 3 and 4 players.

    The deal starts with the Hâkem and goes in turn order in packets (5, 4, 4 or 5, 4, 4, 4),
    the dealer (``hakem - 1``) last. With four players only the Hâkem holds cards before trump;
    with three, everyone holds the first packet.
    """
    n = rules.players
    full: list[list[Card]] = [[] for _ in range(n)]
    before: list[list[Card]] = [[] for _ in range(n)]
    i = 0
    for r, size in enumerate(rules.packets):
        for k in range(n):
            seat = (hakem + k) % n
            packet = list(deck[i:i + size])
            i += size
            full[seat].extend(packet)
            if r == 0 and (n == 3 or seat == hakem):
                before[seat].extend(packet)
    return before, full


_STATE_FIELDS: tuple[str, ...] = ()


def _state_fields() -> tuple[str, ...]:
    """The names of a game's state, as :meth:`Game.__init__` sets them, less the undo data."""
    global _STATE_FIELDS
    if not _STATE_FIELDS:
        scratch = Game(Rules(players=4), first_hakem=0)
        _STATE_FIELDS = tuple(k for k in vars(scratch) if k not in ("_history", "_checkpoints"))
    return _STATE_FIELDS


class Game:
    """A whole game of Hokm. Create it, then alternate :meth:`deal` and actions.

    >>> g = Game(Rules(players=4), first_hakem=0)
    >>> g.deal(rng=random.Random(1)); g.phase
    <Phase.TRUMP: 'trump'>
    """

    _rng: random.Random | None = None  # the generator :meth:`new` dealt from, for the next deals

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        first_hakem: int | None = None,
        hakem_draw: HakemDraw | None = None,
    ) -> None:
        self.rules = rules = rules or Rules()
        n = rules.players
        if (first_hakem is None) == (hakem_draw is None):
            raise SetupError("give exactly one of first_hakem or hakem_draw")
        if hakem_draw is not None:
            first_hakem = hakem_draw.hakem
        if not isinstance(first_hakem, int) or isinstance(first_hakem, bool) or not 0 <= first_hakem < n:
            raise SetupError(f"first Hâkem must be a seat from 0 to {n - 1}, not {first_hakem!r}")
        self.n = n
        #: The side of each seat (:func:`hokm.rules.side_of`), looked up once per trick.
        self._sides = tuple(side_of(seat, n) for seat in range(n))
        self.hakem_draw = hakem_draw
        self.first_hakem: int = first_hakem
        self.hakem: int = first_hakem
        self.scores: list[int] = [0] * rules.sides
        self.results: list[HandResult] = []
        self.phase: Phase = Phase.DEAL
        self.to_move: int | None = None
        self._history: list[tuple[str, Any]] = []
        self._checkpoints: list[tuple[int, dict[str, Any]]] = []
        self._clear_hand()

    # ------------------------------------------------------------------ construction helpers
    @classmethod
    def new(cls, rules: Rules | None = None, *, seed: int | None = None, rng: random.Random | None = None,
            deal: bool = True) -> Game:
        """A game with a real ace draw; reproducible with ``seed``, else dealt from ``secrets``."""
        rules = rules or Rules()
        if rng is None and seed is not None:
            rng = random.Random(seed)
        game = cls(rules, hakem_draw=draw_hakem(rules, rng))
        game._rng = rng
        if deal:
            game.deal(rng=rng)
        return game

    def _clear_hand(self) -> None:
        n = self.n
        #: The play phase's legal mask for the seat to move, kept from :meth:`legal_actions` (or
        #: :meth:`legal_cards`) for the :meth:`apply` that follows; ``None`` once anything changes.
        self._legal: int | None = None
        self.deck: tuple[Card, ...] | None = None
        self.trump: Suit | None = None
        self.hands: list[int] = [0] * n
        self._pending: list[int] | None = None
        self.leader: int = self.hakem
        self.trick: list[Card] = []
        self.tricks: list[int] = [0] * self.rules.sides
        self.seat_tricks: list[int] = [0] * n
        self.completed: list[TrickRecord] = []
        self.played: int = 0
        self.actions: list[Action] = []
        # two players
        self.stock: tuple[Card, ...] = ()
        self.draw_turn: int = 0
        self.discards: list[int] = [0] * n
        self.discarded: list[bool] = [False] * n
        self.draw_log: list[tuple[tuple[Card, Card, bool], ...]] = [()] * n

    # ------------------------------------------------------------------ public facts
    @property
    def dealer(self) -> int:
        return (self.hakem - 1) % self.n

    @property
    def hand_index(self) -> int:
        """0-based number of the hand in progress (or about to be dealt)."""
        return len(self.results)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def winner(self) -> int | None:
        """The side that reached the target, once the game is over."""
        if self.phase is not Phase.OVER:
            return None
        best = max(self.scores)
        return self.scores.index(best)

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.n)

    def hand_of(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now. Full-state access: never give this to a client or bot."""
        return cards_in(self.hands[seat])

    @property
    def trick_seats(self) -> list[int]:
        return [(self.leader + i) % self.n for i in range(len(self.trick))]

    @property
    def draw_card(self) -> Card | None:
        """Two players, draw phase: the top card the player to move is looking at."""
        if self.phase is Phase.DRAW:
            return self.stock[2 * self.draw_turn]
        return None

    @property
    def stock_size(self) -> int:
        if self.n != 2 or self.deck is None:
            return 0
        return len(self.stock) - 2 * self.draw_turn

    def current_result(self) -> HandResult:
        """The public summary of the hand in progress (or of the last finished hand when over)."""
        if self.phase is Phase.OVER or (self.phase is Phase.DEAL and self.results):
            return self.results[-1]
        return HandResult(self.hakem, self.trump, tuple(self.tricks), None, 0, False, False, False)

    # ------------------------------------------------------------------ chance step
    def deal(self, deck: Sequence[Card | str] | None = None, *, rng: random.Random | None = None) -> None:
        """Deal the next hand from ``deck`` (top card first) or from a fresh shuffle.

        Without a deck the shuffle uses ``rng``, else the generator given to :meth:`new`, else
        ``secrets``. Raises :class:`DealError` (``bad_deck``) when the deck is not exactly the
        cards of this game.
        """
        if self.phase is not Phase.DEAL:
            code = "game_over" if self.phase is Phase.OVER else "wrong_phase"
            raise IllegalActionError(f"cannot deal now: the game is in the {self.phase.value} phase", code=code)
        if deck is None:
            deck = shuffled_deck(self.rules, rng or self._rng)
        try:
            cards = tuple(card_of(c) for c in deck)
        except ValueError as e:
            raise DealError(f"bad card in deck: {e}", code="bad_card") from None
        expected = mask_of(full_deck(self.rules.removed_cards))
        if len(cards) != self.rules.deck_size or mask_of(cards) != expected:
            missing = cards_in(expected & ~mask_of(cards))
            extra = cards_in(mask_of(cards) & ~expected)
            dup = sorted(c for c, k in Counter(cards).items() if k > 1)
            bits = []
            if missing:
                bits.append("missing " + " ".join(map(str, missing)))
            if extra:
                bits.append("not in this deck " + " ".join(map(str, extra)))
            if dup:
                bits.append("repeated " + " ".join(map(str, dup)))
            raise DealError(
                f"a {self.n}-player deck has {self.rules.deck_size} distinct cards; got {len(cards)}"
                + (" (" + "; ".join(bits) + ")" if bits else "")
            )
        self._checkpoints.append((len(self._history), self._snapshot()))
        self._history.append(("deal", cards))
        self._start_hand(cards)

    def _start_hand(self, cards: tuple[Card, ...]) -> None:
        self._clear_hand()
        self.deck = cards
        if self.n == 2:
            self.hands[self.hakem] = mask_of(cards[0:5])
            self.hands[1 - self.hakem] = mask_of(cards[5:10])
            self.stock = cards[10:]
        else:
            before, full = deal_layout(self.rules, self.hakem, cards)
            self.hands = [mask_of(h) for h in before]
            self._pending = [mask_of(h) for h in full]
        self.phase = Phase.TRUMP
        self.to_move = self.hakem

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take (empty in the deal step and when over)."""
        phase = self.phase
        if phase is _PLAY:
            # In play a seat is always to move; the hot path reads it without a check for None.
            hand = self.hands[self.to_move]  # type: ignore[index]
            trick = self.trick
            self._legal = legal = legal_mask(hand, trick[0] // 13 if trick else None)
            plays = _PLAYS_OF
            try:
                if legal != hand:  # following suit: the cards of one suit
                    return [*plays[legal]]
                return [*plays[legal & _S0], *plays[legal & _S1], *plays[legal & _S2], *plays[legal & _S3]]
            except KeyError:  # first sight of one of these suit holdings
                _PLAYS.fill(legal)
                return self.legal_actions()
        if phase is Phase.TRUMP:
            return list(TRUMPS)
        if phase is Phase.DRAW:
            return [KEEP, PASS]
        if phase is Phase.DISCARD:
            assert self.to_move is not None
            count = TWO_PLAYER_DISCARDS[0 if self.to_move == self.hakem else 1]
            options: list[Action] = list(discard_options(cards_in(self.hands[self.to_move]), count))
            return options
        return []

    def legal_cards(self) -> list[Card]:
        """Play phase: the cards the seat to move may play."""
        if self.phase is not _PLAY:
            return []
        hand = self.hands[self.to_move]  # type: ignore[index]  # in play a seat is always to move
        trick = self.trick
        self._legal = legal = legal_mask(hand, trick[0] // 13 if trick else None)
        cards = _CARDS_OF
        try:
            if legal != hand:  # following suit: the cards of one suit
                return [*cards[legal]]
            return [*cards[legal & _S0], *cards[legal & _S1], *cards[legal & _S2], *cards[legal & _S3]]
        except KeyError:  # first sight of one of these suit holdings
            _CARDS.fill(legal)
            return self.legal_cards()

    def is_legal(self, action: Any, seat: int | None = None) -> bool:
        try:
            self.check(action, seat)
        except (IllegalActionError, ValueError):
            return False
        return True

    def check(self, action: Any, seat: int | None = None) -> Action:
        """Validate without applying; return the parsed action or raise ``IllegalActionError``."""
        try:
            act = as_action(action)
        except ValueError as e:
            raise IllegalActionError(str(e), code="bad_action", seat=seat) from None
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("the game is over", code="game_over", seat=seat)
        if phase is Phase.DEAL:
            raise IllegalActionError("the hand is over; the next hand has not been dealt", code="hand_over", seat=seat)
        mover = self.to_move
        assert mover is not None
        if seat is not None and seat != mover:
            raise IllegalActionError(f"it is seat {mover}'s turn, not seat {seat}'s", code="not_your_turn", seat=seat)
        if isinstance(act, Play):
            if phase is not Phase.PLAY:
                raise IllegalActionError(f"seat {mover} cannot play a card in the {phase.value} phase",
                                         code="wrong_phase", seat=mover)
            card = act.card
            hand = self.hands[mover]
            if not (hand >> card) & 1:
                raise IllegalActionError(f"seat {mover} does not hold {card}", code="not_in_hand", seat=mover,
                                         card=card)
            if self.trick and not (legal_mask(hand, self.trick[0] // 13) >> card) & 1:
                led = self.trick[0] // 13
                raise IllegalActionError(f"seat {mover} must follow {SUIT_NAMES[led]}",
                                         code="must_follow_suit", seat=mover, suit=Suit(led), card=card)
            return act
        if isinstance(act, ChooseTrump):
            if phase is not Phase.TRUMP:
                raise IllegalActionError(f"trump is chosen at the start of a hand, not in the {phase.value} phase",
                                         code="wrong_phase", seat=mover)
            return act
        if isinstance(act, Discard):
            if phase is not Phase.DISCARD:
                raise IllegalActionError(f"seat {mover} cannot discard in the {phase.value} phase",
                                         code="wrong_phase", seat=mover)
            count = TWO_PLAYER_DISCARDS[0 if mover == self.hakem else 1]
            if len(act.cards) != count:
                raise IllegalActionError(f"seat {mover} must discard exactly {count} cards, not {len(act.cards)}",
                                         code="bad_discard", seat=mover, count=count)
            if mask_of(act.cards) & ~self.hands[mover]:
                raise IllegalActionError(f"seat {mover} can only discard cards from its own hand",
                                         code="bad_discard", seat=mover)
            return act
        if isinstance(act, Draw):
            if phase is not Phase.DRAW:
                raise IllegalActionError(f"seat {mover} cannot draw in the {phase.value} phase",
                                         code="wrong_phase", seat=mover)
            return act
        raise IllegalActionError(f"not an action: {action!r}", code="bad_action", seat=seat)

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply an action for the seat to move (``seat``, when given, must be that seat).

        Accepts an :data:`Action`, a ``Card`` or card string (play), a ``Suit`` (trump), ``"keep"``
        or ``"pass"``, or the action's JSON object. Raises :class:`IllegalActionError` and leaves
        the state untouched when the action is not allowed.
        """
        if type(action) is Play and self.phase is _PLAY:
            # Hot path for search and simulation: the checks of check() and the first half of
            # _play(), inlined. Anything unusual falls through to check(), which says why.
            mover: int = self.to_move  # type: ignore[assignment]  # in play a seat is always to move
            if seat is None or seat == mover:
                card = action.card
                bit = _BIT[card]
                hands = self.hands
                hand = hands[mover]
                trick = self.trick
                legal = self._legal
                if legal is None:
                    legal = legal_mask(hand, trick[0] // 13 if trick else None)
                if legal & bit:
                    self._legal = None
                    self._history.append(_PLAY_ENTRIES[card])
                    self.actions.append(action)
                    hands[mover] = hand ^ bit
                    self.played |= bit
                    trick.append(card)
                    n = self.n
                    if len(trick) < n:
                        self.to_move = (mover + 1) % n
                    else:
                        self._finish_trick()
                    return
        act = self.check(action, seat)
        self._history.append(("act", act))
        self._do(act)

    def play(self, card: Card | str) -> None:
        self.apply(PLAYS[card_of(card)])

    def _do(self, act: Action) -> None:
        self._legal = None
        self.actions.append(act)
        if type(act) is Play:
            self._play(act.card)
        elif type(act) is ChooseTrump:
            self._choose_trump(act.suit)
        elif type(act) is Discard:
            self._discard(act)
        elif type(act) is Draw:
            self._draw(act.keep)
        else:  # pragma: no cover - apply() and check() accept only the four action types
            raise TypeError(f"not an action: {act!r}")

    def _choose_trump(self, suit: Suit) -> None:
        self.trump = suit
        if self.n == 2:
            self.phase = Phase.DISCARD
            self.to_move = self.hakem
            return
        assert self._pending is not None
        self.hands = self._pending
        self._pending = None
        self.phase = Phase.PLAY
        self.to_move = self.leader = self.hakem

    def _discard(self, act: Discard) -> None:
        seat = self.to_move
        assert seat is not None
        m = mask_of(act.cards)
        self.hands[seat] &= ~m
        self.discards[seat] |= m
        self.discarded[seat] = True
        if seat == self.hakem:
            self.to_move = 1 - seat
        else:
            self.phase = Phase.DRAW
            self.draw_turn = 0
            self.to_move = self.hakem

    def _draw(self, keep: bool) -> None:
        seat = self.to_move
        assert seat is not None
        first, second = self.stock[2 * self.draw_turn], self.stock[2 * self.draw_turn + 1]
        kept, dropped = (first, second) if keep else (second, first)
        self.hands[seat] |= 1 << kept
        self.discards[seat] |= 1 << dropped
        log = list(self.draw_log)
        log[seat] = log[seat] + ((first, second, keep),)
        self.draw_log = log
        self.draw_turn += 1
        if self.draw_turn == TWO_PLAYER_DRAW_TURNS:
            self.phase = Phase.PLAY
            self.to_move = self.leader = self.hakem
        else:
            self.to_move = 1 - seat

    def _play(self, card: Card) -> None:
        seat = self.to_move
        assert seat is not None
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        trick = self.trick
        trick.append(card)
        if len(trick) < self.n:
            self.to_move = (seat + 1) % self.n
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        """The trick is full: the highest trump takes it, else the highest card of the suit led."""
        trick = self.trick
        n = self.n
        leader = self.leader
        winner = (leader + winning_index(trick, self.trump)) % n
        record = _new_trick_record(TrickRecord)
        _set_trick_leader(record, leader)
        _set_trick_cards(record, tuple(trick))
        _set_trick_winner(record, winner)
        self.completed.append(record)
        self.trick = []
        self.seat_tricks[winner] += 1
        side = self._sides[winner]
        tricks = self.tricks
        tricks[side] += 1
        self.leader = self.to_move = winner
        if n != 3:
            if tricks[side] < TRICKS_TO_WIN:
                return  # with 4 and 2 players only the side that took this trick can have reached seven
        else:
            # Three players: every end rule needs 7 tricks, a lead over the tricks left, or no tricks left.
            top = max(tricks)
            if top < TRICKS_TO_WIN and top <= self.rules.total_tricks - len(self.completed):
                return
        self._check_hand_end()

    def _check_hand_end(self) -> None:
        hakem_side = self.side_of(self.hakem)
        out = hand_outcome(self.rules, self.tricks, hakem_side, len(self.completed))
        if out is None:
            return
        winner = out.winner
        result = HandResult(self.hakem, self.trump, tuple(self.tricks), winner, out.points, out.kot,
                            out.kot and winner != hakem_side, True, out.tie)
        self.results.append(result)
        self.scores[winner] += out.points
        self.hakem = next_hakem(self.n, self.hakem, winner == hakem_side)
        self.to_move = None
        self.phase = Phase.OVER if max(self.scores) >= self.rules.target_points else Phase.DEAL

    # ------------------------------------------------------------------ copy and undo
    _LIST_FIELDS = ("scores", "results", "hands", "trick", "tricks", "seat_tricks", "completed", "actions",
                    "discards", "discarded", "draw_log")

    def _snapshot(self) -> dict[str, Any]:
        # Field by field, never through ``self.__dict__``: reading ``__dict__`` turns CPython's
        # compact attribute storage of this game into a plain dict for good, and every attribute
        # access of the play path then takes a slower lookup (every game is dealt through here).
        d = {k: getattr(self, k) for k in _state_fields()}
        for k in self._LIST_FIELDS:
            d[k] = d[k].copy()
        if d["_pending"] is not None:
            d["_pending"] = d["_pending"].copy()
        return d

    def copy(self, *, history: bool = True) -> Game:
        """An independent copy (cheap: a few short lists). ``history=False`` drops undo data."""
        # Search copies states by the million: one dict copy, then only the mutable lists.
        g = object.__new__(Game)
        d = self.__dict__.copy()
        for k in self._LIST_FIELDS:
            d[k] = d[k].copy()
        pending = d["_pending"]
        if pending is not None:
            d["_pending"] = pending.copy()
        if history:
            d["_history"] = d["_history"].copy()
            d["_checkpoints"] = d["_checkpoints"].copy()
        else:
            d["_history"] = []
            d["_checkpoints"] = []
        # A copy never shares the original's deal generator: dealing in a copy (search, what-if
        # analysis) must not change the decks the original game will get.
        d.pop("_rng", None)
        g.__dict__ = d
        return g

    def undo(self) -> None:
        """Take back the last action or deal. Raises ``IndexError`` when there is nothing to undo."""
        if not self._history:
            raise IndexError("nothing to undo")
        target = len(self._history) - 1
        while self._checkpoints and self._checkpoints[-1][0] > target:
            self._checkpoints.pop()
        if not self._checkpoints:
            raise IndexError("nothing to undo (history was dropped by copy(history=False))")
        at, snap = self._checkpoints[-1]
        replay = self._history[at:target]
        history = self._history[:at]
        checkpoints = self._checkpoints[:-1]
        self.__dict__.update({k: (v.copy() if isinstance(v, list) else v) for k, v in snap.items()})
        self._legal = None
        self._history = history
        self._checkpoints = checkpoints
        for kind, value in replay:
            if kind == "deal":
                self.deal(value)
            else:
                self.apply(value)

    @property
    def history(self) -> list[tuple[str, Any]]:
        """Every deal and action so far, as ``("deal", deck)`` and ``("act", action)`` pairs."""
        return list(self._history)

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know, and nothing more (see :class:`hokm.engine.view.SeatView`)."""
        from .view import make_view

        return make_view(self, seat)

    def spectator_view(self) -> SeatView:
        """What anyone watching may know: no hand at all."""
        from .view import make_view

        return make_view(self, None)

    def __repr__(self) -> str:
        return (f"<Game players={self.n} hand={self.hand_index} phase={self.phase.value} "
                f"hakem={self.hakem} to_move={self.to_move} scores={self.scores}>")


from .view import SeatView  # noqa: E402  (re-exported for type hints)
