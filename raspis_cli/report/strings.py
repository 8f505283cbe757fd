"""Every word the HTML reports show, in English and Russian, in one place.

The reports follow the interface language: ``--lang`` when given, else the
``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` environment (a value starting
with ``ru`` means Russian), else English.
"""

from __future__ import annotations

from typing import Final

from raspis_cli.model.joker_modes import mode_words

__all__ = ["JOKER_WORDS", "LANGS", "STRINGS", "interface_lang", "joker_words"]

LANGS: Final = ("en", "ru")

STRINGS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "game_report": "Game report",
        "club_report": "Club report",
        "generated": "Made by raspis",
        "game": "Game",
        "rules": "Rules",
        "players": "Players",
        "sheet": "Score sheet (расписка)",
        "sheet_note": "Each cell: bid/taken, deal score, running total. A value written on the sheet "
                      "that differs from the recomputed one is highlighted, the written value beside it.",
        "deal": "Deal",
        "kind": "Kind",
        "cards": "Cards",
        "dealer": "Dealer",
        "trump": "Trump",
        "no_trump": "no trump",
        "written": "written",
        "penalty": "penalty",
        "totals": "Final totals",
        "total": "Total",
        "winner": "Winner",
        "winners": "Winners",
        "violations": "Violations",
        "no_violations": "No violations: every written value agrees with the replay.",
        "running_totals": "Running totals",
        "replay": "Trick-by-trick replay",
        "replay_note": "Buttons or the arrow keys ← → step card by card.",
        "prev": "← Back",
        "next": "Forward →",
        "start": "Start",
        "end": "End",
        "trick": "Trick",
        "of": "of",
        "card": "card",
        "tricks": "tricks",
        "bid": "bid",
        "hands": "Hands",
        "bids": "Bids",
        "taken": "Taken",
        "wins_trick": "wins the trick",
        "leads": "leads",
        "analysis": "Double-dummy analysis",
        "analysis_note": "With every hand seen (raspis analyze): what each player could force from the "
                         "first card, the card that lost a bid and the card that handed one to somebody "
                         "(marked ✗ in the replay). Accuracy = share of a player's decisions that kept "
                         "the best outcome still available.",
        "an_summary": "Analysis per player",
        "an_makeable": "Makeable",
        "an_made": "Made",
        "an_decisions": "Decisions",
        "an_mistakes": "Mistakes",
        "an_handed_col": "Handed",
        "an_regret": "Bid regret",
        "an_accuracy": "Accuracy",
        "ratings": "Ratings",
        "ratings_note": "openskill Plackett–Luce from each game's final places, per rules family, in date "
                        "order. Rating = mean, ± = uncertainty, ordinal = rating − 3 × uncertainty "
                        "(the table is sorted by it).",
        "rating": "Rating",
        "uncertainty": "±",
        "ordinal": "Ordinal",
        "games": "Games",
        "change": "Change",
        "ratings_over_time": "Ratings over time (rating after each game in the pool)",
        "leaderboards": "Leaderboards by rules and table size",
        "leaderboards_note": "Like with like: each table compares players over games of one rules "
                             "preset and one table size. Relative = points per deal above the mean "
                             "of everyone at the same tables.",
        "wins": "Wins",
        "win_rate": "Win rate",
        "mean_total": "Mean total",
        "per_deal": "Per deal",
        "relative": "Relative",
        "bid_accuracy": "Bid accuracy by cards dealt and by seat",
        "bid_accuracy_note": "Share of bids made exactly. Seat 1 bids first (left of the dealer); "
                             "the last seat is the dealer.",
        "seat": "Seat",
        "head_to_head": "Head to head",
        "head_to_head_note": "Row player ahead–behind the column player in games together (final totals).",
        "dramatic": "The most dramatic games",
        "dramatic_note": "Biggest swing in the closing special deals: how far the points moved "
                         "between players after the last normal deal.",
        "date": "Date",
        "event": "Event",
        "swing": "Swing",
        "leader_before": "Leading before the specials",
        "no_games": "No games.",
        "pool": "Pool",
        "player": "Player",
        "opponent": "Opponent",
        "game_count": "games",
        "deals_count": "deals",
        "valid": "valid",
        "invalid": "with violations",
    },
    "ru": {
        "game_report": "Отчёт об игре",
        "club_report": "Отчёт клуба",
        "generated": "Сделано raspis",
        "game": "Игра",
        "rules": "Правила",
        "players": "Игроки",
        "sheet": "Расписка",
        "sheet_note": "В клетке: заказ/взято, очки за раздачу, итог. Записанное значение, которое "
                      "расходится с пересчитанным, выделено, записанное — рядом.",
        "deal": "Раздача",
        "kind": "Вид",
        "cards": "Карт",
        "dealer": "Сдаёт",
        "trump": "Козырь",
        "no_trump": "без козыря",
        "written": "записано",
        "penalty": "штраф",
        "totals": "Итоги",
        "total": "Итог",
        "winner": "Победитель",
        "winners": "Победители",
        "violations": "Нарушения",
        "no_violations": "Нарушений нет: все записанные значения совпадают с пересчётом.",
        "running_totals": "Ход игры (итоги по раздачам)",
        "replay": "Розыгрыш по взяткам",
        "replay_note": "Кнопки или стрелки ← → — по одной карте.",
        "prev": "← Назад",
        "next": "Вперёд →",
        "start": "В начало",
        "end": "В конец",
        "trick": "Взятка",
        "of": "из",
        "card": "карта",
        "tricks": "взяток",
        "bid": "заказ",
        "hands": "Руки",
        "bids": "Заказы",
        "taken": "Взято",
        "wins_trick": "берёт взятку",
        "leads": "ходит",
        "analysis": "Анализ в открытую",
        "analysis_note": "Все руки открыты (raspis analyze): что каждый мог обеспечить с первой карты, "
                         "карта, после которой заказ уже не выполнить, и карта, подарившая заказ другому "
                         "(в розыгрыше отмечены ✗). Точность — доля решений игрока, сохранивших лучший "
                         "ещё возможный исход.",
        "an_summary": "Анализ по игрокам",
        "an_makeable": "Выполнимых",
        "an_made": "Выполнено",
        "an_decisions": "Решений",
        "an_mistakes": "Ошибок",
        "an_handed_col": "Подарков",
        "an_regret": "Упущено заказом",
        "an_accuracy": "Точность",
        "ratings": "Рейтинг",
        "ratings_note": "openskill (Плакетт–Льюс) по итоговым местам каждой игры, отдельно для каждых "
                        "правил, в порядке дат. Рейтинг — среднее, ± — неуверенность, "
                        "надёжный = рейтинг − 3 × неуверенность (по нему сортировка).",
        "rating": "Рейтинг",
        "uncertainty": "±",
        "ordinal": "Надёжный",
        "games": "Игр",
        "change": "Изменение",
        "ratings_over_time": "Рейтинг во времени (после каждой игры)",
        "leaderboards": "Таблицы по правилам и числу игроков",
        "leaderboards_note": "Сравниваются равные: в каждой таблице игры одних правил и одного "
                             "числа игроков. Относительно = очки за раздачу сверх среднего "
                             "всех за теми же столами.",
        "wins": "Побед",
        "win_rate": "Доля побед",
        "mean_total": "Средний итог",
        "per_deal": "За раздачу",
        "relative": "Относительно",
        "bid_accuracy": "Точность заказов по числу карт и месту",
        "bid_accuracy_note": "Доля заказов, сыгранных точно. Место 1 заказывает первым (слева от "
                             "сдающего), последнее — сдающий.",
        "seat": "Место",
        "head_to_head": "Личные встречи",
        "head_to_head_note": "Игрок строки выше–ниже игрока столбца в общих играх (по итогам).",
        "dramatic": "Самые драматичные игры",
        "dramatic_note": "Самый большой перелом в заключительных особых раздачах: насколько "
                         "разошлись очки игроков после последней обычной раздачи.",
        "date": "Дата",
        "event": "Событие",
        "swing": "Перелом",
        "leader_before": "Лидер перед особыми",
        "no_games": "Игр нет.",
        "pool": "Правила",
        "player": "Игрок",
        "opponent": "Соперник",
        "game_count": "игр",
        "deals_count": "раздач",
        "valid": "без нарушений",
        "invalid": "с нарушениями",
    },
}
"""Every string of the reports, per language (the same keys in each)."""

