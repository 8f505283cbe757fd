"""The search kernel of the double-dummy solver: integers and bit masks only.

Every function here takes and returns plain integers and integer arrays
(Python lists, or numpy ``int64`` arrays when jitted), so the same source
runs as ordinary Python (the tests, and any machine without numba) and,
when numba is installed (``pip install 'raspis[fast]'``), compiled by
``numba.njit``. The decision is taken once, at import: set
``RASPIS_NO_JIT=1`` to run the Python source even where numba is present.

The trick rule here is the engine's (:mod:`raspis_cli.engine.deal`), read
from the same option switches and written in integers: which natural cards
may be played (:func:`follow_naturals`) and who wins a trick
(:func:`trick_winner`), jokers and every joker option included. The legal
joker declarations are not written here at all: :mod:`raspis_cli.engine.solver`
asks the engine's own :meth:`Deal.legal_joker_plays` for each situation and
passes the lists in. ``tests/test_solver_kernel.py`` checks both functions
against the engine on random tricks under shuffled options, and the solver
against brute force over the engine's :class:`Deal`.

Encodings. A card is its index 0..53, a hand a bit mask. A joker
declaration is ``mode * 64 + arg`` (``arg``: a suit 0..3, :data:`NO_SUIT`, or
for ``as`` the card named); a natural card's declaration is 0.

State (``st``): leader, cards in the current trick, trick number, positions
searched, the budget, an abort flag. ``tcard``/``tdecl``: the current trick.
``rules``: see the ``R_*`` indexes. ``masks``: the four suit masks, the
joker mask, the natural cards of the deck. ``decls``: per situation
(``SIT_*``), the count then the codes of the legal joker declarations.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

from raspis_cli.cards import NO_SUIT as _CARDS_NO_SUIT

__all__ = ["JIT", "MODES", "NO_SUIT", "bsearch", "esearch", "follow_naturals", "trick_winner"]

NO_SUIT = _CARDS_NO_SUIT
HIGH, LOWEST, LOW, TAKE, DISCARD, AS = 1, 2, 3, 4, 5, 6
MODES = {"high": HIGH, "lowest": LOWEST, "low": LOW, "take": TAKE, "discard": DISCARD, "as": AS}
"""Declaration mode -> code (``code >> 6``)."""

# indexes into ``rules``
R_PLAYERS, R_CARDS, R_PLAYER, R_TRUMP, R_CIRCULAR, R_MUST_TRUMP = 0, 1, 2, 3, 4, 5
R_HIGH_HIGHEST_TRUMP, R_TAKE_BEATEN, R_LOW_JOKER_WINS, R_FIRST_CARD_SUIT = 6, 7, 8, 9
R_OPPOSITE, R_AS_LIVE_OK, R_TT_SIZE = 10, 11, 12
RULES_LEN = 13
# indexes into ``masks``
M_JOKERS, M_NATURALS = 4, 5
# indexes into ``st``
S_LEADER, S_TLEN, S_TNUM, S_NODES, S_LIMIT, S_ABORT, S_ERROR = 0, 1, 2, 3, 4, 5, 6
ST_LEN = 7
# situations of the joker declarations
SIT_LEAD_FIRST, SIT_LEAD, SIT_FOLLOW, SIT_FOLLOW_WINS, SIT_FOLLOW_LOSES = 0, 1, 2, 3, 4
SITUATIONS = 5
MAX_DECLS = 64
MAX_MOVES = 96
MAX_DEPTH = 64
# the transposition table: per slot, KEY_WORDS key words then VAL_WORDS values
KEY_WORDS = 8
V_PLUS_LB, V_PLUS_UB, V_MINUS_LB, V_MINUS_UB, V_YES, V_NO = 0, 1, 2, 3, 4, 5
VAL_WORDS = 6
SLOT = KEY_WORDS + VAL_WORDS + 1  # + 1: used
PROBE = 4
_MASK63 = 0x7FFFFFFFFFFFFFFF
_WIN_KEY = 500
_LOSE_KEY = -100

Ints = list[int]
"""An integer array: a list, or numpy's int64 array when compiled."""

