"""The DuckDB schema of game histories: tables, their columns, and the report views.

Each table is described once, as :data:`TABLES` (column name, SQL type,
meaning); the DDL, the Arrow schemas the loader builds, and the check that
``docs/SCHEMA.md`` documents every column all come from it. The report views
(:data:`REPORTS`) are plain SQL text over the ``scope_*`` views, so that
``raspis stats`` can run the same text with the scope narrowed (by date,
rules, player) and anyone can ``SELECT * FROM leaderboard`` in the DuckDB CLI.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.joker_modes import JOKER_MODES
from raspis_cli.text.i18n import N_

__all__ = [
    "ADDED_COLUMNS",
    "BASE_VIEWS",
    "MIGRATE_2_TO_3",
    "STORED_AS",
    "STORED_TABLES",
    "DERIVED_TABLES",
    "GAME_TABLES",
    "REPORTS",
    "REPORT_NAMES",
    "REPORT_TITLES",
    "SCHEMA_VERSION",
    "TABLES",
    "Column",
    "create_schema_sql",
    "known_objects",
    "plays_view_sql",
    "stored_columns",
    "stored_name",
    "table_ddl",
]

SCHEMA_VERSION: Final = 5
"""Stored in ``raspis_meta``. 2: game ids hash the canonical JSON of the
record (bid order included); a version-1 database would store each of its
games a second time, and is refused for loading. 3: ``plays`` is a view over
:data:`STORED_TABLES` ``plays_int`` (cards, seats and declarations as small
integers); ``load`` converts a version-2 database in its transaction
(:data:`MIGRATE_2_TO_3`). 4: ``deals.dealer_restricted`` (:data:`ADDED_COLUMNS`),
and no ``outcome`` in a replayed deal; ``load`` adds the column to a
database of version 2 or 3 (a raspis of version 3 could not insert its rows
beside it, so it refuses version 4 as newer). 5: ``violations.code`` and
``violations.message_data`` (the message as data: its msgid and typed
parameters), added the same way; a stored row of before has them ``NULL``
and is shown as its English text."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a table: name, DuckDB type, and what it holds."""

    name: str
    sql_type: str
    doc: str


def _c(name: str, sql_type: str, doc: str) -> Column:
    return Column(name, sql_type, doc)


