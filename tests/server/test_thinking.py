"""Bot think time: short for forced cards, longer for real choices, within bot_delay, never under the animation."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from hokm.engine import Game, Phase, Rules
from hokm.server.botpool import BotPool
from hokm.server.bus import MemoryBus
from hokm.server.config import ServerConfig
from hokm.server.storage import open_storage
from hokm.server.table import TableActor
from hokm.server.thinking import CARD_ANIMATION, TRICK_ANIMATION, BotThinking

from .test_table import _row, _wait_over

STATIC = Path(__file__).resolve().parents[2] / "src" / "hokm" / "web" / "static" / "js"


def positions(seed: int = 1):
    """Game states at every decision of a random 4-player game (copies)."""
    rng = random.Random(seed)
    g = Game.new(Rules(players=4), rng=rng)
    while not g.is_over:
        if g.phase is Phase.DEAL:
            g.deal(rng=rng)
            continue
        yield g.copy()
        g.apply(rng.choice(g.legal_actions()))


def test_forced_cards_are_quick_and_real_choices_take_longer():
    t = BotThinking((0.6, 1.4), random.Random(5))
    forced, choice, wide = [], [], []
    for g in positions():
        if g.phase is not Phase.PLAY:
            continue
        d = t.delay(g)
        if not g.trick and g.completed:
            continue  # a lead waits for the last trick to be swept away (next test)
        legal = len(g.legal_cards())
        (forced if legal == 1 else wide if legal >= 6 else choice).append(d)
        assert 0.6 <= d <= 1.4
        assert d >= CARD_ANIMATION
    assert forced and choice and wide
    def mean(xs):
        return sum(xs) / len(xs)

    assert mean(forced) + 0.2 < mean(choice) < mean(wide)
    assert max(forced) < min(wide)
    assert t.counts["forced"] >= len(forced) and t.counts["choice"] >= len(choice) + len(wide)
    assert len({round(x, 6) for x in wide}) > len(wide) // 2  # jitter: no fixed pause


def test_a_lead_waits_for_the_last_trick_to_be_swept_and_trump_is_slow():
    t = BotThinking((0.2, 3.0), random.Random(2))
    for g in positions(3):
        d = t.delay(g)
        assert 0.2 <= d <= 3.0
        if g.phase is Phase.PLAY and not g.trick and g.completed:
            assert d >= TRICK_ANIMATION
        else:
            assert d >= CARD_ANIMATION
        if g.phase is Phase.TRUMP:
            assert d >= 0.2 + 0.7 * (3.0 - TRICK_ANIMATION)
    assert t.counts["trump"] > 0


def test_the_configured_maximum_wins_over_the_animation():
    t = BotThinking((0.0, 0.01), random.Random(1))
    assert all(0.0 <= t.delay(g) <= 0.01 for g in positions())


def test_the_animation_times_match_the_web_table():
    table = (STATIC / "table.js").read_text(encoding="utf-8")
    settings = (STATIC / "settings.js").read_text(encoding="utf-8")
    assert re.search(r"normal:\s*1\b", settings)
    assert "duration: settings.dur(260)" in table and "sleep(settings.dur(650))" in table
    assert "duration: settings.dur(420)" in table
    assert abs(CARD_ANIMATION - 0.260) < 1e-9 and abs(TRICK_ANIMATION - 1.070) < 1e-9


def test_the_table_asks_the_thinking_model_for_every_bot_decision(tmp_path: Path) -> None:
    async def main() -> None:
        store = open_storage(f"sqlite+aiosqlite:///{tmp_path / 't.db'}")
        await store.init()
        bus, bots = MemoryBus(), BotPool(1)
        row = _row("think", 4)
        await store.create_table(row)
        actor = TableActor(row, storage=store, bus=bus, bots=bots,
                           config=ServerConfig(bot_delay=(0.0, 0.0), hand_pause=0.0, signing_key="07" * 32))
        await actor.create()
        await actor.start(None)
        await _wait_over(actor)
        g = actor.game
        plays = sum(4 * sum(r.tricks) for r in g.results)
        c = actor.turns.thinking.counts
        assert c["forced"] + c["choice"] == plays and c["trump"] == len(g.results)
        bots.close()
        await store.close()
    asyncio.run(main())
