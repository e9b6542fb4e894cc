"""Whole games of ``hokm play``'s loop with a scripted person and random bots, in memory."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from rich.console import Console

from hokm.cards import Suit
from hokm.engine import ChooseTrump, Game, Play, Rules
from hokm.players import make_bot
from hokm.records import dumps, load_record, record_from_game
from hokm.terminal import PlaySession, QuitGame, seat_names


def scripted(session_ref: list[PlaySession], log: list[str], extra: Callable[[str], str | None] = lambda p: None):
    """A person who answers every prompt with the first choice shown (and logs the prompts)."""

    def ask(prompt: str) -> str:
        log.append(prompt)
        special = extra(prompt)
        if special is not None:
            return special
        if prompt.startswith("Discard"):
            count = int(re.search(r"Discard (\d)", prompt).group(1))
            return " ".join(str(k) for k in range(1, count + 1))
        if prompt.startswith("Keep"):
            return "k" if len(log) % 2 else "p"
        return "1"

    return ask


def make_session(players: int, seed: int, extra=lambda p: None, **kw) -> tuple[PlaySession, io.StringIO, list[str]]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    game = Game.new(Rules(players=players), seed=seed, deal=False)
    bots = {s: make_bot("random", seed=seed * 10 + s) for s in range(1, players)}
    log: list[str] = []
    ref: list[PlaySession] = []
    session = PlaySession(game, bots, seat_names(players), console, scripted(ref, log, extra), **kw)
    ref.append(session)
    return session, out, log


@pytest.mark.parametrize("players", [4, 3, 2])
def test_a_whole_game(players: int) -> None:
    session, out, log = make_session(players, seed=players)
    session.run()
    game = session.game
    text = out.getvalue()
    assert game.is_over
    assert "Game over:" in text and "Hands" in text
    mine = [a for s, a in _decisions(game) if s == 0]
    # "1" is always a legal card, so every card prompt gave exactly one play
    assert sum(1 for p in log if p.startswith("Your card")) == sum(1 for a in mine if isinstance(a, Play))
    assert sum(1 for p in log if p.startswith("Trump")) == sum(1 for a in mine if isinstance(a, ChooseTrump))
    # the record of the game replays to the same result
    again = load_record(dumps(record_from_game(game, names=seat_names(players))))
    assert again.scores == game.scores and again.is_over
    if players == 2:
        assert any(p.startswith("Discard") for p in log) and any(p.startswith("Keep") for p in log)
        assert "You kept" in text or "You passed" in text


def _decisions(game: Game) -> list[tuple[int, object]]:
    """Replay the history to learn which seat took each action."""
    replay = Game(game.rules, hakem_draw=game.hakem_draw)
    out = []
    for kind, value in game.history:
        if kind == "deal":
            replay.deal(value)
        else:
            out.append((replay.to_move, value))
            replay.apply(value)
    return out


def test_screen_shows_only_the_persons_cards() -> None:
    session, out, _ = make_session(4, seed=11)
    game = session.game
    shown: list[str] = []
    real_ask = session.ask

    def ask(prompt: str) -> str:
        if prompt.startswith("Your card"):
            shown.append(out.getvalue())
            out.seek(0)
            out.truncate()
            hidden = [c for s in (1, 2, 3) for c in game.hand_of(s)]
            hand_block = shown[-1].split("Your hand")[-1]
            for c in hidden:
                assert re.search(rf"(?<![\dJQKA]){re.escape(_sym(c))}", hand_block) is None
        return real_ask(prompt)

    session.ask = ask
    session.run()
    assert shown


def _sym(card) -> str:
    return ("2 3 4 5 6 7 8 9 10 J Q K A".split()[card.rank]) + card.suit.symbol


def test_bad_cards_get_a_message_and_a_new_prompt() -> None:
    answers = iter(["ZZ", "99", "?", "AS" , "2C", "KD", "QH", "JS"])
    seen: list[str] = []

    def extra(prompt: str) -> str | None:
        if prompt.startswith("Your card") and len(seen) < 8:
            seen.append(prompt)
            return next(answers)
        return None

    session, out, log = make_session(4, seed=5, extra=extra)
    session.run()
    text = out.getvalue()
    assert "is not a card" in text
    assert "there is no card number 99" in text
    assert "must follow the suit led when you can" in text  # the help
    assert re.search(r"you (don't hold|must follow) ", text)
    assert session.game.is_over


def test_quit_and_end_of_input() -> None:
    session, out, _ = make_session(3, seed=1, extra=lambda p: "q" if p.startswith("Your card") else None)
    with pytest.raises(QuitGame):
        session.run()

    def eof(prompt: str) -> str:
        raise EOFError

    session, _, _ = make_session(2, seed=1, extra=lambda p: None)
    session.ask = eof
    with pytest.raises(EOFError):
        session.run()
    assert session.game.to_move == 0 and not session.game.is_over


def test_trump_choice_shows_the_first_five_and_counts() -> None:
    session, out, log = make_session(4, seed=2)
    session.run()
    text = out.getvalue()
    hakem_hands = [r for r in session.game.results if r.hakem == 0]
    other_hands = [r for r in session.game.results if r.hakem != 0]
    assert hakem_hands and other_hands  # this seed gives both
    assert text.count("You are Hâkem. Your first five cards:") == len(hakem_hands)
    assert text.count("Choose trump (how many you hold):") == len(hakem_hands)
    assert text.count("(Hâkem) chooses trump:") == len(other_hands)
    assert all(r.trump is Suit.SPADES for r in hakem_hands)  # "1" is spades


def test_pauses_after_bot_cards_and_between_hands() -> None:
    sleeps: list[float] = []
    session, _, log = make_session(4, seed=3, delay=0.5, pause_between_hands=True,
                                   extra=lambda p: "" if p.startswith("Press Enter") else None)
    session.sleep = sleeps.append
    session.run()
    assert sleeps and min(sleeps) == 0.5 and 1.0 in sleeps  # a bot card, a trick
    assert sum(1 for p in log if p.startswith("Press Enter")) == len(session.game.results) - 1


def test_a_whole_game_against_the_default_heuristic_bots() -> None:
    out = io.StringIO()
    game = Game.new(Rules(players=4), seed=8, deal=False)
    bots = {s: make_bot("heuristic", seed=s) for s in (1, 2, 3)}
    log: list[str] = []
    session = PlaySession(game, bots, seat_names(4), Console(file=out, width=100, color_system=None),
                          scripted([], log))
    session.run()
    assert game.is_over and "Game over:" in out.getvalue()


def test_every_seat_but_the_persons_needs_a_bot() -> None:
    game = Game.new(Rules(players=3), seed=1, deal=False)
    with pytest.raises(ValueError, match="every seat"):
        PlaySession(game, {1: make_bot("random")}, seat_names(3), Console(file=io.StringIO()), input)


def test_thinking_indicator_does_not_change_the_game() -> None:
    quiet, _, _ = make_session(3, seed=6)
    shown, _, _ = make_session(3, seed=6, show_thinking=True)
    quiet.run()
    shown.run()
    assert quiet.game.history == shown.game.history


def test_names_are_shown_as_typed_never_as_markup() -> None:
    out = io.StringIO()
    game = Game.new(Rules(players=2), seed=4, deal=False)
    names = seat_names(2, "[bold]Sara[/]")
    session = PlaySession(game, {1: make_bot("random", seed=1)}, names,
                          Console(file=out, width=100, color_system=None), scripted([], []))
    session.run()
    text = out.getvalue()
    assert "[bold]Sara[/]" in text and "\\[bold]" not in text
