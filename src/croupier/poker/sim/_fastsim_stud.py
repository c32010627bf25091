"""The numba kernel behind :mod:`croupier.poker.sim.fastsim` for five and seven card stud
(see there); no input checks here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.evaluation.kernels import lookup_any
from croupier.poker.sim._fastsim_shared import (
    _collect,
    _next_actor,
    _next_in,
    _raise_range,
    _settle,
)

__all__ = ["run_stud"]


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
