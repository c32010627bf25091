"""The blackjack referee's fast paths give exactly what the plain ones give (issue 25).

* A round keeps its censored log from one view to the next (only new events are censored,
  the hole card turned over in place at settlement): asked at every step, for every
  player and a spectator, through copies, burns, peek games and undone actions, it is the
  log censored afresh from the whole log.
* The legal plays are worked out by predicates: listing them, ``can_*`` and a view never
  build an error; every ``verify_*`` still raises, with the message the rule gives.
* An action draws at most :func:`~croupier.blackjack._state.most_drawn` cards, the bound
  under which it runs without an undo record.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack import NZ, BlackjackRound, BlackjackRules, BlackjackTable, HoleCard
from croupier.blackjack import plays as bj_plays
from croupier.blackjack._state import most_drawn
from croupier.blackjack.actions import Action, DeclineInsurance, Insure, Stand
from croupier.blackjack.policies import mimic_the_dealer
from croupier.blackjack.values import hand_total
from croupier.blackjack.views import censor
from croupier.cards import Shoe, full_deck, parse_cards
from croupier.errors import CroupierError, IllegalActionError

RULES = [
    NZ,
    NZ.with_(hole_card=HoleCard.PEEK),
    NZ.with_(hole_card="peek", surrender="late", even_money=True, double_after_split=False),
    NZ.with_(decks=4, max_hands=4, resplit_aces=True, hit_split_aces=True),
]
PLAYS = ("hit", "stand", "double", "split", "surrender")


def random_action(rnd: BlackjackRound, rng: random.Random) -> Action:
    """A random legal action (a random insurance stake within the cap)."""
    legal = rnd.legal_actions()
    if legal.decline_insurance and legal.insure is not None and rng.random() < 0.5:
        low, high = legal.insure
        return Insure(rng.randrange(low, high + 1, legal.unit))
    choices = list(legal)
    assert choices, "someone is to act with nothing to do"
    return rng.choice(choices)


def afresh(rnd: BlackjackRound) -> tuple[object, ...]:
    return censor(rnd.events, hole_card_turned=rnd.is_complete)


@settings(max_examples=80, deadline=None)
@given(rule=st.sampled_from(range(len(RULES))), seed=st.integers(0, 2**32 - 1))
def test_a_view_kept_from_step_to_step_is_the_view_censored_afresh(rule: int, seed: int) -> None:
    """Every viewer, after every action (a burn card, a hole card, an undone deal, copies
    taken mid-round): the kept log is the whole log censored anew, and the hole card shows
    in the view once the round is settled."""
    rules = RULES[rule]
    rng = random.Random(seed)
    cards = list(full_deck()) * 2
    rng.shuffle(cards)
    short = rng.random() < 0.2  # a shoe that runs out: the deal or the dealer's turn is undone
    order = cards[: rng.randrange(3, 9)] if short else cards
    rnd = BlackjackRound(rules, Shoe(2, cards=order), {"ann": 500, "bo": 300}, burn=seed % 2 == 0)
    viewers = ("ann", "bo", None)
    rnd.place_wager(1, "ann", 20)
    if rng.random() < 0.5:
        rnd.place_wager(2, "bo", 10)
    steps = 0
    while True:
        for viewer in viewers:
            assert rnd.view_for(viewer).events == afresh(rnd)
        if rnd.is_complete:
            break
        if rng.random() < 0.15:
            rnd = rnd.copy()
        try:
            if rnd.phase.value == "wagers":
                rnd.deal()
            else:
                rnd.apply(random_action(rnd, rng))
        except CroupierError:
            assert short  # only a short shoe fails, and the round is as it was
            for viewer in viewers:
                assert rnd.view_for(viewer).events == afresh(rnd)
            return
        steps += 1
        assert steps < 60
    view = rnd.view_for(None)
    assert view.complete
    assert not view.hole_card
    assert tuple(view.dealer) == rnd.dealer_cards


def test_a_log_changed_under_the_kept_view_is_censored_afresh() -> None:
    """A log cut back or rewritten in place (as the round's undo record does; the public log
    is read-only) is censored anew."""
    rnd = BlackjackRound(NZ, Shoe(6, seed=5), {"ann": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    before = rnd.view_for("ann").events
    del rnd._events[2:]
    assert rnd.view_for("ann").events == afresh(rnd) == before[:2]
    rnd._events[0] = BlackjackRound(NZ, Shoe(6, seed=6), {"ann": 100}).events[0]
    assert rnd.view_for("ann").events == afresh(rnd)


def _errors_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every IllegalActionError built from now on."""
    built: list[str] = []
    original = IllegalActionError.__init__

    def counting(self: IllegalActionError, *args: object, **kwargs: object) -> None:
        built.append(str(args))
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(IllegalActionError, "__init__", counting)
    return built


