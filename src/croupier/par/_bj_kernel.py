# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""The numba kernels behind :mod:`croupier.par.blackjack` (see there); no input checks here.

:func:`run_par` plays rounds and keeps what a PAR sheet needs and the simulator's
:func:`~croupier.blackjack.math._sim_kernel.run_task` does not: the distribution of the
net result of a round, of the total wagered in a round (doubles and splits included) and
of the hands busted in a round. Rounds are dealt off the top (each from a freshly shuffled
full shoe, as the exact analysis values them) or through the shoe to the cut card.

Chart play (``mode`` 0) calls the simulator's own
:func:`~croupier.blackjack.math._sim_kernel.play_round`. Composition-dependent play
(``mode`` 1) needs a decision the chart cannot express, so :func:`play_round_cd` is that
round with the decision taken from tables of the exact analysis; with ``mode`` 0 it plays
the chart, and the tests check it against ``play_round`` round by round.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.blackjack.math import _sim_kernel as k
from croupier.blackjack.math._policy import (
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    SURRENDER,
)
from croupier.blackjack.math._sim_kernel import decide, may_double

__all__ = ["cd_decide", "play_round_cd", "reach", "run_par"]

# the composition-dependent option order (Analysis.options / ACTIONS)
O_STAND, O_HIT, O_DOUBLE, O_SPLIT, O_SURRENDER = 0, 1, 2, 3, 4
_ACTION_OF = (STAND, HIT, DOUBLE, SPLIT, SURRENDER)


@njit(cache=True, inline="always")
def _value(rank):
    if rank == 12:
        return 1
    v = rank + 2
    return 10 if v > 10 else v


@njit(cache=True)
def _node(cards, n, one, nxt):
    """The player-graph node of the first ``n`` rank codes (a live hand: never a bust)."""
    s = one[_value(cards[0])]
    for j in range(1, n):
        s = nxt[s, _value(cards[j])]
    return s


@njit(cache=True)
def cd_decide(opts, hit_node, up, hand, n, fresh, total, one, nxt, split_ok, double_ok, surr_ok):
    """A composition-dependent decision: a two-card hand that has not acted takes the legal
    option with the best EV in ``opts[up, a, b]`` (the exact analysis's first decisions;
    -inf where not allowed); any other hand hits or stands as ``hit_node[up, node]`` says
    (hit better than stand for that multiset). Standing on 11 or less is never chosen."""
    if total >= 21:
        return STAND
    if fresh:
        a = _value(hand[0])
        b = _value(hand[1])
        best = -np.inf
        act = HIT
        for o in range(5):
            ok = True
            if o == O_STAND:
                ok = total >= 12
            elif o == O_DOUBLE:
                ok = double_ok
            elif o == O_SPLIT:
                ok = split_ok
            elif o == O_SURRENDER:
                ok = surr_ok
            x = opts[up, a, b, o]
            if ok and x > best:
                best = x
                act = _ACTION_OF[o]
        if best > -np.inf:
            return act
    if total <= 11:
        return HIT
    return HIT if hit_node[up, _node(hand, n, one, nxt)] else STAND