TABLES: Final[dict[str, tuple[Column, ...]]] = {
    "games": (
        _c("game_id", "VARCHAR", "hash of the game's canonical content (first 20 hex digits of SHA-256)"),
        _c("date", "DATE", "the Date tag as a date; NULL when absent or not a full date"),
        _c("year", "INTEGER", "the year of the Date tag (also when only the year is known); "
           "the Parquet partition"),
        _c("event", "VARCHAR", "the Event tag"),
        _c("site", "VARCHAR", "the Site tag"),
        _c("tags", "MAP(VARCHAR, VARCHAR)", "every tag as written"),
        _c("rules_preset", "VARCHAR", "the preset the game was replayed under"),
        _c("rules_options", "MAP(VARCHAR, VARCHAR)",
           "options that differ from the preset, values as JSON text"),
        _c("rules", "VARCHAR", "every option of the rules applied, as a JSON object"),
        _c("player_count", "INTEGER", "number of players"),
        _c("deal_count", "INTEGER", "number of deals recorded (replayed deals included)"),
        _c("unfinished", "BOOLEAN", "the record says the game stopped early"),
        _c("valid", "BOOLEAN", "no violation was found (replay and syntax)"),
        _c("violation_count", "INTEGER", "rows of this game in violations"),
        _c("source_file", "VARCHAR", "the file it was loaded from, as given on the command line"),
        _c("game_index", "INTEGER", "0-based position of the game in its file"),
        _c("first_line", "INTEGER", "first source line of the game (NULL if unknown)"),
        _c("last_line", "INTEGER", "last source line of the game (NULL if unknown)"),
    ),
    "seats": (
        _c("game_id", "VARCHAR", "the game"),
        _c("seat", "INTEGER", "0-based seat in clockwise order as the record lists players"),
        _c("player", "VARCHAR", "the player's name as written"),
        _c("total", "INTEGER", "recomputed final total"),
        _c("written_total", "INTEGER", "final total written in the record, if any"),
        _c("place", "INTEGER", "1 = highest total; equal totals share a place (1, 1, 3)"),
        _c("winner", "BOOLEAN", "place = 1 (co-winners included)"),
    ),
    "players": (
        _c("player", "VARCHAR", "a name that occurs in at least one stored game"),
        _c("games", "INTEGER", "games stored with this player"),
        _c("wins", "INTEGER", "games won (co-wins included)"),
        _c("first_date", "DATE", "earliest game date"),
        _c("last_date", "DATE", "latest game date"),
    ),
    "deals": (
        _c("game_id", "VARCHAR", "the game"),
        _c("deal_index", "INTEGER", "0-based position of the deal in the record (unique per game)"),
        _c("number", "INTEGER", "deal number as written (a replayed deal repeats it)"),
        _c("kind", "VARCHAR", "normal, no-trump, dark, miser, golden, forehead"),
        _c("cards", "INTEGER", "cards dealt to each player"),
        _c("dealer", "VARCHAR", "the dealer's name"),
        _c("dealer_seat", "INTEGER", "the dealer's seat (NULL when the name is not a player)"),
        _c("trump", "VARCHAR", "trump as written: a card code (KC), a suit letter (H), 'none', "
           "or NULL when not written"),
        _c("trump_suit", "VARCHAR", "the deal's trump suit letter as the engine applied it "
           "(NULL: no trump)"),
        _c("bid_sum", "INTEGER", "sum of the bids (NULL when the deal has none)"),
        _c("has_tricks", "BOOLEAN", "the record gives the tricks"),
        _c("taken_source", "VARCHAR", "where taken comes from: tricks, written, inferred, none"),
        _c("replayed", "BOOLEAN", "the deal was abandoned and dealt again"),
        _c("dealer_restricted", "BOOLEAN", "the dealer restriction forbade the dealer a bid of "
           "0 … cards, given the other players' bids (false under dealer_restriction off; NULL "
           "when a bid of another player is not known, or the dealer is not a player)"),
    ),
    "deal_results": (
        _c("game_id", "VARCHAR", "the game"),
        _c("deal_index", "INTEGER", "the deal (deals.deal_index)"),
        _c("number", "INTEGER", "deal number"),
        _c("seat", "INTEGER", "the player's seat"),
        _c("player", "VARCHAR", "the player"),
        _c("bid_position", "INTEGER", "order of bidding: 1 = left of the dealer ... "
           "player_count = the dealer"),
        _c("is_dealer", "BOOLEAN", "the player dealt this deal"),
        _c("bid", "INTEGER", "the bid (NULL in miser and golden, or when not written)"),
        _c("taken", "INTEGER", "tricks taken (from tricks, written or inferred; NULL if unknown)"),
        _c("outcome", "VARCHAR", "exact, under or over (NULL without bid or taken, and in a replayed "
           "deal: it scores no bid)"),
        _c("score", "INTEGER", "recomputed deal score, penalties included (NULL if unknown)"),
        _c("penalty", "INTEGER", "penalty points in this deal"),
        _c("total", "INTEGER", "recomputed running total after this deal"),
        _c("written_taken", "INTEGER", "taken as written, if any"),
        _c("written_score", "INTEGER", "deal score as written, if any"),
        _c("written_total", "INTEGER", "running total as written, if any"),
    ),
    "tricks": (
        _c("game_id", "VARCHAR", "the game"),
        _c("deal_index", "INTEGER", "the deal"),
        _c("trick", "INTEGER", "1-based trick number"),
        _c("leader_seat", "INTEGER", "seat of the player who led"),
        _c("leader", "VARCHAR", "the player who led"),
        _c("winner_seat", "INTEGER", "seat of the winner (NULL when the replay did not finish "
           "the trick)"),
        _c("winner", "VARCHAR", "the winner"),
        _c("led_suit", "VARCHAR", "the suit led, joker declarations applied (letter)"),
        _c("trump_suit", "VARCHAR", "the trick's trump suit (differs per trick under circular_trumps)"),
    ),
    "plays": (
        _c("game_id", "VARCHAR", "the game"),
        _c("deal_index", "INTEGER", "the deal"),
        _c("trick", "INTEGER", "1-based trick number"),
        _c("position", "INTEGER", "0-based order in the trick; 0 = the lead"),
        _c("seat", "INTEGER", "the player's seat (NULL when the name is not a player)"),
        _c("player", "VARCHAR", "the player"),
        _c("card", "VARCHAR", "the card as the JSON form writes it (10H, QS, 7S, RJ)"),
        _c("is_joker", "BOOLEAN", "the card is the joker under the game's rules"),
        _c("suit", "VARCHAR", "the card's suit letter; for a joker the declared suit (or NULL)"),
        _c("rank", "INTEGER", "2..14 (J=11, Q=12, K=13, A=14); NULL for a joker"),
        _c("joker_mode", "VARCHAR", f"the joker's declared mode ({', '.join(JOKER_MODES)})"),
        _c("joker_suit", "VARCHAR", "the suit named in the declaration"),
        _c("joker_card", "VARCHAR", "the card named by an 'as' declaration"),
        _c("won", "BOOLEAN", "this card won the trick (NULL when the trick has no winner)"),
    ),
    "violations": (
        _c("game_id", "VARCHAR", "the game"),
        _c("ordinal", "INTEGER", "0-based order in the game's report"),
        _c("kind", "VARCHAR", "violation kind (docs/RECORD-JSON.md)"),
        _c("message", "VARCHAR", "the message validate prints"),
        _c("deal", "INTEGER", "deal number, where it applies"),
        _c("trick", "INTEGER", "1-based trick, where it applies"),
        _c("player", "VARCHAR", "the player, where it applies"),
        _c("source_line", "INTEGER", "1-based line in the source file"),
        _c("source_column", "INTEGER", "1-based column in the source file"),
        _c("code", "VARCHAR", "the reader's code of a syntax problem or warning (E303, W301), else NULL"),
        _c("message_data", "VARCHAR",
           "the message as data, JSON: its msgid (template) and typed parameters (docs/RECORD-JSON.md)"),
    ),
    "rating_history": (
        _c("pool", "VARCHAR", "the rating pool: the game's rules preset (one rating per rules family)"),
        _c("seq", "INTEGER", "1-based order of the game in its pool (date order, then file and position)"),
        _c("game_id", "VARCHAR", "the game"),
        _c("date", "DATE", "the game's date"),
        _c("player", "VARCHAR", "the player"),
        _c("place", "INTEGER", "the player's final place in the game (ties share a place)"),
        _c("mu_before", "DOUBLE", "rating (mean) before the game; 25 for a first game"),
        _c("sigma_before", "DOUBLE", "uncertainty before the game; 25/3 for a first game"),
        _c("mu", "DOUBLE", "rating (mean) after the game (openskill Plackett-Luce)"),
        _c("sigma", "DOUBLE", "uncertainty after the game"),
        _c("ordinal", "DOUBLE", "conservative rating after the game: mu - 3 sigma"),
    ),
    "ratings": (
        _c("pool", "VARCHAR", "the rating pool (rules preset)"),
        _c("player", "VARCHAR", "the player"),
        _c("mu", "DOUBLE", "rating (mean) after the player's last game in the pool"),
        _c("sigma", "DOUBLE", "its uncertainty"),
        _c("ordinal", "DOUBLE", "mu - 3 sigma: the conservative rating tables sort by"),
        _c("games", "INTEGER", "games rated in the pool"),
        _c("first_date", "DATE", "earliest rated game"),
        _c("last_date", "DATE", "latest rated game"),
    ),
}
"""Every table, in load order; ``games`` first, every other table but
``players`` has one ``game_id`` per row."""

