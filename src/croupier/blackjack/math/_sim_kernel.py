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

from croupier.blackjack.math import _policy
from croupier.blackjack.math._policy import DOUBLE, SPLIT, STAND, SURRENDER

decide = njit(cache=True, nogil=True)(_policy.decide)
"""The chart's decision (:func:`croupier.blackjack.math._policy.decide`), compiled."""
may_double = njit(cache=True, nogil=True)(_policy.may_double)
"""Whether the rules let a hand double (:func:`croupier.blackjack.math._policy.may_double`), compiled."""

__all__ = [
    "MAX_HANDS",
    "bucket",
    "new_scratch",
    "play_round",
    "play_round_counted",
    "play_shoe",
    "run_counter",
    "run_task",
    "seed_state",
    "true_count",
]

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

# the count's context (float64): on, cards in the shoe, mean tag a card, lowest layer's
# true count, insurance index, the first card counted (1 after a burn), the betting tags'
# mean, the lowest true count the ramp and the statistics keep
C_ON, C_CARDS, C_MEAN, C_LO, C_INS, C_ORIGIN, C_BET_MEAN, C_BET_LO = 0, 1, 2, 3, 4, 5, 6, 7
N_CTX = 8

# counter statistics (run_counter)
K_DEALT, K_PLAYED, K_NET, K_NET2, K_WAGERED, K_TRIPS, K_RUINED, K_SHOES = 0, 1, 2, 3, 4, 5, 6, 7
N_KSTATS = 8

