"""The state machine of a whole match: deal, bid, play, score, rotate the dealer, win.

>>> import random
>>> from spades.engine import Match, profile
>>> m = Match(profile("cardems", one_hand=True), rng=random.Random(7))
>>> while not m.is_over():
...     m.apply(m.legal_actions()[0])     # the lowest legal action: every seat bids Nil
>>> m.results[0].bids, m.scores
((0, 0, 0, 0), [-193, -194])

A match to a target ends only when one side reaches it: with every seat bidding Nil (or
playing at random) the scores fall hand after hand and the match never ends, so a loop over
a whole match needs players that make their contracts, or a bound of its own.

The engine holds no clock and no global random: dealing uses the ``random.Random`` passed
in (or the deals given to :meth:`Match.deal`). An illegal action raises
:class:`IllegalAction` with the reason and leaves the match unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from spades.engine._pickling import get_state, set_state
from spades.engine.actions import BID_BASE, BLIND_NIL, LOOK, NIL, action_str, whole_number
from spades.engine.cards import (
    NON_SPADE_MASK,
    NUM_CARDS,
    SPADES,
    SUIT_MASKS,
    card_str,
    cards_of_int,
)
from spades.engine.errors import IllegalAction, SpadesError, check_flag
from spades.engine.events import (
    BagWarning,
    BiddingClosed,
    BidMade,
    CardPlayed,
    ContractDecided,
    Event,
    HandDealt,
    HandScored,
    LookedAtCards,
    MatchOver,
    NilDecided,
    SideHand,
    SpadesBroken,
    TimedOut,
    TrickWon,
)
from spades.engine.hands import HandLog, HandResult
from spades.engine.handstate import BID, DEAL, PLAY, HandState
from spades.engine.observation import Observation
from spades.engine.phase import Phase
from spades.engine.record_format import record_of
from spades.engine.rules import Rules
from spades.engine.scoring import apply_bags, bags_to_warn, winner

#: ``current_player`` while the next hand waits to be dealt, and once the match is over.
CHANCE: Final = -1
TERMINAL: Final = -2
#: The match is over (the same object as spades.engine.phase's; a final, as in handstate).
OVER: Final[Phase] = Phase.OVER


class Match(HandState):
    """A match in progress. An example is in the module's docstring, help(spades.engine.match).

    The hand under way is the match itself as a :class:`HandState` (its cards, bids,
    trick and so on are the hand state's attributes, played by the hand state's rules);
    the match adds the checks, the log, the events, the scores and the deals."""

    __slots__ = (
        "actions",
        "dealer",
        "deck_cards",
        "events",
        "log",
        "pending_deals",
        "results",
        "rng",
        "scores",
        "timeout_bags",
        "trick_winners",
        "winner",
    )

    def __init__(
        self,
        rules: Rules,
        rng: random.Random | None = None,
        *,
        dealer: object = None,
        events: object = False,
        _copy_of: Match | None = None,
    ) -> None:
        """Start a match. With ``rng`` (by name, or second by position), hands are shuffled
        and dealt automatically (and the first dealer drawn from it unless given); without,
        call :meth:`deal` each hand.
        With ``events``, the match records its events in :attr:`events` (see
        :mod:`spades.engine.events`)."""
        if _copy_of is not None:
            self._copy(_copy_of)
            return
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, like profile('cardems'), not {rules!r}")
        if rng is not None and not isinstance(rng, random.Random):
            seed = " (Match.new(rules, seed) deals from a seed)" if isinstance(
                rng, (int, str)) and not isinstance(rng, bool) else ""
            raise TypeError(f"rng must be a random.Random, like random.Random(7), "
                            f"not {rng!r}"[:200] + seed)
        recording = check_flag("events", events)  # (typed object: compiled, in its words)
        self._start(rules)
        self.rng = rng
        self.deck_cards = cards_of_int(rules.deck)
        self.pending_deals: list[tuple[int, ...]] = []
        if dealer is None:
            dealer = rng.randrange(self.n) if rng is not None else 0
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < self.n:
            raise SpadesError(f"dealer must be a seat from 0 to {self.n - 1}, not {dealer!r}")
        self.dealer = dealer
        #: The events recorded since the last :meth:`take_events`, or None: not recording.
        self.events: list[Event] | None = [] if recording else None
        nsides = len(self.sides)
        self.scores = [0] * nsides
        self.bags = [0] * nsides
        self.results: list[HandResult] = []
        self.winner: int | None = None
        self.log: list[HandLog] = []
        self._reset_hand()
        if rng is not None:
            self.deal()

    @classmethod
    def new(cls, rules: Rules, seed: Any = None, dealer: object = None,
            *, events: object = False) -> Match:
        """A match dealt from ``random.Random(seed)``: a whole number of any integer type
        (numpy's is that int), text, or None; anything else is a ``TypeError`` naming
        ``seed``."""
        number = whole_number(seed)
        if number is None and seed is not None and not isinstance(seed, str):
            # (random.Random takes a bool, a float or bytes too: True dealt as 1, 1.5 by
            # its hash)
            raise TypeError(f"seed must be a whole number or text, like Match.new(rules, 7), "
                            f"not {seed!r}"[:200])
        rng = random.Random(seed if number is None else number)
        return cls(rules, rng=rng, dealer=dealer, events=events)

    def _reset_hand(self, hands: list[int] | None = None, first: int = -1) -> None:
        """A new hand (see :meth:`HandState._new_hand`) with an empty log."""
        self._new_hand([0] * self.n if hands is None else hands, first)
        self.actions: list[int] = []
        self.timeout_bags = [0] * len(self.sides)
        self.trick_winners: list[int] = []

    # Dealing ----------------------------------------------------------------------------

    def deal(self, hands: Sequence[object] | None = None) -> None:
        """Deal the next hand: the given card masks per seat, or shuffled from ``rng``."""
        if self.phase is not DEAL:
            raise IllegalAction(f"cannot deal now: the {self.phase} phase is under way")
        if hands is not None:
            masks = self._check_deal(hands)
        elif self.pending_deals:
            masks = list(self.pending_deals.pop())  # the deal an undo took back: again
        else:
            if self.rng is None:
                raise SpadesError("no deal given and no random generator to shuffle with")
            rnd = self.rng.random
            cards = sorted(self.deck_cards, key=lambda _card: rnd())
            masks = [0] * self.n
            n = self.n
            for i in range(n):  # one card at a time, starting left of the dealer
                m = 0
                for c in cards[i::n]:
                    m |= 1 << c
                masks[(self.dealer + 1 + i) % n] = m
        self._reset_hand(masks, (self.dealer + 1) % self.n)
        self.log.append(HandLog(self.dealer, tuple(masks), self.actions, [],
                                tuple(self.scores), tuple(self.bags)))
        if self.events is not None:
            self.events.append(HandDealt(len(self.log), self.dealer))

    def _check_deal(self, hands: Sequence[object]) -> list[int]:
        """``hands`` as card masks, or :class:`SpadesError` saying which seat's is wrong."""
        given: object = hands  # (typed as given: compiled, a narrowed name is cast)
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            raise SpadesError(f"deal takes one card mask per seat ({self.n}), like "
                              f"[mask_of(cards), ...], not {given!r}"[:200])
        masks: list[int] = []
        for seat, m in enumerate(hands):
            if not isinstance(m, int) or isinstance(m, bool) or m < 0:
                raise SpadesError(f"seat {seat}: a hand must be a card mask (a whole number: "
                                  f"mask_of(cards)), not {m!r}"[:200])
            masks.append(m)
        if len(masks) != self.n:
            raise SpadesError(f"the deal must have {self.n} hands, not {len(masks)}")
        deck = self.rules.deck
        seen = 0
        for seat, m in enumerate(masks):
            if m >> NUM_CARDS:
                raise SpadesError(f"seat {seat}: a hand must be a card mask, and bit "
                                  f"{m.bit_length() - 1} is no card (cards are 0 to {NUM_CARDS - 1})")
            if m & ~deck:
                extra = ", ".join(card_str(c) for c in cards_of_int(m & ~deck))
                raise SpadesError(f"seat {seat} holds {extra}, not in this deck")
            if m & seen:  # and which seat holds them too: one of the two is wrong
                dup = ", ".join(card_str(c) for c in cards_of_int(m & seen))
                also = [str(s) for s in range(seat) if masks[s] & m]
                raise SpadesError(f"seat {seat} holds {dup}, dealt twice (also to seat"
                                  f"{'s' if len(also) > 1 else ''} {', '.join(also)})")
            if m.bit_count() != self.hand_size:
                held = m.bit_count()
                raise SpadesError(f"seat {seat} holds {held} card{'' if held == 1 else 's'}, "
                                  f"not {self.hand_size}")
            seen |= m
        return masks

    # Queries ----------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` when a deal is due, ``TERMINAL`` when over."""
        if self.phase is BID or self.phase is PLAY:
            return self.turn
        return TERMINAL if self.phase is OVER else CHANCE

    def is_over(self) -> bool:
        """Whether the match has ended (phase ``OVER``; :attr:`winner` says who won)."""
        return self.phase is OVER

    @property
    def hand_number(self) -> int:
        """1-based number of the current (or last) hand."""
        return len(self.log)

    def legal_cards_mask(self) -> int:
        """Bitmask of the cards the player to act may play (0 outside the play phase)."""
        return self.legal_mask() if self.phase is PLAY else 0

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` may be taken now: :meth:`check` without the reason (anything
        that is no action, a bool or a float included, is simply not legal)."""
        if type(action) is not int:
            action = whole_number(action)
            if action is None:
                return False
        if self.phase is PLAY:
            return 0 <= action < 54 and bool(self.legal_mask() >> action & 1)
        return self.phase is BID and action in self.legal_bids()

    def check(self, action: object) -> None:
        """Raise :class:`IllegalAction` saying why ``action`` is not allowed now."""
        if self.is_legal(action):
            return
        raise IllegalAction(self._why_illegal(action))

    def _why_illegal(self, action: object) -> str:
        if self.phase is OVER:
            return "the match is over"
        if self.phase is DEAL:
            return "the next hand has not been dealt"
        given = action
        if type(action) is not int:
            action = whole_number(action)
        if action is None or not (0 <= action < 54 or BID_BASE <= action <= LOOK):
            return _not_an_action(given)
        if self.phase is BID:
            return self._why_bid_illegal(action)
        if action >= BID_BASE:
            return f"bidding is over; seat {self.turn} must play a card"
        return self.why_card_illegal(action)

    def _why_bid_illegal(self, action: int) -> str:
        if action < BID_BASE:
            return f"it is time to bid, not to play; seat {self.turn} must bid"
        seat = self.turn
        legal = self.legal_bids()
        if not self.looked[seat]:
            return "first bid blind nil or look at the cards"
        if action == LOOK:
            return "the cards have already been seen"
        if action == BLIND_NIL:
            if not self.rules.blind_nil:
                return "blind nil is not allowed under these rules"
            if self.num_bids:
                return "blind nil is only allowed as the first bid of the hand"
            return "blind nil must be bid before looking at the cards"
        n = action - BID_BASE
        style = self.rules.bidding
        if style == "mirror":
            return f"mirror bidding: the bid must be the {legal[0] - BID_BASE} spades held"
        if style == "whiz":
            return "whiz bidding: the bid must be nil or the number of spades held"
        if style == "suicide":
            if n == 0:
                return "suicide bidding: a partner has already bid nil; bid a number"
            if legal == (NIL,):
                return "suicide bidding: one partner of each side must bid nil"
        if n == 0:
            return "nil is not allowed under these rules"
        return f"a bid must be from {legal[0] - BID_BASE} to {self.hand_size}, not {n}"

    # Acting -----------------------------------------------------------------------------

    def apply(self, action: object) -> None:
        """Take ``action`` for the player to act. Illegal: :class:`IllegalAction`, no change.

        An action is an ``int``, or a whole number of another integer type (a numpy integer:
        anything ``operator.index`` takes), played as that int; never a bool."""
        if type(action) is not int:
            given = action
            action = whole_number(action)
            if action is None:
                raise IllegalAction(self._why_illegal(given))
        if self.phase is not PLAY:
            if self.phase is BID and action in self.legal_bids():
                self._bid(action)
                return
            raise IllegalAction(self._why_illegal(action))
        # The play phase: the engine's hot path.
        events = self.events
        if events is not None:
            self._play_told(action, events)
            return
        if not (isinstance(action, int) and 0 <= action < 54):
            raise IllegalAction(self._why_illegal(action))
        done = self.play_int(action)  # raises IllegalAction, changing nothing, if not legal
        self.actions.append(action)
        if done:  # that card completed the trick: its winner leads
            self.trick_winners.append(self.leader)
            if self.phase is DEAL:
                self._score_hand()

    def _play_told(self, card: int, events: list[Event]) -> None:
        """Play ``card`` (checked, as :meth:`apply` does) and record what happened."""
        seat = self.turn
        lead = self.leader
        trick = self.trick
        broken = self.broken
        number = len(self.trick_winners) + 1
        if not (isinstance(card, int) and 0 <= card < 54):
            raise IllegalAction(self._why_illegal(card))
        done = self.play_int(card)
        self.actions.append(card)
        events.append(CardPlayed(seat, card, number))
        if self.broken and not broken:
            events.append(SpadesBroken(seat, card, number))
        if not done:
            return
        won = self.leader
        n = self.n
        cards = tuple(((lead + i) % n, c) for i, c in enumerate(trick))
        events.append(TrickWon(won, number, cards, trick[(won - lead) % n], self.tricks[won]))
        self.trick_winners.append(won)
        self._decided_events(events, won)
        if self.phase is DEAL:
            self._score_hand()

    def _bid(self, action: int) -> None:
        seat = self.turn
        self.actions.append(action)
        self.bid_int(action)
        events = self.events
        if events is None:
            return
        if action == LOOK:
            events.append(LookedAtCards(seat))
            return
        events.append(BidMade(seat, self.bids[seat], self.blind[seat]))
        if self.phase is PLAY:
            self._bidding_closed_events(events)

    # Events -----------------------------------------------------------------------------

    def record_events(self, on: object = True) -> None:
        """Start recording events from now on (into a fresh :attr:`events`), or stop: for a
        match rebuilt quietly (a replay, a resumed game) that is to tell what comes next.
        ``on`` is ``True`` or ``False`` (anything else: ``TypeError``)."""
        self.events = [] if check_flag("on", on) else None

    def take_events(self) -> list[Event]:
        """The events recorded since the last call, in order; recording goes on afresh."""
        taken = self.events
        if taken is None:
            raise SpadesError("this match does not record events: build it with "
                              "Match(..., events=True) or call record_events()")
        self.events = []
        return taken

    def _contract(self, side: int) -> tuple[int, int]:
        """``(contract, tricks counted toward it)`` of a side in the hand under way."""
        bids = self.bids
        tricks = self.tricks
        count_nil = self.rules.failed_nil_tricks_count
        contract = counted = 0
        for s in self.sides[side]:
            if bids[s] > 0:
                contract += bids[s]
                counted += tricks[s]
            elif count_nil:
                counted += tricks[s]
        return contract, counted

    def _bidding_closed_events(self, events: list[Event]) -> None:
        contracts = tuple(self._contract(k)[0] for k in range(len(self.sides)))
        nils = tuple(s for s in range(self.n) if self.bids[s] == 0 and not self.blind[s])
        blind = tuple(s for s in range(self.n) if self.bids[s] == 0 and self.blind[s])
        events.append(BiddingClosed(contracts, self.leader, nils, blind))
        for k, contract in enumerate(contracts):
            if contract > self.hand_size:  # more than the hand holds: set before a card
                events.append(ContractDecided(k, False, contract, 0, 0))

    def _decided_events(self, events: list[Event], won: int) -> None:
        """Nils and contracts that the trick just credited to ``won`` decides."""
        number = len(self.trick_winners)
        last = number == self.hand_size
        bids = self.bids
        if bids[won] == 0 and self.tricks[won] == 1:
            events.append(NilDecided(won, False, self.blind[won], number))
        if last:
            for s in range(self.n):
                if bids[s] == 0 and self.tricks[s] == 0:
                    events.append(NilDecided(s, True, self.blind[s], number))
        left = self.hand_size - number
        side_won = self.side_of[won]
        counts = bids[won] > 0 or self.rules.failed_nil_tricks_count
        for k in range(len(self.sides)):
            contract, counted = self._contract(k)
            if contract == 0:
                continue
            if k == side_won and counts:  # the side's count went up by one
                if counted == contract:
                    events.append(ContractDecided(k, True, contract, counted, number))
            elif counted + left == contract - 1:  # just out of reach
                events.append(ContractDecided(k, False, contract, counted, number))

    def _score_hand(self) -> None:
        log = self.log[-1]
        sides_scored = []
        for k, (side, bags) in enumerate(self.side_scores()):
            self.bags[k] = bags
            self.scores[k] += side.points
            sides_scored.append(side)
        result = HandResult(
            number=len(self.log),
            dealer=self.dealer,
            bids=tuple(self.bids),
            blind=tuple(self.blind),
            tricks=tuple(self.tricks),
            sides=tuple(sides_scored),
            points=tuple(a - b for a, b in zip(self.scores, log.scores_before, strict=True)),
            scores=tuple(self.scores),
            bags=tuple(self.bags),
            timeout_bags=tuple(self.timeout_bags),
        )
        self.results.append(result)
        finished, self.winner = winner(self.rules, self.scores, len(self.results))
        if self.events is not None:
            self._scored_events(self.events, result, finished)
        if finished:
            self.phase = OVER
            return
        self.dealer = (self.dealer + 1) % self.n
        self.phase = DEAL
        if self.rng is not None:
            self.deal()

    def _scored_events(self, events: list[Event], result: HandResult, finished: bool) -> None:
        penalty = self.rules.bag_penalty
        sides = []
        for k, side in enumerate(result.sides):
            sides.append(SideHand(
                side=k,
                contract=side.contract,
                tricks=side.contract_tricks,
                made=side.made,
                contract_points=side.contract_points - side.overtricks,
                overtrick_points=side.overtricks,
                nil_points=side.nil_points,
                bonus_points=side.bonus_points,
                loose_trick_points=side.loose_tricks,
                bag_penalty_points=-side.penalties * penalty,
                timer_penalty_points=result.points[k] - side.points,
                points=result.points[k],
                score=result.scores[k],
                new_bags=side.new_bags,
                timer_bags=result.timeout_bags[k],
                bags=result.bags[k],
                blind_nil_points=side.blind_nil_points,
                nil_bids=result.nil_bids(self.rules, k),
                blind_nil_bids=result.nil_bids(self.rules, k, blind=True),
            ))
        events.append(HandScored(result.number, tuple(sides)))
        if finished:
            events.append(MatchOver(self.winner, result.scores))
            return
        for k, bags in enumerate(result.bags):
            if left := bags_to_warn(self.rules, bags):
                events.append(BagWarning(k, bags, left))

    # The turn timer ---------------------------------------------------------------------

    def timeout_action(self) -> int:
        """What the turn timer does for the player to act: a bid that suits the hand, or
        the weakest legal card (lowest rank among non-spades; a spade only when nothing else
        is legal)."""
        if self.rules.turn_timer is None:
            raise IllegalAction("there is no turn timer under these rules")
        if self.phase == PLAY:
            legal = self.legal_mask()
            pool = legal & NON_SPADE_MASK or legal
            return min(cards_of_int(pool), key=lambda c: (c % 13 if c < 52 else c, c))
        if self.phase != BID:
            raise IllegalAction(self._why_illegal(LOOK))
        if not self.looked[self.turn]:
            return LOOK
        bids = self.legal_bids()
        want = max(1, _suggested_bid(self.hands[self.turn], self.rules))
        return min(bids, key=lambda a: (abs(a - BID_BASE - want), a == NIL))

    def _set_looked(self, looked: bool) -> None:
        """Whether the seat to act has seen its cards: ``looked`` is replaced, never
        changed in place (copies share it)."""
        seen = self.looked[:]
        seen[self.turn] = looked
        self.looked = seen

    def apply_timeout(self, action: object = None) -> int:
        """The turn timer ran out: act for the player and give their side the penalty bags
        at once (which may trigger the bag penalty at once). Returns the bid or card.

        ``action`` replays a recorded timeout: any legal bid (the seeds leave "a bid that
        suits the hand" open), or any of the equally weakest legal cards (same rank as the
        weakest; the timer itself picks clubs, then diamonds, then hearts). Without it, the
        timer bids :func:`suggested_bid` or plays the weakest card. An ``action`` that is no
        action (see :meth:`apply`) raises :class:`IllegalAction`, changing nothing."""
        chosen = self.timeout_action()
        if action is not None:
            given = action
            if type(action) is not int:
                action = whole_number(action)
            if action is None or not (0 <= action < 54 or BID_BASE <= action <= LOOK):
                raise IllegalAction(_not_an_action(given))
        looks = chosen == LOOK
        if looks:  # the timer looks for the player: part of this one action, so that
            self._set_looked(True)  # undo takes both back
            chosen = self.timeout_action()
        if action is not None and action != chosen:
            if self.phase == BID:
                ok = action != LOOK and action in self.legal_bids()
            else:  # a card of the chosen one's rank, among the cards the timer picks from
                legal = self.legal_mask()
                pool = legal & NON_SPADE_MASK or legal
                ok = 0 <= action < 54 and bool(pool >> action & 1) and (
                    action % 13 == chosen % 13 and action < 52 and chosen < 52)
            if not ok:
                if looks:
                    self._set_looked(False)
                what = "bid" if self.phase == BID else "play"
                raise IllegalAction(f"the turn timer cannot {what} {action_str(action)} here; "
                                    f"it {what}s {action_str(chosen)}")
            chosen = action
        action = chosen
        seat = self.turn
        k = self.side_of[seat]
        log = self.log[-1]
        log.timeouts.append(len(log.actions))
        bags = self.rules.timeout_penalty_bags
        self.timeout_bags[k] += bags
        self.bags[k], penalties = apply_bags(self.rules, self.bags[k] + bags)
        lost = penalties * self.rules.bag_penalty
        self.scores[k] -= lost
        events = self.events
        if events is not None:
            events.append(TimedOut(seat, action, k, bags, self.bags[k], lost))
            if looks:
                events.append(LookedAtCards(seat, timer=True))
        self.apply(action)
        return action

    # Copies and undo --------------------------------------------------------------------

    def clone(self) -> Match:
        """An independent copy (cheap: a few small lists)."""
        return Match(self.rules, _copy_of=self)

    def _copy(self, src: Match) -> None:
        self._copy_hand(src)  # the hand under way, as HandState.clone copies it
        self.bags = src.bags[:]  # the match settles its bag counters in place
        self.events = None  # a copy (for search) records nothing
        self.dealer = src.dealer
        self.deck_cards = src.deck_cards
        self.winner = src.winner
        self.scores = src.scores[:]
        self.results = src.results[:]
        self.timeout_bags = src.timeout_bags[:]
        self.trick_winners = src.trick_winners[:]
        # Finished hands' logs never change again: share them, copy the current one.
        self.log = src.log[:]
        if src.log:
            h = src.log[-1]
            self.log[-1] = HandLog(h.dealer, h.deal, h.actions[:], h.timeouts[:],
                                    h.scores_before, h.bags_before)
            self.actions = self.log[-1].actions
        else:
            self.actions = []
        self.pending_deals = src.pending_deals[:]
        self.rng = None
        if src.rng is not None:
            self.rng = random.Random()
            self.rng.setstate(src.rng.getstate())

    def __reduce__(self) -> tuple[type[Match], tuple[Rules], dict[str, Any]]:
        """Pickle and copy: a match of the same rules, then every attribute (compiled, a
        match cannot be created empty: see :mod:`spades.engine._pickling`)."""
        return Match, (self.rules,), get_state(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_state(self, state)

    def undo(self) -> int:
        """Take back the last action (a deal is undone with the action that caused it, and
        dealt again the same way). Returns the action taken back. Replays the current hand."""
        if not any(h.actions for h in self.log):
            raise IllegalAction("nothing to undo")
        while not self.log[-1].actions:
            self.pending_deals.append(self.log.pop().deal)  # dealt, not yet acted in
        last = self.log.pop()
        undone = last.actions[-1]
        self.results = self.results[: len(self.log)]
        self.scores = list(last.scores_before)
        self.bags = list(last.bags_before)
        self.winner = None
        self.dealer = last.dealer
        self.phase = DEAL
        events, self.events = self.events, None  # replaying the hand tells nothing new
        try:
            self.deal(last.deal)
            for i, a in enumerate(last.actions[:-1]):
                if i in last.timeouts:
                    self.apply_timeout(a)
                else:
                    self.apply(a)
        finally:
            self.events = events
        return undone

    # Views ------------------------------------------------------------------------------

    def observation(self, seat: object, *, past: bool = True,
                    recent: object = None) -> Observation:
        """What ``seat`` may see now: its own hand (once looked at) and public information.
        ``past=False``: without the scored hands' deals and actions (``past_deals`` and
        ``past_actions`` empty, as they are not in :meth:`Observation.to_json`), which take
        time in proportion to the hands scored: for a view that does not read them.
        ``recent``: only the last ``recent`` scored hands in ``results``, ``past_deals`` and
        ``past_actions`` (``results_from`` says how many are left out), so that the
        observation of a match of very many hands costs no more than that of a short one
        (the server's CPU players see the last 100); None, every one."""
        return observe(self, seat, past=past, recent=recent)

    def to_record(self, **extra: Any) -> dict[str, Any]:
        """The match as a ``spades-record/1`` dictionary (see docs/records.md)."""
        return record_of(self.rules, self.log, **extra)

    def __repr__(self) -> str:
        return (f"<Match {self.rules.name} hand {self.hand_number} {self.phase} "
                f"turn {self.current_player} scores {self.scores}>")


def _not_an_action(given: object) -> str:
    """Why ``given`` is no action; for text, the function that reads it."""
    why = (f"{given!r} is not an action: a card (0 to 53) or a bid "
           f"({BID_BASE} + tricks, {BLIND_NIL} blind nil, {LOOK} look)")
    if isinstance(given, str) and len(given) <= 20:
        why += f"; parse_action({given!r}) reads text"
    return why


def observe(match: Match, seat: object, *, past: bool = True,
            recent: object = None) -> Observation:
    """What ``seat`` may see of ``match`` now (see :meth:`Match.observation`)."""
    last: int | None = None
    if recent is not None:
        if type(recent) is not int:  # (never a bool)
            raise TypeError(f"recent must be a whole number of hands or None, not "
                            f"{recent!r}")
        if recent < 0:
            raise ValueError(f"recent must be 0 or more hands, not {recent}")
        last = recent
    if type(seat) is not int:  # another integer type (numpy's) is that int; never a bool
        given = seat
        seat = whole_number(seat)
        if seat is None:
            raise TypeError(f"seat must be a whole number 0 to {match.n - 1}, not {given!r}")
    if not 0 <= seat < match.n:
        why = (" (CHANCE: no seat is to act until the hand is dealt, match.deal(...))"
               if seat == CHANCE else " (TERMINAL: the match is over)" if seat == TERMINAL
               else "")
        raise ValueError(f"seat must be 0 to {match.n - 1}, not {seat}{why}")
    log = match.log[-1] if match.log else None
    plays: list[tuple[int, int]] = []
    trick: tuple[tuple[int, int], ...] = ()
    if log is not None and (match.phase is BID or match.phase is PLAY):
        seat_to_play = (log.dealer + 1) % match.n
        leader = seat_to_play
        current: list[tuple[int, int]] = []
        winners = match.trick_winners
        for card in log.plays:
            if not current:
                seat_to_play = leader
            current.append((seat_to_play, card))
            plays.append((seat_to_play, card))
            seat_to_play = (seat_to_play + 1) % match.n
            if len(current) == match.n:
                leader = winners[len(plays) // match.n - 1]
                current = []
        trick = tuple(current)
    hand = match.hands[seat] if match.looked[seat] else None
    mine = match.current_player == seat
    past_deals: tuple[tuple[int, ...], ...] = ()
    past_actions: tuple[tuple[int, ...], ...] = ()
    scored_count = len(match.results)
    first = 0 if last is None else max(0, scored_count - last)
    if past:
        scored = match.log[first:scored_count]
        past_deals = tuple(h.deal for h in scored)
        past_actions = tuple(tuple(h.actions) for h in scored)
    return Observation(
        rules=match.rules,
        seat=seat,
        phase=match.phase,
        hand_number=match.hand_number,
        dealer=match.dealer,
        current_player=match.current_player,
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in match.hands),
        bids=tuple(None if b < 0 else b for b in match.bids),
        blind=tuple(match.blind),
        tricks=tuple(match.tricks),
        leader=match.leader if match.phase is PLAY else (match.dealer + 1) % match.n,
        trick=trick,
        spades_broken=match.broken,
        plays=tuple(plays),
        scores=tuple(match.scores),
        bags=tuple(match.bags),
        results=tuple(match.results[first:]),
        legal_actions=match.legal_actions() if mine else (),
        winner=match.winner,
        past_deals=past_deals,
        past_actions=past_actions,
        results_from=first,
    )


def suggested_bid(hand: object, rules: object) -> int:
    """A plain count of likely tricks (seed 001's rules of thumb): aces, kings with a
    guard, queens with two or three others, spades above the ten and long spades. ``hand``
    is a card mask (``mask_of(cards)``; any integer type), ``rules`` a :class:`Rules`; else a
    ``TypeError`` naming the argument."""
    mask = whole_number(hand)
    if mask is None:
        raise TypeError(f"hand must be a card mask (a whole number: mask_of(cards)), "
                        f"not {hand!r}")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, like profile('cardems'), not {rules!r}")
    return _suggested_bid(mask, rules)


def _suggested_bid(hand: int, rules: Rules) -> int:
    """:func:`suggested_bid` of arguments known to be right."""
    tricks = 0.0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        ace, king, queen = (cards >> (suit * 13 + 12)) & 1, (cards >> (suit * 13 + 11)) & 1, (
            cards >> (suit * 13 + 10)) & 1
        if suit == SPADES:
            tricks += ace + (king if length >= 2 else 0) + (queen if length >= 3 else 0)
            tricks += (cards >> 52).bit_count()  # jokers
            tricks += max(0, length - 4 - ace - king - queen) * 0.7 if length > 4 else 0
        else:
            tricks += ace + (king if length >= 2 else 0.4 * king)
            if queen and 3 <= length <= 4:
                tricks += 0.7
    cap = rules.hand_size
    return max(0, min(cap, round(tricks)))


__all__ = [
    "BID",
    "CHANCE",
    "DEAL",
    "OVER",
    "PLAY",
    "TERMINAL",
    "HandLog",
    "HandResult",
    "Match",
    "Phase",
    "observe",
    "suggested_bid",
]