DERIVED_TABLES: Final = ("players", "rating_history", "ratings")
"""Tables recomputed from the others after each load (not exported per year)."""

GAME_TABLES: Final = tuple(name for name in TABLES if name not in DERIVED_TABLES)
"""The tables filled per game (the derived ones are recomputed after each load)."""


_PLAYS: Final = {c.name: c for c in TABLES["plays"]}

STORED_TABLES: Final[dict[str, tuple[Column, ...]]] = {
    "plays_int": (
        *(_PLAYS[name] for name in ("game_id", "deal_index", "trick", "position", "seat")),
        _c("card", "TINYINT", "the card's index: suit × 13 + rank − 2 (suits S C D H = 0 1 2 3), "
           "52 and 53 the red and black jokers"),
        _PLAYS["is_joker"],
        _c("joker_mode", "VARCHAR", "the joker's declared mode (NULL without a declaration)"),
        _c("joker_suit", "TINYINT", "the suit named in the declaration (0 1 2 3 = S C D H)"),
        _c("joker_card", "TINYINT", "the card named by an 'as' declaration (an index as `card`)"),
        _PLAYS["won"],
        _c("player", "VARCHAR", "the name as written, only when it is not a player of the game "
           "(`seat` NULL); otherwise NULL: the name is the seat's in `seats`"),
    ),
}
"""Tables stored in a compact form that SQL users read through a view of
the readable table's name (:data:`STORED_AS`): ``plays_int`` holds a game's
cards as small integers (a third of the ingest time of the text form)."""

