"""The numba kernel behind :mod:`croupier.poker.sim.fastsim` (see there); no input checks
here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.evaluation.kernels import lookup_any, omaha_one

__all__ = ["run"]

_BIG = 1 << 60


@njit(cache=True)
def _next_in(mask, start, n):
    """First seat index clockwise after ``start`` whose mask is set, or -1."""
    for k in range(1, n + 1):
        s = (start + k) % n
        if mask[s]:
            return s
    return -1


@njit(cache=True)
def _raise_range(
    a,
    n,
    stack,
    bet,
    contrib,
    folded,
    acted,
    current,
    last_inc,
    raises,
    full_raises,
    street,
    structure,
    bet_unit,
    min_bet,
    bring_in_due,
    bring_in,
    out,
):
    """The engine's _raise_range for chip unit 1 and no table maximum; out = (low, high).

    ``structure``: 0 no limit, 1 pot limit, 2 fixed limit (bets of ``bet_unit``, doubled
    from the third street); ``bring_in_due`` for the stud bring-in of ``bring_in``.
    """
    to_call = max(current - bet[a], 0)
    if stack[a] <= to_call:
        return False
    able = 0
    others = 0
    for s in range(n):
        if not folded[s] and stack[s] > 0:
            able += 1
            if s != a:
                others += 1
    if others == 0:
        return False
    if acted[a] >= 0 and acted[a] >= full_raises:
        return False
    if structure == 2 and able != 2 and raises >= 4:
        return False
    all_in_total = bet[a] + stack[a]
    fixed = bet_unit if street < 2 else 2 * bet_unit
    full_bet = fixed if structure == 2 else min_bet
    opening = bring_in_due or current == 0 or (structure == 2 and current < full_bet)
    if bring_in_due:
        low = bring_in
    elif opening:
        low = full_bet
    elif structure == 2:
        low = current + fixed
    else:
        low = current + max(last_inc, min_bet)
    if structure == 2:
        high = max(low, full_bet) if opening else current + fixed
        low = min(low, high)
    elif structure == 1:
        pot = 0
        for s in range(n):
            pot += contrib[s]
        high = current + pot + to_call
    else:
        high = all_in_total
    high = min(high, all_in_total)
    if all_in_total < low:
        out[0] = all_in_total
        out[1] = all_in_total
    else:
        out[0] = low
        out[1] = max(low, high)
    return True


@njit(cache=True)
def run(
    n,
    hands,
    stack0,
    small,
    big,
    hole,
    structure,
    seed,
    record,
    key7,
    key5,
    smask,
    nf7,
    flush,
    bidx,
    hidx,
    onf,
    n_holes,
    totals,
    squares,
    decks,
    actions,
):
    np.random.seed(seed)
    deck = np.arange(52).astype(np.uint8)
    stack = np.zeros(n, np.int64)
    bet = np.zeros(n, np.int64)
    contrib = np.zeros(n, np.int64)
    folded = np.zeros(n, np.bool_)
    acted = np.zeros(n, np.int64)
    to_act = np.zeros(n, np.bool_)
    holes = np.zeros((n, 4), np.uint8)
    board = np.zeros(5, np.uint8)
    values = np.zeros(n, np.int64)
    rng_out = np.zeros(2, np.int64)
    pot_amount = np.zeros(n + 1, np.int64)
    pot_mask = np.zeros((n + 1, n), np.bool_)
    for h in range(hands):
        for i in range(51, 0, -1):
            j = np.random.randint(0, i + 1)
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
        if record:
            decks[h, :] = deck
        logged = 0
        button = h % n
        for s in range(n):
            stack[s] = stack0
            bet[s] = 0
            contrib[s] = 0
            folded[s] = False
        # blinds: the first left of the button, the next after it (17.1(c))
        sb = (button + 1) % n
        bb = (button + 2) % n
        for s, amount in ((sb, small), (bb, big)):
            paid = min(amount, stack[s])
            stack[s] -= paid
            bet[s] += paid
            contrib[s] += paid
        current = max(big, max(bet[sb], bet[bb]))
        last_inc = big
        raises = 1
        pos = 0
        for j in range(hole):
            for k in range(1, n + 1):
                s = (button + k) % n
                holes[s, j] = deck[pos]
                pos += 1
        n_board = 0
        live = n
        for street in range(4):
            if street > 0:
                pos += 1  # burn
                count = 3 if street == 1 else 1
                for _ in range(count):
                    board[n_board] = deck[pos]
                    n_board += 1
                    pos += 1
                current = 0
                last_inc = 0
                raises = 0
            full_raises = 0
            able = 0
            owing = False
            for s in range(n):
                acted[s] = -1
                to_act[s] = (not folded[s]) and stack[s] > 0
                if to_act[s]:
                    able += 1
                    if bet[s] < current:
                        owing = True
            if able >= 2 or owing:
                actor = _next_in(to_act, bb if street == 0 else button, n)
                while actor >= 0:
                    to_call = max(current - bet[actor], 0)
                    can_raise = _raise_range(
                        actor,
                        n,
                        stack,
                        bet,
                        contrib,
                        folded,
                        acted,
                        current,
                        last_inc,
                        raises,
                        full_raises,
                        street,
                        structure,
                        big,
                        big,
                        False,
                        0,
                        rng_out,
                    )
                    options = 0
                    if to_call > 0:
                        options += 2  # fold, call
                    else:
                        options += 1  # check
                    if can_raise:
                        options += 1
                    pick = np.random.randint(0, options)
                    # the options in order: [fold], [check], [call], [raise]
                    kind = -1
                    if to_call > 0:
                        kind = 0 if pick == 0 else (2 if pick == 1 else 3)
                    else:
                        kind = 1 if pick == 0 else 3
                    amount = 0
                    if kind == 0:
                        folded[actor] = True
                        live -= 1
                    elif kind == 2:
                        paid = min(current - bet[actor], stack[actor])
                        stack[actor] -= paid
                        bet[actor] += paid
                        contrib[actor] += paid
                    elif kind == 3:
                        amount = np.random.randint(rng_out[0], rng_out[1] + 1)
                        increment = amount - current
                        fixed = big if street < 2 else 2 * big
                        full_bet = fixed if structure == 2 else big
                        if current == 0 or (structure == 2 and current < full_bet):
                            full = amount >= full_bet
                            size = amount
                        else:
                            needed = fixed if structure == 2 else max(last_inc, big)
                            full = increment >= needed
                            size = increment
                        paid = amount - bet[actor]
                        stack[actor] -= paid
                        bet[actor] += paid
                        contrib[actor] += paid
                        if full:
                            raises += 1
                            full_raises += 1
                            last_inc = max(last_inc, size)
                        current = amount
                        for s in range(n):
                            to_act[s] = s != actor and (not folded[s]) and stack[s] > 0
                    if record and logged < 199:
                        actions[h, 2 * logged] = kind
                        actions[h, 2 * logged + 1] = amount
                        logged += 1
                    acted[actor] = full_raises
                    actor = _next_actor(actor, n, live, to_act, folded, stack)
            _collect(n, bet, contrib, stack)
            if live == 1:
                break
        # showdown values
        if live > 1:
            for s in range(n):
                if folded[s]:
                    continue
                if hole == 2:
                    k = key7[holes[s, 0]] + key7[holes[s, 1]]
                    m = smask[holes[s, 0]] + smask[holes[s, 1]]
                    for c in range(5):
                        k += key7[board[c]]
                        m += smask[board[c]]
                    values[s] = lookup_any(k, m, nf7, flush)
                else:
                    values[s] = omaha_one(holes[s], board, key5, bidx, hidx, onf, n_holes, flush)
        _settle(
            n,
            folded,
            stack,
            contrib,
            values,
            live,
            button,
            stack0,
            pot_amount,
            pot_mask,
            totals,
            squares,
        )


@njit(cache=True)
def _exposed_key(up, count):
    """The engine's exposed_strength as one integer (pairs, trips, quads, then ranks)."""
    counts = np.zeros(13, np.int64)
    for i in range(count):
        counts[up[i] >> 2] += 1
    top = 0
    pairs = 0
    for r in range(13):
        top = max(top, counts[r])
        if counts[r] == 2:
            pairs += 1
    if top == 4:
        category = 5
    elif top == 3:
        category = 3
    elif pairs >= 2:
        category = 2
    else:
        category = 1 if top == 2 else 0
    key = category
    digits = 0
    for c in range(4, 0, -1):  # groups: bigger first, then higher rank
        for r in range(12, -1, -1):
            if counts[r] == c:
                key = key * 16 + r + 1
                digits += 1
    for _ in range(digits, 4):  # the same number of places for every hand
        key *= 16
    return key


