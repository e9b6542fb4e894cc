#!/usr/bin/env python3
"""A tiny Hokm bot speaking the JSON-lines bot protocol (see docs/bot-protocol.md).

It uses nothing but the standard library, to show that a bot can be written in any language:
read one JSON object per line, answer every "act" message with one line {"action": ...}.
Its play is deliberately simple: win the trick with the lowest card that surely does when it
is last to play, otherwise play its lowest legal card; name its longest suit trump; keep drawn
cards of rank ten or better; discard its lowest cards.

    hokm arena --a cmd:"python examples/bots/simple_bot.py" --b random --games 10
"""

import json
import sys

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def choose(view: dict, legal: list) -> dict:
    kind = legal[0]["type"]
    if kind == "trump":
        suits = [c[1] for c in view["hand"]]
        best = max("SHDC", key=lambda s: (suits.count(s), sum(rank(c) for c in view["hand"] if c[1] == s)))
        return {"type": "trump", "suit": best}
    if kind == "draw":
        return {"type": "draw", "choice": "keep" if rank(view["draw_card"]) >= 8 else "pass"}
    if kind == "discard":
        return min(legal, key=lambda a: sum(rank(c) for c in a["cards"]))
    cards = [a["card"] for a in legal]
    trick = view["trick"]
    if trick and len(trick) == view["players"] - 1:
        trump, led = view["trump"], trick[0]["card"][1]
        best = max((t["card"] for t in trick),
                   key=lambda c: (c[1] == trump, c[1] == led, rank(c)))
        winners = [c for c in cards if (c[1] == best[1] and rank(c) > rank(best))
                   or (c[1] == trump and best[1] != trump)]
        if winners:
            return {"type": "play", "card": min(winners, key=rank)}
    return {"type": "play", "card": min(cards, key=rank)}


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "act":
            print(json.dumps({"action": choose(msg["view"], msg["legal"])}), flush=True)
        elif msg.get("type") == "quit":
            break


if __name__ == "__main__":
    main()
