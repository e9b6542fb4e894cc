"""The bot levels the server offers, weakest first, in words a player understands.

``/api/info`` lists them in this order, each with a name and a description in English and
Persian and, where one was measured, its strength: how often it beat the level below it in the
strength report (``docs/strength.md``, four players, duplicate games), with the ``hokm arena``
command behind the figure. ``tests/server/test_levels.py`` checks every figure against that report.

The order is the measured one: each level against the one below over at least 200 duplicate games
(the report's "Each public level against the one below"). The rules-of-thumb player
(``heuristic``) that every level is measured against is not offered: over 200 games it was no clear
step between ``medium`` and ``hard`` (56.5% against medium and 45% against hard with four players;
35.3% against medium with three, where the fair share is 33.3%; 46% against medium with two: the
report's "Why heuristic is not a public level"). A public bot not listed here (a level added later)
is offered after these, with its registry description and no figure.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..players import available_bots
from .protocol import BotLevel, LevelStrength, Words

REPORT = "docs/strength.md"


@dataclass(frozen=True)
class _Figure:
    against: str
    games: int
    won: int
    command: str


@dataclass(frozen=True)
class _Level:
    name: str
    label: Words
    about: Words
    figure: _Figure | None = None


def _arena(a: str, b: str, games: int, seed: int) -> str:
    return f"hokm arena --players 4 --a {a} --b {b} --games {games} --seed {seed} --jobs 2 --json"


#: Weakest first. Figures: four players, from the strength report's ladder table (``won`` counts the
#: games this level won).
LEVELS: tuple[_Level, ...] = (
    _Level("random", Words(en="Random", fa="تصادفی"),
           Words(en="Plays a random legal card: a calm table for learning the rules.",
                 fa="یک کارت مجاز را تصادفی بازی می‌کند؛ میزی آرام برای یادگرفتن قانون‌ها.")),
    _Level("easy", Words(en="Easy", fa="آسان"),
           Words(en="Looks a little ahead, but often picks a weaker card.",
                 fa="کمی جلوتر را می‌بیند، ولی اغلب کارت ضعیف‌تری را انتخاب می‌کند."),
           _Figure("random", 200, 181, _arena("easy", "random", 200, 20261608))),
    _Level("medium", Words(en="Medium", fa="متوسط"),
           Words(en="Chooses trump by a good player's rules of thumb and tries a few possible deals before each card.",
                 fa="حکم را با قاعده‌های بازیکنان خوب انتخاب می‌کند و پیش از هر کارت چند پخش ممکن را امتحان می‌کند."),
           _Figure("easy", 200, 187, _arena("medium", "easy", 200, 20261605))),
    _Level("hard", Words(en="Hard", fa="سخت"),
           Words(en="Plays by a good player's rules of thumb: counts trumps and remembers the cards played, "
                    "then works out the last tricks exactly.",
                 fa="با قاعده‌های بازیکنان خوب بازی می‌کند: حکم‌ها را می‌شمارد، کارت‌های بازی‌شده را به خاطر "
                    "می‌سپارد و دورهای آخر را دقیق حساب می‌کند."),
           _Figure("medium", 200, 144, _arena("hard", "medium", 200, 20261606))),
    _Level("expert", Words(en="Expert", fa="استاد"),
           Words(en="Reads your hand from your plays and weighs every card against hundreds of possible deals.",
                 fa="از کارت‌هایی که بازی کرده‌اید دستتان را حدس می‌زند و هر کارت را در صدها پخش ممکن می‌سنجد."),
           _Figure("hard", 200, 144, _arena("expert", "hard", 200, 20261607))),
)

_PERSIAN_DIGITS = str.maketrans("0123456789.", "۰۱۲۳۴۵۶۷۸۹٫")


def _percent(won: int, games: int) -> tuple[str, str]:
    text = f"{100 * won / games:.1f}".removesuffix(".0")
    return f"{text}%", f"{text.translate(_PERSIAN_DIGITS)}٪"


def _strength(figure: _Figure, labels: dict[str, Words]) -> LevelStrength:
    en_pct, fa_pct = _percent(figure.won, figure.games)
    other = labels[figure.against]
    games_fa = str(figure.games).translate(_PERSIAN_DIGITS)
    words = Words(en=f"Won {en_pct} of {figure.games} four-player games against {other.en}.",
                  fa=f"در {games_fa} بازی چهارنفره در برابر «{other.fa}»، {fa_pct} بازی‌ها را برد.")
    return LevelStrength(against=figure.against, players=4, games=figure.games, won=figure.won,
                         win_rate=round(figure.won / figure.games, 4), source=f"{REPORT}: {figure.command}",
                         words=words)


def offered_levels() -> list[BotLevel]:
    """The public bot levels, weakest first, described for players."""
    specs = {s.name: s for s in available_bots(public_only=True)}
    labels = {lv.name: lv.label for lv in LEVELS}
    out = []
    for lv in LEVELS:
        if lv.name in specs:
            strength = _strength(lv.figure, labels) if lv.figure and lv.figure.against in specs else None
            out.append(BotLevel(name=lv.name, description=specs[lv.name].description, label=lv.label,
                                about=lv.about, strength=strength))
    for name, spec in specs.items():
        if name not in labels:
            out.append(BotLevel(name=name, description=spec.description, label=Words(en=name, fa=name),
                                about=Words(en=spec.description, fa=spec.description)))
    return out


__all__ = ["LEVELS", "offered_levels"]