@njit(cache=True)
def play_round_cd(
    shoe, pos, params, chart, wager, stats, cards, ncards, flags, stake, dealer,
    mode, opts, hit_node, one, nxt,
):  # fmt: skip
    """:func:`~croupier.blackjack.math._sim_kernel.play_round` with the decision taken by
    ``chart`` (``mode`` 0, the same play) or by :func:`cd_decide` (``mode`` 1). Returns
    (net chips, new pos)."""
    peek = params[k.P_PEEK] != 0
    by_rank = params[k.P_BY_RANK] != 0
    max_hands = params[k.P_MAX_HANDS]
    for f in range(6):
        flags[0, f] = 0
    nh = 1
    stake[0] = wager
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
    if up == 1 and params[k.P_INSURANCE] != 0 and params[k.P_INSURE] != 0:
        unit = params[k.P_UNIT]
        insured = wager // 2 // unit * unit
        if insured > 0:
            stats[k.S_INS_TAKEN] += 1
    declined = False
    t0, _s = k._total(cards[0], 2)
    if t0 == 21:
        stats[k.S_PLAYER_BJ] += 1
    dealer_bj_peeked = False
    if peek:
        dt, _s = k._total(dealer, 2)
        dealer_bj_peeked = dt == 21
    if not dealer_bj_peeked:
        i = 0
        while i < nh:
            if ncards[i] == 1:
                pos = k._second_card(shoe, pos, cards, ncards, flags, i, declined, nh, params)
            t, soft = k._total(cards[i], ncards[i])
            if t >= 21:
                flags[i, 4] = 1
            while flags[i, 4] == 0:
                t, soft = k._total(cards[i], ncards[i])
                fresh = ncards[i] == 2 and flags[i, 5] == 0
                pair = fresh and k._is_pair(cards[i, 0], cards[i, 1], by_rank)
                can_split = (
                    pair
                    and not declined
                    and nh < max_hands
                    and not (flags[i, 1] and params[k.P_RSA] == 0)
                )
                can_double = (
                    fresh
                    and flags[i, 1] == 0
                    and (flags[i, 0] == 0 or params[k.P_DAS] != 0)
                    and may_double(params[k.P_DOUBLE_ON], t, soft)
                )
                can_surr = fresh and params[k.P_SURRENDER] != 0 and flags[i, 0] == 0
                if mode == 0:
                    act = decide(chart, up, t, soft, _value(cards[i, 0]) if pair else 0,
                                 can_split, can_double, can_surr)  # fmt: skip
                else:
                    act = cd_decide(opts, hit_node, up, cards[i], ncards[i], fresh, t, one, nxt,
                                    can_split, can_double, can_surr)  # fmt: skip
                if flags[i, 1] and params[k.P_HSA] == 0 and act != SPLIT:
                    act = STAND
                if act != SPLIT and can_split:
                    declined = True
                if act == SPLIT:
                    stats[k.S_SPLITS] += 1
                    for h in range(nh - 1, i, -1):
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
                    pos = k._second_card(shoe, pos, cards, ncards, flags, i, declined, nh, params)
                    continue
                flags[i, 5] = 1
                if act == STAND:
                    flags[i, 4] = 1
                elif act == DOUBLE:
                    stats[k.S_DOUBLES] += 1
                    stake[i] *= 2
                    flags[i, 2] = 1
                    cards[i, ncards[i]] = shoe[pos]
                    pos += 1
                    ncards[i] += 1
                    flags[i, 4] = 1
                elif act == SURRENDER:
                    stats[k.S_SURRENDERS] += 1
                    flags[i, 3] = 1
                    flags[i, 4] = 1
                else:
                    cards[i, ncards[i]] = shoe[pos]
                    pos += 1
                    ncards[i] += 1
                    t, soft = k._total(cards[i], ncards[i])
                    if t >= 21:
                        flags[i, 4] = 1
            i += 1
    live = False
    live_not_bj = False
    surrendered = False
    for h in range(nh):
        if flags[h, 3]:
            surrendered = True
        t, _s = k._total(cards[h], ncards[h])
        if t <= 21 and flags[h, 3] == 0:
            live = True
            if not (ncards[h] == 2 and t == 21 and flags[h, 0] == 0):
                live_not_bj = True
    if not peek and (live or insured > 0 or surrendered):
        dealer[1] = shoe[pos]
        pos += 1
        nd = 2
    dt, dsoft = k._total(dealer, nd)
    dealer_bj = nd == 2 and dt == 21
    if dealer_bj:
        stats[k.S_DEALER_BJ] += 1
    if not dealer_bj and live_not_bj:
        h17 = params[k.P_H17] != 0
        while dt < 17 or (dt == 17 and dsoft and h17):
            dealer[nd] = shoe[pos]
            pos += 1
            nd += 1
            dt, dsoft = k._total(dealer, nd)
        if dt > 21:
            stats[k.S_DEALER_BUSTS] += 1
    net = 0
    if insured > 0:
        if dealer_bj:
            net += 2 * insured
            stats[k.S_INS_WON] += 1
        else:
            net -= insured
    unit = params[k.P_UNIT]
    original_due = True
    for h in range(nh):
        stats[k.S_HANDS] += 1
        st = stake[h]
        t, _s = k._total(cards[h], ncards[h])
        natural = ncards[h] == 2 and t == 21 and flags[h, 0] == 0
        if flags[h, 3]:
            if dealer_bj:
                net -= st
            else:
                net += st // 2 // unit * unit - st
        elif t > 21:
            stats[k.S_BUSTS] += 1
            net -= st
        elif dealer_bj:
            if not natural:
                base = st // 2 if flags[h, 2] else st
                take = 0
                if original_due or params[k.P_SPLITS_ALL] != 0:
                    take += base
                    original_due = False
                if flags[h, 2] and params[k.P_DOUBLES_ALL] != 0:
                    take += st - base
                net -= take
        elif natural:
            net += st * params[k.P_BJ_NUM] // params[k.P_BJ_DEN] // unit * unit
        elif dt > 21 or t > dt:
            net += st
        elif t < dt:
            net -= st
    stats[k.S_ROUNDS] += 1
    stats[k.S_NET] += net
    stats[k.S_NET2] += net * net
    if net > 0:
        stats[k.S_WINS] += 1
    elif net == 0:
        stats[k.S_PUSHES] += 1
    else:
        stats[k.S_LOSSES] += 1
    return net, pos


