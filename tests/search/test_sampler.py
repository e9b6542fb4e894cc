"""Sampled deals agree with everything the seat has seen, and with nothing it has not."""

from __future__ import annotations

import random

import pytest

from hokm.bots.random_bot import RandomBot
from hokm.cards import SUIT_MASKS, full_deck, mask_of
from hokm.engine import Game, Phase, Rules, deal_layout
from hokm.search.inference import Evidence
from hokm.search.sampler import enumerate_deals, knowledge, sample_deal, voids_of


def play_until(players: int, seed: int, plays: int) -> Game:
    """A game in its play phase after ``plays`` random cards (random trump, discards, draws)."""
    game = Game.new(Rules(players=players), seed=seed)
    bot = RandomBot(seed)
    done = 0
    while game.phase is not Phase.PLAY or done < plays:
        if game.phase is Phase.DEAL:
            game.deal(rng=random.Random(seed))
            continue
        assert not game.is_over
        if game.phase is Phase.PLAY:
            done += 1
        game.apply(bot.act(game.view(game.to_move)))
    return game


def check_deal(game: Game, seat: int, hands: list[int]) -> None:
    view = game.view(seat)
    n = game.n
    assert hands[seat] == game.hands[seat]
    played = mask_of(view.played_cards())
    seen = 0
    for s in range(n):
        assert hands[s].bit_count() == view.hand_counts[s]
        assert not hands[s] & seen, "a card is in two hands"
        assert not hands[s] & played, "a played card came back"
        seen |= hands[s]
    for s, banned in enumerate(voids_of(view)):
        if s != seat:
            assert not hands[s] & banned, f"seat {s} got a suit it showed it lacks"
    if n == 2:
        opp = hands[1 - seat]
        assert not opp & mask_of(view.discards)
        for first, second, _ in view.draw_log:
            assert not (opp >> first) & 1 and not (opp >> second) & 1


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_sampled_deals_are_consistent(players: int, seed: int) -> None:
    game = play_until(players, seed, plays=3 + 4 * seed)
    seat = game.to_move
    kn = knowledge(game.view(seat))
    rng = random.Random(seed)
    for _ in range(20):
        check_deal(game, seat, sample_deal(kn, rng))


def test_the_real_deal_is_always_possible() -> None:
    """Voids and counts never exclude the actual hands (the constraints are facts, not guesses)."""
    for seed in range(30):
        game = play_until(4, seed, plays=20)
        seat = game.to_move
        kn = knowledge(game.view(seat))
        for s in range(4):
            assert not game.hands[s] & kn.banned[s]
            if s != seat:
                assert game.hands[s] & ~kn.unknown == 0


def test_voids_come_from_failing_to_follow() -> None:
    for seed in range(40):
        game = play_until(4, seed, plays=24)
        view = game.view(game.to_move)
        expect = [0] * 4
        for t in view.completed:
            for i, c in enumerate(t.cards[1:], 1):
                if c // 13 != t.cards[0] // 13:
                    expect[(t.leader + i) % 4] |= SUIT_MASKS[t.cards[0] // 13]
        if view.trick:
            led = view.trick[0][1] // 13
            for s, c in view.trick[1:]:
                if c // 13 != led:
                    expect[s] |= SUIT_MASKS[led]
        assert voids_of(view) == expect


def test_sampling_sees_only_the_view() -> None:
    """Two deals that differ only in cards hidden from seat 0 give seat 0 the same samples."""
    rules = Rules(players=4)
    deck = full_deck()
    random.Random(7).shuffle(deck)
    _, full = deal_layout(rules, 0, deck)
    a, b = full[1][0], full[2][0]  # swap one card between seats 1 and 2
    other = [b if c == a else a if c == b else c for c in deck]
    samples = []
    for d in (deck, other):
        game = Game(rules, first_hakem=0)
        game.deal(d)
        game.apply(game.legal_actions()[0])
        view = game.view(0)
        samples.append([sample_deal(knowledge(view), random.Random(3)) for _ in range(5)])
    assert samples[0] == samples[1]


def test_complete_deals_before_trump() -> None:
    for players in (3, 4):
        game = Game.new(Rules(players=players), seed=11)
        view = game.view(game.hakem)
        kn = knowledge(view, complete=True)
        hands = sample_deal(kn, random.Random(1))
        size = game.rules.hand_size
        assert [h.bit_count() for h in hands] == [size] * players
        assert hands[game.hakem] & game.hands[game.hakem] == game.hands[game.hakem]
        union = 0
        for h in hands:
            assert not union & h
            union |= h
        assert union == mask_of(full_deck(game.rules.removed_cards))


def test_enumeration_lists_every_deal_once() -> None:
    game = next(g for g in (play_until(4, seed, plays=40) for seed in range(200))
                if g.hand_index == 0 and len(g.completed) >= 10)  # few unknown cards left
    seat = game.to_move
    kn = knowledge(game.view(seat))
    deals = enumerate_deals(kn, limit=10_000)
    assert deals is not None and 0 < len(deals) <= kn.deal_count()
    keys = {tuple(d) for d in deals}
    assert len(keys) == len(deals)
    assert tuple(game.hands) in keys
    for d in deals:
        check_deal(game, seat, d)
    assert enumerate_deals(kn, limit=kn.deal_count() - 1) is None


def test_enumeration_refuses_too_many_deals() -> None:
    game = play_until(4, 3, plays=1)
    kn = knowledge(game.view(game.to_move))
    assert kn.deal_count() > 10**6
    assert enumerate_deals(kn, limit=1000) is None


def test_contradictory_view_is_a_clear_error() -> None:
    game = play_until(4, 5, plays=8)
    kn = knowledge(game.view(game.to_move))
    hopeless = type(kn)(kn.players, kn.seat, kn.unknown, kn.known, kn.need,
                        tuple((1 << 52) - 1 if s != kn.seat else 0 for s in range(4)))
    with pytest.raises(ValueError, match="no deal agrees"):
        sample_deal(hopeless, random.Random(0), tries=5)


def test_spectators_cannot_sample() -> None:
    game = play_until(4, 1, plays=2)
    with pytest.raises(ValueError, match="spectator"):
        knowledge(game.spectator_view())


def test_trump_evidence_prefers_long_trumps_for_the_hakem() -> None:
    game = play_until(4, 2, plays=1)
    seat = next(s for s in range(4) if s != game.hakem)
    view = game.view(seat)
    ev = Evidence(view)
    kn = knowledge(view)
    rng = random.Random(0)
    trump = SUIT_MASKS[view.trump]
    deals = [sample_deal(kn, rng) for _ in range(300)]
    weights = [ev.weight(d) for d in deals]
    plain = sum((d[game.hakem] & trump).bit_count() for d in deals) / len(deals)
    weighted = sum(w * (d[game.hakem] & trump).bit_count() for w, d in zip(weights, deals)) / sum(weights)
    assert weighted > plain + 0.3


def test_two_player_evidence_gives_the_opponent_the_better_cards() -> None:
    game = play_until(2, 4, plays=2)
    view = game.view(game.to_move)
    ev = Evidence(view)
    kn = knowledge(view)
    rng = random.Random(0)
    opp = 1 - view.seat
    high = sum(0b1111 << (9 + 13 * s) for s in range(4))
    deals = [sample_deal(kn, rng) for _ in range(300)]
    weights = [ev.weight(d) for d in deals]
    plain = sum((d[opp] & high).bit_count() for d in deals) / len(deals)
    weighted = sum(w * (d[opp] & high).bit_count() for w, d in zip(weights, deals)) / sum(weights)
    assert weighted > plain + 0.15