MAX_HANDS = 8
"""The most hands a box may become in the kernel."""
_MAXH = MAX_HANDS
_MAXC = 24
_NO_CHARTS = np.zeros((1, 3, 22, 11), np.int8)
_NO_CUM = np.zeros(1, np.float64)
_NO_CTX = np.zeros(N_CTX, np.float64)


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
    The chart alone decides (no count): :func:`play_round_counted` with the count off.
    """
    return play_round_counted(
        shoe, pos, params, chart, _NO_CHARTS, _NO_CUM, _NO_CTX,
        wager, stats, cards, ncards, flags, stake, dealer,
    )  # fmt: skip


@njit(cache=True, inline="always")
def true_count(cum, p, hole, ctx):
    """The (balanced-equivalent) true count with the first ``p`` cards of the shoe dealt,
    the card at ``hole`` unseen (a peek game's hole card; -1: none): ``cum[i]`` is the sum
    of the tags of the cards from the first one counted (``ctx[C_ORIGIN]``: a burned card is
    not seen) up to card i, ``ctx[C_MEAN]`` the mean tag of a card (the imbalance a card)."""
    seen = p - int(ctx[C_ORIGIN])
    running = cum[p]
    if hole >= 0:
        running -= cum[hole + 1] - cum[hole]
        seen -= 1
    return (running - ctx[C_MEAN] * seen) * 52.0 / (ctx[C_CARDS] - seen)


@njit(cache=True, inline="always")
def bucket(tc, lo, n):
    """The layer of a true count: ``floor(tc) - lo``, held within ``0 .. n - 1``."""
    b = int(np.floor(tc)) - lo
    if b < 0:
        return 0
    if b >= n:
        return n - 1
    return b


@njit(cache=True)
def play_round_counted(
    shoe, pos, params, chart, charts, cum, ctx, wager, stats, cards, ncards, flags, stake, dealer
):
    """:func:`play_round` for a counter: with ``ctx[C_ON]`` set, each decision reads the
    chart ``charts[b]`` of the true count at the decision (the cards on the table counted;
    :func:`bucket` of :func:`true_count` by ``ctx[C_LO]``), and ``params[P_INSURE]`` 2
    insures when the true count after the deal is at least ``ctx[C_INS]``. With it off,
    ``chart`` decides and ``charts``/``cum`` are not read."""
    counting = ctx[C_ON] != 0
    lo = int(ctx[C_LO])
    n_layers = charts.shape[0]
    peek = params[P_PEEK] != 0
    hole = pos + 3 if peek else -1  # a peek game's hole card stays unseen while boxes play
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
        insure_now = True
        if params[P_INSURE] == 2:
            insure_now = counting and true_count(cum, pos, hole, ctx) >= ctx[C_INS]
        unit = params[P_UNIT]
        insured = wager // 2 // unit * unit if insure_now else 0
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
                pv = _value(cards[i, 0]) if pair else 0
                if counting:  # the chart of the count now, the cards on the table counted
                    tc = true_count(cum, pos, hole, ctx)
                    layer = charts[bucket(tc, lo, n_layers)]
                    act = decide(layer, up, t, soft, pv, can_split, can_double, can_surr)
                else:
                    act = decide(chart, up, t, soft, pv, can_split, can_double, can_surr)
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


@njit(cache=True)
def _count_shoe(ids, shoe, cum, bcum, ptags, btags, origin):
    """After a shuffle of card ids: each card's rank code (``id % 13``) into ``shoe`` and
    the prefix sums of the playing and betting tags (by ``id % 52``: rank and colour) from
    the first card counted."""
    cum[0] = 0.0
    bcum[0] = 0.0
    for i in range(ids.shape[0]):
        c = ids[i] % 52
        shoe[i] = c % 13
        if i < origin:
            cum[i + 1] = 0.0
            bcum[i + 1] = 0.0
        else:
            cum[i + 1] = cum[i] + ptags[c]
            bcum[i + 1] = bcum[i] + btags[c]


@njit(cache=True, nogil=True)
def run_counter(
    seed, rounds, params, chart, charts, wager, ptags, btags, ctx, ramp, wong, trip, kstats,
    stats, buckets,
):  # fmt: skip
    """Deal ``rounds`` rounds to a counter from fresh shuffled shoes (seeded), reshuffling
    when the cut card is out. Before each round the betting true count (the betting tags,
    ``ctx[C_BET_MEAN]``) picks the bet, ``ramp[b]`` times ``wager`` chips, ``b`` its
    :func:`bucket` from ``ctx[C_BET_LO]``, or no bet while the counter is away:

    * ``wong`` = (enter, leave, mid-shoe entry): the counter sits down at a shoe's start
      when enter is -inf, the start's count reaches enter, or mid-shoe entry is barred;
      leaves before a round whose count is below leave (-inf: never); and comes back
      mid-shoe at a count of enter or more when mid-shoe entry is allowed (else at the next
      shoe).

    Every round is played with the counter's decisions (:func:`play_round_counted`) at
    ``wager`` chips, and the counter's result is that times the bet multiple (every payout
    is linear in the stake). ``buckets[b]`` += (rounds, net, net squared; rounds played, their
    net, net squared) at ``wager``; ``kstats`` (``K_*``) the counter's totals in chips. ``trip`` = (played
    rounds a trip, bankroll chips): a trip is ruined when its running result reaches minus
    the bankroll (``K_TRIPS``, ``K_RUINED``; off when the rounds are 0)."""
    state = np.zeros(4, np.uint64)
    seed_state(seed, state)
    n_cards = params[P_CARDS]
    ids = np.empty(n_cards, np.int64)
    for c in range(n_cards):
        ids[c] = c
    shoe = np.empty(n_cards, np.int64)
    cum = np.zeros(n_cards + 1, np.float64)
    bcum = np.zeros(n_cards + 1, np.float64)
    cards, ncards, flags, stake, dealer = new_scratch()
    origin = int(ctx[C_ORIGIN])
    bctx = ctx.copy()
    bctx[C_MEAN] = ctx[C_BET_MEAN]
    blo = int(ctx[C_BET_LO])
    nb = ramp.shape[0]
    enter, leave, midshoe = wong[0], wong[1], wong[2] != 0
    trip_rounds, trip_bank = trip[0], trip[1]
    trip_n = 0
    trip_net = 0
    ruined = False
    cut = params[P_CUT]
    pos = cut  # forces a shuffle before the first round
    seated = False
    for _r in range(rounds):
        fresh = False
        if pos >= cut:
            _shuffle(ids, state)
            _count_shoe(ids, shoe, cum, bcum, ptags, btags, origin)
            stats[S_SHUFFLES] += 1
            kstats[K_SHOES] += 1
            pos = origin
            fresh = True
        tc = true_count(bcum, pos, -1, bctx)
        b = bucket(tc, blo, nb)
        if fresh:
            seated = enter == -np.inf or tc >= enter or not midshoe
        elif not seated and midshoe and enter != -np.inf and tc >= enter:
            seated = True
        if seated and tc < leave:
            seated = False
        mult = ramp[b] if seated else 0
        net, pos = play_round_counted(
            shoe, pos, params, chart, charts, cum, ctx, wager, stats, cards, ncards, flags,
            stake, dealer,
        )  # fmt: skip
        kstats[K_DEALT] += 1
        buckets[b, 0] += 1
        buckets[b, 1] += net
        buckets[b, 2] += net * net
        if mult > 0:
            x = net * mult
            buckets[b, 3] += 1
            buckets[b, 4] += net
            buckets[b, 5] += net * net
            kstats[K_PLAYED] += 1
            kstats[K_NET] += x
            kstats[K_NET2] += x * x
            kstats[K_WAGERED] += wager * mult
            if trip_rounds > 0:
                trip_net += x
                if trip_net <= -trip_bank:
                    ruined = True
                trip_n += 1
                if trip_n == trip_rounds:
                    kstats[K_TRIPS] += 1
                    if ruined:
                        kstats[K_RUINED] += 1
                    trip_n = 0
                    trip_net = 0
                    ruined = False
