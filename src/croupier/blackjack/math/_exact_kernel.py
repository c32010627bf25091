"""The numba kernels behind :mod:`croupier.blackjack.math.analysis` (see there); no input
checks here.

Shoe compositions are ``float64[11]`` counts of each value 1-10 (index 0 unused). With
``infinite`` set, ``probs`` gives each value's fixed probability instead and counts are
ignored. Option arrays hold, per two-card hand, the EV of (stand, hit, double, split,
surrender) per initial unit, NaN where the option is not allowed.
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

__all__ = ["analyze_up", "dealer_dist", "hand_values"]

_NONE = -1e9


@njit(cache=True, nogil=True)
def _weight(comp, used, v, infinite, probs):
    if infinite:
        return probs[v]
    w = comp[v] - used[v]
    return w if w > 0 else 0.0


@njit(cache=True, nogil=True)
def dealer_dist(comp, ntot, infinite, probs, dcounts, ddrawn, dtrans, excl, mass, out):
    """The dealer's final-outcome distribution (17-21, blackjack, bust) into ``out``.

    ``comp``/``ntot``: the shoe with the up card and every other seen card removed;
    ``excl``: a value the first draw cannot be (a peeked dealer without blackjack), or 0.
    """
    n = dcounts.shape[0]
    for i in range(7):
        out[i] = 0.0
    for s in range(n):
        mass[s] = 0.0
    mass[0] = 1.0
    for s in range(n):
        ms = mass[s]
        if ms == 0.0:
            continue
        used = dcounts[s]
        denom = 1.0 if infinite else ntot - ddrawn[s]
        if s == 0 and excl > 0:
            denom -= _weight(comp, used, excl, infinite, probs)
        if denom <= 0.0:
            continue
        for v in range(1, 11):
            if s == 0 and v == excl:
                continue
            w = _weight(comp, used, v, infinite, probs)
            if w == 0.0:
                continue
            p = ms * w / denom
            t = dtrans[s, v]
            if t >= 0:
                mass[t] += p
            else:
                out[-t - 1] += p


@njit(cache=True, nogil=True)
def _stand(row, total, stake, take):
    """EV of a hand standing on ``total`` with ``stake`` against a dealer distribution;
    a dealer blackjack takes ``take``."""
    ev = row[6] * stake - row[5] * take
    for i in range(5):
        d = 17 + i
        if d < total:
            ev += row[i] * stake
        elif d > total:
            ev -= row[i] * stake
    return ev


@njit(cache=True, nogil=True)
def _dealer_rows(
    comp, ntot, infinite, probs, pc, pcards, need, dgraph_counts, dgraph_drawn, dgraph_trans,
    excl, rows, mass, left,
):  # fmt: skip
    """Dealer distribution for every player node s with ``need[s]``: the shoe less the
    node's cards (an impossible node gets a zero row)."""
    done = False
    first_row = 0
    for s in range(pc.shape[0]):
        if not need[s]:
            continue
        if infinite:
            if not done:
                dealer_dist(comp, ntot, infinite, probs, dgraph_counts, dgraph_drawn,
                            dgraph_trans, excl, mass, rows[s])  # fmt: skip
                first_row = s
                done = True
            else:
                for i in range(7):
                    rows[s, i] = rows[first_row, i]
            continue
        ok = True
        for v in range(1, 11):
            left[v] = comp[v] - pc[s, v]
            if left[v] < 0:
                ok = False
        if not ok:
            for i in range(7):
                rows[s, i] = 0.0
            continue
        dealer_dist(left, ntot - pcards[s], infinite, probs, dgraph_counts, dgraph_drawn,
                    dgraph_trans, excl, mass, rows[s])  # fmt: skip


@njit(cache=True, nogil=True)
def _values(
    comp, ntot, infinite, probs, pc, ptotal, psoft, pcards, pnext, porder, rows, need,
    take, take_double, bust, mode, chart, up, sv, dsv, hitv, cont, only_needed,
):  # fmt: skip
    """Stand, doubled-stand, hit and continuation values of every node (no double or split
    after a hit); ``mode`` 0 plays optimally, 1 plays ``chart``. A standing hand loses
    ``take`` (``take_double`` doubled) to a dealer blackjack; a bust is worth minus the
    stake plus ``bust`` (what busting does to the box's later hands, see ``analyze_up``).
    With ``only_needed`` the nodes without ``need`` are skipped (a split hand's nodes all
    hold the split card, and so do all the nodes a hit leads to from them)."""
    for j in range(porder.shape[0]):
        s = porder[j]
        if only_needed and not need[s]:
            continue
        t = ptotal[s]
        if need[s]:
            sv[s] = _stand(rows[s], t, 1.0, take)
            dsv[s] = _stand(rows[s], t, 2.0, take_double)
        else:
            sv[s] = _NONE
            dsv[s] = _NONE
        h = 0.0
        if t < 21:
            denom = 1.0 if infinite else ntot - pcards[s]
            if denom > 0:
                for v in range(1, 11):
                    w = _weight(comp, pc[s], v, infinite, probs)
                    if w == 0.0:
                        continue
                    nx = pnext[s, v]
                    h += w / denom * (bust - 1.0 if nx < 0 else cont[nx])
        hitv[s] = h
        if t >= 21:
            cont[s] = sv[s]
        elif t <= 11:
            cont[s] = h
        elif mode == 0:
            cont[s] = sv[s] if sv[s] >= h else h
        else:
            act = decide(chart, up, t, psoft[s], 0, False, False, False)
            cont[s] = sv[s] if act == STAND else h