STORED_AS: Final[dict[str, str]] = {"plays": "plays_int"}
"""Readable table -> the table that stores it (the readable one is a view
with exactly the columns and values of :data:`TABLES`)."""


def stored_name(table: str) -> str:
    """The table that holds the rows of a table of :data:`TABLES`."""
    return STORED_AS.get(table, table)


def stored_columns(table: str) -> tuple[Column, ...]:
    """The columns of the rows ``load`` builds and inserts for ``table``."""
    return STORED_TABLES[STORED_AS[table]] if table in STORED_AS else TABLES[table]


def table_ddl(name: str) -> str:
    """``CREATE TABLE IF NOT EXISTS`` for one table (of :data:`TABLES` or
    :data:`STORED_TABLES`)."""
    columns = ",\n    ".join(f'"{c.name}" {c.sql_type}' for c in {**TABLES, **STORED_TABLES}[name])
    return f"CREATE TABLE IF NOT EXISTS {name} (\n    {columns}\n)"


def _sql_list(values: Sequence[str | None]) -> str:
    """A DuckDB list literal of text values (``NULL`` for ``None``)."""
    return "[" + ", ".join("NULL" if v is None else "'" + v + "'" for v in values) + "]"


_CARD_CODES: Final = [Card.from_index(i).code for i in range(54)]
_SUIT_LETTERS: Final = [suit.name for suit in Suit]
_CARD_SUITS: Final = [card.suit.name if card.suit is not None else None
                      for card in (Card.from_index(i) for i in range(54))]
_CARD_RANKS: Final = [str(card.rank) if card.suit is not None else "NULL"
                      for card in (Card.from_index(i) for i in range(54))]

PLAYS_VIEW: Final = f"""
SELECT p.game_id, p.deal_index, p.trick, p.position, p.seat,
       CASE WHEN p.seat IS NULL THEN p.player ELSE s.player END AS player,
       {_sql_list(_CARD_CODES)}[p.card + 1] AS card,
       p.is_joker,
       CASE WHEN p.is_joker
            THEN coalesce({_sql_list(_SUIT_LETTERS)}[p.joker_suit + 1],
                          {_sql_list(_CARD_SUITS)}[p.joker_card + 1])
            ELSE {_sql_list(_CARD_SUITS)}[p.card + 1] END AS suit,
       CASE WHEN NOT p.is_joker THEN CAST([{", ".join(_CARD_RANKS)}][p.card + 1] AS INTEGER) END
         AS rank,
       p.joker_mode,
       {_sql_list(_SUIT_LETTERS)}[p.joker_suit + 1] AS joker_suit,
       {_sql_list(_CARD_CODES)}[p.joker_card + 1] AS joker_card,
       p.won
FROM plays_int p
LEFT JOIN seats s ON s.game_id = p.game_id AND s.seat = p.seat"""
"""``plays`` as SQL users read it: the stored integers written out (card
codes, suit letters, ranks as :class:`~raspis_cli.model.cards.Card` gives them),
the player's name from ``seats``."""