@njit(cache=True)
def reach(n_cards, max_hands):
    """Cards a round can use at most: 24 a hand (the kernel's own bound) and 24 for the
    dealer, or the whole shoe if smaller."""
    most = 24 * (max_hands + 1)
    return most if most < n_cards else n_cards


@njit(cache=True)
def _below(bound, state):
    """A uniform whole number in [0, bound) (Lemire's multiply-and-reject on 32 bits, over
    the simulator's xoshiro256** stream)."""
    mask = np.uint64(0xFFFFFFFF)
    b = np.uint64(bound)
    m = (k._next(state) >> np.uint64(32)) * b
    low = m & mask
    if low < b:
        threshold = (np.uint64(1 << 32) - b) % b
        while low < threshold:
            m = (k._next(state) >> np.uint64(32)) * b
            low = m & mask
    return int(m >> np.uint64(32))


@njit(cache=True)
def _shuffle_front(shoe, m, state):
    """Fisher-Yates from the front on the first ``m`` places: they become a uniform draw
    from the whole shoe (all of it when ``m`` is its size)."""
    n = shoe.shape[0]
    for i in range(m if m < n - 1 else n - 1):
        j = i + _below(n - i, state)
        shoe[i], shoe[j] = shoe[j], shoe[i]


@njit(cache=True)
def run_par(
    seed, rounds, params, chart, wager, mode, opts, hit_node, one, nxt, off_the_top,
    stats, nets, wagered, busts, moments,
):  # fmt: skip
    """Play ``rounds`` rounds : off the top (each
    round from a freshly shuffled full shoe) or, without ``off_the_top``, through the
    shoe to the cut card (a new shoe burns a card when the rules say so). The shuffles
    draw from the simulator's xoshiro256** stream, seeded with ``seed`` by its splitmix64.

    ``nets[net + offset]`` counts the rounds by net chips (``offset = nets.size // 2``),
    ``wagered[w]`` by chips wagered (the initial wager, each split's and each double's),
    ``busts[b]`` by player hands busted; ``stats`` takes the kernel's ``S_*`` counts and
    ``moments`` the sums of squares of each round's doubles (0) and splits (1)."""
    state = np.zeros(4, np.uint64)
    k.seed_state(seed, state)
    n_cards = params[k.P_CARDS]
    shoe = np.empty(n_cards, np.int64)
    for c in range(n_cards):
        shoe[c] = c % 13
    cards, ncards, flags, stake, dealer = k.new_scratch()
    cut = params[k.P_CUT]
    front = reach(n_cards, params[k.P_MAX_HANDS])
    offset = nets.shape[0] // 2
    pos = cut
    for _r in range(rounds):
        if off_the_top:
            _shuffle_front(shoe, front, state)
            pos = 0
        elif pos >= cut:
            _shuffle_front(shoe, n_cards, state)
            stats[k.S_SHUFFLES] += 1
            pos = 1 if params[k.P_BURN] != 0 else 0
        splits = stats[k.S_SPLITS]
        doubles = stats[k.S_DOUBLES]
        busted = stats[k.S_BUSTS]
        if mode == 0:
            net, pos = k.play_round(
                shoe, pos, params, chart, wager, stats, cards, ncards, flags, stake, dealer
            )
        else:
            net, pos = play_round_cd(
                shoe, pos, params, chart, wager, stats, cards, ncards, flags, stake, dealer,
                mode, opts, hit_node, one, nxt,
            )  # fmt: skip
        splits = stats[k.S_SPLITS] - splits
        doubles = stats[k.S_DOUBLES] - doubles
        nets[net + offset] += 1
        wagered[wager * (1 + splits + doubles)] += 1
        busts[stats[k.S_BUSTS] - busted] += 1
        moments[0] += doubles * doubles
        moments[1] += splits * splits
