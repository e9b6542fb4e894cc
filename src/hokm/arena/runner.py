"""Play one whole game between bots, refereed by the engine.

:func:`play_game` is the one driver every bot-versus-bot run goes through (the arena, strength
reports, server tables filled with bots). It hands each bot only ``game.view(seat)`` (an
:class:`~hokm.bots.base.OmniscientBot` gets ``act_with_state(view, game.copy())``), checks every
returned action with the engine, and turns a crash, a :class:`~hokm.bots.base.BotFailure`, an
illegal action or an overlong decision into a *forfeit* of that game for the bot's side: the
result says who forfeited and why, and the run goes on.

Deals are reproducible: an ``int`` seed fixes the first-Hâkem draw and the deck of every hand
*by hand index* (:class:`DealSequence`), so two games with the same seed and the bots moved to
other seats see the same cards from the other side of the table for as long as they run in step.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots.base import Bot, BotFailure, OmniscientBot
from ..cards import Card
from ..engine import Game, HakemDraw, IllegalActionError, Phase, Rules, draw_hakem, shuffled_deck


class DealSequence:
    """The first-Hâkem draw and the deck of every hand, each derived from ``seed`` alone.

    Each deck depends only on ``(seed, hand index)``, never on how earlier hands went, so a
    replayed pairing gets hand *k*'s deck whatever happened in hands ``0..k-1``.
    """

    def __init__(self, rules: Rules, seed: int | str) -> None:
        self.rules = rules
        self.seed = seed

    def hakem_draw(self) -> HakemDraw:
        return draw_hakem(self.rules, random.Random(f"hokm-deals:{self.seed}:hakem"))

    def deck(self, hand_index: int) -> list[Card]:
        return shuffled_deck(self.rules, random.Random(f"hokm-deals:{self.seed}:hand:{hand_index}"))


@dataclass(frozen=True)
class Forfeit:
    """Why a game ended early: ``seat`` (on ``side``) failed with ``kind`` and ``message``.

    ``kind`` is ``"crash"`` (the bot raised), ``"failure"`` (it raised ``BotFailure``: a dead
    process, a protocol error, its own timeout), ``"illegal"`` (the engine refused its action) or
    ``"timeout"`` (the decision took longer than the driver's ``time_limit``).
    """

    seat: int
    side: int
    bot: str
    kind: str
    message: str

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "side": self.side, "bot": self.bot, "kind": self.kind, "message": self.message}


@dataclass
class GameOutcome:
    """What happened in one game. Sides are teams (4 players) or seats (2 and 3 players).

    ``winner`` is the side that reached the target, or after a forfeit the side credited with
    the game: the other team with 2 and 4 players; with 3 players the other seat with more points
    (the next seat in turn order on a tie).
    """

    players: int
    winner: int
    scores: list[int]
    hands_won: list[int]  # per side
    kots_won: list[int]  # per side
    hands: int
    forfeit: Forfeit | None = None
    decision_seconds: list[list[float]] = field(default_factory=list)  # per seat
    game: Game | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "winner": self.winner,
            "scores": self.scores,
            "hands_won": self.hands_won,
            "kots_won": self.kots_won,
            "hands": self.hands,
            "forfeit": None if self.forfeit is None else self.forfeit.to_json(),
            "decisions": [len(t) for t in self.decision_seconds],
        }


def _bot_name(bot: Bot) -> str:
    return getattr(bot, "name", type(bot).__name__)


def play_game(
    rules: Rules,
    bots_by_seat: Sequence[Bot],
    seed: int | str | random.Random | None = None,
    *,
    time_limit: float | None = None,
    keep_game: bool = False,
    on_action: Callable[[Game, int, object], None] | None = None,
) -> GameOutcome:
    """Play a whole game; never raises for a misbehaving bot (that is a forfeit).

    ``seed``: an ``int`` or ``str`` gives a :class:`DealSequence` (duplicate-safe); a
    ``random.Random`` is used for the draw and then every deck in turn; ``None`` deals from
    ``secrets``. ``time_limit`` (seconds per decision) forfeits a bot that thinks longer.
    ``keep_game`` returns the finished :class:`~hokm.engine.Game` (for records). ``on_action``
    is called after each applied action with ``(game, seat, action)``.
    """
    n = rules.players
    if len(bots_by_seat) != n:
        raise ValueError(f"a {n}-player game needs {n} bots, got {len(bots_by_seat)}")
    deals: DealSequence | None = None
    if isinstance(seed, (int, str)) and not isinstance(seed, bool):
        deals = DealSequence(rules, seed)
        game = Game(rules, hakem_draw=deals.hakem_draw())
        rng = None
    else:
        rng = seed if isinstance(seed, random.Random) else None
        game = Game(rules, hakem_draw=draw_hakem(rules, rng))
    times: list[list[float]] = [[] for _ in range(n)]
    forfeit: Forfeit | None = None
    clock = time.perf_counter

    while forfeit is None and not game.is_over:
        if game.phase is Phase.DEAL:
            if deals is not None:
                game.deal(deals.deck(game.hand_index))
            else:
                game.deal(rng=rng)
            continue
        seat = game.to_move
        assert seat is not None
        bot = bots_by_seat[seat]
        view = game.view(seat)
        start = clock()
        try:
            if isinstance(bot, OmniscientBot):
                action = bot.act_with_state(view, game.copy())
            else:
                action = bot.act(view)
        except BotFailure as e:
            forfeit = Forfeit(seat, rules.side_of(seat), _bot_name(bot), "failure", f"seat {seat} ({_bot_name(bot)}) failed: {e}")
            break
        except Exception as e:  # noqa: BLE001 - any bot error is that bot's forfeit, never the driver's crash
            forfeit = Forfeit(seat, rules.side_of(seat), _bot_name(bot), "crash",
                              f"seat {seat} ({_bot_name(bot)}) crashed: {type(e).__name__}: {e}")
            break
        elapsed = clock() - start
        times[seat].append(elapsed)
        if time_limit is not None and elapsed > time_limit:
            forfeit = Forfeit(seat, rules.side_of(seat), _bot_name(bot), "timeout",
                              f"seat {seat} ({_bot_name(bot)}) took {elapsed:.3f}s, over the {time_limit:g}s limit")
            break
        try:
            game.apply(game.check(action, seat), seat=seat)
        except (IllegalActionError, ValueError, TypeError) as e:
            forfeit = Forfeit(seat, rules.side_of(seat), _bot_name(bot), "illegal",
                              f"seat {seat} ({_bot_name(bot)}) made an illegal move {action!r}: {e}")
            break
        if on_action is not None:
            on_action(game, seat, action)

    sides = rules.sides
    hands_won = [0] * sides
    kots_won = [0] * sides
    for r in game.results:
        if r.winner is None:  # only the open hand has no winner; these are finished
            continue
        hands_won[r.winner] += 1
        kots_won[r.winner] += r.kot
    if forfeit is None:
        winner = game.winner
        assert winner is not None
    elif n == 3:
        others = [(forfeit.seat + k) % 3 for k in (1, 2)]
        winner = max(others, key=lambda s: game.scores[s])  # max keeps the first on a tie
    else:
        winner = 1 - forfeit.side
    return GameOutcome(
        players=n,
        winner=winner,
        scores=list(game.scores),
        hands_won=hands_won,
        kots_won=kots_won,
        hands=len(game.results),
        forfeit=forfeit,
        decision_seconds=times,
        game=game if keep_game else None,
    )