@njit(cache=True, nogil=True)
def _double(comp, ntot, infinite, probs, pc, pcards, pnext, dsv, s, bust):
    denom = 1.0 if infinite else ntot - pcards[s]
    ev = 0.0
    if denom <= 0:
        return 0.0
    for v in range(1, 11):
        w = _weight(comp, pc[s], v, infinite, probs)
        if w == 0.0:
            continue
        nx = pnext[s, v]
        ev += w / denom * (bust - 2.0 if nx < 0 else dsv[nx])
    return ev


@njit(cache=True, nogil=True)
def _two_card(
    comp, ntot, infinite, probs, pc, ptotal, psoft, pcards, pnext, s, sv, dsv, hitv,
    double_ok, pair_value, mode, chart, up, bust,
):  # fmt: skip
    """Value of a split hand's two-card decision (stand, hit or double; no split here)."""
    t = ptotal[s]
    if t >= 21:
        return sv[s]
    dbl = (
        _double(comp, ntot, infinite, probs, pc, pcards, pnext, dsv, s, bust)
        if double_ok
        else _NONE
    )
    st = sv[s] if t >= 12 else _NONE
    if mode == 0:
        best = hitv[s]
        if st > best:
            best = st
        if dbl > best:
            best = dbl
        return best
    act = decide(chart, up, t, psoft[s], pair_value, False, double_ok, False)
    if act == STAND:
        return st
    if act == DOUBLE:
        return dbl
    return hitv[s]


@njit(cache=True, nogil=True)
def _split_hand(
    cp, np_tot, infinite, probs, pc, ptotal, psoft, pcards, pnext, porder, ptwo, srows, sneed,
    p, one, q, tk, tkd, bust, das, double_on, hit_split_aces, mode, chart, up, sv, dsv, hitv,
    cont,
):  # fmt: skip
    """(e_nc, e_c): a split hand of ``p``'s value given its second card is not a ``p``, and
    given it is one and the hand is kept; a dealer blackjack takes ``tk`` (``tkd`` doubled)
    from it if it stands, and a bust adds ``bust``."""
    _values(cp, np_tot, infinite, probs, pc, ptotal, psoft, pcards, pnext, porder, srows,
            sneed, tk, tkd, bust, mode, chart, up, sv, dsv, hitv, cont, True)  # fmt: skip
    denom = 1.0 if infinite else np_tot - 1.0
    acc = 0.0
    e_c = 0.0
    for v in range(1, 11):
        s2 = ptwo[p, v]
        w = _weight(cp, pc[one], v, infinite, probs) / denom
        if p == 1 and not hit_split_aces:
            val = sv[s2]
        else:
            dok = das and may_double(double_on, ptotal[s2], psoft[s2])
            val = _two_card(cp, np_tot, infinite, probs, pc, ptotal, psoft, pcards, pnext, s2,
                            sv, dsv, hitv, dok, p if v == p else 0, mode, chart, up,
                            bust)  # fmt: skip
        if v == p:
            e_c = val
        else:
            acc += w * val
    return (acc / (1.0 - q) if q < 1.0 else 0.0), e_c


@njit(cache=True, nogil=True)
def _after_up(shoe, infinite, up):
    """(the shoe less the up card, its size, the card that makes the dealer a blackjack)."""
    comp = shoe.copy()
    ntot = 0.0
    for v in range(1, 11):
        ntot += shoe[v]
    if not infinite:
        comp[up] -= 1.0
        ntot -= 1.0
    return comp, ntot, 1 if up == 10 else (10 if up == 1 else 0)