@njit(cache=True)
def run_stud(
    n,
    hands,
    stack0,
    ante,
    bring_in,
    small,
    seven,
    seed,
    record,
    key7,
    key5,
    smask,
    nf7,
    nf5,
    flush,
    totals,
    squares,
    decks,
    actions,
):
    """Fixed-limit stud (five or seven card) with the random policy; see run()."""
    np.random.seed(seed)
    deck = np.arange(52).astype(np.uint8)
    stack = np.zeros(n, np.int64)
    bet = np.zeros(n, np.int64)
    contrib = np.zeros(n, np.int64)
    folded = np.zeros(n, np.bool_)
    acted = np.zeros(n, np.int64)
    to_act = np.zeros(n, np.bool_)
    own = np.zeros((n, 7), np.uint8)
    n_own = np.zeros(n, np.int64)
    up = np.zeros((n, 5), np.uint8)
    n_up = np.zeros(n, np.int64)
    board = np.zeros(2, np.uint8)
    values = np.zeros(n, np.int64)
    rng_out = np.zeros(2, np.int64)
    row = np.zeros(7, np.uint8)
    pot_amount = np.zeros(n + 1, np.int64)
    pot_mask = np.zeros((n + 1, n), np.bool_)
    # streets: (down, up) cards; seven card stud 2+1, 1 up x3, 1 down; five card 1+1, 1 up x3
    n_streets = 5 if seven else 4
    downs = np.array([2, 0, 0, 0, 1]) if seven else np.array([1, 0, 0, 0])
    ups = np.array([1, 1, 1, 1, 0]) if seven else np.array([1, 1, 1, 1])
    for h in range(hands):
        for i in range(51, 0, -1):
            j = np.random.randint(0, i + 1)
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
        if record:
            decks[h, :] = deck
        logged = 0
        button = h % n
        n_board = 0
        for s in range(n):
            stack[s] = stack0
            bet[s] = 0
            contrib[s] = 0
            folded[s] = False
            n_own[s] = 0
            n_up[s] = 0
        for k in range(1, n + 1):  # antes, clockwise from the dealer's left (12.1(b))
            s = (button + k) % n
            paid = min(ante, stack[s])
            stack[s] -= paid
            contrib[s] += paid
        pos = 0
        live = n
        for street in range(n_streets):
            per_player = downs[street] + ups[street]
            burn = 1 if street > 0 else 0
            len_left = 52 - pos
            shortage = per_player > 0 and len_left - burn < per_player * live
            need = per_player if shortage else per_player * live
            if burn == 1 and len_left > need:
                pos += 1
            if shortage:
                for _ in range(per_player):
                    board[n_board] = deck[pos]
                    n_board += 1
                    pos += 1
            else:
                for face in range(2):
                    count = downs[street] if face == 0 else ups[street]
                    for _ in range(count):
                        for k in range(1, n + 1):
                            s = (button + k) % n
                            if folded[s]:
                                continue
                            card = deck[pos]
                            pos += 1
                            own[s, n_own[s]] = card
                            n_own[s] += 1
                            if face == 1:
                                up[s, n_up[s]] = card
                                n_up[s] += 1
            current = 0
            for s in range(n):
                current = max(current, bet[s])
            last_inc = 0
            raises = 0
            full_raises = 0
            able = 0
            owing = False
            for s in range(n):
                acted[s] = -1
                to_act[s] = (not folded[s]) and stack[s] > 0
                if to_act[s]:
                    able += 1
                    if bet[s] < current:
                        owing = True
            bring_in_due = False
            if able >= 2 or owing:
                first = -1
                if street == 0:  # the lowest up card brings in (12.2(a))
                    low_card = 99
                    for k in range(1, n + 1):
                        s = (button + k) % n
                        if to_act[s] and up[s, 0] < low_card:
                            low_card = up[s, 0]
                            first = s
                    bring_in_due = True
                else:  # the best exposed hand among those still in
                    best = -1
                    for k in range(1, n + 1):
                        s = (button + k) % n
                        if not folded[s]:
                            key = _exposed_key(up[s], n_up[s])
                            if key > best:
                                best = key
                                first = s
                actor = first if to_act[first] else _next_in(to_act, first, n)
                while actor >= 0:
                    to_call = max(current - bet[actor], 0)
                    can_raise = _raise_range(
                        actor,
                        n,
                        stack,
                        bet,
                        contrib,
                        folded,
                        acted,
                        current,
                        last_inc,
                        raises,
                        full_raises,
                        street,
                        2,
                        small,
                        small,
                        bring_in_due,
                        bring_in,
                        rng_out,
                    )
                    kind = -1
                    amount = 0
                    if bring_in_due:
                        low = min(bring_in, stack[actor])
                        high = rng_out[1] if can_raise else low
                        high = max(low, high)
                        amount = low if np.random.randint(0, 2) == 0 else high
                        kind = 4
                    else:
                        options = (2 if to_call > 0 else 1) + (1 if can_raise else 0)
                        pick = np.random.randint(0, options)
                        if to_call > 0:
                            kind = 0 if pick == 0 else (2 if pick == 1 else 3)
                        else:
                            kind = 1 if pick == 0 else 3
                        if kind == 3:
                            amount = np.random.randint(rng_out[0], rng_out[1] + 1)
                    if kind == 0:
                        folded[actor] = True
                        live -= 1
                    elif kind == 2:
                        paid = min(current - bet[actor], stack[actor])
                        stack[actor] -= paid
                        bet[actor] += paid
                        contrib[actor] += paid
                    elif kind >= 3:
                        fixed = small if street < 2 else 2 * small
                        increment = amount - current
                        if kind == 4 or current < fixed:
                            full = amount >= fixed
                            size = amount
                        else:
                            full = increment >= fixed
                            size = increment
                        paid = amount - bet[actor]
                        stack[actor] -= paid
                        bet[actor] += paid
                        contrib[actor] += paid
                        if full:
                            raises += 1
                            full_raises += 1
                            last_inc = max(last_inc, size)
                        current = amount
                        bring_in_due = False
                        for s in range(n):
                            to_act[s] = s != actor and (not folded[s]) and stack[s] > 0
                    if record and logged < 199:
                        actions[h, 2 * logged] = kind
                        actions[h, 2 * logged + 1] = amount
                        logged += 1
                    acted[actor] = full_raises
                    actor = _next_actor(actor, n, live, to_act, folded, stack)
            _collect(n, bet, contrib, stack)
            if live == 1:
                break
        if live > 1:
            for s in range(n):
                if folded[s]:
                    continue
                m = 0
                for i in range(n_own[s]):
                    row[m] = own[s, i]
                    m += 1
                for i in range(n_board):
                    row[m] = board[i]
                    m += 1
                if m == 7:
                    k = 0
                    sm = 0
                    for i in range(7):
                        k += key7[row[i]]
                        sm += smask[row[i]]
                    values[s] = lookup_any(k, sm, nf7, flush)
                else:  # five card stud: exactly five cards
                    k = key5[row[0]] + key5[row[1]] + key5[row[2]] + key5[row[3]] + key5[row[4]]
                    if ((k & 0xFFFF) + 0x3333) & 0x8888:
                        mask = 0
                        for i in range(5):
                            mask |= 1 << (row[i] >> 2)
                        values[s] = flush[mask]
                    else:
                        values[s] = nf5[k >> 16]
        _settle(
            n,
            folded,
            stack,
            contrib,
            values,
            live,
            button,
            stack0,
            pot_amount,
            pot_mask,
            totals,
            squares,
        )