JIT = False
"""True when the functions below are compiled by numba."""


def _identity(function: Ints) -> Any:
    return function


def _decorator() -> Callable[[Any], Any]:
    global JIT
    if os.environ.get("RASPIS_NO_JIT"):
        return _identity
    try:
        import numba
    except ImportError:
        return _identity
    JIT = True
    compile_: Callable[[Any], Any] = numba.njit(cache=True, nogil=True)
    return compile_


_COMPILE = _decorator()
_F = TypeVar("_F", bound=Callable[..., Any])


def kernel(function: _F) -> _F:
    """Compile ``function`` with numba when it is installed, else leave it be."""
    return cast(_F, _COMPILE(function))


@kernel
def bit_index(bit: int) -> int:
    """The index of a one-bit mask (``bit`` > 0)."""
    index = 0
    while bit > 0xFFFF:
        bit >>= 16
        index += 16
    while bit > 1:
        bit >>= 1
        index += 1
    return index


@kernel
def led_suit(tcard: Ints, tdecl: Ints, tlen: int, jokers: int) -> int:
    """The suit led of the trick so far (:data:`NO_SUIT` while not known)."""
    if tlen == 0:
        return NO_SUIT
    first = tcard[0]
    if not jokers >> first & 1:
        return first // 13
    decl = tdecl[0]
    arg = decl & 63
    if decl >> 6 == AS:
        return arg // 13
    if arg != NO_SUIT:
        return arg
    for i in range(1, tlen):
        card = tcard[i]
        if not jokers >> card & 1:
            return card // 13
    return NO_SUIT


@kernel
def trick_trump(led: int, rules: Ints) -> int:
    """The trump of a trick with this suit led (:data:`NO_SUIT`: none)."""
    if rules[R_CIRCULAR]:
        return NO_SUIT if led == NO_SUIT else (led + 1) % 4
    return rules[R_TRUMP]


@kernel
def follow_naturals(hand: int, tcard: Ints, tdecl: Ints, tlen: int, rules: Ints, masks: Ints) -> int:
    """The natural cards of ``hand`` that may be played on the trick so far
    (the engine's ``Deal._follow_mask``)."""
    jokers = masks[M_JOKERS]
    hand &= ~jokers
    if tlen == 0:
        return hand
    led = led_suit(tcard, tdecl, tlen, jokers)
    trump = trick_trump(led, rules)
    if jokers >> tcard[0] & 1:
        mode = tdecl[0] >> 6
        if mode == HIGH or mode == LOWEST:
            demanded = tdecl[0] & 63
            if demanded != NO_SUIT:
                suit_cards = hand & masks[demanded]
                if suit_cards:
                    if mode == LOWEST:
                        return suit_cards & -suit_cards
                    top = suit_cards
                    while top & (top - 1):
                        top &= top - 1
                    return top
                if rules[R_MUST_TRUMP] and trump != NO_SUIT:
                    trumps = hand & masks[trump]
                    if trumps:
                        return trumps
                return hand
    if led == NO_SUIT:
        return hand
    suit_cards = hand & masks[led]
    if suit_cards:
        return suit_cards
    if rules[R_MUST_TRUMP] and trump != NO_SUIT:
        trumps = hand & masks[trump]
        if trumps:
            return trumps
    return hand


@kernel
def _card_key(card: int, led: int, trump: int) -> int:
    suit = card // 13
    if suit == trump:
        return 300 + card % 13
    if suit == led:
        return 200 + card % 13
    return 0


@kernel
def first_joker_wins(tcard: Ints, tdecl: Ints, tlen: int, jokers: int) -> int:
    """1 when the first joker of the trick is a winning one, 0 when not, -1
    when there is no joker in it (the engine's ``_first_joker_wins``)."""
    for i in range(tlen):
        if jokers >> tcard[i] & 1:
            mode = tdecl[i] >> 6
            if i == 0:
                return 1 if mode == HIGH or mode == LOWEST or mode == TAKE else 0
            return 1 if mode == TAKE else 0
    return -1


