"""What the terminal shows, built with rich from one seat's view only.

Nothing here reads a :class:`~hokm.engine.Game`: every function takes the human seat's
:class:`~hokm.engine.SeatView` (or public results), so the screen cannot show a hidden card.
Cards are written rank + suit symbol (``10♥``, ``A♠``), red suits in red; legal cards carry the
number the player may type.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..cards import Card, Suit, sort_hand
from ..engine import HandResult, SeatView

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def suit_style(suit: Suit | int) -> str:
    return "red" if int(suit) in (1, 2) else "default"


def suit_text(suit: Suit | int) -> Text:
    s = Suit(int(suit))
    return Text(s.symbol, style=suit_style(s))


def card_text(card: Card, style: str = "") -> Text:
    """``A♠`` with the suit's colour (and an extra style such as ``bold`` or ``dim``)."""
    style = " ".join(x for x in (suit_style(card.suit), style) if x and x != "default")
    return Text(RANK_NAMES[card.rank] + card.suit.symbol, style=style)


def seat_names(players: int, human: str = "You") -> list[str]:
    """Display names by seat; the person sits at seat 0, and ``seat + 1`` plays next (to the right)."""
    others = {4: ["Right", "Partner", "Left"], 3: ["Right", "Left"], 2: ["Opponent"]}[players]
    return [human, *others]


def side_name(view: SeatView, side: int, names: Sequence[str]) -> str:
    """A side as the person thinks of it: "Your team" / "Their team" with four players, else a name."""
    if view.players == 4:
        mine = view.side == side
        pair = " & ".join(names[s] for s in view.rules.seats_of(side))
        return ("Your team" if mine else "Their team") + f" ({pair})"
    return names[side]


def numbered_hand(view: SeatView) -> list[Card]:
    """The legal cards in the order the hand is shown (trump first): index + 1 is what to type."""
    legal = {a.card for a in view.legal if hasattr(a, "card")}
    return [c for c in sort_hand(view.hand, view.trump) if c in legal]


def hand_lines(view: SeatView, numbered: Sequence[Card] = (), *, cards: Sequence[Card] | None = None) -> Text:
    """The hand, one line per suit (trump first, high cards first); numbered cards are the choices."""
    shown = sort_hand(view.hand if cards is None else cards, view.trump)
    number = {c: i + 1 for i, c in enumerate(numbered)}
    out = Text()
    suits: list[int] = []
    for c in shown:
        if c.suit not in suits:
            suits.append(c.suit)
    for s in suits:
        line = Text("  ")
        line.append_text(suit_text(s))
        line.append(" trump " if view.trump is not None and s == view.trump else "       ", style="bold yellow")
        for c in shown:
            if c.suit != s:
                continue
            if c in number:
                line.append(f"{number[c]}:", style="cyan")
                line.append_text(card_text(c, "bold"))
            elif numbered:
                line.append_text(card_text(c, "dim"))
            else:
                line.append_text(card_text(c))
            line.append("  ")
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


def header(view: SeatView, names: Sequence[str]) -> Text:
    """Hand number, Hâkem, trump, partner, and per side the points and tricks of this hand."""
    t = Text()
    t.append(f"Hand {view.hand_index + 1}", style="bold")
    t.append("  ·  Hâkem: ")
    t.append(names[view.hakem], style="bold magenta")
    t.append("  ·  Trump: ")
    if view.trump is None:
        t.append("not chosen yet", style="dim")
    else:
        t.append_text(suit_text(view.trump))
        t.append(" " + SUIT_WORDS[view.trump])
    target = view.rules.target_points
    for side in range(len(view.scores)):
        t.append("\n  ")
        t.append(f"{side_name(view, side, names)}: ", style="bold" if side == view.side else None)
        t.append(f"{view.scores[side]}/{target} points")
        if view.trump is not None:
            k = view.tricks[side]
            t.append(f", {k} trick{'' if k == 1 else 's'} this hand")
    return t


def trick_text(view: SeatView, names: Sequence[str], cards: Sequence[tuple[int, Card]] | None = None) -> Text:
    """The cards on the table in play order, each with its player's name."""
    cards = view.trick if cards is None else cards
    t = Text("  Table: ")
    if not cards:
        t.append("empty", style="dim")
        return t
    for i, (seat, card) in enumerate(cards):
        if i:
            t.append(", ")
        t.append(names[seat] + " ")
        t.append_text(card_text(card, "bold"))
    return t


def table_view(view: SeatView, names: Sequence[str], numbered: Sequence[Card] = ()) -> RenderableType:
    """Everything the person needs to choose a card: header, table, hand with the choices numbered."""
    hand_title = Text("  Your hand" + (" (numbers are the cards you may play):" if numbered else ":"))
    return Group(Text(), header(view, names), trick_text(view, names), hand_title, hand_lines(view, numbered))


def tricks_summary(view: SeatView, tricks: Sequence[int], names: Sequence[str]) -> str:
    """Tricks per side in words: "your team 7, their team 3" or "You 5, Right 8, Left 4"."""
    if view.players == 4:
        mine = view.side or 0
        return f"your team {tricks[mine]}, their team {tricks[1 - mine]}"
    return ", ".join(f"{names[s]} {tricks[s]}" for s in range(len(tricks)))


def result_text(result: HandResult, view: SeatView, names: Sequence[str]) -> Text:
    """One hand's outcome: who took it, tricks, points, kot / Hâkem-koti."""
    assert result.winner is not None
    who = side_name(view, result.winner, names)
    t = Text("  ")
    t.append(f"{who} won the hand", style="bold green" if result.winner == view.side else "bold red")
    t.append(f" (tricks: {tricks_summary(view, result.tricks, names)})")
    if result.hakem_koti:
        t.append(" — Hâkem-koti!", style="bold yellow")
    elif result.kot:
        t.append(" — kot!", style="bold yellow")
    elif result.tie:
        t.append(" — the other two tied for the most tricks", style="bold yellow")
    t.append(f"  +{result.points} point{'s' if result.points != 1 else ''}")
    return t


def results_table(view: SeatView, names: Sequence[str]) -> Table:
    """All finished hands: Hâkem, trump, tricks, winner, points."""
    table = Table(title="Hands", title_justify="left", show_edge=False)
    for col in ("#", "Hâkem", "Trump", "Tricks", "Won by", "Points"):
        table.add_column(col)
    for i, r in enumerate(view.results):
        won = side_name(view, r.winner, names) if r.winner is not None else "-"
        note = " Hâkem-koti" if r.hakem_koti else " kot" if r.kot else " (tie)" if r.tie else ""
        table.add_row(str(i + 1), escape(names[r.hakem]),
                      suit_text(r.trump) if r.trump is not None else Text("-"),
                      "-".join(map(str, r.tricks)), escape(won), f"{r.points}{note}")
    return table