@njit(cache=True)
def _settle(
    n, folded, stack, contrib, values, live, button, stack0, pot_amount, pot_mask, totals, squares
):
    """Return chips no live player can win, build the pots at the all-in levels (merged when
    the eligible seats repeat), pay each to its best hands (odd chip to the first winner
    left of the button) and add each seat's result to the totals."""
    # chips no live player can win go back (everyone still in is all in)
    all_in_only = True
    cap = 0
    for s in range(n):
        if not folded[s]:
            if stack[s] > 0:
                all_in_only = False
            cap = max(cap, contrib[s])
    if all_in_only:
        for s in range(n):
            if contrib[s] > cap:
                stack[s] += contrib[s] - cap
                contrib[s] = cap
    # pots by all-in levels, merged when the eligible seats repeat
    n_pots = 0
    previous = 0
    covering = False
    for s in range(n):
        if not folded[s] and stack[s] > 0:
            covering = True
    while True:
        level = _BIG
        for s in range(n):
            if not folded[s] and stack[s] == 0 and contrib[s] > previous and contrib[s] < level:
                level = contrib[s]
        if level == _BIG and not covering:
            break
        amount = 0
        for s in range(n):
            amount += min(contrib[s], level) - min(contrib[s], previous)
        same = n_pots > 0
        for s in range(n):
            eligible = (not folded[s]) and (stack[s] > 0 or contrib[s] >= level)
            if n_pots > 0 and eligible != pot_mask[n_pots - 1, s]:
                same = False
            pot_mask[n_pots, s] = eligible
        if same:
            pot_amount[n_pots - 1] += amount
        elif amount > 0:
            pot_amount[n_pots] = amount
            n_pots += 1
        if level == _BIG:
            break
        previous = level
    for p in range(n_pots):
        best = -1
        winners = 0
        for s in range(n):
            if pot_mask[p, s]:
                v = values[s] if live > 1 else 0
                if v > best:
                    best = v
                    winners = 1
                elif v == best:
                    winners += 1
        share = pot_amount[p] // winners
        odd = pot_amount[p] - share * winners
        for k in range(1, n + 1):
            s = (button + k) % n
            if pot_mask[p, s] and (values[s] if live > 1 else 0) == best:
                stack[s] += share + odd
                odd = 0
    for s in range(n):
        net = stack[s] - stack0
        totals[s] += net
        squares[s] += net * net


@njit(cache=True)
def _next_actor(actor, n, live, to_act, folded, stack):
    """After ``actor`` has acted: the next seat to act clockwise, or -1 when the round is over."""
    to_act[actor] = False
    if live == 1:
        for s in range(n):
            to_act[s] = False
    nxt = _next_in(to_act, actor, n)
    while nxt >= 0 and not ((not folded[nxt]) and stack[nxt] > 0):
        to_act[nxt] = False
        nxt = _next_in(to_act, nxt, n)
    return nxt


@njit(cache=True)
def _collect(n, bet, contrib, stack):
    """End of a betting round: the uncalled part of the highest bet goes back; bets are swept."""
    top = -1
    second = -1
    for s in range(n):
        if top < 0 or bet[s] > bet[top]:
            top = s
    for s in range(n):
        if s != top and (second < 0 or bet[s] > bet[second]):
            second = s
    if bet[top] > bet[second]:
        excess = bet[top] - bet[second]
        contrib[top] -= excess
        stack[top] += excess
    for s in range(n):
        bet[s] = 0