@njit(cache=True, nogil=True)
def analyze_up(
    shoe, infinite, probs, up, pc, ptotal, psoft, pcards, pnext, porder, pone, ptwo,
    dcounts, ddrawn, dtrans, peek, take_first, take_other, take_double_extra, double_on,
    das, max_hands, resplit_aces, hit_split_aces, surrender, split_tens, pays, mode, chart,
    opts, chosen,
):  # fmt: skip
    """Every two-card hand's options against ``up`` (into ``opts[a, b, :]``) and the EV of
    the action taken (``chosen[a, b]``: the best one, or the chart's), naturals included.

    For a peek game the options are unconditional: a dealer blackjack (probability from
    the shoe less the three cards) ends the hand at -1 before any option.
    """
    s_count = pc.shape[0]
    comp, ntot, bj_card = _after_up(shoe, infinite, up)
    excl = bj_card if peek else 0
    take1 = 0.0 if peek else take_first
    mass = np.zeros(dcounts.shape[0])
    scratch = np.zeros(11)

    need = np.zeros(s_count, np.bool_)
    for s in range(s_count):
        need[s] = pcards[s] >= 2  # doubled hands stand on any total
    rows = np.zeros((s_count, 7))
    _dealer_rows(comp, ntot, infinite, probs, pc, pcards, need, dcounts, ddrawn, dtrans, excl,
                 rows, mass, scratch)  # fmt: skip
    sv = np.zeros(s_count)
    dsv = np.zeros(s_count)
    hitv = np.zeros(s_count)
    cont = np.zeros(s_count)
    _values(comp, ntot, infinite, probs, pc, ptotal, psoft, pcards, pnext, porder, rows, need,
            take1, take1 + (0.0 if peek else take_double_extra), 0.0, mode, chart, up, sv, dsv,
            hitv, cont, False)  # fmt: skip

    # --- splits: each pair value against this up card --------------------------------
    split_ev = np.full(11, _NONE)
    srows = np.zeros((s_count, 7))
    sneed = np.zeros(s_count, np.bool_)
    r_sv = np.zeros((2, s_count))
    r_dsv = np.zeros((2, s_count))
    r_hitv = np.zeros((2, s_count))
    r_cont = np.zeros((2, s_count))
    for p in range(1, 11):
        if p == 10 and not split_tens:
            continue
        cp = comp.copy()
        np_tot = ntot
        if not infinite:
            cp[p] -= 1.0  # the other card of the pair
            np_tot -= 1.0
            if cp[p] < 1.0:
                continue
        for s in range(s_count):
            sneed[s] = pcards[s] >= 2 and pc[s, p] >= 1
        _dealer_rows(cp, np_tot, infinite, probs, pc, pcards, sneed, dcounts, ddrawn, dtrans,
                     excl, srows, mass, scratch)  # fmt: skip
        one = pone[p]
        denom = 1.0 if infinite else np_tot - 1.0
        q = _weight(cp, pc[one], p, infinite, probs) / denom
        # 11.7: a dealer blackjack takes the original wager once, from the first split hand
        # still standing. State 1: it is still due (every hand so far busted); state 0: it
        # has been taken (a hand stood), or is never due alone (a peek game; splits ALL).
        tk0 = 0.0 if peek else take_other
        tkd0 = 0.0 if peek else take_other + take_double_extra
        same = peek or take_other >= take_first
        e0_nc, e0_c = _split_hand(
            cp, np_tot, infinite, probs, pc, ptotal, psoft, pcards, pnext, porder, ptwo, srows,
            sneed, p, one, q, tk0, tkd0, 0.0, das, double_on, hit_split_aces, mode, chart, up,
            r_sv[0], r_dsv[0], r_hitv[0], r_cont[0],
        )  # fmt: skip
        budget = max_hands - 2 if (p != 1 or resplit_aces) else 0
        resplit = mode == 0 or chart[2, p, up] == 4
        # f[k, b, r]: the k hands still to play, b resplits left, state r. A hand played in
        # state 1 loses take_first if it stands; if it busts the state stays 1 for the next
        # hand, so its bust is worth f[k-1, ., 1] - f[k-1, ., 0] more (the player sees the
        # bust before playing on: the later hands play for the state they are in).
        f = np.zeros((max_hands + 2, budget + 1, 2))
        due_nc = np.zeros((max_hands + 1, budget + 1))
        due_c = np.zeros((max_hands + 1, budget + 1))
        have = np.zeros((max_hands + 1, budget + 1), np.bool_)
        for b in range(budget + 1):
            for k in range(1, max_hands + 1):
                for r in range(2):
                    if r == 0 or same:
                        nc, c = e0_nc, e0_c
                    else:
                        for jb in (b, 0):  # later hands keep b, or 0 once a resplit is declined
                            if not have[k - 1, jb]:
                                bust = f[k - 1, jb, 1] - f[k - 1, jb, 0]
                                due_nc[k - 1, jb], due_c[k - 1, jb] = _split_hand(
                                    cp, np_tot, infinite, probs, pc, ptotal, psoft, pcards,
                                    pnext, porder, ptwo, srows, sneed, p, one, q, take_first,
                                    take_first + take_double_extra, bust, das, double_on,
                                    hit_split_aces, mode, chart, up, r_sv[1], r_dsv[1],
                                    r_hitv[1], r_cont[1],
                                )  # fmt: skip
                                have[k - 1, jb] = True
                        nc, c = due_nc[k - 1, b], due_c[k - 1, 0]
                    if b == 0:
                        f[k, 0, r] = (1 - q) * nc + q * c + f[k - 1, 0, 0]
                        continue
                    keep = c + f[k - 1, 0, 0]
                    again = f[k + 1, b - 1, r] if k + 1 <= max_hands else keep
                    if mode == 0:
                        pick = again if again > keep else keep
                    else:
                        pick = again if resplit else keep
                    f[k, b, r] = (1 - q) * (nc + f[k - 1, b, 0]) + q * pick
        split_ev[p] = f[2, budget, 1]

    # --- every first decision ---------------------------------------------------------
    for a in range(1, 11):
        for b in range(a, 11):
            s = ptwo[a, b]
            t = ptotal[s]
            soft = psoft[s]
            left_ok = True
            if not infinite:
                for v in range(1, 11):
                    if comp[v] - pc[s, v] < 0:
                        left_ok = False
            for i in range(5):
                opts[a, b, i] = np.nan
            if not left_ok:
                chosen[a, b] = 0.0
                chosen[b, a] = 0.0
                continue
            if bj_card > 0:
                d_left = 1.0 if infinite else ntot - 2.0
                p_bj = _weight(comp, pc[s], bj_card, infinite, probs) / d_left
            else:
                p_bj = 0.0
            if t == 21:  # a natural: paid unless the dealer has one too
                chosen[a, b] = (1.0 - p_bj) * pays
                chosen[b, a] = chosen[a, b]
                continue
            o = np.full(5, _NONE)
            if t >= 12:
                o[0] = sv[s]
            o[1] = hitv[s]
            dok = may_double(double_on, t, soft)
            if dok:
                o[2] = _double(comp, ntot, infinite, probs, pc, pcards, pnext, dsv, s, 0.0)
            sok = a == b and split_ev[a] > _NONE
            if sok:
                o[3] = split_ev[a]
            if surrender:  # void against a no-hole-card dealer blackjack (Decision 3.1-13)
                o[4] = -0.5 if peek else -p_bj - 0.5 * (1.0 - p_bj)
            for i in range(5):
                if o[i] > _NONE:
                    x = o[i]
                    if peek:
                        x = p_bj * -1.0 + (1.0 - p_bj) * x
                    opts[a, b, i] = x
            if mode == 0:
                best = _NONE
                for i in range(5):
                    if o[i] > _NONE and opts[a, b, i] > best:
                        best = opts[a, b, i]
                chosen[a, b] = best
            else:
                act = decide(chart, up, t, soft, a if a == b else 0, sok, dok, surrender)
                idx = 1
                if act == STAND:
                    idx = 0
                elif act == DOUBLE:
                    idx = 2
                elif act == SPLIT:
                    idx = 3
                elif act == SURRENDER:
                    idx = 4
                chosen[a, b] = opts[a, b, idx]
            for i in range(5):
                opts[b, a, i] = opts[a, b, i]
            chosen[b, a] = chosen[a, b]


