"""The numba routines the fast poker kernels share: who acts next, the legal raise range
(bring-in and cap included), collecting bets and settling the pots; no input checks here.
"""

from __future__ import annotations

from numba import njit

__all__ = ["_collect", "_next_actor", "_next_in", "_raise_range", "_settle"]

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
