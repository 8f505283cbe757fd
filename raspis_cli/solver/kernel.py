"""The search kernel of the double-dummy solver: integers and bit masks only.

Every function here takes and returns plain integers and integer arrays
(Python lists, or numpy ``int64`` arrays when jitted), so the same source
runs as ordinary Python (the tests, and any machine without numba) and,
when numba is installed, compiled by ``numba.njit`` and kept in numba's
on-disk cache (:func:`needs_compiling` tells when the first search compiles
it). The decision is taken once, at import: set ``RASPIS_NO_JIT=1`` to run
the Python source even where numba is present.

The trick rule here is the engine's (:mod:`raspis_cli.engine.deal`), read
from the same option switches and written in integers: which natural cards
may be played (:func:`follow_naturals`) and who wins a trick
(:func:`trick_winner`), jokers and every joker option included. The legal
joker declarations are not written here at all: :mod:`raspis_cli.solver.search`
asks the engine's own :meth:`Deal.legal_joker_plays` for each situation and
passes the lists in. ``tests/test_solver.py`` checks both functions
against the engine on random tricks under shuffled options, and the solver
against brute force over the engine's :class:`Deal`.

Encodings. A card is its index 0..53, a hand a bit mask. A joker
declaration is ``mode * 64 + arg`` (``arg``: a suit 0..3, :data:`NO_SUIT`, or
for ``as`` the card named); a natural card's declaration is 0.

The state of a search is one integer array, the workspace ``w`` (numba
pays per array passed in a call, so there is one): the rules (``RU``: the
``R_*`` switches), the masks (``MA``: four suits, the jokers, the natural
cards of the deck), the state (``ST``: leader, cards in the current trick,
trick number, positions searched, the budget, an abort flag), the hands
(``HA``), the current trick (``TC`` cards, ``TD`` declarations), and the
buffers of each depth: saved tricks, table keys, moves. ``DE`` holds, per
situation (``SIT_*``), the count then the codes of the legal joker
declarations. The transposition table ``tt`` is the second array.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

from raspis_cli.model.cards import NO_SUIT as _CARDS_NO_SUIT
from raspis_cli.model.joker_modes import KERNEL_CODES

__all__ = ["JIT", "MODES", "NO_SUIT", "bsearch", "esearch", "follow_naturals", "ssearch", "trick_winner",
           "vsearch"]

NO_SUIT = _CARDS_NO_SUIT
MODES = KERNEL_CODES
"""Declaration mode -> code (``code >> 6``): the joker table's
(:mod:`raspis_cli.model.joker_modes`)."""
KERNEL_MODES = ("high", "lowest", "low", "take", "discard", "as")
"""The modes the kernel's code names (its constants below); that it
implements each is said once, in :func:`raspis_cli.solver.search.kernel_refusal`'s
``match`` over the closed type of modes, which a new mode stops at."""
HIGH, LOWEST, LOW, TAKE, DISCARD, AS = (MODES[mode] for mode in KERNEL_MODES)

# indexes into ``rules``
R_PLAYERS, R_CARDS, R_PLAYER, R_TRUMP, R_CIRCULAR, R_MUST_TRUMP = 0, 1, 2, 3, 4, 5
R_HIGH_HIGHEST_TRUMP, R_TAKE_BEATEN, R_LOW_JOKER_WINS, R_FIRST_CARD_SUIT = 6, 7, 8, 9
R_OPPOSITE, R_AS_LIVE_OK, R_TT_SIZE, R_SLOT = 10, 11, 12, 13
R_TRUMP_OF = 14
"""5 entries: the trump of a trick by the suit led (``NO_SUIT`` last), made
from the engine's ``trick_trump`` (circular trumps or the deal's)."""
R_LEAD_WINS = R_TRUMP_OF + NO_SUIT + 1
"""An entry per mode code (0 unused): 1 when a leading joker so declared
wins, barring options (the joker table's ``wins_when_led``)."""
R_FOLLOW_WINS = R_LEAD_WINS + len(MODES) + 1
"""An entry per mode code: 1 when a following joker so declared wins."""
RULES_LEN = R_FOLLOW_WINS + len(MODES) + 1
# indexes into ``masks``
M_JOKERS, M_NATURALS = 4, 5
# indexes into ``st``
S_LEADER, S_TLEN, S_TNUM, S_NODES, S_LIMIT, S_ABORT, S_ERROR = 0, 1, 2, 3, 4, 5, 6
ST_LEN = 7
# situations of the joker declarations
SIT_LEAD_FIRST, SIT_LEAD, SIT_FOLLOW, SIT_FOLLOW_WINS, SIT_FOLLOW_LOSES = 0, 1, 2, 3, 4
SITUATIONS = 5
MAX_DECLS = 80
MAX_MOVES = 96
MAX_DEPTH = 64
# the workspace ``w``: one int array holds every small array of the search
# (one array passed per call, not fifteen: numba's calls cost per array)
RU = 0  # rules, RULES_LEN
MA = 40  # masks: four suits, jokers, naturals
ST = 48  # state, ST_LEN
HA = 56  # hands, one per seat (up to 8)
TC = 64  # cards of the current trick
TD = 72  # their declarations
WK = 80  # scratch: trick keys
TS = 88  # saved tricks, 2 * 8 per depth
KB = TS + 16 * 64  # table keys, KEY_WORDS per depth
DE = KB + 8 * 64  # joker declarations per situation, MAX_DECLS + 1 each
MC = DE + 5 * 81 + 3  # moves: cards, MAX_MOVES per depth
MD = MC + 96 * 64  # their declarations
MS = MD + 96 * 64  # their scores
ML = MS + 96 * 64  # their classes
W_LEN = ML + 96 * 64
assert RULES_LEN <= MA, "the rules' words overlap the masks"
# the transposition table: per slot of ``R_SLOT`` words (8, one cache line,
# up to 4 players; else 16), the key's hash (0: empty), the bounds of
# ``bsearch`` (one byte each: won at least, won at most, not won at least,
# not won at most), the counts known yes and known no of ``esearch``, then
# one key word per player
KEY_WORDS = 8
T_BOUNDS, T_YES, T_NO, T_KEY = 1, 2, 3, 4
# the table of ``ssearch``, slots of the same size: the hash of key and set, the set,
# the result, the key words from ``T_KEY`` on
X_SET, X_RESULT, X_NO = 1, 2, 3
# the entry of :func:`vsearch` (its set word): per count b, four bits at 4 * b
# of the lowest (``X_RESULT``) and the highest (``X_NO``) the value may be
V_BOUNDS = -1
V_MAX_LEFT = 13  # with more tricks left the entry is not kept (the counts would not fit)
V_NO_HIGHS = (1 << 4 * (V_MAX_LEFT + 1)) - 1
NO_BOUNDS = 63 << 8 | 63 << 24
PROBE = 4
_MASK63 = 0x7FFFFFFFFFFFFFFF
_WIN_KEY = 500
_LOSE_KEY = -100

Ints = list[int]
"""An integer array: a list, or numpy's int64 array when compiled."""

JIT = False
"""True when the functions below are compiled by numba."""


def _identity(function: Any) -> Any:
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
    # _nrt=False: the kernel allocates nothing, and numba's reference counts
    # of the workspace on every call cost ~11% of a search (perf)
    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
    compile_: Callable[[Any], Any] = numba.njit(**options)
    return compile_


_COMPILE = _decorator()
_F = TypeVar("_F", bound=Callable[..., Any])


_KERNELS: list[Any] = []
"""Every function compiled here (numba's dispatchers), for :func:`needs_compiling`."""


def kernel(function: _F) -> _F:
    """Compile ``function`` with numba when it is installed, else leave it be."""
    compiled = _COMPILE(function)
    if JIT:
        _KERNELS.append(compiled)
    return cast(_F, compiled)


def compiled_functions() -> int:
    """How many functions numba compiles here (0 without numba): the parts
    :func:`raspis_cli.solver.warm.compile_kernel` counts."""
    return len(_KERNELS)


def needs_compiling() -> bool:
    """True when the first search will compile the kernel (numba present,
    and its on-disk cache holds no machine code for this source: a fresh
    install, or the source changed): that takes 20 to 40 seconds, once.
    False without numba, and when numba's cache cannot be read (nothing is
    known then: the caller says nothing rather than something wrong)."""
    if not JIT:
        return False
    try:
        # numba's cache index of each function: empty when it was never
        # written, or written for another version of this file
        return any(not dispatcher._cache._cache_file._load_index() for dispatcher in _KERNELS)
    except Exception:  # another numba's internals
        return False


_DE_BRUIJN = 0x022FDD63CC95386D
_BIT_OF = (
    0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28,
    62, 5, 39, 46, 44, 42, 22, 9, 24, 35, 59, 56, 49, 18, 29, 11,
    63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
    51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
)
"""The index of bit ``i`` under the de Bruijn multiply: ``_BIT_OF[(2**i * _DE_BRUIJN) >> 58 & 63] == i``."""


@kernel
def _plain(value: int) -> int:
    """``value``, typed as a plain integer: numba types a constant argument
    as a literal and compiles the callee again for it (a second ``bsearch``
    and every function it calls cost seconds of the first run's compile)."""
    plain: int = value + 0  # arithmetic is typed int64, a bare return as the literal
    return plain


@kernel
def bit_index(bit: int) -> int:
    """The index of a one-bit mask (``bit`` > 0, below bit 63)."""
    return _BIT_OF[(bit * _DE_BRUIJN) >> 58 & 63]


@kernel
def led_suit(tlen: int, jokers: int, w: Ints) -> int:
    """The suit led of the trick so far (:data:`NO_SUIT` while not known)."""
    if tlen == 0:
        return NO_SUIT
    first = w[TC + 0]
    if not jokers >> first & 1:
        return first // 13
    decl = w[TD + 0]
    arg = decl & 63
    if decl >> 6 == AS:
        return arg // 13
    if arg != NO_SUIT:
        return arg
    for i in range(1, tlen):
        card = w[TC + i]
        if not jokers >> card & 1:
            return card // 13
    return NO_SUIT


@kernel
def trick_trump(led: int, w: Ints) -> int:
    """The trump of a trick with this suit led (:data:`NO_SUIT`: none)."""
    return w[RU + R_TRUMP_OF + led]


@kernel
def follow_naturals(hand: int, tlen: int, w: Ints) -> int:
    """The natural cards of ``hand`` that may be played on the trick so far
    (the engine's ``Deal._follow_mask``)."""
    jokers = w[MA + M_JOKERS]
    hand &= ~jokers
    if tlen == 0:
        return hand
    led = led_suit(tlen, jokers, w)
    trump = trick_trump(led, w)
    if jokers >> w[TC + 0] & 1:
        mode = w[TD + 0] >> 6
        if mode == HIGH or mode == LOWEST:
            demanded = w[TD + 0] & 63
            if demanded != NO_SUIT:
                suit_cards = hand & w[MA + demanded]
                if suit_cards:
                    if mode == LOWEST:
                        return suit_cards & -suit_cards
                    top = suit_cards
                    while top & (top - 1):
                        top &= top - 1
                    return top
                if w[RU + R_MUST_TRUMP] and trump != NO_SUIT:
                    trumps = hand & w[MA + trump]
                    if trumps:
                        return trumps
                return hand
    if led == NO_SUIT:
        return hand
    suit_cards = hand & w[MA + led]
    if suit_cards:
        return suit_cards
    if w[RU + R_MUST_TRUMP] and trump != NO_SUIT:
        trumps = hand & w[MA + trump]
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
def first_joker_wins(tlen: int, jokers: int, w: Ints) -> int:
    """1 when the first joker of the trick is a winning one, 0 when not, -1
    when there is no joker in it (the engine's ``_first_joker_wins``)."""
    for i in range(tlen):
        if jokers >> w[TC + i] & 1:
            mode = w[TD + i] >> 6
            return w[RU + R_LEAD_WINS + mode] if i == 0 else w[RU + R_FOLLOW_WINS + mode]
    return -1


@kernel
def trick_winner(n: int, w: Ints) -> int:
    """The position (in play order) of the winning card of a complete trick
    of ``n`` cards (the engine's ``trick_winner``); ``keys`` is scratch space."""
    jokers = w[MA + M_JOKERS]
    any_joker = False
    for i in range(n):
        if jokers >> w[TC + i] & 1:
            any_joker = True
    if not any_joker:
        led = w[TC + 0] // 13
        trump = trick_trump(led, w)
        best = 0
        best_key = _card_key(w[TC + 0], led, trump)
        for i in range(1, n):
            key = _card_key(w[TC + i], led, trump)
            if key > best_key:
                best_key = key
                best = i
        return best
    led = led_suit(n, jokers, w)
    trump = trick_trump(led, w)
    trump_played = False
    if trump != NO_SUIT:
        for i in range(n):
            if not jokers >> w[TC + i] & 1 and w[TC + i] // 13 == trump:
                trump_played = True
    jokers_seen = 0
    for i in range(n):
        card = w[TC + i]
        if not jokers >> card & 1:
            w[WK + i] = _card_key(card, led, trump)
            continue
        decl = w[TD + i]
        mode = decl >> 6
        arg = decl & 63
        if mode == AS:
            w[WK + i] = _card_key(arg, led, trump)
            continue
        # the engine's _joker_wins: as declared, with the options' exceptions
        wins = False
        if i > 0:
            wins = w[RU + R_FOLLOW_WINS + mode] != 0
        elif mode == HIGH and arg != trump and trump_played and w[RU + R_HIGH_HIGHEST_TRUMP]:
            wins = False
        elif mode == LOW and arg != NO_SUIT:
            followed = False
            for j in range(1, n):
                other = w[TC + j]
                if not jokers >> other & 1 and (other // 13 == arg or other // 13 == trump):
                    followed = True
            wins = not followed and w[RU + R_LOW_JOKER_WINS] != 0
        else:
            wins = w[RU + R_LEAD_WINS + mode] != 0
        if jokers_seen and w[RU + R_OPPOSITE]:
            wins = first_joker_wins(n, jokers, w) == 0
        jokers_seen += 1
        w[WK + i] = _WIN_KEY + i if wins else _LOSE_KEY
    first = w[TC + 0]
    if (jokers >> first & 1 and w[TD + 0] >> 6 == LOW and w[TD + 0] & 63 != NO_SUIT
            and w[WK + 0] == _LOSE_KEY and w[RU + R_FIRST_CARD_SUIT]):
        low_all = True
        for i in range(n):
            if w[WK + i] >= 200:
                low_all = False
        if low_all:
            new_led = NO_SUIT
            for i in range(n):
                if not jokers >> w[TC + i] & 1:
                    new_led = w[TC + i] // 13
                    break
            if new_led != NO_SUIT:
                for i in range(n):
                    if not jokers >> w[TC + i] & 1:
                        w[WK + i] = _card_key(w[TC + i], new_led, trump)
    if w[RU + R_TAKE_BEATEN] and trump != NO_SUIT:
        for i in range(n):
            if jokers >> w[TC + i] & 1:
                decl = w[TD + i]
                arg = decl & 63
                if decl >> 6 == TAKE and arg != NO_SUIT and arg != trump and w[WK + i] >= _WIN_KEY:
                    beaten = False
                    for j in range(i + 1, n):
                        if 300 <= w[WK + j] < 400:
                            beaten = True
                    if beaten:
                        for j in range(i + 1):
                            w[WK + j] = _LOSE_KEY
    best = 0
    for i in range(1, n):
        if w[WK + i] > w[WK + best]:
            best = i
    return best


@kernel
def _situation(tlen: int, tnum: int, jokers: int, w: Ints) -> int:
    if tlen == 0:
        return SIT_LEAD_FIRST if tnum == 1 else SIT_LEAD
    state = first_joker_wins(tlen, jokers, w)
    if state < 0:
        return SIT_FOLLOW
    return SIT_FOLLOW_WINS if state == 1 else SIT_FOLLOW_LOSES


@kernel
def gen_moves(seat: int, base: int, w: Ints) -> int:
    """Write the moves of ``seat`` (one per class of equivalent plays) at
    ``base`` of the move buffers with their strength (``mscore``: rank, trumps
    higher); return how many (0: the seat has no legal play)."""
    n = w[RU + R_PLAYERS]
    jokers = w[MA + M_JOKERS]
    tlen = w[ST + S_TLEN]
    hand = w[HA + seat]
    live = 0
    for s in range(n):
        live |= w[HA + s]
    declared = 0  # cards named by jokers declared 'as' in this trick
    for i in range(tlen):
        card = w[TC + i]
        if jokers >> card & 1:
            if w[TD + i] >> 6 == AS:
                declared |= 1 << (w[TD + i] & 63)
        else:
            live |= 1 << card
    live |= declared
    merge = w[RU + R_AS_LIVE_OK] != 0 or not live & jokers
    jokers_live = live & jokers
    live &= ~jokers
    naturals = follow_naturals(hand, tlen, w)
    led = led_suit(tlen, jokers, w)
    trump = trick_trump(led, w)
    if trump == NO_SUIT and tlen == 0:
        trump = w[RU + R_TRUMP]
    count = 0
    rest = naturals
    while rest:
        low = rest & -rest
        rest ^= low
        card = bit_index(low)
        if merge and not declared & low:  # a joker 'as' this card ties with it
            above = live & ~((low << 1) - 1)
            if above:
                nxt = above & -above
                if nxt & naturals and nxt & w[MA + card // 13]:
                    continue  # the next live card up is ours: one move
        score = card % 13
        if card // 13 == trump:
            score += 20
        w[MC + base + count] = card
        w[MD + base + count] = 0
        w[MS + base + count] = score
        count += 1
    held = hand & jokers
    if held:
        joker = held & -held  # two jokers in one hand play alike
        jcard = bit_index(joker)
        sit = _situation(tlen, w[ST + S_TNUM], jokers, w)
        total = w[DE + sit * (MAX_DECLS + 1)]
        first_of_move = count
        for k in range(total):
            decl = w[DE + sit * (MAX_DECLS + 1) + 1 + k]
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
                    relevant = live & w[MA + suit]
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
                    beatable = (w[RU + R_TAKE_BEATEN] and arg != NO_SUIT and trump != NO_SUIT
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
                    if w[ML + base + j - first_of_move] == klass:
                        seen = True
                        break
                if seen:
                    continue
            w[ML + base + count - first_of_move] = klass
            w[MC + base + count] = jcard
            w[MD + base + count] = decl
            w[MS + base + count] = score
            count += 1
    return count


@kernel
def _lead_bonus(seat: int, card: int, w: Ints) -> int:
    """Move order of a natural lead in 'at most' (the player wants to lose
    tricks, the others want it to win them): the player leads first a card
    that a hand without a joker must beat (60); the others lead first a
    suit the player holds one card of (60; two: 20), its play forced, and
    last a suit it is void in (-50: it throws a card away, unless bound to
    ruff). Leading where the player cannot play under the trick, or by the
    rank of the player's lowest card, searched more positions."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    jokers = w[MA + M_JOKERS]
    suit_mask = w[MA + card // 13]
    if seat == player:
        for s in range(n):
            other = w[HA + s]
            if s == player or other & jokers:
                continue
            theirs = other & suit_mask
            if theirs and (theirs & -theirs) > 1 << card:
                return 60
        return 0
    mine = w[HA + player] & suit_mask
    if mine:
        rest = mine & (mine - 1)
        return 60 if not rest else (20 if not rest & (rest - 1) else 0)
    ruff = w[RU + R_TRUMP_OF + card // 13]
    if w[RU + R_MUST_TRUMP] and ruff != NO_SUIT and w[HA + player] & w[MA + ruff]:
        return 0
    return -50


@kernel
def order_moves(seat: int, count: int, base: int, mode: int, w: Ints) -> None:
    """Sort the moves best guess first for the side to play: in ``mode`` 0
    the player wants tricks, in ``mode`` 1 the player wants none. Whoever
    wants the trick takes it with the cheapest card that wins it (the
    highest before others have played), or throws the lowest; whoever does
    not want it ducks under with the highest card that does not win, or
    dumps the highest when the trick is decided without them."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    tlen = w[ST + S_TLEN]
    leader = w[ST + S_LEADER]
    last = tlen == n - 1
    p_pos = -1
    for i in range(tlen):
        if (leader + i) % n == player:
            p_pos = i
    jokers = w[MA + M_JOKERS]
    plain = True  # no joker in the trick: compare keys, not whole tricks
    for i in range(tlen):
        if jokers >> w[TC + i] & 1:
            plain = False
    winning = -1
    best_key = 0
    led = NO_SUIT
    trump = NO_SUIT
    if tlen > 0:
        winning = trick_winner(tlen, w)
        if plain:
            led = w[TC] // 13
            trump = trick_trump(led, w)
            best_key = _card_key(w[TC + winning], led, trump)
    for m in range(base, base + count):
        strength = w[MS + m]
        w[ML + m] = -1
        if tlen == 0:
            score = strength if mode == 0 else -strength
            card = w[MC + m]
            if mode == 1 and not jokers >> card & 1:
                score += _lead_bonus(seat, card, w)
        else:
            card = w[MC + m]
            if plain and not jokers >> card & 1:
                wins = _card_key(card, led, trump) > best_key
                position = tlen if wins else winning
            else:
                w[TC + tlen] = card
                w[TD + tlen] = w[MD + m]
                position = trick_winner(tlen + 1, w)
                wins = position == tlen
            if last:
                w[ML + m] = position  # the trick's winner: close_trick needs it
            if mode == 0:
                if seat == player:
                    score = (100 + (-strength if last else strength)) if wins else -strength
                elif p_pos >= 0:
                    score = (100 - strength if wins else -strength) if winning == p_pos \
                        else -strength
                else:
                    score = strength
            elif seat == player:
                score = 100 + strength if not wins else (strength if last else -strength)
            elif p_pos >= 0:
                # once the player lost it, dump high; else let the player keep it
                score = strength if winning != p_pos else \
                    (100 + strength if not wins else -100 - strength)
            else:
                score = -strength
        w[MS + m] = score
    # insertion sort, highest score first (stable: the natural order otherwise)
    for i in range(base + 1, base + count):
        c, d, s, k = w[MC + i], w[MD + i], w[MS + i], w[ML + i]
        j = i - 1
        while j >= base and w[MS + j] < s:
            w[MC + j + 1] = w[MC + j]
            w[MD + j + 1] = w[MD + j]
            w[MS + j + 1] = w[MS + j]
            w[ML + j + 1] = w[ML + j]
            j -= 1
        w[MC + j + 1] = c
        w[MD + j + 1] = d
        w[MS + j + 1] = s
        w[ML + j + 1] = k


@kernel
def sure_tricks(w: Ints) -> int:
    """At a trick boundary, the tricks one side is sure of: the highest live
    trumps held in a row by one hand each win the trick they are played in,
    whenever that is (one hand's cards fall in different tricks), less one
    for each live joker in another hand (a joker changes only the trick it
    is played in, and there the hand plays one card of the run).
    ``64 * player's + others'``; 0 under circular trumps or without a trump."""
    trump = w[RU + R_TRUMP]
    if w[RU + R_CIRCULAR] or trump == NO_SUIT:
        return 0
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    trumps = w[MA + trump]
    live = 0
    for s in range(n):
        live |= w[HA + s]
    jokers = live & w[MA + M_JOKERS]
    live &= trumps
    if not live:
        return 0
    card = trump * 13 + 12
    while not live >> card & 1:
        card -= 1
    holder = 0
    for s in range(n):
        if w[HA + s] >> card & 1:
            holder = s
    side = w[HA + holder]
    run = 0
    jokers &= ~side
    while jokers:
        jokers &= jokers - 1
        run -= 1
    while card >= trump * 13:
        if live >> card & 1:
            if not side >> card & 1:
                break
            run += 1
        card -= 1
    if run <= 0:
        return 0
    return run * 64 if holder == player else run


@kernel
def _bits(x: int) -> int:
    """How many bits of ``x`` are set."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@kernel
def _top_bit(x: int) -> int:
    """The highest set bit of ``x`` (> 0) as a mask."""
    while x & (x - 1):
        x &= x - 1
    return x


@kernel
def cash(leader: int, w: Ints) -> int:
    """The tricks the hand on lead wins in a row by leading its top cards,
    whatever the others do (a lower bound), with the player's side only as
    its adversary when the leader is one of the others: cards above every
    other live card of their suit win unless ruffed, and a hand that may
    ruff (it holds the trick's trump) limits its suit to its length there.
    One such suit is cashed first (a ruffer's lengths may shrink when it
    discards later); suits that nobody may ruff, and trumps, add up. 0 while
    a joker is live outside the leader's hand (it may take any trick)."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    hand = w[HA + leader]
    live = 0
    for s in range(n):
        live |= w[HA + s]
    jokers = w[MA + M_JOKERS]
    if live & jokers & ~hand:
        return 0
    rest = live & ~hand & ~jokers
    must_trump = w[RU + R_MUST_TRUMP]
    total = 0
    best = 0
    for suit in range(4):
        mine = hand & w[MA + suit]
        if not mine:
            continue
        theirs = rest & w[MA + suit]
        if theirs:
            mine &= ~((_top_bit(theirs) << 1) - 1)
        won = _bits(mine)
        if won == 0:
            continue
        ruff = w[RU + R_TRUMP_OF + suit]
        ruffed = False
        if ruff != NO_SUIT and ruff != suit:
            for s in range(n):
                if s == leader:
                    continue
                # the leader's partners ruff only when they must
                if leader != player and s != player and not must_trump:
                    continue
                other = w[HA + s]
                if other & w[MA + ruff]:
                    ruffed = True
                    length = _bits(other & w[MA + suit])
                    if length < won:
                        won = length
        if ruffed:
            if won > best:
                best = won
        else:
            total += won
    return total + best


@kernel
def quick_tricks(mode: int, w: Ints) -> int:
    """At a trick boundary, lower bounds from the hand on lead:
    ``64 * a + b``, ``a`` for the tricks the player's side counts in ``mode``
    (won in 0, not won in 1), ``b`` for the others'. Mode 0: the tricks the
    leader cashes (:func:`cash`). Mode 1 (``a`` is 0 there: the tricks the
    player can lose are :func:`loses_one`'s), the others on lead: a card
    under every card of the player's in its suit makes the player win it,
    when the player holds no joker and every partner can play under the
    player."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    leader = w[ST + S_LEADER]
    if mode == 0:
        got = cash(leader, w)
        return got * 64 if leader == player else got
    if leader == player:
        return 0
    jokers = w[MA + M_JOKERS]
    mine = w[HA + player]
    lead_hand = w[HA + leader]
    if mine & jokers:
        return 0
    for suit in range(4):
        cards = mine & w[MA + suit]
        led = lead_hand & w[MA + suit]
        if not cards or not led:
            continue
        low = cards & -cards
        if (led & -led) > low:
            continue
        ruff = w[RU + R_TRUMP_OF + suit]
        under = True
        for s in range(n):
            if s == player or s == leader:
                continue
            other = w[HA + s]
            theirs = other & w[MA + suit]
            if theirs:
                if (theirs & -theirs) > low:
                    under = False
            else:
                # void: a natural card off the trick's trump loses, when
                # the partner may play it (free void, or no trump held)
                naturals = other & ~jokers
                if ruff != NO_SUIT:
                    if w[RU + R_MUST_TRUMP] and other & w[MA + ruff]:
                        under = False
                    naturals &= ~w[MA + ruff]
                if not naturals:
                    under = False
        if under:
            return 1
    return 0


@kernel
def _keeps_over(suit: int, low: int, led: int, w: Ints) -> int:
    """1 when a jokerless other hand holds cards of ``suit``, every one
    above ``low`` (a card of the player's in it), and still holds one after
    a trick led in ``led`` (``suit`` != ``led``): two of them, or cards of
    ``led`` it must follow with."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    jokers = w[MA + M_JOKERS]
    for s in range(n):
        other = w[HA + s]
        if s == player or other & jokers:
            continue
        theirs = other & w[MA + suit]
        if not theirs or (theirs & -theirs) < low:
            continue
        if theirs & (theirs - 1) or other & w[MA + led]:
            return 1
    return 0


@kernel
def loses_one(w: Ints) -> int:
    """1 when, at a trick boundary with a trick or more left, the player can
    surely lose one of the tricks left (a lower bound for "at most"), else 0.

    Every case below rests on one fact: in a trick led with a natural card,
    the player's natural card loses once a natural card above it of the
    suit led, or a trump, is in the trick, whatever the rest play (a joker
    played after it takes the trick itself or loses; a 'take' beaten by a
    trump hands the trick to that trump). And a jokerless hand holding
    cards of the suit led must play one of them.

    The player on lead: leading its cards of one suit from the lowest up, it
    keeps the lead while it wins; a jokerless other hand with cards of that
    suit ``x1 < x2 < ...`` can play under the player's ``p1 < p2 < ...``
    every time only if ``xj < pj`` for each ``j`` it can follow to (Hall's
    condition: each lead asks one card below it); a hand that runs out while
    the player still leads the suit must then ruff if it is bound to (or
    holds nothing else), and its trump beats the player's card.

    The others on lead, the leader holding no joker: for each suit the
    leader can lead, either (a) the player can play under the trick: void,
    a natural card off the trick's trump when allowed to; or its lowest
    card of the suit below the least the cards before it can be (the
    leader's lowest; each jokerless hand between must follow with its lowest
    or, void, ruff when forced; a hand with a joker may play it and raise
    nothing); or (b) with two tricks or more left, the player follows with
    a card of the suit and, if it wins, leads next its lowest card of
    another suit that a jokerless hand must beat (:func:`_keeps_over`)."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    leader = w[ST + S_LEADER]
    jokers = w[MA + M_JOKERS]
    must_trump = w[RU + R_MUST_TRUMP]
    left = w[RU + R_CARDS] - w[ST + S_TNUM] + 1
    mine = w[HA + player]
    if leader == player:
        for suit in range(4):
            cards = mine & w[MA + suit] & ~jokers
            if not cards:
                continue
            ruff = w[RU + R_TRUMP_OF + suit]
            m = _bits(cards)
            for s in range(n):
                other = w[HA + s]
                if s == player or other & jokers:
                    continue
                theirs = other & w[MA + suit]
                if not theirs:
                    continue
                k = _bits(theirs)
                mask_p = cards
                mask_x = theirs
                j = 0
                while j < k and j < m:
                    if (mask_x & -mask_x) > (mask_p & -mask_p):
                        return 1
                    mask_x &= mask_x - 1
                    mask_p &= mask_p - 1
                    j += 1
                if k < m and ruff != NO_SUIT and ruff != suit:
                    trumps = other & w[MA + ruff]
                    if trumps and (must_trump or not other & ~trumps & ~w[MA + suit]):
                        return 1
        return 0
    if w[HA + leader] & jokers:
        return 0
    lead_hand = w[HA + leader]
    for suit in range(4):
        led = lead_hand & w[MA + suit]
        if not led:
            continue
        ruff = w[RU + R_TRUMP_OF + suit]
        cards = mine & w[MA + suit] & ~jokers
        if not cards:
            naturals = mine & ~jokers
            if ruff != NO_SUIT:
                if must_trump and mine & w[MA + ruff]:
                    return 0
                naturals &= ~w[MA + ruff]
            if not naturals:
                return 0
            continue
        low = cards & -cards
        top = led & -led
        ruffed = False
        # a 'take' beaten by a trump loses with every card before it: when
        # the player's card is a trump, a joker before it may leave it on top
        reset = w[RU + R_TAKE_BEATEN] != 0 and ruff == suit
        s = (leader + 1) % n
        while s != player:
            other = w[HA + s]
            if other & jokers and reset:
                top = _MASK63
            if not other & jokers:
                theirs = other & w[MA + suit]
                if theirs:
                    if (theirs & -theirs) > top:
                        top = theirs & -theirs
                elif ruff != NO_SUIT and ruff != suit:
                    trumps = other & w[MA + ruff]
                    if trumps and (must_trump or not other & ~trumps):
                        ruffed = True
            s = (s + 1) % n
        if (ruffed or top > low) and top != _MASK63:
            continue
        if left >= 2:
            kept = False
            for other_suit in range(4):
                if other_suit == suit:
                    continue
                cards2 = mine & w[MA + other_suit] & ~jokers
                if cards2 and _keeps_over(other_suit, cards2 & -cards2, suit, w):
                    kept = True
                    break
            if kept:
                continue
        return 0
    return 1


@kernel
def _mix(h: int, word: int) -> int:
    """The table hash ``h`` with one more key word mixed in."""
    h = ((h ^ word) * 0x5851F42D4C957F2D) & _MASK63
    return h ^ h >> 29


@kernel
def make_key(ko: int, w: Ints) -> int:
    """Write the table key of the trick boundary in ``hands`` at ``w[KB + ko:]``
    and return its hash. Each suit's live cards are renumbered from the
    bottom (only their order matters), unless a joker that may be declared
    'as' a card is live; jokers count per hand (two jokers play alike)."""
    n = w[RU + R_PLAYERS]
    if n > 4:
        return _make_key_wide(ko, w)
    jokers = w[MA + M_JOKERS]
    # up to four hands in locals: the key's words are written once, at the
    # end (writes into ``w`` would make every hand be read again)
    h0 = w[HA + 0]
    h1 = w[HA + 1]
    h2 = w[HA + 2] if n > 2 else 0
    h3 = w[HA + 3] if n > 3 else 0
    live = h0 | h1 | h2 | h3
    k0 = h0 & ~jokers
    k1 = h1 & ~jokers
    k2 = h2 & ~jokers
    k3 = h3 & ~jokers
    if w[RU + R_AS_LIVE_OK] != 0 or not live & jokers:
        k0 = k1 = k2 = k3 = 0
        for suit in range(4):
            cards = live & w[MA + suit]
            bit = 1 << suit * 13
            while cards:
                low = cards & -cards
                cards ^= low
                if h0 & low:
                    k0 |= bit
                elif h1 & low:
                    k1 |= bit
                elif h2 & low:
                    k2 |= bit
                else:
                    k3 |= bit
                bit <<= 1
    k0 |= _bits(h0 & jokers) << 54 | w[ST + S_LEADER] << 57
    k1 |= _bits(h1 & jokers) << 54
    k2 |= _bits(h2 & jokers) << 54
    k3 |= _bits(h3 & jokers) << 54
    w[KB + ko] = k0
    w[KB + ko + 1] = k1
    h = w[ST + S_LEADER] + 1
    h = _mix(h, k0)
    h = _mix(h, k1)
    if n > 2:
        w[KB + ko + 2] = k2
        h = _mix(h, k2)
    if n > 3:
        w[KB + ko + 3] = k3
        h = _mix(h, k3)
    return h


@kernel
def _make_key_wide(ko: int, w: Ints) -> int:
    """:func:`make_key` of any number of hands (the one for more than four,
    and the reference its faster form for up to four is tested against)."""
    n = w[RU + R_PLAYERS]
    jokers = w[MA + M_JOKERS]
    live = 0
    for s in range(n):
        live |= w[HA + s]
    renumber = w[RU + R_AS_LIVE_OK] != 0 or not live & jokers
    for s in range(n):
        w[KB + ko + s] = 0
    if renumber:
        for suit in range(4):
            cards = live & w[MA + suit]
            position = suit * 13
            while cards:
                low = cards & -cards
                cards ^= low
                for s in range(n):
                    if w[HA + s] & low:
                        w[KB + ko + s] |= 1 << position
                        break
                position += 1
    for s in range(n):
        hand = w[HA + s]
        if not renumber:
            w[KB + ko + s] = hand & ~jokers
        held = hand & jokers
        count = 0
        while held:
            held &= held - 1
            count += 1
        w[KB + ko + s] |= count << 54
    w[KB + ko] |= w[ST + S_LEADER] << 57
    h = w[ST + S_LEADER] + 1
    for s in range(n):
        h = _mix(h, w[KB + ko + s])
    return h


@kernel
def table_find(table: Ints, ko: int, h: int, size: int, tag_at: int, tag: int, w: Ints) -> int:
    """The offset of the slot of the key at ``w[KB + ko:]`` in ``table``, -1
    when not there. A slot starts with its key's hash (0: empty), checked
    before the key words; with ``tag_at`` > 0 the slot's word there must
    also be ``tag`` (the set of :func:`ssearch`'s table)."""
    n = w[RU + R_PLAYERS]
    slot = w[RU + R_SLOT]
    check = h | 1
    for p in range(PROBE):
        at = ((h + p) & (size - 1)) * slot
        if table[at] == 0:
            return -1
        if table[at] != check or (tag_at > 0 and table[at + tag_at] != tag):
            continue
        same = True
        for kw in range(n):
            if table[at + T_KEY + kw] != w[KB + ko + kw]:
                same = False
                break
        if same:
            return at
    return -1


@kernel
def table_claim(table: Ints, ko: int, h: int, size: int, w: Ints) -> int:
    """A slot for the key at ``w[KB + ko:]`` (one found empty, else the first
    probed taken over), its hash and key words written; its offset."""
    slot = w[RU + R_SLOT]
    at = (h & (size - 1)) * slot
    for p in range(PROBE):
        probe = ((h + p) & (size - 1)) * slot
        if table[probe] == 0:
            at = probe
            break
    table[at] = h | 1
    for kw in range(w[RU + R_PLAYERS]):
        table[at + T_KEY + kw] = w[KB + ko + kw]
    return at


@kernel
def tt_find(tt: Ints, ko: int, h: int, size: int, w: Ints) -> int:
    """The offset of the key's slot in the table, -1 when not there."""
    return table_find(tt, ko, h, size, 0, 0, w)


@kernel
def tt_slot(tt: Ints, ko: int, h: int, size: int, w: Ints) -> int:
    """The offset of the key's slot, made (or taken over) when not there."""
    at = tt_find(tt, ko, h, size, w)
    if at >= 0:
        return at
    at = table_claim(tt, ko, h, size, w)
    tt[at + T_BOUNDS] = NO_BOUNDS
    tt[at + T_YES] = 0
    tt[at + T_NO] = 0
    return at


@kernel
def expand(seat: int, base: int, mode: int, w: Ints) -> int:
    """Count one more position searched, then write the moves of ``seat`` at
    ``base``, best guess first for ``mode`` (:func:`order_moves`); return
    how many, or -1 with the abort flag set past the budget or when ``seat``
    has no legal play (the error flag set too)."""
    w[ST + S_NODES] += 1
    if w[ST + S_NODES] > w[ST + S_LIMIT]:
        w[ST + S_ABORT] = 1
        return -1
    count = gen_moves(seat, base, w)
    if count == 0:
        w[ST + S_ERROR] = 1
        w[ST + S_ABORT] = 1
        return -1
    if count > 1:
        order_moves(seat, count, base, mode, w)
    elif w[ST + S_TLEN] == w[RU + R_PLAYERS] - 1:
        w[ML + base] = -1  # the trick's winner: not known yet
    return count


@kernel
def close_trick(depth: int, position: int, w: Ints) -> int:
    """The current trick is complete: keep it (the next trick writes over
    it), start the next one led by its winner (at ``position`` in play
    order; -1: not known yet); return the winner."""
    n = w[RU + R_PLAYERS]
    if position < 0:
        position = trick_winner(n, w)
    for i in range(n):
        w[TS + 2 * n * depth + i] = w[TC + i]
        w[TS + 2 * n * depth + n + i] = w[TD + i]
    winner = (w[ST + S_LEADER] + position) % n
    w[ST + S_LEADER] = winner
    w[ST + S_TLEN] = 0
    w[ST + S_TNUM] += 1
    return winner


@kernel
def reopen_trick(depth: int, leader: int, w: Ints) -> None:
    """Undo :func:`close_trick`: the kept trick back, led by ``leader``
    (the caller restores the count of cards in it)."""
    n = w[RU + R_PLAYERS]
    w[ST + S_LEADER] = leader
    w[ST + S_TNUM] -= 1
    for i in range(n):
        w[TC + i] = w[TS + 2 * n * depth + i]
        w[TD + i] = w[TS + 2 * n * depth + n + i]


@kernel
def bsearch(t: int, mode: int, depth: int, tt: Ints, w: Ints) -> int:
    """1 when the player can force at least ``t`` more of their tricks
    (``mode`` 0) or of the tricks they do not win (``mode`` 1), else 0.
    Null-window alpha-beta; the table keeps a lower and an upper bound of
    each value at trick boundaries. Sets ``w[ST + S_ABORT]`` past the budget."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    tlen = w[ST + S_TLEN]
    ko = depth * KEY_WORDS
    h = 0
    size = w[RU + R_TT_SIZE]
    if tlen == 0:
        left = w[RU + R_CARDS] - w[ST + S_TNUM] + 1
        if t <= 0:
            return 1
        if t > left:
            return 0
        sure = sure_tricks(w)
        won = sure >> 6  # the player's sure tricks
        lost = sure & 63  # the others'
        if mode == 1:
            won, lost = lost, won
        if t <= won:
            return 1
        if t > left - lost:
            return 0
        # the quick bounds, each only where it can decide
        if mode == 0:
            got = cash(w[ST + S_LEADER], w)
            if w[ST + S_LEADER] == player:
                if t <= got:
                    return 1
            elif t > left - got:
                return 0
        else:
            if t == 1 and loses_one(w):
                return 1
            if lost == 0 and t == left and quick_tricks(1, w) & 63:
                return 0
        # the table after the static bounds: a position they decide costs
        # no key
        h = make_key(ko, w)
        at = tt_find(tt, ko, h, size, w)
        if at >= 0:
            bounds = tt[at + T_BOUNDS] >> 16 * mode
            if bounds & 255 >= t:
                return 1
            if bounds >> 8 & 255 < t:
                return 0
    seat = (w[ST + S_LEADER] + tlen) % n
    maximize = seat == player
    base = depth * MAX_MOVES
    count = expand(seat, base, mode, w)
    if count < 0:
        return 0
    result = 0 if maximize else 1
    for m in range(base, base + count):
        card = w[MC + m]
        bit = 1 << card
        w[HA + seat] ^= bit
        w[TC + tlen] = card
        w[TD + tlen] = w[MD + m]
        if tlen + 1 == n:
            leader = w[ST + S_LEADER]
            winner = close_trick(depth, w[ML + m], w)
            got = 1 if (winner == player) == (mode == 0) else 0
            r = bsearch(t - got, mode, depth + 1, tt, w)
            reopen_trick(depth, leader, w)
        else:
            w[ST + S_TLEN] = tlen + 1
            r = bsearch(t, mode, depth + 1, tt, w)
        w[ST + S_TLEN] = tlen
        w[HA + seat] ^= bit
        if w[ST + S_ABORT]:
            return 0
        if maximize:
            if r:
                result = 1
                break
        elif not r:
            result = 0
            break
    if tlen == 0:
        at = tt_slot(tt, ko, h, size, w)
        bounds = tt[at + T_BOUNDS]
        shift = 16 * mode
        if result:
            if bounds >> shift & 255 < t:
                bounds = bounds & ~(255 << shift) | t << shift
        elif bounds >> shift + 8 & 255 > t - 1:
            bounds = bounds & ~(255 << shift + 8) | (t - 1) << shift + 8
        tt[at + T_BOUNDS] = bounds
    return result


@kernel
def esearch(care: int, depth: int, tt: Ints, w: Ints) -> int:
    """The counts ``k`` (bit ``k``) of further tricks the player can force
    exactly, correct on the bits of ``care``: the union over the player's
    moves, the intersection over the others'. The table keeps the bits known
    yes and known no at trick boundaries, and the bounds of :func:`bsearch`
    rule out counts beyond what the player can force at least or at most."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    tlen = w[ST + S_TLEN]
    ko = depth * KEY_WORDS
    h = 0
    size = w[RU + R_TT_SIZE]
    rest = care
    known_yes = 0
    if tlen == 0:
        left = w[RU + R_CARDS] - w[ST + S_TNUM] + 1
        care &= (2 << left) - 1
        if care == 0:
            return 0
        if left == 0:
            return care & 1
        h = make_key(ko, w)
        at = tt_find(tt, ko, h, size, w)
        yes = 0
        no = 0
        if at >= 0:
            yes = tt[at + T_YES]
            no = tt[at + T_NO]
            bounds = tt[at + T_BOUNDS]
            most = bounds >> 8 & 255
            if most < left:
                no |= ((2 << left) - 1) & ~((2 << most) - 1)
            unwon_most = bounds >> 24 & 255
            if unwon_most < left:
                no |= (1 << (left - unwon_most)) - 1
        sure = sure_tricks(w)
        fewest = sure >> 6  # the player's sure tricks
        others = sure & 63  # the others'
        # what the others can force from the lead: tricks on the player
        # (mode 1), tricks of their own (mode 0)
        forced = quick_tricks(1, w) & 63
        if forced > fewest:
            fewest = forced
        taken = quick_tricks(0, w) & 63
        if taken > others:
            others = taken
        no |= (1 << fewest) - 1  # fewer than the player must take
        no |= ((2 << left) - 1) & ~((2 << (left - others)) - 1)  # beyond the rest
        rest = care & ~(yes | no)
        known_yes = yes & care
        if rest == 0:
            return known_yes
        care = rest
    seat = (w[ST + S_LEADER] + tlen) % n
    maximize = seat == player
    base = depth * MAX_MOVES
    # the player's moves ordered as for winning tricks, the others' as for
    # making the player win them: 40% fewer positions on 3x12 deals than
    # ordering by the lowest count asked
    count = expand(seat, base, 0 if maximize else 1, w)
    if count < 0:
        return 0
    acc = 0 if maximize else care
    for m in range(base, base + count):
        need = care & ~acc if maximize else acc
        if need == 0:
            break
        card = w[MC + m]
        bit = 1 << card
        w[HA + seat] ^= bit
        w[TC + tlen] = card
        w[TD + tlen] = w[MD + m]
        if tlen + 1 == n:
            leader = w[ST + S_LEADER]
            winner = close_trick(depth, w[ML + m], w)
            if winner == player:
                value = esearch(need >> 1, depth + 1, tt, w) << 1
            else:
                value = esearch(need, depth + 1, tt, w)
            reopen_trick(depth, leader, w)
        else:
            w[ST + S_TLEN] = tlen + 1
            value = esearch(need, depth + 1, tt, w)
        w[ST + S_TLEN] = tlen
        w[HA + seat] ^= bit
        if w[ST + S_ABORT]:
            return 0
        if maximize:
            acc |= value & need
        else:
            acc &= value
    if tlen == 0:
        at = tt_slot(tt, ko, h, size, w)
        tt[at + T_YES] |= acc & rest
        tt[at + T_NO] |= rest & ~acc
    return acc | known_yes


@kernel
def xt_store(xt: Ints, ko: int, h: int, care: int, size: int, result: int, w: Ints) -> None:
    """Keep ``result`` for the key at ``w[KB + ko:]`` and the set ``care`` in
    the table of :func:`ssearch` (a slot made, or taken over, when not there)."""
    at = table_find(xt, ko, h, size, X_SET, care, w)
    if at < 0:
        at = table_claim(xt, ko, h, size, w)
        xt[at + X_SET] = care
    xt[at + X_RESULT] = result


@kernel
def ssearch(care: int, depth: int, tt: Ints, xt: Ints, w: Ints) -> int:
    """1 when the player can force the count of further tricks into the set
    ``care`` (bit ``k``: ``k`` more tricks), else 0: the or over the player's
    moves, the and over the others'. What is known cheaply decides first: the
    counts every line stays within (:func:`sure_tricks`) narrow the set; what
    the others can force on the lead (:func:`quick_tricks`), what the leader
    cashes, and the bounds and exact counts :func:`bsearch` and :func:`esearch`
    left in ``tt`` prove or refute it; a result at a trick boundary is kept in
    ``xt`` (its slots: the hash of key and set, the set, the result, the key).
    Sets ``w[ST + S_ABORT]`` past the budget."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    tlen = w[ST + S_TLEN]
    ko = depth * KEY_WORDS
    h = 0
    size = w[RU + R_TT_SIZE]
    if tlen == 0:
        left = w[RU + R_CARDS] - w[ST + S_TNUM] + 1
        full = (2 << left) - 1
        care &= full
        if care == 0:
            return 0
        if left == 0:
            return care & 1
        sure = sure_tricks(w)
        won = sure >> 6
        lost = sure & 63
        reach = full & ~((1 << won) - 1) & ((2 << (left - lost)) - 1)
        care &= reach
        if care == 0:
            return 0
        if care == reach:
            return 1
        # the others force the player up to 'forced', or themselves to 'taken'
        forced = quick_tricks(1, w) & 63
        if care & ~((1 << forced) - 1) == 0:
            return 0
        got = cash(w[ST + S_LEADER], w)
        if w[ST + S_LEADER] == player:
            if care | ((1 << got) - 1) == full:
                return 1
        elif care & ((2 << (left - got)) - 1) == 0:
            return 0
        h = make_key(ko, w)
        at = tt_find(tt, ko, h, size, w)
        if at >= 0:
            if tt[at + T_YES] & care:
                return 1
            bounds = tt[at + T_BOUNDS]
            lo = bounds & 255
            hi = bounds >> 8 & 255
            ulo = bounds >> 16 & 255
            uhi = bounds >> 24 & 255
            if care | ((1 << lo) - 1) == full:
                return 1
            if ulo <= left and care | ~((2 << (left - ulo)) - 1) & full == full:
                return 1
            if hi < left and care & ((2 << hi) - 1) == 0:
                return 0
            if uhi < left and care & ~((1 << (left - uhi)) - 1) == 0:
                return 0
            if care & (care - 1) == 0 and tt[at + T_NO] & care:
                return 0
        h = _mix(h, care)
        at = table_find(xt, ko, h, size, X_SET, care, w)
        if at >= 0:
            return xt[at + X_RESULT]
        if care >> left & 1:
            # the set ends in "at least k": that half asked first by the
            # cheaper search (its bounds kept in ``tt`` answer it again)
            k = left
            while care >> (k - 1) & 1:
                k -= 1
            if bsearch(k, _plain(0), depth, tt, w):
                xt_store(xt, ko, h, care, size, 1, w)
                return 1
            if w[ST + S_ABORT]:
                return 0
    seat = (w[ST + S_LEADER] + tlen) % n
    maximize = seat == player
    base = depth * MAX_MOVES
    low_bit = care & -care
    fewest = bit_index(low_bit) if low_bit else 0
    left_now = w[RU + R_CARDS] - w[ST + S_TNUM] + 1
    count = expand(seat, base, 1 if fewest * n < left_now else 0, w)
    if count < 0:
        return 0
    result = 0 if maximize else 1
    for m in range(base, base + count):
        card = w[MC + m]
        bit = 1 << card
        w[HA + seat] ^= bit
        w[TC + tlen] = card
        w[TD + tlen] = w[MD + m]
        if tlen + 1 == n:
            leader = w[ST + S_LEADER]
            winner = close_trick(depth, w[ML + m], w)
            if winner == player:
                r = ssearch(care >> 1, depth + 1, tt, xt, w)
            else:
                r = ssearch(care, depth + 1, tt, xt, w)
            reopen_trick(depth, leader, w)
        else:
            w[ST + S_TLEN] = tlen + 1
            r = ssearch(care, depth + 1, tt, xt, w)
        w[ST + S_TLEN] = tlen
        w[HA + seat] ^= bit
        if w[ST + S_ABORT]:
            return 0
        if maximize:
            if r:
                result = 1
                break
        elif not r:
            result = 0
            break
    if tlen == 0:
        xt_store(xt, ko, h, care, size, result, w)
    return result


@kernel
def vsearch(bits: int, k: int, depth: int, tt: Ints, xt: Ints, w: Ints) -> int:
    """For each bit ``b`` of ``bits`` (``b`` < ``k``), whether the player can
    force the count of further tricks into ``{b}`` and ``k`` or more: the
    questions of :func:`ssearch` that differ only in ``b``, asked in one
    search (bit ``b`` of the result: yes), as :func:`esearch` asks its
    exact counts: the union over the player's moves, the intersection over
    the others'. With ``k`` above the tricks left, exact counts. At a trick
    boundary "``k`` or more" is asked first by :func:`bsearch` (yes: every
    bit yes); when not, a bit whose count cannot be reached is no, and the
    counts :func:`esearch` found forceable are yes; what is learnt is kept
    in ``xt``, one entry per position for every ``k``: per count ``b``, the
    bounds of the highest ``k`` for which it can be forced (a yes answers
    every lower ``k``, a no every higher). Sets ``w[ST + S_ABORT]`` past
    the budget."""
    n = w[RU + R_PLAYERS]
    player = w[RU + R_PLAYER]
    tlen = w[ST + S_TLEN]
    ko = depth * KEY_WORDS
    h = 0
    size = w[RU + R_TT_SIZE]
    known_yes = 0
    rest = bits
    kk = 0  # k, clamped to the tricks left + 1 (above: exact counts)
    keep = False  # whether this position's bounds entry is read and kept (few enough tricks left)
    if k <= 0:
        return bits
    if tlen == 0:
        left = w[RU + R_CARDS] - w[ST + S_TNUM] + 1
        bits &= (2 << left) - 1
        if bits == 0 or left == 0:
            return bits  # the deal is over: no more tricks, the count 0
        if k <= left:
            if bsearch(k, _plain(0), depth, tt, w):
                return bits
            if w[ST + S_ABORT]:
                return 0
        # not "k or more": a bit is yes only with its count, and no where
        # no line of play reaches that count (the sure tricks of each side;
        # what one side can force is no such fact)
        sure = sure_tricks(w)
        fewest = sure >> 6
        others = sure & 63
        if k > left:
            # exact counts only: one strategy of the others that keeps the
            # player above (below) a count refutes it (as in esearch)
            forced = quick_tricks(1, w) & 63
            if forced > fewest:
                fewest = forced
            if w[ST + S_LEADER] != player:
                got = cash(w[ST + S_LEADER], w)
                if got > others:
                    others = got
        bits &= ~((1 << fewest) - 1) & ((2 << (left - others)) - 1)
        if bits == 0:
            return 0
        h = make_key(ko, w)
        at = tt_find(tt, ko, h, size, w)
        if at >= 0:
            known_yes = tt[at + T_YES] & bits
            bounds = tt[at + T_BOUNDS]
            most = bounds >> 8 & 255
            if most < left:
                bits &= (2 << most) - 1  # beyond what the player can force at least
            unwon_most = bounds >> 24 & 255
            if k > left and unwon_most < left:
                bits &= ~((1 << (left - unwon_most)) - 1)
            if k > left:
                bits &= ~tt[at + T_NO]
        # one entry per position for every k: per count b, the bounds of
        # the highest k for which "b, or k and more" can be forced (the sets
        # shrink as k grows, so a yes holds for every lower k and a no for
        # every higher); tagged V_BOUNDS, never a set of ssearch's
        kk = k if k <= left + 1 else left + 1
        keep = left <= V_MAX_LEFT
        h = _mix(h, V_BOUNDS)
        at = table_find(xt, ko, h, size, X_SET, V_BOUNDS, w) if keep else -1
        if at >= 0:
            lows = xt[at + X_RESULT]
            highs = xt[at + X_NO]
            rest = bits & ~known_yes
            while rest:
                low_bit = rest & -rest
                rest ^= low_bit
                b = bit_index(low_bit)
                if lows >> 4 * b & 15 >= kk:
                    known_yes |= low_bit
                elif highs >> 4 * b & 15 < kk:
                    bits &= ~low_bit
        rest = bits & ~known_yes
        if rest == 0:
            return known_yes
    seat = (w[ST + S_LEADER] + tlen) % n
    maximize = seat == player
    base = depth * MAX_MOVES
    # the player's moves ordered as for winning tricks, the others' as for
    # making the player win them (45% fewer positions on 12-card samples
    # than esearch's order by the lowest count asked, either mode for all)
    count = expand(seat, base, 0 if maximize else 1, w)
    if count < 0:
        return 0
    acc = 0 if maximize else rest
    for m in range(base, base + count):
        need = rest & ~acc if maximize else acc
        if need == 0:
            break
        card = w[MC + m]
        bit = 1 << card
        w[HA + seat] ^= bit
        w[TC + tlen] = card
        w[TD + tlen] = w[MD + m]
        if tlen + 1 == n:
            leader = w[ST + S_LEADER]
            winner = close_trick(depth, w[ML + m], w)
            if winner == player:
                value = vsearch(need >> 1, k - 1, depth + 1, tt, xt, w) << 1
                # the count 0 is past: that bit asks "k or more" alone
                if need & 1 and not w[ST + S_ABORT] and bsearch(k - 1, _plain(0), depth + 1, tt, w):
                    value |= 1
            else:
                value = vsearch(need, k, depth + 1, tt, xt, w)
            reopen_trick(depth, leader, w)
        else:
            w[ST + S_TLEN] = tlen + 1
            value = vsearch(need, k, depth + 1, tt, xt, w)
        w[ST + S_TLEN] = tlen
        w[HA + seat] ^= bit
        if w[ST + S_ABORT]:
            return 0
        if maximize:
            acc |= value & need
        else:
            acc &= value
    if keep:
        at = table_find(xt, ko, h, size, X_SET, V_BOUNDS, w)
        if at < 0:
            at = table_claim(xt, ko, h, size, w)
            xt[at + X_SET] = V_BOUNDS
            xt[at + X_RESULT] = 0
            xt[at + X_NO] = V_NO_HIGHS
        lows = xt[at + X_RESULT]
        highs = xt[at + X_NO]
        done = rest
        while done:
            low_bit = done & -done
            done ^= low_bit
            b = bit_index(low_bit)
            if acc & low_bit:
                if lows >> 4 * b & 15 < kk:
                    lows = lows & ~(15 << 4 * b) | kk << 4 * b
            elif highs >> 4 * b & 15 > kk - 1:
                highs = highs & ~(15 << 4 * b) | (kk - 1) << 4 * b
        xt[at + X_RESULT] = lows
        xt[at + X_NO] = highs
    return acc | known_yes
