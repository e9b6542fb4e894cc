"""The levels at ``/api/info``: every one the server offers, weakest first, described, with honest figures."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from hokm.server.levels import LEVELS, REPORT, offered_levels
from hokm.server.protocol import InfoResponse

from .harness import Player, ServerProcess, run

ORDER = ["random", "easy", "medium", "hard", "expert"]
PERSIAN = re.compile("[\u0600-\u06ff]")
ROOT = Path(__file__).resolve().parents[2]


def test_info_lists_every_level_weakest_first_in_both_languages(server: ServerProcess) -> None:
    info = InfoResponse.model_validate(httpx.get(server.url + "/api/info", timeout=20).json())
    assert [b.name for b in info.bots] == ORDER
    for b in info.bots:
        for words in (b.label, b.about):
            assert words.en and not PERSIAN.search(words.en)
            assert PERSIAN.search(words.fa) and not re.search("[0-9\u0660-\u0669]", words.fa)
    assert "random legal card" in info.bots[0].about.en
    assert "counts trumps" in info.bots[3].about.en and "reads your hand" in info.bots[-1].about.en.lower()
    assert info.bots[0].strength is None
    for below, level in zip(info.bots, info.bots[1:]):
        assert level.strength is not None and level.strength.against == below.name
        assert level.strength.win_rate > 0.5  # each level beat the one below it
        assert below.label.en in level.strength.words.en and below.label.fa in level.strength.words.fa
        # "با" would read "with (as partner)": the level is measured against the one below it.
        assert f"در برابر «{below.label.fa}»" in level.strength.words.fa and " با «" not in level.strength.words.fa


def test_every_figure_is_the_strength_reports() -> None:
    """Each figure is a row of the four-player tables of docs/strength.md, and its command is listed there."""
    report = (ROOT / REPORT).read_text(encoding="utf-8")
    four = report.split("## 4 players", 1)[1].split("## 3 players", 1)[0]
    rows = {(m[0], m[1]): (int(m[2]), int(m[3]))
            for m in re.findall(r"^\| (\S+) \| (\S+) \| (\d+) \| (\d+) \|", four, flags=re.M)}
    checked = 0
    for level in offered_levels():
        s = level.strength
        if s is None:
            continue
        if (level.name, s.against) in rows:
            assert rows[(level.name, s.against)] == (s.games, s.won), level.name
        else:  # the report's row with the two levels the other way round
            games, won_by_other = rows[(s.against, level.name)]
            assert (games, games - won_by_other) == (s.games, s.won), level.name
        command = s.source.split(": ", 1)[1]
        assert command in four, command
        assert s.games >= 200, (level.name, s.games)  # a step of the ladder is measured over 200 games at least
        checked += 1
    assert checked == len(LEVELS) - 1


def test_an_expert_table_plays(server: ServerProcess) -> None:
    async def main() -> None:
        p = await Player(server, "brave").signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": 4, "bot": "expert",
                                                   "seed": "00aa"}, status=201)
        assert {s["bot"] for s in table["seats"] if s["kind"] == "bot"} == {"expert"}
        await p.connect()
        await p.join(table["table_id"])
        await p.play(until=lambda m: m["type"] == "event" and m["event"]["kind"] == "trick", timeout=120)
        assert not p.errors
        await p.close()

    run(main(), timeout=200)


def test_a_level_names_another_only_as_a_level() -> None:
    """«متوسط» described as playing "like a باتجربه player" reads as if it were the next level up: another
    level's name appears in a description only quoted, as the level it is."""
    for lv in LEVELS:
        for other in LEVELS:
            if other is lv:
                continue
            fa = lv.about.fa.replace(f"«{other.label.fa}»", "")
            en = lv.about.en.replace(f"“{other.label.en}”", "")
            assert not re.search(rf"(?<![\u0600-\u06ff]){other.label.fa}(?![\u0600-\u06ff])", fa), (lv.name, other.name, lv.about.fa)
            assert not re.search(rf"\b{other.label.en}\b", en, re.I), (lv.name, other.name, lv.about.en)