MIGRATE_2_TO_3: Final = (
    table_ddl("plays_int"),
    f"""INSERT INTO plays_int
SELECT game_id, deal_index, trick, position, seat,
       list_position({_sql_list(_CARD_CODES)}, card) - 1, is_joker, joker_mode,
       list_position({_sql_list(_SUIT_LETTERS)}, joker_suit) - 1,
       list_position({_sql_list(_CARD_CODES)}, joker_card) - 1,
       won, CASE WHEN seat IS NULL THEN player END
FROM plays""",
    "DROP TABLE plays",
)
"""A version-2 database made version 3: its ``plays`` table converted to
``plays_int`` (``plays`` becomes the view, made with the others)."""

ADDED_COLUMNS: Final[dict[str, tuple[str, ...]]] = {"deals": ("dealer_restricted",),
                                                    "violations": ("code", "message_data")}
"""Columns a table of :data:`TABLES` gained in versions 4 and 5, last in its order.
:func:`create_schema_sql` adds them to a table made before, ``NULL`` in the
rows already stored: they are worked out when a game is loaded (``load
--replace`` stores an older game again; worked out in SQL over a whole
database, DuckDB's join outgrew a load's memory limit: 300,000 games
needed more than 128 MB). The views read a table that lacks them with
them ``NULL`` (:func:`_read`), so an older database still answers."""


def _read(table: str) -> str:
    """A table as the views read it: with every column of :data:`ADDED_COLUMNS`
    (``NULL`` in a database made before the column was, until a ``load``
    adds it)."""
    added = ADDED_COLUMNS.get(table)
    if not added:
        return table
    types = {c.name: c.sql_type for c in TABLES[table]}
    nulls = ", ".join(f'NULL::{types[name]} AS "{name}"' for name in added)
    return f"(SELECT * FROM {table} UNION ALL BY NAME SELECT {nulls} WHERE false)"


# --- views ---------------------------------------------------------------------
#
# The scope views are what every report reads. ``raspis stats`` narrows the
# scope by shadowing them with CTEs of the same names (see stats.py): a report
# body must therefore be one SELECT (no WITH of its own) over scope_* views.

BASE_VIEWS: Final[dict[str, str]] = {
    "scope_games": "SELECT * FROM games",
    "scope_seats": "SELECT s.* FROM seats s JOIN scope_games g USING (game_id)",
    "scope_results": f"""
SELECT r.*, d.kind, d.cards, d.replayed, d.bid_sum, d.dealer_restricted, g.player_count, g.date,
       json_extract_string(g.rules, '$.dealer_restriction') AS dealer_restriction
FROM deal_results r
JOIN {_read("deals")} d USING (game_id, deal_index)
JOIN scope_games g USING (game_id)""",
    "scope_plays": """
SELECT p.*, d.kind, d.replayed, t.leader, t.winner, t.led_suit, t.trump_suit, d.cards
FROM plays p
JOIN tricks t USING (game_id, deal_index, trick)
JOIN deals d USING (game_id, deal_index)
JOIN scope_games g USING (game_id)""",
}

_RATES = """count(*) AS bids,
       avg(CASE WHEN outcome = 'exact' THEN 1.0 ELSE 0.0 END) AS exact_rate,
       avg(CASE WHEN outcome = 'under' THEN 1.0 ELSE 0.0 END) AS under_rate,
       avg(CASE WHEN outcome = 'over' THEN 1.0 ELSE 0.0 END) AS over_rate"""

