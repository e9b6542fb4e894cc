"""One person against bots at the terminal: the game loop of ``hokm play``.

:class:`PlaySession` owns the engine's :class:`~hokm.engine.Game` and asks each seat in turn:
the person through an ``ask(prompt) -> str`` function (the console's ``input`` in real use, a
script in tests), bots through ``bot.act(game.view(seat))``. Both only ever see their own view;
the screen is drawn from the person's view alone. Illegal answers are checked by the engine and
explained, and the person is asked again.

``ask`` may raise ``EOFError`` or ``KeyboardInterrupt``; they pass through so that the command can
leave cleanly. Typing ``q`` raises :class:`QuitGame`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ..bots.base import Bot, BotFailure
from ..cards import Card, Suit, sort_hand
from ..engine import (
    Action,
    ChooseTrump,
    Discard,
    Draw,
    Game,
    IllegalActionError,
    Phase,
    Play,
    SeatView,
)
from ..rules import TWO_PLAYER_DISCARDS
from .parse import Command, InputError, explain, parse_discard, parse_draw, parse_play, parse_trump
from .render import (
    SUIT_WORDS,
    card_text,
    hand_lines,
    header,
    numbered_hand,
    result_text,
    results_table,
    side_name,
    suit_text,
    table_view,
    trick_text,
)

HELP = {
    "play": "Type the number shown next to a card (1, 2, ...) or the card itself: AS, 10h, qd, 7♣.\n"
            "You must follow the suit led when you can; otherwise any card goes, and a trump wins.",
    "trump": "You are Hâkem: name the trump suit (hokm) from your first five cards.\n"
             "Type its number, or S, H, D, C (or spades, hearts, ...). Most cards, then the highest, is a good rule.",
    "discard": "Throw away cards face down before the draw: type their numbers (like 1 2 3) or names (2c 7d 9h).",
    "draw": "You see the top card of the stock. k keeps it (you then see the next card, which is thrown away);\n"
            "p passes it (it is thrown away and you must keep the next card).",
}
COMMON_HELP = "? or help shows this help; q quits (with --save the game so far is saved)."


class QuitGame(Exception):
    """The person typed ``q``."""


class SessionError(RuntimeError):
    """The game cannot go on (a bot failed); the message says why."""


class PlaySession:
    """Drives a whole game: the person at ``human``, a bot at every other seat."""

    def __init__(
        self,
        game: Game,
        bots: Mapping[int, Bot],
        names: Sequence[str],
        console: Console,
        ask: Callable[[str], str],
        *,
        human: int = 0,
        delay: float = 0.0,
        pause_between_hands: bool = False,
        show_thinking: bool = False,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if set(bots) | {human} != set(range(game.n)) or human in bots:
            raise ValueError("give a bot for every seat but the person's")
        self.game = game
        self.bots = dict(bots)
        self.names = list(names)
        self.console = console
        self.ask = ask
        self.human = human
        self.delay = delay
        self.pause_between_hands = pause_between_hands
        self.show_thinking = show_thinking
        self.sleep = sleep

    # ------------------------------------------------------------------ helpers
    @property
    def view(self) -> SeatView:
        return self.game.view(self.human)

    def say(self, *parts: object) -> None:
        self.console.print(*parts, highlight=False)

    def pause(self, factor: float = 1.0) -> None:
        if self.delay > 0:
            self.sleep(self.delay * factor)

    def name(self, seat: int) -> str:
        return escape(self.names[seat])

    # ------------------------------------------------------------------ the game loop
    def run(self) -> None:
        """Play until the game is over (or the person quits: :class:`QuitGame`)."""
        game = self.game
        self.announce_start()
        while not game.is_over:
            if game.phase is Phase.DEAL:
                game.deal()
                self.announce_deal()
                continue
            seat = game.to_move
            assert seat is not None
            if seat == self.human:
                action = self.ask_person()
            else:
                action = self.ask_bot(seat)
            tricks_before, hands_before = len(game.completed), game.hand_index
            game.apply(action, seat=seat)
            if seat != self.human:
                self.announce_bot(seat, action)
            elif isinstance(action, Draw):
                self.announce_own_draw()
            if game.hand_index != hands_before or len(game.completed) != tricks_before:
                self.announce_trick()
            if game.hand_index != hands_before:
                self.announce_hand_end()
        self.announce_game_end()

    def ask_bot(self, seat: int) -> Action:
        bot = self.bots[seat]
        try:
            if self.show_thinking:  # the search levels take up to a second: show that it is working
                with self.console.status(f"{self.name(seat)} is thinking…", spinner="dots"):
                    action = bot.act(self.game.view(seat))
            else:
                action = bot.act(self.game.view(seat))
            self.game.check(action, seat)
        except (BotFailure, IllegalActionError) as e:
            raise SessionError(f"{self.names[seat]} ({bot.name}) failed: {e}") from e
        return action

    # ------------------------------------------------------------------ the person's turn
    def ask_person(self) -> Action:
        """Show the decision, then ask until the answer is a legal action (or a command)."""
        kind, prompt, parse = self.show_decision(self.view)
        while True:
            text = self.ask(prompt)
            try:
                answer = parse(text)
            except InputError as e:
                self.say(Text(f"  {e}", style="yellow"))
                continue
            if answer is Command.HELP:
                self.say(Text(HELP[kind] + "\n" + COMMON_HELP, style="cyan"))
                continue
            if answer is Command.QUIT:
                raise QuitGame()
            assert not isinstance(answer, Command)
            try:
                return self.game.check(answer, self.human)
            except IllegalActionError as e:
                self.say(Text(f"  {explain(e, answer)}", style="yellow"))

    def show_decision(self, view: SeatView) -> tuple[str, str, Callable[[str], Action | Command]]:
        """Draw what the person decides on; return the help topic, the prompt and the answer's parser."""
        phase = self.game.phase
        if phase is Phase.TRUMP:
            return "trump", self.show_trump_choice(view), lambda text: parse_trump(text, list(Suit))
        if phase is Phase.DISCARD:
            count = TWO_PLAYER_DISCARDS[0 if self.human == view.hakem else 1]
            shown = sort_hand(view.hand, view.trump)
            self.say(header(view, self.names))
            self.say(f"  Discard {count} of your cards face down (numbers or names):")
            self.say(hand_lines(view, shown))
            return "discard", f"Discard {count} cards > ", lambda text: parse_discard(text, shown, count)
        if phase is Phase.DRAW:
            self.show_draw(view)
            return "draw", "Keep it or pass it? [k/p] > ", parse_draw
        numbered = numbered_hand(view)
        self.say(table_view(view, self.names, numbered))
        return "play", "Your card > ", lambda text: parse_play(text, numbered)

    def show_trump_choice(self, view: SeatView) -> str:
        self.say(header(view, self.names))
        self.say("  You are Hâkem. Your first five cards:")
        self.say(hand_lines(view))
        line = Text("  Choose trump (how many you hold):  ")
        for i, s in enumerate(Suit):
            count = sum(1 for c in view.hand if c.suit == s)
            line.append(f"{i + 1}:", style="cyan")
            line.append_text(suit_text(s))
            line.append(f" ({count})   ")
        line.rstrip()
        self.say(line)
        return "Trump > "

    def show_draw(self, view: SeatView) -> None:
        if not view.draw_log:  # the first draw: say where the hand stands, then only the draws
            self.say(header(view, self.names))
            self.say("  The draw: look at the top card of the stock, keep it or pass it.")
        self.say("  Your hand:")
        self.say(hand_lines(view))
        assert view.draw_card is not None
        t = Text("  Top card of the stock: ")
        t.append_text(card_text(view.draw_card, "bold"))
        t.append(f"   ({view.stock_size} cards left in the stock, {len(view.hand)} in your hand)")
        self.say(t)

    # ------------------------------------------------------------------ announcements
    def announce_start(self) -> None:
        game = self.game
        view = self.view
        seats = ", ".join(f"{self.name(s)}" for s in range(game.n))
        self.say(Text(f"Hokm, {game.n} players, first to {game.rules.target_points} points.", style="bold"))
        self.say(f"Seats in turn order: {seats}.")
        if game.n == 4:
            self.say(f"You play with {self.name(2)} against {self.name(1)} and {self.name(3)}.")
        if view.hakem_draw is not None:  # the face-up ace draw is public
            t = Text("Cards turned for Hâkem: ")
            for c in view.hakem_draw["cards"]:
                t.append_text(card_text(Card.parse(c)))
                t.append(" ")
            t.append(f"→ the first ace goes to {self.names[view.first_hakem]}, who is Hâkem.")
            self.say(t)

    def announce_deal(self) -> None:
        view = self.view
        hakem = "you are" if view.hakem == self.human else f"{self.names[view.hakem]} is"
        dealer = "you deal" if view.dealer == self.human else f"{self.names[view.dealer]} deals"
        self.say(Text(f"\n── Hand {view.hand_index + 1} ──  {hakem[0].upper()}{hakem[1:]} Hâkem; {dealer}.",
                      style="bold"))

    def announce_bot(self, seat: int, action: Action) -> None:
        who = self.name(seat)
        if isinstance(action, ChooseTrump):
            t = Text(f"  {self.names[seat]} (Hâkem) chooses trump: ")
            t.append_text(suit_text(action.suit))
            t.append(f" {SUIT_WORDS[action.suit]}", style="bold")
            self.say(t)
            self.pause(1.5)
        elif isinstance(action, Discard):
            self.say(f"  {who} discards {len(action.cards)} cards face down.")
        elif isinstance(action, Draw):
            pass  # the other player's draws are private; the stock count shows the progress
        elif isinstance(action, Play):
            t = Text(f"  {self.names[seat]} plays ")
            t.append_text(card_text(action.card, "bold"))
            self.say(t)
            self.pause()

    def announce_own_draw(self) -> None:
        first, second, kept = self.view.draw_log[-1]
        t = Text("  You kept " if kept else "  You passed ")
        t.append_text(card_text(first, "bold"))
        t.append(" and threw away " if kept else " and took ")
        t.append_text(card_text(second, "bold"))
        self.say(t)

    def announce_trick(self) -> None:
        view = self.view
        last = view.completed[-1]
        cards = list(zip(last.seats(view.players), last.cards))
        t = trick_text(view, self.names, cards)
        t.append("  →  ")
        t.append(f"{self.names[last.winner]} {'win' if last.winner == self.human else 'wins'} the trick",
                 style="bold green" if view.side_of(last.winner) == view.side else "bold red")
        self.say(t)
        self.pause(2.0)

    def announce_hand_end(self) -> None:
        view = self.view
        result = view.results[-1]
        self.say(result_text(result, view, self.names))
        scores = ", ".join(f"{side_name(view, s, self.names)} {view.scores[s]}" for s in range(len(view.scores)))
        self.say(f"  Score: {escape(scores)} (target {view.rules.target_points})")
        if self.pause_between_hands and not self.game.is_over:
            self.ask("Press Enter for the next hand > ")

    def announce_game_end(self) -> None:
        view = self.view
        winner = self.game.winner
        assert winner is not None
        self.say()
        self.say(results_table(view, self.names))
        mine = winner == view.side
        who = side_name(view, winner, self.names)
        score = "-".join(str(s) for s in view.scores)
        verb = "win" if who == self.names[self.human] else "wins"
        self.say(Text(f"\nGame over: {who} {verb} the game, {score}. " + ("Well played!" if mine else "Better luck next time."),
                      style="bold green" if mine else "bold red"))