@pytest.mark.parametrize("rules", RULES, ids=["nz", "peek", "peek-late-even", "variant"])
def test_legal_plays_are_predicates_that_never_build_an_error(
    rules: BlackjackRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through whole rounds: ``legal_actions``, every ``can_*`` and every view build no
    error at all, and agree with ``verify_*`` (which raise for each play not listed)."""
    built = _errors_built(monkeypatch)
    table = BlackjackTable(rules, seed=11, strict_nz=False)
    rng = random.Random(3)
    bankrolls = {"ann": 10_000, "bo": 40}
    checked = 0
    for _ in range(150):
        rnd = table.new_round(bankrolls)
        rnd.place_wager(1, "ann", 20)
        rnd.place_wager(2, "bo", 20)
        rnd.deal()
        while not rnd.is_complete:
            names = rnd.legal_actions().names
            opened = {play: getattr(rnd, f"can_{play}")() for play in PLAYS}
            for viewer in ("ann", "bo", None):
                rnd.view_for(viewer)
            rnd.can_even_money()
            rnd.can_deal()
            assert built == []
            for play in PLAYS:
                assert opened[play] is (play in names)
                if not opened[play]:
                    with pytest.raises(IllegalActionError):
                        getattr(rnd, f"verify_{play}")()
                    checked += 1
            built.clear()
            action = random_action(rnd, rng)
            if isinstance(action, Insure) and not rng.getrandbits(1):
                action = DeclineInsurance()
            rnd.apply(action)
            built.clear()
        bankrolls = {name: max(chips, 40) for name, chips in rnd.bankrolls.items()}
    assert checked > 500


def test_the_refusals_keep_their_rules_and_messages() -> None:
    """The same words as ever, from the predicates (the allowed plays worked out last)."""
    rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
    with pytest.raises(IllegalActionError) as nobody:
        rnd.verify_hit()
    assert str(nobody.value) == "Blackjack 12.1: cannot hit: no hand is to act; allowed: no action"
    rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("6c 9d 5h Th 8s")), {"ann": 50})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    with pytest.raises(IllegalActionError) as stand:
        rnd.verify_stand()
    assert str(stand.value) == (
        "Blackjack 12.1(d): a total of 11 must draw until it reaches 12 or more; "
        "allowed: hit, double"
    )
    with pytest.raises(IllegalActionError) as split:
        rnd.split()
    assert str(split.value) == (
        "Decision 3.1-8: the two cards are not a pair; allowed: hit, double"
    )
    rnd.double()
    with pytest.raises(IllegalActionError) as hit:
        rnd.verify_hit()
    assert "no hand is to act" in str(hit.value)


@pytest.mark.parametrize("rules", RULES, ids=["nz", "peek", "peek-late-even", "variant"])
def test_no_action_draws_more_than_the_bound(rules: BlackjackRules) -> None:
    """Every deal and decision of many rounds (splits, doubles, the dealer's turn) takes
    fewer cards than :func:`most_drawn`, so a full shoe needs no undo record."""
    table = BlackjackTable(rules, seed=2, strict_nz=False)
    rng = random.Random(9)
    bound = most_drawn(rules)
    most = 0
    bankrolls = {"ann": 10**6, "bo": 10**6}
    for _ in range(400):
        rnd = table.new_round(bankrolls)
        for box in range(1, 5):
            rnd.place_wager(box, "ann" if box % 2 else "bo", 10)
        left = len(rnd.shoe)
        rnd.deal()
        most = max(most, left - len(rnd.shoe))
        while not rnd.is_complete:
            left = len(rnd.shoe)
            rnd.apply(random_action(rnd, rng))
            most = max(most, left - len(rnd.shoe))
        bankrolls = rnd.bankrolls
    assert 0 < most <= bound


def test_the_referee_loop_of_the_benchmark_balances() -> None:
    """The benchmark's loop (one box, hit below 17 from the view) settles every round."""
    table = BlackjackTable(NZ, seed=4)
    bankroll = {"ann": 10**9}
    for _ in range(300):
        rnd = table.new_round(bankroll)
        rnd.place_wager(1, "ann", 10)
        rnd.deal()
        while not rnd.is_complete:
            rnd.apply(mimic_the_dealer(rnd.view_for("ann")))
        assert sum(rnd.payoffs().values()) == -rnd.bank
        bankroll = rnd.bankrolls
    assert table.shuffles > 0


VARIANTS = [
    *RULES,
    NZ.with_(double_on="9-11", pairs_by="rank", surrender="late"),
    NZ.with_(double_on="10-11", double_after_split=False, max_hands=2),
]


def _plays_no_rule_refuses(rnd: BlackjackRound) -> tuple[bool, ...]:
    """The plays of the hand to act that no ``_*_refused`` rule refuses (the plain rules,
    one by one)."""
    actor = rnd.actor
    assert actor is not None
    assert actor.hand is not None
    box = rnd.boxes[actor.box]
    hand = box.hands[actor.hand]
    total, soft = hand_total(hand.cards)
    rules, bankrolls = rnd.rules, rnd.bankrolls
    return (
        bj_plays._hit_refused(rules, hand, total) is None,
        bj_plays._stand_refused(total) is None,
        bj_plays._double_refused(rules, bankrolls, hand, total, soft) is None,
        bj_plays._split_refused(rules, bankrolls, box, hand) is None,
        bj_plays._surrender_refused(rules, hand) is None,
    )


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.fingerprint)
def test_the_open_plays_are_exactly_the_plays_no_rule_refuses(rules: BlackjackRules) -> None:
    """The open plays worked out at once (and those kept for a box's first two cards)
    are, at every decision of random rounds (splits, resplits, doubles, short bankrolls),
    the plays none of the refusal rules refuses; a part built afresh on the same state
    agrees."""
    table = BlackjackTable(rules, seed=17, strict_nz=False)
    rng = random.Random(5)
    seen: set[tuple[bool, ...]] = set()
    for round_number in range(300):
        short = round_number % 3 == 0  # bo cannot always cover a double or a split
        rnd = table.new_round({"ann": 10_000, "bo": 25 if short else 10_000})
        rnd.place_wager(1, "ann", 20)
        rnd.place_wager(2, "bo", 20)
        rnd.deal()
        while not rnd.is_complete:
            actor = rnd.actor
            assert actor is not None
            if actor.hand is not None:
                expected = _plays_no_rule_refuses(rnd)
                assert rnd.legal_actions().names == tuple(
                    name for name, open_ in zip(PLAYS, expected, strict=True) if open_
                )
                fresh = bj_plays.HandPlays(
                    rules, rnd.bankrolls, rnd.boxes, rnd.shoe, turn=(actor.box, actor.hand)
                )
                assert fresh.open_plays() == expected
                seen.add(expected)
            rnd.apply(random_action(rnd, rng))
    assert len(seen) >= 6  # doubles, splits and surrenders, open and closed


@pytest.mark.parametrize("rules", RULES, ids=["nz", "peek", "peek-late-even", "variant"])
def test_the_decisions_run_through_apply_do_what_the_named_methods_do(
    rules: BlackjackRules,
) -> None:
    """Every decision of random rounds: ``apply`` (its quick path for a legal decision on
    the hand to act) leaves the round exactly as the named method (``hit()`` …) leaves a
    copy; the legal actions kept from one step to the next are those of the round
    replayed afresh from its log."""
    table = BlackjackTable(rules, seed=23, strict_nz=False)
    rng = random.Random(8)
    for _ in range(120):
        rnd = table.new_round({"ann": 10_000, "bo": 60})
        rnd.place_wager(1, "ann", 20)
        rnd.place_wager(3, "bo", 20)
        rnd.deal()
        while not rnd.is_complete:
            assert rnd.legal_actions() == BlackjackRound.replay(rules, rnd.events).legal_actions()
            action = random_action(rnd, rng)
            twin = rnd.copy()
            made = rnd.apply(action)
            name = type(action).__name__.lower()
            if name in PLAYS:
                assert getattr(twin, name)() == made
            else:
                assert twin.apply(action) == made
            assert twin.snapshot() == rnd.snapshot()
            assert len(twin.shoe) == len(rnd.shoe)


def test_a_shoe_handed_over_mid_round_is_counted_afresh() -> None:
    """The round counts the cards it may still draw without an undo record by its log
    (each card drawn logs an event); a shoe set mid-round is counted afresh, so an action
    that runs it dry leaves the round as it was."""
    rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Ts 6d 6h") * 30), {"ann": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()  # ten and six against a six: 16
    rnd.shoe = Shoe(6, cards=parse_cards("2c"))  # the dealer's second card, then nothing
    before = rnd.snapshot()
    with pytest.raises(CroupierError, match="empty"):
        rnd.apply(Stand())
    assert rnd.snapshot() == before
    assert len(rnd.shoe) == 1
    assert rnd.legal_actions().names == ("hit", "stand", "double")