_BIDS = "scope_results WHERE bid IS NOT NULL AND taken IS NOT NULL AND NOT replayed"

REPORTS: Final[dict[str, str]] = {
    "leaderboard": """
SELECT g.rules_preset AS rules, g.player_count AS players, s.player,
       count(*) AS games,
       count(*) FILTER (WHERE s.winner) AS wins,
       avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END) AS win_rate,
       avg(s.total) AS mean_total,
       CAST(sum(r.deals) AS BIGINT) AS deals,
       sum(r.points) / sum(r.deals) AS mean_per_deal,
       sum(r.points - r.deals * t.table_per_deal) / sum(r.deals) AS relative_per_deal
FROM scope_seats s
JOIN scope_games g USING (game_id)
LEFT JOIN (SELECT game_id, player, count(score) AS deals, sum(score) AS points
           FROM scope_results WHERE NOT replayed GROUP BY game_id, player) r
  USING (game_id, player)
LEFT JOIN (SELECT game_id, sum(score) / count(score) AS table_per_deal
           FROM deal_results JOIN deals USING (game_id, deal_index)
           WHERE NOT replayed GROUP BY game_id) t
  USING (game_id)
GROUP BY g.rules_preset, g.player_count, s.player
ORDER BY rules, players, relative_per_deal DESC NULLS LAST, win_rate DESC, s.player""",
    "bid_accuracy": f"""
SELECT player, {_RATES},
       avg(bid) AS mean_bid, avg(taken) AS mean_taken
FROM {_BIDS}
GROUP BY player
ORDER BY exact_rate DESC, player""",
    "bid_accuracy_by_cards": f"""
SELECT player_count AS players, cards, {_RATES}
FROM {_BIDS}
GROUP BY player_count, cards
ORDER BY player_count, cards""",
    "bid_accuracy_by_seat": f"""
SELECT player_count AS players, bid_position, {_RATES}
FROM {_BIDS}
GROUP BY player_count, bid_position
ORDER BY player_count, bid_position""",
    "pass_success": """
SELECT player,
       count(*) AS passes,
       count(*) FILTER (WHERE taken = 0) AS made,
       avg(CASE WHEN taken = 0 THEN 1.0 ELSE 0.0 END) AS made_rate
FROM scope_results
WHERE bid = 0 AND taken IS NOT NULL AND NOT replayed
GROUP BY player
ORDER BY made_rate DESC, player""",
    "dealer_record": f"""
SELECT player, dealer_restriction, {_RATES},
       CASE WHEN count(dealer_restricted) = count(*) THEN count(*) FILTER (WHERE dealer_restricted) END
         AS restricted
FROM {_BIDS} AND is_dealer AND dealer_restriction <> 'off'
GROUP BY player, dealer_restriction
ORDER BY player, dealer_restriction""",
    "deal_kinds": """
SELECT kind,
       count(*) AS player_deals,
       avg(score) AS mean_score,
       avg(taken) AS mean_taken,
       avg(CASE WHEN taken = 0 THEN 1.0 ELSE 0.0 END) AS zero_rate,
       avg(CASE WHEN outcome IS NULL THEN NULL WHEN outcome = 'exact' THEN 1.0 ELSE 0.0 END)
         AS exact_rate
FROM scope_results
WHERE taken IS NOT NULL AND NOT replayed
GROUP BY kind
ORDER BY kind""",
    "joker_outcomes": """
SELECT joker_mode,
       CASE WHEN position = 0 THEN 'lead' ELSE 'follow' END AS played_as,
       count(*) AS plays,
       count(*) FILTER (WHERE won) AS won,
       avg(CASE WHEN won THEN 1.0 ELSE 0.0 END) AS won_rate
FROM scope_plays
WHERE is_joker AND won IS NOT NULL AND NOT replayed
GROUP BY joker_mode, played_as
ORDER BY joker_mode, played_as""",
    "head_to_head": """
SELECT a.player, b.player AS opponent,
       count(*) AS games,
       count(*) FILTER (WHERE a.total > b.total) AS ahead,
       count(*) FILTER (WHERE a.total < b.total) AS behind,
       count(*) FILTER (WHERE a.total = b.total) AS level,
       avg(a.total - b.total) AS mean_margin
FROM scope_seats a
JOIN seats b ON b.game_id = a.game_id AND b.seat <> a.seat
WHERE a.player < b.player OR b.player NOT IN (SELECT player FROM scope_seats)
GROUP BY a.player, b.player
ORDER BY a.player, b.player""",
}
"""The report views: name -> one SELECT over the scope views."""