@njit(cache=True, nogil=True)
def hand_values(
    shoe, infinite, probs, up, pc, ptotal, psoft, pcards, pnext, porder, dcounts, ddrawn, dtrans,
    peek, take_double_extra, mode, chart, sv, hitv,
):  # fmt: skip
    """Stand and hit values of every unsplit player node against ``up`` (given no dealer
    blackjack in a peek game; a no-hole-card dealer blackjack included)."""
    s_count = pc.shape[0]
    comp, ntot, bj_card = _after_up(shoe, infinite, up)
    excl = bj_card if peek else 0
    take1 = 0.0 if peek else 1.0
    need = np.zeros(s_count, np.bool_)
    for s in range(s_count):
        need[s] = pcards[s] >= 2
    rows = np.zeros((s_count, 7))
    _dealer_rows(comp, ntot, infinite, probs, pc, pcards, need, dcounts, ddrawn, dtrans, excl,
                 rows, np.zeros(dcounts.shape[0]), np.zeros(11))  # fmt: skip
    dsv = np.zeros(s_count)
    cont = np.zeros(s_count)
    _values(comp, ntot, infinite, probs, pc, ptotal, psoft, pcards, pnext, porder, rows, need,
            take1, take1 + (0.0 if peek else take_double_extra), 0.0, mode, chart, up, sv, dsv,
            hitv, cont, False)  # fmt: skip