KIND_WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {},
    "ru": {"normal": "обычная", "no-trump": "бескозырка", "dark": "тёмная", "miser": "мизер",
           "golden": "золотая", "forehead": "лобовая"},
}

JOKER_WORDS: Final[dict[str, dict[str, str]]] = {lang: mode_words(lang) for lang in ("en", "ru")}
"""Joker declarations in words, by mode."""

_SUIT_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пики", "трефы", "бубны", "черви"),
}


def interface_lang(explicit: str | None = None) -> str:
    """The language of a report: ``explicit`` if given, else the interface's
    (``--lang`` anywhere on the command line, else the environment's)."""
    if explicit:
        return explicit
    from raspis_cli.text.i18n import language

    return language()


def joker_words(lang: str, mode: str, suit: int | None, card: str | None) -> str:
    """A joker declaration as words: ``high ♥ (hearts)``, ``по старшим ♥ (черви)``."""
    words = JOKER_WORDS[lang].get(mode, mode)
    if card is not None:
        return f"{words} {card}"
    if suit is not None:
        symbol = "♠♣♦♥"[suit]
        return f"{words} {symbol} ({_SUIT_WORDS[lang][suit]})"
    return words


def kind_word(lang: str, kind: str) -> str:
    """A deal kind in the report's language."""
    return KIND_WORDS[lang].get(kind, kind)
