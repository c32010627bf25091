"""The numba kernel behind :mod:`croupier.blackjack.math.simulate` (see there); no input
checks here.

One box, one player, a flat wager of ``wager`` chips, played exactly as
:class:`~croupier.blackjack.round.BlackjackRound` plays it (deal order, 11.4-11.5 splits,
12.1 draws, the no-hole-card dealer, 4.1 and 11.7 settlement: a dealer blackjack takes the
original wager once, from the first hand still standing), the player following a chart
through :func:`croupier.blackjack.math._policy.decide`. Cards are rank codes 0 (two) to 12
(ace).

``params`` (int64): see the ``P_*`` indices. ``stats`` (int64): see the ``S_*`` indices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.blackjack.math._policy import DOUBLE, SPLIT, STAND, SURRENDER, decide, may_double

__all__ = ["MAX_HANDS", "new_scratch", "play_round", "play_shoe", "run_task", "seed_state"]

# params
P_PEEK, P_H17, P_SPLITS_ALL, P_DOUBLES_ALL, P_DOUBLE_ON, P_DAS, P_MAX_HANDS = 0, 1, 2, 3, 4, 5, 6
P_RSA, P_HSA, P_SURRENDER, P_BY_RANK, P_BJ_NUM, P_BJ_DEN, P_INSURANCE = 7, 8, 9, 10, 11, 12, 13
P_INSURE, P_UNIT, P_BURN, P_CUT, P_CARDS = 14, 15, 16, 17, 18
N_PARAMS = 19

# stats
S_ROUNDS, S_NET, S_NET2, S_PLAYER_BJ, S_DEALER_BJ, S_DOUBLES, S_SPLITS = 0, 1, 2, 3, 4, 5, 6
S_HANDS, S_BUSTS, S_DEALER_BUSTS, S_INS_TAKEN, S_INS_WON, S_SURRENDERS = 7, 8, 9, 10, 11, 12
S_WINS, S_PUSHES, S_LOSSES, S_SHUFFLES = 13, 14, 15, 16
N_STATS = 17

MAX_HANDS = 8
"""The most hands a box may become in the kernel."""
_MAXH = MAX_HANDS
_MAXC = 24


@njit(cache=True, inline="always")
def _value(rank):
    if rank == 12:
        return 1
    v = rank + 2
    return 10 if v > 10 else v


@njit(cache=True)
def _total(cards, n):
    """(best total, soft) of the first n rank codes."""
    hard = 0
    ace = False
    for i in range(n):
        v = _value(cards[i])
        hard += v
        if v == 1:
            ace = True
    if ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@njit(cache=True)
def _is_pair(a, b, by_rank):
    if by_rank:
        return a == b
    return _value(a) == _value(b)


@njit(cache=True)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def _next(state):
    """xoshiro256**: the next 64 random bits."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@njit(cache=True)
def seed_state(seed, state):
    """Fill a xoshiro256** state from a 64-bit seed with splitmix64."""
    x = np.uint64(seed)
    for i in range(4):
        x += np.uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        state[i] = z ^ (z >> np.uint64(31))


@njit(cache=True)
def _shuffle(shoe, state):
    """Fisher-Yates with unbiased bounded draws (Lemire's multiply-and-reject on 32 bits)."""
    mask = np.uint64(0xFFFFFFFF)
    for i in range(shoe.shape[0] - 1, 0, -1):
        bound = np.uint64(i + 1)
        m = (_next(state) >> np.uint64(32)) * bound
        low = m & mask
        if low < bound:
            threshold = (np.uint64(1 << 32) - bound) % bound
            while low < threshold:
                m = (_next(state) >> np.uint64(32)) * bound
                low = m & mask
        j = int(m >> np.uint64(32))
        shoe[i], shoe[j] = shoe[j], shoe[i]


@njit(cache=True)
def new_scratch():
    """Scratch arrays for :func:`play_round`: cards, card counts, flags, stakes (per hand)
    and the dealer's cards."""
    return (
        np.zeros((_MAXH, _MAXC), np.int64),
        np.zeros(_MAXH, np.int64),
        np.zeros((_MAXH, 6), np.int64),
        np.zeros(_MAXH, np.int64),
        np.zeros(_MAXC, np.int64),
    )


@njit(cache=True)
def _second_card(shoe, pos, cards, ncards, flags, i, declined, nh, params):
    """Deal split hand i its second card; a split ace that cannot resplit is done
    (11.4(b)), and so is a 21 (12.1(a)). Returns the new shoe position."""
    cards[i, 1] = shoe[pos]
    ncards[i] = 2
    if flags[i, 1] and params[P_HSA] == 0:
        can = (
            _is_pair(cards[i, 0], cards[i, 1], params[P_BY_RANK] != 0)
            and not declined
            and nh < params[P_MAX_HANDS]
            and params[P_RSA] != 0
        )
        flags[i, 4] = 0 if can else 1
    t, _soft = _total(cards[i], 2)
    if t >= 21:
        flags[i, 4] = 1
    return pos + 1


