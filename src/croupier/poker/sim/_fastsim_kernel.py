"""The numba kernel behind :mod:`croupier.poker.sim.fastsim` for Hold'em and Omaha (see
there); seven and five card stud are in :mod:`~croupier.poker.sim._fastsim_stud`. No input
checks here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.evaluation.kernels import lookup_any, omaha_one
from croupier.poker.sim._fastsim_shared import (
    _collect,
    _next_actor,
    _next_in,
    _raise_range,
    _settle,
)

__all__ = ["run"]


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
