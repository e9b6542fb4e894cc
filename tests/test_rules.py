"""Rule options: validation with clear errors, and the facts derived from them."""

from __future__ import annotations

import pytest

from hokm.rules import RULE_KEYS, Rules, RulesError


def test_defaults_match_the_rules_notes() -> None:
    r = Rules()
    assert (r.players, r.target_points, r.kot_points, r.hakem_koti_points) == (4, 7, 2, 3)
    assert r.partner_draw is False and r.removed_two == "2C"


@pytest.mark.parametrize(
    "players, deck, hand, tricks, sides",
    [(2, 52, 13, 13, 2), (3, 51, 17, 17, 3), (4, 52, 13, 13, 2)],
)
def test_derived_facts(players: int, deck: int, hand: int, tricks: int, sides: int) -> None:
    r = Rules(players=players)
    assert (r.deck_size, r.hand_size, r.total_tricks, r.sides) == (deck, hand, tricks, sides)
    assert len(r.removed_cards) == 52 - deck


def test_packets() -> None:
    assert Rules(players=4).packets == (5, 4, 4)
    assert Rules(players=3).packets == (5, 4, 4, 4)


def test_sides() -> None:
    r4 = Rules(players=4)
    assert [r4.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert r4.seats_of(1) == (1, 3)
    r3 = Rules(players=3)
    assert [r3.side_of(s) for s in range(3)] == [0, 1, 2] and r3.seats_of(2) == (2,)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"players": True}, "players"),
        ({"players": 4.0}, "players"),
        ({"target_points": 0}, "target_points"),
        ({"target_points": 7.5}, "target_points"),
        ({"kot_points": True}, "kot_points"),
        ({"hakem_koti_points": 101}, "hakem_koti_points"),
        ({"partner_draw": 1}, "partner_draw must be true or false"),
        ({"players": 3, "partner_draw": True}, "4-player option"),
        ({"removed_two": "3C"}, "removed_two"),
        ({"removed_two": "XX"}, "removed_two"),
    ],
)
def test_bad_options(kwargs, match: str) -> None:
    with pytest.raises(RulesError, match=match):
        Rules(**kwargs)


def test_removed_two_is_normalised() -> None:
    assert Rules(players=3, removed_two="2s").removed_two == "2S"
    assert [str(c) for c in Rules(players=3, removed_two="2D").removed_cards] == ["2D"]


def test_from_dict() -> None:
    assert Rules.from_dict(3, {"target_points": 5}) == Rules(players=3, target_points=5)
    assert Rules.from_dict(4, None) == Rules()
    with pytest.raises(RulesError, match="unknown rules key.*winning_score"):
        Rules.from_dict(4, {"winning_score": 7})
    with pytest.raises(RulesError, match="object"):
        Rules.from_dict(4, [("target_points", 3)])  # type: ignore[arg-type]


def test_to_dict_round_trip() -> None:
    r = Rules(players=4, target_points=3, partner_draw=True)
    assert set(r.to_dict()) == set(RULE_KEYS)
    assert Rules.from_dict(4, r.to_dict()) == r
    assert r.to_dict(include_defaults=False) == {"target_points": 3, "partner_draw": True}


def _sides_written_out(source: str) -> list[str]:
    """Where a module works out a seat's side or a side's seats itself: ``seat % 2``, ``side + 2``."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant) and node.right.value == 2 \
                and isinstance(node.left, ast.Name) and (isinstance(node.op, ast.Mod) or (
                    isinstance(node.op, ast.Add) and node.left.id in ("s", "seat", "side", "me", "mover"))):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_side_of_a_seat_is_written_only_in_the_rules() -> None:
    """Everything else calls hokm.rules (side_of, seats_of, partner_of) or, compiled, its twin."""
    from pathlib import Path

    import hokm

    package = Path(hokm.__file__).parent
    homes = {package / "rules.py", package / "search" / "_rules_kernel.py"}
    found = {str(p.relative_to(package)): hits for p in sorted(package.rglob("*.py")) if p not in homes
             for hits in [_sides_written_out(p.read_text("utf-8"))] if hits}
    assert found == {}
    assert sorted(_sides_written_out("bots = [a if s % 2 == 0 else b for s in range(4)]\nx = names[side + 2]\n")) == [
        "1: s % 2", "2: side + 2"]