@kernel
def trick_winner(tcard: Ints, tdecl: Ints, n: int, rules: Ints, masks: Ints, keys: Ints) -> int:
    """The position (in play order) of the winning card of a complete trick
    of ``n`` cards (the engine's ``trick_winner``); ``keys`` is scratch space."""
    jokers = masks[M_JOKERS]
    any_joker = False
    for i in range(n):
        if jokers >> tcard[i] & 1:
            any_joker = True
    if not any_joker:
        led = tcard[0] // 13
        trump = trick_trump(led, rules)
        best = 0
        best_key = _card_key(tcard[0], led, trump)
        for i in range(1, n):
            key = _card_key(tcard[i], led, trump)
            if key > best_key:
                best_key = key
                best = i
        return best
    led = led_suit(tcard, tdecl, n, jokers)
    trump = trick_trump(led, rules)
    trump_played = False
    if trump != NO_SUIT:
        for i in range(n):
            if not jokers >> tcard[i] & 1 and tcard[i] // 13 == trump:
                trump_played = True
    jokers_seen = 0
    for i in range(n):
        card = tcard[i]
        if not jokers >> card & 1:
            keys[i] = _card_key(card, led, trump)
            continue
        decl = tdecl[i]
        mode = decl >> 6
        arg = decl & 63
        if mode == AS:
            keys[i] = _card_key(arg, led, trump)
            continue
        wins = False
        if i > 0:
            wins = mode == TAKE
        elif mode == HIGH:
            wins = not (rules[R_HIGH_HIGHEST_TRUMP] and arg != trump and trump_played)
        elif mode == LOWEST or mode == TAKE:
            wins = True
        elif mode == LOW:
            if arg != NO_SUIT:
                followed = False
                for j in range(1, n):
                    other = tcard[j]
                    if not jokers >> other & 1 and (other // 13 == arg or other // 13 == trump):
                        followed = True
                wins = not followed and rules[R_LOW_JOKER_WINS] != 0
        if jokers_seen and rules[R_OPPOSITE]:
            wins = first_joker_wins(tcard, tdecl, n, jokers) == 0
        jokers_seen += 1
        keys[i] = _WIN_KEY + i if wins else _LOSE_KEY
    first = tcard[0]
    if (jokers >> first & 1 and tdecl[0] >> 6 == LOW and tdecl[0] & 63 != NO_SUIT
            and keys[0] == _LOSE_KEY and rules[R_FIRST_CARD_SUIT]):
        low_all = True
        for i in range(n):
            if keys[i] >= 200:
                low_all = False
        if low_all:
            new_led = NO_SUIT
            for i in range(n):
                if not jokers >> tcard[i] & 1:
                    new_led = tcard[i] // 13
                    break
            if new_led != NO_SUIT:
                for i in range(n):
                    if not jokers >> tcard[i] & 1:
                        keys[i] = _card_key(tcard[i], new_led, trump)
    if rules[R_TAKE_BEATEN] and trump != NO_SUIT:
        for i in range(n):
            if jokers >> tcard[i] & 1:
                decl = tdecl[i]
                arg = decl & 63
                if decl >> 6 == TAKE and arg != NO_SUIT and arg != trump and keys[i] >= _WIN_KEY:
                    beaten = False
                    for j in range(i + 1, n):
                        if 300 <= keys[j] < 400:
                            beaten = True
                    if beaten:
                        for j in range(i + 1):
                            keys[j] = _LOSE_KEY
    best = 0
    for i in range(1, n):
        if keys[i] > keys[best]:
            best = i
    return best


@kernel
def _situation(tcard: Ints, tdecl: Ints, tlen: int, tnum: int, jokers: int) -> int:
    if tlen == 0:
        return SIT_LEAD_FIRST if tnum == 1 else SIT_LEAD
    state = first_joker_wins(tcard, tdecl, tlen, jokers)
    if state < 0:
        return SIT_FOLLOW
    return SIT_FOLLOW_WINS if state == 1 else SIT_FOLLOW_LOSES


@kernel
def gen_moves(seat: int, hands: Ints, tcard: Ints, tdecl: Ints, st: Ints, rules: Ints, masks: Ints,
              decls: Ints, mcard: Ints, mdecl: Ints, mscore: Ints, mclass: Ints, base: int,
              want_high: bool) -> int:
    """Write the moves of ``seat`` (one per class of equivalent plays) at
    ``base`` of the move buffers, best guess first; return how many (0: the
    seat has no legal play)."""
    n = rules[R_PLAYERS]
    jokers = masks[M_JOKERS]
    tlen = st[S_TLEN]
    hand = hands[seat]
    live = 0
    for s in range(n):
        live |= hands[s]
    for i in range(tlen):
        card = tcard[i]
        if jokers >> card & 1:
            if tdecl[i] >> 6 == AS:
                live |= 1 << (tdecl[i] & 63)
        else:
            live |= 1 << card
    merge = rules[R_AS_LIVE_OK] != 0 or not live & jokers
    jokers_live = live & jokers
    live &= ~jokers
    naturals = follow_naturals(hand, tcard, tdecl, tlen, rules, masks)
    led = led_suit(tcard, tdecl, tlen, jokers)
    trump = trick_trump(led, rules)
    if trump == NO_SUIT and tlen == 0:
        trump = rules[R_TRUMP]
    count = 0
    rest = naturals
    while rest:
        low = rest & -rest
        rest ^= low
        card = bit_index(low)
        if merge:
            above = live & ~((low << 1) - 1)
            if above:
                nxt = above & -above
                if nxt & naturals and bit_index(nxt) // 13 == card // 13:
                    continue  # the next live card up is ours: one move
        score = card % 13
        if card // 13 == trump:
            score += 20
        mcard[base + count] = card
        mdecl[base + count] = 0
        mscore[base + count] = score if want_high else -score
        count += 1
    held = hand & jokers
    if held:
        joker = held & -held  # two jokers in one hand play alike
        jcard = bit_index(joker)
        sit = _situation(tcard, tdecl, tlen, st[S_TNUM], jokers)
        total = decls[sit * (MAX_DECLS + 1)]
        first_of_move = count
        for k in range(total):
            decl = decls[sit * (MAX_DECLS + 1) + 1 + k]
            mode = decl >> 6
            arg = decl & 63
            score = 0
            klass = -1  # -1: a class of its own
            if mode == AS:
                suit = arg // 13
                if tlen > 0 and led != NO_SUIT and suit != led and suit != trump:
                    klass = 1000  # no part in this trick: one class
                elif jokers_live & ~joker:
                    klass = 3000 + arg  # another joker may be declared as any rank
                else:
                    # the declared rank counts only against the live cards of its suit
                    relevant = live & masks[suit]
                    above = relevant & ~((2 << arg) - 1)
                    ties = relevant >> arg & 1
                    above_count = 0
                    while above:
                        above &= above - 1
                        above_count += 1
                    klass = suit * 64 + above_count * 2 + ties
                score = arg % 13 + (20 if arg // 13 == trump else 0)
            elif tlen > 0:
                if mode == TAKE:
                    beatable = (rules[R_TAKE_BEATEN] and arg != NO_SUIT and trump != NO_SUIT
                                and arg != trump)
                    klass = 2001 if beatable else 2000
                    score = 40
                else:
                    klass = 2002
                    score = -20
            else:
                score = 40 if mode == HIGH or mode == LOWEST or mode == TAKE else -20
            if klass >= 0:
                seen = False
                for j in range(first_of_move, count):
                    if mclass[base + j - first_of_move] == klass:
                        seen = True
                        break
                if seen:
                    continue
            mclass[base + count - first_of_move] = klass
            mcard[base + count] = jcard
            mdecl[base + count] = decl
            mscore[base + count] = score if want_high else -score
            count += 1
    # insertion sort, highest score first (stable: the natural order otherwise)
    for i in range(base + 1, base + count):
        c, d, s = mcard[i], mdecl[i], mscore[i]
        j = i - 1
        while j >= base and mscore[j] < s:
            mcard[j + 1] = mcard[j]
            mdecl[j + 1] = mdecl[j]
            mscore[j + 1] = mscore[j]
            j -= 1
        mcard[j + 1] = c
        mdecl[j + 1] = d
        mscore[j + 1] = s
    return count


@kernel
def make_key(hands: Ints, st: Ints, rules: Ints, masks: Ints, keyb: Ints, ko: int) -> int:
    """Write the table key of the trick boundary in ``hands`` at ``keyb[ko:]``
    and return its hash. Each suit's live cards are renumbered from the
    bottom (only their order matters), unless a joker that may be declared
    'as' a card is live; jokers count per hand (two jokers play alike)."""
    n = rules[R_PLAYERS]
    jokers = masks[M_JOKERS]
    live = 0
    for s in range(n):
        live |= hands[s]
    renumber = rules[R_AS_LIVE_OK] != 0 or not live & jokers
    h = st[S_LEADER] + 1
    for s in range(KEY_WORDS):
        word = 0
        if s < n:
            hand = hands[s]
            held = hand & jokers
            count = 0
            while held:
                held &= held - 1
                count += 1
            if renumber:
                for suit in range(4):
                    cards = live & masks[suit]
                    position = suit * 13
                    while cards:
                        low = cards & -cards
                        cards ^= low
                        if hand & low:
                            word |= 1 << position
                        position += 1
            else:
                word = hand & ~jokers
            word |= count << 54
            if s == 0:
                word |= st[S_LEADER] << 57
        keyb[ko + s] = word
        h = ((h ^ word) * 0x9E3779B97F4A7C15) & _MASK63
        h ^= h >> 29
    return h


@kernel
def tt_find(tt: Ints, keyb: Ints, ko: int, h: int, size: int) -> int:
    """The offset of the key's slot in the table, -1 when not there."""
    for p in range(PROBE):
        at = ((h + p) & (size - 1)) * SLOT
        if tt[at] == 0:
            return -1
        same = True
        for w in range(KEY_WORDS):
            if tt[at + 1 + w] != keyb[ko + w]:
                same = False
                break
        if same:
            return at
    return -1


@kernel
def tt_slot(tt: Ints, keyb: Ints, ko: int, h: int, size: int) -> int:
    """The offset of the key's slot, made (or taken over) when not there."""
    at = tt_find(tt, keyb, ko, h, size)
    if at >= 0:
        return at
    at = (h & (size - 1)) * SLOT
    for p in range(PROBE):
        probe = ((h + p) & (size - 1)) * SLOT
        if tt[probe] == 0:
            at = probe
            break
    tt[at] = 1
    for w in range(KEY_WORDS):
        tt[at + 1 + w] = keyb[ko + w]
    v = at + 1 + KEY_WORDS
    tt[v + V_PLUS_LB] = 0
    tt[v + V_PLUS_UB] = 63
    tt[v + V_MINUS_LB] = 0
    tt[v + V_MINUS_UB] = 63
    tt[v + V_YES] = 0
    tt[v + V_NO] = 0
    return at


@kernel
def bsearch(t: int, mode: int, depth: int, hands: Ints, tcard: Ints, tdecl: Ints, st: Ints,
            rules: Ints, masks: Ints, decls: Ints, tt: Ints, keyb: Ints, mcard: Ints, mdecl: Ints,
            mscore: Ints, mclass: Ints, wkeys: Ints, tsave: Ints) -> int:
    """1 when the player can force at least ``t`` more of their tricks
    (``mode`` 0) or of the tricks they do not win (``mode`` 1), else 0.
    Null-window alpha-beta; the table keeps a lower and an upper bound of
    each value at trick boundaries. Sets ``st[S_ABORT]`` past the budget."""
    n = rules[R_PLAYERS]
    player = rules[R_PLAYER]
    tlen = st[S_TLEN]
    ko = depth * KEY_WORDS
    h = 0
    size = rules[R_TT_SIZE]
    if tlen == 0:
        left = rules[R_CARDS] - st[S_TNUM] + 1
        if t <= 0:
            return 1
        if t > left:
            return 0
        h = make_key(hands, st, rules, masks, keyb, ko)
        at = tt_find(tt, keyb, ko, h, size)
        if at >= 0:
            v = at + 1 + KEY_WORDS + 2 * mode
            if tt[v] >= t:
                return 1
            if tt[v + 1] < t:
                return 0
    st[S_NODES] += 1
    if st[S_NODES] > st[S_LIMIT]:
        st[S_ABORT] = 1
        return 0
    seat = (st[S_LEADER] + tlen) % n
    maximize = seat == player
    base = depth * MAX_MOVES
    count = gen_moves(seat, hands, tcard, tdecl, st, rules, masks, decls, mcard, mdecl, mscore,
                      mclass, base, mode == 0)
    if count == 0:
        st[S_ERROR] = 1
        st[S_ABORT] = 1
        return 0
    result = 0 if maximize else 1
    for m in range(base, base + count):
        card = mcard[m]
        bit = 1 << card
        hands[seat] ^= bit
        tcard[tlen] = card
        tdecl[tlen] = mdecl[m]
        if tlen + 1 == n:
            position = trick_winner(tcard, tdecl, n, rules, masks, wkeys)
            for i in range(n):  # the next trick writes over this one
                tsave[2 * n * depth + i] = tcard[i]
                tsave[2 * n * depth + n + i] = tdecl[i]
            leader = st[S_LEADER]
            winner = (leader + position) % n
            st[S_LEADER] = winner
            st[S_TLEN] = 0
            st[S_TNUM] += 1
            got = 1 if (winner == player) == (mode == 0) else 0
            r = bsearch(t - got, mode, depth + 1, hands, tcard, tdecl, st, rules, masks, decls,
                        tt, keyb, mcard, mdecl, mscore, mclass, wkeys, tsave)
            st[S_LEADER] = leader
            st[S_TNUM] -= 1
            for i in range(n):
                tcard[i] = tsave[2 * n * depth + i]
                tdecl[i] = tsave[2 * n * depth + n + i]
        else:
            st[S_TLEN] = tlen + 1
            r = bsearch(t, mode, depth + 1, hands, tcard, tdecl, st, rules, masks, decls,
                        tt, keyb, mcard, mdecl, mscore, mclass, wkeys, tsave)
        st[S_TLEN] = tlen
        hands[seat] ^= bit
        if st[S_ABORT]:
            return 0
        if maximize:
            if r:
                result = 1
                break
        elif not r:
            result = 0
            break
    if tlen == 0:
        at = tt_slot(tt, keyb, ko, h, size)
        v = at + 1 + KEY_WORDS + 2 * mode
        if result:
            if tt[v] < t:
                tt[v] = t
        elif tt[v + 1] > t - 1:
            tt[v + 1] = t - 1
    return result


@kernel
def esearch(care: int, depth: int, hands: Ints, tcard: Ints, tdecl: Ints, st: Ints, rules: Ints,
            masks: Ints, decls: Ints, tt: Ints, keyb: Ints, mcard: Ints, mdecl: Ints, mscore: Ints,
            mclass: Ints, wkeys: Ints, tsave: Ints) -> int:
    """The counts ``k`` (bit ``k``) of further tricks the player can force
    exactly, correct on the bits of ``care``: the union over the player's
    moves, the intersection over the others'. The table keeps the bits known
    yes and known no at trick boundaries, and the bounds of :func:`bsearch`
    rule out counts beyond what the player can force at least or at most."""
    n = rules[R_PLAYERS]
    player = rules[R_PLAYER]
    tlen = st[S_TLEN]
    ko = depth * KEY_WORDS
    h = 0
    size = rules[R_TT_SIZE]
    rest = care
    known_yes = 0
    if tlen == 0:
        left = rules[R_CARDS] - st[S_TNUM] + 1
        care &= (2 << left) - 1
        if care == 0:
            return 0
        if left == 0:
            return care & 1
        h = make_key(hands, st, rules, masks, keyb, ko)
        at = tt_find(tt, keyb, ko, h, size)
        yes = 0
        no = 0
        if at >= 0:
            v = at + 1 + KEY_WORDS
            yes = tt[v + V_YES]
            no = tt[v + V_NO]
            most = tt[v + V_PLUS_UB]
            if most < left:
                no |= ((2 << left) - 1) & ~((2 << most) - 1)
            unwon_most = tt[v + V_MINUS_UB]
            if unwon_most < left:
                no |= (1 << (left - unwon_most)) - 1
        rest = care & ~(yes | no)
        known_yes = yes & care
        if rest == 0:
            return known_yes
        care = rest
    st[S_NODES] += 1
    if st[S_NODES] > st[S_LIMIT]:
        st[S_ABORT] = 1
        return 0
    seat = (st[S_LEADER] + tlen) % n
    maximize = seat == player
    base = depth * MAX_MOVES
    count = gen_moves(seat, hands, tcard, tdecl, st, rules, masks, decls, mcard, mdecl, mscore,
                      mclass, base, True)
    if count == 0:
        st[S_ERROR] = 1
        st[S_ABORT] = 1
        return 0
    acc = 0 if maximize else care
    for m in range(base, base + count):
        need = care & ~acc if maximize else acc
        if need == 0:
            break
        card = mcard[m]
        bit = 1 << card
        hands[seat] ^= bit
        tcard[tlen] = card
        tdecl[tlen] = mdecl[m]
        if tlen + 1 == n:
            position = trick_winner(tcard, tdecl, n, rules, masks, wkeys)
            for i in range(n):  # the next trick writes over this one
                tsave[2 * n * depth + i] = tcard[i]
                tsave[2 * n * depth + n + i] = tdecl[i]
            leader = st[S_LEADER]
            winner = (leader + position) % n
            st[S_LEADER] = winner
            st[S_TLEN] = 0
            st[S_TNUM] += 1
            if winner == player:
                value = esearch(need >> 1, depth + 1, hands, tcard, tdecl, st, rules, masks,
                                decls, tt, keyb, mcard, mdecl, mscore, mclass, wkeys, tsave) << 1
            else:
                value = esearch(need, depth + 1, hands, tcard, tdecl, st, rules, masks,
                                decls, tt, keyb, mcard, mdecl, mscore, mclass, wkeys, tsave)
            st[S_LEADER] = leader
            st[S_TNUM] -= 1
            for i in range(n):
                tcard[i] = tsave[2 * n * depth + i]
                tdecl[i] = tsave[2 * n * depth + n + i]
        else:
            st[S_TLEN] = tlen + 1
            value = esearch(need, depth + 1, hands, tcard, tdecl, st, rules, masks,
                            decls, tt, keyb, mcard, mdecl, mscore, mclass, wkeys, tsave)
        st[S_TLEN] = tlen
        hands[seat] ^= bit
        if st[S_ABORT]:
            return 0
        if maximize:
            acc |= value & need
        else:
            acc &= value
    if tlen == 0:
        at = tt_slot(tt, keyb, ko, h, size)
        v = at + 1 + KEY_WORDS
        tt[v + V_YES] |= acc & rest
        tt[v + V_NO] |= rest & ~acc
    return acc | known_yes