REPORT_NAMES: Final = (*REPORTS, "ratings")
"""Every ``stats`` report: the SQL views, and the ratings (computed in Python)."""

REPORT_TITLES: Final[dict[str, str]] = {
    "leaderboard": N_("Leaderboard by rules and table size, ranked by relative per deal (points per "
                      "deal above the table's mean in the same games: like with like)"),
    "bid_accuracy": N_("Bid accuracy"),
    "bid_accuracy_by_cards": N_("Bid accuracy by table size and card count"),
    "bid_accuracy_by_seat": N_("Bid accuracy by seat (1 = left of the dealer; last = the dealer)"),
    "pass_success": N_("Passes (bid 0) made"),
    "dealer_record": N_("The dealer's bids under the dealer restriction"),
    "deal_kinds": N_("Results by deal kind"),
    "joker_outcomes": N_("Joker outcomes by declared mode"),
    "head_to_head": N_("Head to head (final totals; each pair once, or one player against every opponent)"),
    "ratings": N_("Ratings (openskill Plackett-Luce; ranked by ordinal = rating - 3 x "
                  "uncertainty; rating = mean; change = over the period)"),
}
"""The title of every ``stats`` report (:data:`REPORT_NAMES`), in English: marked
for the catalogue, translated where a table shows it (``_(REPORT_TITLES[name])``)."""

_META = "CREATE TABLE IF NOT EXISTS raspis_meta (key VARCHAR, value VARCHAR)"


def known_objects() -> tuple[frozenset[str], frozenset[str]]:
    """The names of the tables and of the views raspis creates (of any
    schema version: ``plays`` was a table in version 2)."""
    tables = frozenset({"raspis_meta", *TABLES, *STORED_TABLES})
    return tables, frozenset({"plays", *BASE_VIEWS, *REPORTS})


@functools.cache
def plays_view_sql() -> str:
    """The ``plays`` view as DuckDB keeps it in its catalogue (its own
    rendering of the SQL, white space collapsed), made in a database in
    memory by :func:`create_schema_sql`."""
    import duckdb

    con = duckdb.connect(":memory:")
    try:
        for statement in create_schema_sql():
            con.execute(statement)
        row = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'plays'").fetchone()
    finally:
        con.close()
    assert row is not None
    return " ".join(str(row[0]).split())


def create_schema_sql() -> list[str]:
    """The statements that create (or bring up to date) the tables and views."""
    statements = [_META]
    statements += [table_ddl(name) for name in TABLES if name not in STORED_AS]
    statements += [table_ddl(name) for name in STORED_TABLES]
    types = {name: {c.name: c.sql_type for c in TABLES[name]} for name in ADDED_COLUMNS}
    statements += [f'ALTER TABLE {name} ADD COLUMN IF NOT EXISTS "{column}" {types[name][column]}'
                   for name, columns in ADDED_COLUMNS.items() for column in columns]
    statements.append(f"CREATE OR REPLACE VIEW plays AS {PLAYS_VIEW.strip()}")
    for name, body in BASE_VIEWS.items():
        statements.append(f"CREATE OR REPLACE VIEW {name} AS {body.strip()}")
    for name, body in REPORTS.items():
        statements.append(f"CREATE OR REPLACE VIEW {name} AS {body.strip()}")
    return statements