@njit(cache=True)
def play_round(shoe, pos, params, chart, wager, stats, cards, ncards, flags, stake, dealer):
    """Play one round from ``shoe[pos:]``; returns (net chips for the player, new pos).

    ``cards``/``ncards``/``flags``/``stake``/``dealer`` are scratch arrays
    (:func:`new_scratch`) for up to 8 hands
    (``MAX_HANDS``; the wrapper refuses more).
    ``flags`` columns: 0 from split, 1 split aces, 2 doubled, 3 surrendered, 4 done, 5 acted.
    """
    peek = params[P_PEEK] != 0
    by_rank = params[P_BY_RANK] != 0
    max_hands = params[P_MAX_HANDS]
    for f in range(6):  # later hands are initialised when a split makes them
        flags[0, f] = 0
    nh = 1
    stake[0] = wager
    # --- the deal: box, dealer, box (and a peek game's hole card)
    cards[0, 0] = shoe[pos]
    dealer[0] = shoe[pos + 1]
    cards[0, 1] = shoe[pos + 2]
    pos += 3
    ncards[0] = 2
    nd = 1
    if peek:
        dealer[1] = shoe[pos]
        pos += 1
        nd = 2
    up = _value(dealer[0])
    insured = 0
    if up == 1 and params[P_INSURANCE] != 0 and params[P_INSURE] != 0:
        unit = params[P_UNIT]
        insured = wager // 2 // unit * unit
        if insured > 0:
            stats[S_INS_TAKEN] += 1
    declined = False
    t0, _s = _total(cards[0], 2)
    player_bj = t0 == 21
    if player_bj:
        stats[S_PLAYER_BJ] += 1
    dealer_bj_peeked = False
    if peek:
        dt, _s = _total(dealer, 2)
        dealer_bj_peeked = dt == 21
    # --- the boxes' play (skipped when a peeked dealer blackjack ends the round)
    if not dealer_bj_peeked:
        i = 0
        while i < nh:
            if ncards[i] == 1:  # a split hand's second card (11.3)
                pos = _second_card(shoe, pos, cards, ncards, flags, i, declined, nh, params)
            t, soft = _total(cards[i], ncards[i])
            if t >= 21:
                flags[i, 4] = 1  # 12.1(a): no draw on 21 or a blackjack
            while flags[i, 4] == 0:
                t, soft = _total(cards[i], ncards[i])
                fresh = ncards[i] == 2 and flags[i, 5] == 0
                pair = fresh and _is_pair(cards[i, 0], cards[i, 1], by_rank)
                can_split = (
                    pair
                    and not declined
                    and nh < max_hands
                    and not (flags[i, 1] and params[P_RSA] == 0)
                )
                can_double = (
                    fresh
                    and flags[i, 1] == 0
                    and (flags[i, 0] == 0 or params[P_DAS] != 0)
                    and may_double(params[P_DOUBLE_ON], t, soft)
                )
                can_surr = fresh and params[P_SURRENDER] != 0 and flags[i, 0] == 0
                act = decide(chart, up, t, soft, _value(cards[i, 0]) if pair else 0,
                             can_split, can_double, can_surr)  # fmt: skip
                if flags[i, 1] and params[P_HSA] == 0 and act != SPLIT:
                    act = STAND  # a split ace may only stand or resplit (11.4(b))
                if act != SPLIT and can_split:
                    declined = True  # 11.5: another action declines the split
                if act == SPLIT:
                    stats[S_SPLITS] += 1
                    for h in range(nh - 1, i, -1):  # make room at i + 1
                        for c in range(ncards[h]):
                            cards[h + 1, c] = cards[h, c]
                        ncards[h + 1] = ncards[h]
                        stake[h + 1] = stake[h]
                        for f in range(6):
                            flags[h + 1, f] = flags[h, f]
                    aces = _value(cards[i, 0]) == 1
                    cards[i + 1, 0] = cards[i, 1]
                    ncards[i + 1] = 1
                    stake[i + 1] = stake[i]
                    for f in range(6):
                        flags[i + 1, f] = 0
                    flags[i + 1, 0] = 1
                    flags[i + 1, 1] = 1 if aces else 0
                    ncards[i] = 1
                    flags[i, 0] = 1
                    flags[i, 1] = 1 if aces else 0
                    nh += 1
                    # hand i takes its second card now, as the referee's _advance does
                    pos = _second_card(shoe, pos, cards, ncards, flags, i, declined, nh, params)
                    continue
                flags[i, 5] = 1
                if act == STAND:
                    flags[i, 4] = 1
                elif act == DOUBLE:
                    stats[S_DOUBLES] += 1
                    stake[i] *= 2
                    flags[i, 2] = 1
                    cards[i, ncards[i]] = shoe[pos]
                    pos += 1
                    ncards[i] += 1
                    flags[i, 4] = 1
                elif act == SURRENDER:
                    stats[S_SURRENDERS] += 1
                    flags[i, 3] = 1
                    flags[i, 4] = 1
                else:
                    cards[i, ncards[i]] = shoe[pos]
                    pos += 1
                    ncards[i] += 1
                    t, soft = _total(cards[i], ncards[i])
                    if t >= 21:
                        flags[i, 4] = 1
            i += 1
    # --- the dealer
    live = False
    live_not_bj = False
    surrendered = False
    for h in range(nh):
        if flags[h, 3]:
            surrendered = True
        t, _s = _total(cards[h], ncards[h])
        if t <= 21 and flags[h, 3] == 0:
            live = True
            if not (ncards[h] == 2 and t == 21 and flags[h, 0] == 0):
                live_not_bj = True
    if not peek and (live or insured > 0 or surrendered):
        dealer[1] = shoe[pos]
        pos += 1
        nd = 2
    dt, dsoft = _total(dealer, nd)
    dealer_bj = nd == 2 and dt == 21
    if dealer_bj:
        stats[S_DEALER_BJ] += 1
    if not dealer_bj and live_not_bj:
        h17 = params[P_H17] != 0
        while dt < 17 or (dt == 17 and dsoft and h17):
            dealer[nd] = shoe[pos]
            pos += 1
            nd += 1
            dt, dsoft = _total(dealer, nd)
        if dt > 21:
            stats[S_DEALER_BUSTS] += 1
    # --- settlement (4.1, 11.7)
    net = 0
    if insured > 0:
        if dealer_bj:
            net += 2 * insured
            stats[S_INS_WON] += 1
        else:
            net -= insured
    unit = params[P_UNIT]
    original_due = True  # 11.7: a dealer blackjack takes the original wager once
    for h in range(nh):
        stats[S_HANDS] += 1
        st = stake[h]
        t, _s = _total(cards[h], ncards[h])
        natural = ncards[h] == 2 and t == 21 and flags[h, 0] == 0
        if flags[h, 3]:
            if dealer_bj:
                net -= st  # a late surrender is void against a dealer blackjack
            else:
                net += st // 2 // unit * unit - st
        elif t > 21:
            stats[S_BUSTS] += 1
            net -= st
        elif dealer_bj:
            if not natural:
                base = st // 2 if flags[h, 2] else st
                take = 0
                if original_due or params[P_SPLITS_ALL] != 0:
                    take += base  # from the first hand still standing (busted hands lost)
                    original_due = False
                if flags[h, 2] and params[P_DOUBLES_ALL] != 0:
                    take += st - base
                net -= take
        elif natural:
            net += st * params[P_BJ_NUM] // params[P_BJ_DEN] // unit * unit
        elif dt > 21 or t > dt:
            net += st
        elif t < dt:
            net -= st
    stats[S_ROUNDS] += 1
    stats[S_NET] += net
    stats[S_NET2] += net * net
    if net > 0:
        stats[S_WINS] += 1
    elif net == 0:
        stats[S_PUSHES] += 1
    else:
        stats[S_LOSSES] += 1
    return net, pos


@njit(cache=True)
def play_shoe(shoe, params, chart, wager, max_rounds, nets, ends):
    """Play one stacked shoe round by round until the cut card is out (checked before each
    round, as :class:`~croupier.blackjack.table.BlackjackTable` does); ``nets[k]``, ``ends[k]``:
    round k's net and the shoe position after it. Returns the number of rounds."""
    stats = np.zeros(N_STATS, np.int64)
    cards, ncards, flags, stake, dealer = new_scratch()
    pos = 1 if params[P_BURN] != 0 else 0
    k = 0
    while k < max_rounds and pos < params[P_CUT]:
        net, pos = play_round(
            shoe, pos, params, chart, wager, stats, cards, ncards, flags, stake, dealer
        )
        nets[k] = net
        ends[k] = pos
        k += 1
    return k


@njit(cache=True, nogil=True)
def run_task(seed, rounds, params, chart, wager, checkpoints, stats, curve):
    """Play ``rounds`` rounds from fresh shuffled shoes (seeded), reshuffling when the cut
    card is out; ``curve[c]`` = (rounds, net sum, net-squared sum) at each of ``checkpoints``
    evenly spaced points."""
    state = np.zeros(4, np.uint64)
    seed_state(seed, state)
    n_cards = params[P_CARDS]
    shoe = np.empty(n_cards, np.int64)
    for c in range(n_cards):
        shoe[c] = c % 13
    cards, ncards, flags, stake, dealer = new_scratch()
    cut = params[P_CUT]
    pos = cut  # forces a shuffle before the first round
    every = max(rounds // checkpoints, 1)
    c = 0
    for r in range(rounds):
        if pos >= cut:
            _shuffle(shoe, state)
            stats[S_SHUFFLES] += 1
            pos = 1 if params[P_BURN] != 0 else 0
        _net, pos = play_round(
            shoe, pos, params, chart, wager, stats, cards, ncards, flags, stake, dealer
        )
        if (r + 1) % every == 0 and c < checkpoints:
            curve[c, 0] = r + 1
            curve[c, 1] = stats[S_NET]
            curve[c, 2] = stats[S_NET2]
            c += 1
    return c
