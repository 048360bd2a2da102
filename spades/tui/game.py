"""The game loop of ``spades play``: deal, ask the human, let the CPUs act, tell what happened.

The game is driven by a :class:`~spades.session.Session`: each move (a deal, a bid or card,
the turn timer's move) is checked there, stored (committed) at the number it carries, and
only then applied, so a killed process loses nothing and a second session on the same game
is refused (:class:`~spades.store.ConflictError`) without changing anything. What a move
caused is told from its events, one sentence each in order, by the shared
:class:`~spades.present.narrate.Narrator` speaking to the human's seat; the terminal adds
only its own lines (the hand, prompts, hints, the hand's details, the score sheet).
:meth:`TerminalGame.run` picks up a rebuilt match exactly where it stopped.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Iterable
from dataclasses import InitVar, dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from spades.bots import Bot
from spades.bots.external import ExternalBotError
from spades.engine import (
    BID,
    BID_BASE,
    BLIND_NIL,
    DEAL,
    LOOK,
    NIL,
    OVER,
    PLAY,
    BidMade,
    CardError,
    Event,
    HandDealt,
    HandScored,
    IllegalAction,
    LookedAtCards,
    Match,
    MatchOver,
    Observation,
    SpadesError,
    TimedOut,
    bid_value,
    card_name,
    cards_of,
    is_bid,
    is_play,
    mask_of,
    parse_bid,
    parse_card,
    summary,
)
from spades.engine.actions import MAX_BID
from spades.present.narrate import Narrator, bid_words
from spades.present.sheet import unmarked
from spades.session import Move, Session, forced_bid
from spades.store import ConflictError, Store, StoreError, one_line
from spades.tui import cpu, text
from spades.tui.console import BOLD, RED, Console, InputClosed, sheet_hang

#: What asks to look at the cards (blind nil: before seeing them).
LOOK_WORDS = ("look", "l", "look at cards", "look at my cards")
#: The answer to ``look`` when the cards are already seen: not a refusal (nothing was
#: wrong), and how to hear them, as ``numbers`` before looking says how to see them.
ALREADY_SHOWN = "Your cards are already shown: type h to hear your hand, or n for their numbers."
#: How a card is typed, for a refusal at the card prompt.
HOW_TO_TYPE_A_CARD = "type a card like QH, 10h or queen of hearts, or its number"
#: The engine's reason for a bid before looking while blind nil is open (said in words that
#: say what to type: :meth:`TerminalGame.friendly`).
NOT_LOOKED = "first bid blind nil or look at the cards"
#: The game's stored option that keeps what was left of the human's turn when the game was
#: saved in it under the turn timer: ``{"seq": the last stored move, "seconds": left}``.
TURN_LEFT = "turn_left"
#: The fewest seconds a resumed turn is given (the shortest turn timer there is): time to
#: hear where the game stands and the prompt, however little was left.
LEAST_KEPT = 5


class QuitGame(Exception):
    """The player asked to stop; the game stays saved."""


def deal_masks(match: Match, seed: int) -> list[int]:
    """The next hand's deal: the deck shuffled by ``random.Random(f"{seed}:{hand}")`` and
    given one card at a time, starting left of the dealer. The same seed and hand number
    always give the same deal, so a resumed game deals as the original would have."""
    rng = random.Random(f"{seed}:{match.hand_number + 1}")
    cards = cards_of(match.rules.deck)
    rng.shuffle(cards)
    n = match.n
    masks = [0] * n
    for i in range(n):
        masks[(match.dealer + 1 + i) % n] = mask_of(cards[i::n])
    return masks


def playable(obs: Observation) -> int:
    """The cards ``obs``'s seat may play now, as a mask (0 outside its turn to play)."""
    return mask_of(a for a in obs.legal_actions if is_play(a))


@dataclass(slots=True)
class TerminalGame:
    """One stored game played at this terminal."""

    store: Store
    game_id: str
    match: Match
    console: Console
    names: list[str]
    human: int
    levels: list[str | None]  # CPU level per seat, None for the human
    seed: int
    delay: float = 0.0
    pause: bool = True
    resume_hint: str = "spades play --resume"
    bots: dict[int, Bot] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: The game's stored options (``human``, ``seed``, and :data:`TURN_LEFT`).
    options: dict[str, Any] = field(default_factory=dict)
    #: The number of the last stored move this session knows of: the moves ``match`` was
    #: rebuilt from (read from the store when not given). Each new move is stored at the
    #: next number or not at all.
    seq: InitVar[int] = -1
    #: The hand whose card numbers have been explained (once per hand).
    explained: int = 0
    #: The hand in which how to type a card has been said (once per hand, at a card prompt).
    told_cards: int = 0
    #: The hand whose cards have all been read (plain mode: once a hand at least).
    hand_told: int = 0
    #: Check, store, apply, events: see :mod:`spades.session`.
    session: Session = field(init=False)
    #: The events in words, for the human's seat.
    narrator: Narrator = field(init=False)
    #: The names without a continued record's CPU mark ("Nora", not "Nora (CPU)"), for the
    #: sentences of the play (the game's opening says the marks; a block such as the hand's
    #: details, the status or the score sheet says each once, where it first names the seat).
    plain: list[str] = field(init=False)
    #: Whether this session has told who won the match (its event).
    told_over: bool = field(init=False, default=False)
    #: The deadline of the human's turn being asked under the turn timer (else None).
    deadline: float | None = field(init=False, default=None)

    def __post_init__(self, seq: int) -> None:
        if seq < 0:
            seq = max((e.seq for e in self.store.events(self.game_id)), default=0)
        self.session = Session(self.match, seq)
        self.plain = [unmarked(name) for name in self.names]
        self.narrator = Narrator(self.match.rules, names=tuple(self.plain), me=self.human)
        fallbacks: dict[tuple[str, str], list[str]] = {}
        for seat, level in enumerate(self.levels):
            if level is None or seat == self.human:
                continue
            bot, used = cpu.make_cpu(level, self.seed * 10 + seat)
            self.bots[seat] = bot
            if used != level:
                fallbacks.setdefault((level, used), []).append(self.plain[seat])
        for (wanted, used), who in fallbacks.items():
            self.notes.append(cpu.fallback_note(wanted, used, who))

    # The loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match is over (0) or the player quits (0, the game saved)."""
        for note in self.notes:
            self.say(note)
        try:
            while True:
                m = self.match
                if m.phase is OVER:
                    self.finish()
                    return 0
                if m.phase is DEAL:
                    self.deal()
                    continue
                seat = m.current_player
                forced = forced_bid(m)
                if seat == self.human and forced is not None:
                    # Mirror bidding (or a forced suicide nil): the bid is automatic.
                    self.say(text.forced_bid_sentence(m.rules.bidding, forced - NIL))
                    self.commit(seat, forced)
                    continue
                if seat == self.human:
                    action, timed_out = self.human_turn()
                    if timed_out:
                        self.timeout()
                        continue
                else:
                    action = self.cpu_action(seat)
                self.commit(seat, action)
        except (QuitGame, InputClosed) as stop:
            if isinstance(stop, InputClosed):
                self.say("")  # Ctrl-D leaves the cursor on the prompt's line
            self.keep_turn_left()
            self.say(f"The game is saved. Resume it with: {self.resume_hint}")
            return 0
        except ConflictError:
            self.say("")
            self.say("This game is open elsewhere: another session has played in it since "
                     "this one loaded it.")
            self.say("Nothing was changed here, and this session stops. Play on in the other "
                     f"session, or close it and resume with: {self.resume_hint}")
            return 1
        except KeyboardInterrupt:
            self.say("")
            self.keep_turn_left()
            self.say(f"Stopped. The game is saved. Resume it with: {self.resume_hint}")
            return 130

    def say(self, line: str = "") -> None:
        self.console.say(line)

    # Moves: checked, stored, applied, told ----------------------------------------------

    def deal(self) -> None:
        """Deal the next hand (shuffled from the game's seed)."""
        self.play(self.session.deal(deal_masks(self.match, self.seed)))

    def commit(self, seat: int, action: int) -> None:
        """``seat`` bids or plays ``action``: checked (:class:`~spades.engine.IllegalAction`,
        nothing changed), stored, applied and told."""
        self.play(self.session.act(seat, action))

    def timeout(self) -> None:
        """The turn timer ran out: the rules play for the human, with the penalty bag."""
        typed = self.console.dropped
        self.play(self.session.timeout(), typed=typed)

    def play(self, move: Move, typed: str = "") -> None:
        """Store ``move`` (committed) at its number, then apply it and tell its events;
        :class:`~spades.store.ConflictError`, with nothing changed, when another session
        has stored a move at that number first."""
        self.store.append_at(self.game_id, move.seq, move.kind, move.stored_value, move.seat)
        self.tell(self.session.commit(move), typed=typed)

    def tell(self, events: Iterable[Event], typed: str = "") -> None:
        """One sentence per event, in order, with the terminal's own lines where they
        belong: a blank line before a deal, what was typed when the timer ran out, the
        hand's details after its score; then the pause before the next deal."""
        scored = False
        for event in events:
            if isinstance(event, HandDealt):
                self.say("")
            self.say(self.narrator.say(event))
            if isinstance(event, LookedAtCards) and event.timer and event.seat == self.human:
                # the timer looked, not the player ("The game looks at your cards for you."):
                # the cards are read now, before the bid it makes and the bids after it (not
                # at the card prompt)
                self.show_looked_hand()
            elif isinstance(event, TimedOut):
                if typed:
                    self.say(f"What you had typed ({text.cut_short(typed)}) was not used.")
            elif isinstance(event, BidMade) and event.blind and event.seat == self.human:
                self.show_looked_hand()  # Blind Nil bid: the cards are seen from now on
            elif isinstance(event, HandScored):
                scored = True
                for line in self.hand_details():
                    self.say(line)
            elif isinstance(event, MatchOver):
                self.told_over = True
                self.say(text.match_end_reason(self.match, self.names, me=self.human))
        if scored and self.match.phase is DEAL and self.pause:
            self.hand_pause()

    def hand_details(self) -> list[str]:
        """The hand just scored, part by part, side by side (its warnings within three bags
        of a penalty are events of their own)."""
        m = self.match
        result = m.results[-1]
        lines = text.result_lines(result, m.rules, self.names, me=self.human)[1:]
        return [f"Hand {result.number} in detail:",
                *(line for line in lines if not line.startswith("Warning: "))]

    def cpu_action(self, seat: int) -> int:
        if self.delay > 0:
            time.sleep(self.delay)
        obs = self.match.observation(seat)
        bot = self.bots.get(seat)
        try:
            action = bot.act(obs) if bot is not None else -1
        except ExternalBotError as exc:  # a program that died or stopped answering
            action = -1
            self.say(f"{self.plain[seat]}'s program failed ({exc}); "
                     f"a CPU player ({cpu.DEFAULT_LEVEL}) takes the seat.")
        if not self.match.is_legal(action):  # a misbehaving bot must not stop the game
            replacement, _ = cpu.make_cpu(cpu.DEFAULT_LEVEL, self.seed * 10 + seat)
            self.bots[seat] = replacement
            action = replacement.act(obs)
        return action

    def finish(self) -> None:
        m = self.match
        self.store.update_game(self.game_id, status="finished", result=summary(m))
        if not self.told_over:  # resumed after the last card: the result is told here,
            # as the play tells it (who won, then why), before the score sheet
            self.say(self.narrator.say(MatchOver(m.winner, tuple(m.scores))))
            self.say(text.match_end_reason(m, self.names, me=self.human))
        self.say("")
        self.show_sheet()
        self.say(f"The game is saved as {self.game_id[:8]}: see its score sheet with "
                 f"spades show {self.game_id[:8]}")

    def show_sheet(self) -> None:
        """The score sheet, each line that the terminal's width breaks going on further in
        than any row starts (:func:`~spades.tui.console.sheet_hang`), so that it is not
        taken for a row of its own."""
        from spades.present.sheet import score_sheet

        for line in score_sheet(self.match, self.names).splitlines():
            self.console.say(line, hang=sheet_hang(line))

    # The human's turn -------------------------------------------------------------------

    def human_turn(self) -> tuple[int, bool]:
        """Ask until an allowed bid or card is entered: ``(action, False)``; or the timer
        ran out: ``(-1, True)``."""
        m = self.match
        obs = m.observation(self.human)
        self.show_turn(obs)
        timer = m.rules.turn_timer
        deadline = None
        if timer:
            kept = self.turn_left_kept(timer)
            if kept is None:
                deadline = self.console.clock() + timer
                self.say(f"You have {timer} seconds.")
            else:
                deadline = self.console.clock() + kept
                self.say(f"You have {kept} seconds left of this turn, as when the game was "
                         "saved.")
        self.deadline = deadline  # (kept while the game stops in this turn: keep_turn_left)
        answer = self.ask_turn(obs, deadline, timer)
        self.deadline = None
        return answer

    def turn_left_kept(self, timer: int) -> int | None:
        """The whole seconds left of this turn when the game was saved in it (at least
        :data:`LEAST_KEPT`, at most ``timer``), or None: not saved in this turn (a move
        stored since, or a save made before the time left was kept: the whole timer)."""
        kept = self.options.get(TURN_LEFT)
        if not isinstance(kept, dict) or kept.get("seq") != self.session.stored:
            return None
        seconds = kept.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            return None
        return min(timer, max(LEAST_KEPT, math.ceil(seconds)))

    def keep_turn_left(self) -> None:
        """The game stops in the human's turn under the timer: store what is left of it,
        for the turn a resume asks (:meth:`turn_left_kept`). The time the game is closed
        is not counted."""
        if self.deadline is None:
            return
        left = max(0.0, self.deadline - self.console.clock())
        self.options = {**self.options, TURN_LEFT: {"seq": self.session.stored,
                                                    "seconds": round(left, 1)}}
        try:
            self.store.update_game(self.game_id, options=self.options)
        except (StoreError, SQLAlchemyError) as exc:  # the moves are saved all the same
            self.say(f"The time left of this turn could not be kept ({one_line(exc)}): "
                     "a resume gives the whole turn timer.")

    def ask_turn(self, obs: Observation, deadline: float | None,
                 timer: int | None) -> tuple[int, bool]:
        """The prompts of the human's turn, until an allowed bid or card or the deadline."""
        m = self.match
        bidding = obs.phase is BID
        prompt = "Your bid: " if bidding else "Your card: "
        if self.console.rich:
            prompt = self.console.style(f"{self.plain[self.human]}, {prompt.lower()}", BOLD)
        warnings = tuple(w for w in (30, 10, 3) if timer and w < timer)
        while True:
            line = self.console.ask(prompt, deadline=deadline, warnings=warnings,
                                    on_warning=self.warn)
            if line is None:
                return -1, True
            entry = line.strip()
            if not entry:
                self.say("Type a " + ("bid" if bidding else "card")
                         + ", or ? for the commands.")
                self.tell_time_left(deadline)
                continue
            if self.command(entry, obs):
                self.tell_time_left(deadline)
                continue
            if obs.hand is not None and self.is_look(entry):
                # a harmless request, not an error: the cards are there, and how to hear them
                self.say(ALREADY_SHOWN)
                self.tell_time_left(deadline)
                continue
            action = -1
            try:
                action = self.parse_entry(entry, obs)
                m.check(action)
            except ValueError as exc:  # a SpadesError, or anything else the entry upset
                self.say(self.console.style("Refused:", RED) + f" {self.friendly(str(exc))}. "
                         + self.playable_instead(action, obs) + "It is still your turn.")
                self.tell_time_left(deadline)
                continue
            if action == LOOK:
                self.commit(self.human, action)
                obs = m.observation(self.human)
                self.show_turn(obs, again=True)  # the hand and the bids: the turn was said
                self.tell_time_left(deadline)  # the same turn: its clock runs on
                continue
            return action, False

    def tell_time_left(self, deadline: float | None) -> None:
        """With the turn timer on, the seconds left, before the prompt comes back after a
        command, a look at the cards, or an answer refused or empty (the clock ran on while
        they were told): every time the prompt is asked again within the turn."""
        if deadline is None:
            return
        left = round(deadline - self.console.clock())
        if left >= 1:
            self.say(f"You have {left} second{'' if left == 1 else 's'} left.")

    def playable_instead(self, card: int, obs: Observation) -> str:
        """After a card you hold is refused (follow suit, spades not broken), the cards you
        may play, with their numbers: what to type next, without a command to find it."""
        hand = obs.hand or 0
        if not (is_play(card) and hand >> card & 1):
            return ""
        legal = playable(obs)
        return text.numbered_cards(self.dealt(), legal, title="You can play") + " "

    def warn(self, left: float) -> None:
        self.say(f"{round(left)} seconds left.")

    def show_turn(self, obs: Observation, again: bool = False) -> None:
        """Whose turn and what it is about, the hand, and what may be typed; ``again``
        (after a look at the cards, in the same turn) leaves out the first line, said
        already."""
        con = self.console
        if obs.phase is BID:
            done = text.bids_so_far(obs, self.plain)
            if not again:
                self.say("Your turn to bid. " + (f"Bids so far: {done}." if done
                                                  else "You bid first."))
            if obs.hand is None:
                self.say(f"You may bid Blind Nil (worth {obs.rules.blind_nil_points}) before "
                         "looking at your cards: type blind nil, or look to see them.")
                return
            self.show_hand(obs, 0)
            legal = [a for a in obs.legal_actions if a != BLIND_NIL]
            if len(legal) < obs.rules.hand_size:
                self.say("You may bid: " + ", ".join(bid_words(bid_value(a))
                                                     for a in legal) + ".")
            self.say(text.bid_instructions([bid_value(a) for a in legal]))
            return
        if con.rich and obs.trick:
            for row in text.trick_table(obs, self.plain, symbols=con.symbols,
                                        width=con.columns()):
                self.say(row)
            self.say("Spades are broken." if obs.spades_broken else "Spades are not broken yet.")
        else:
            if obs.trick:
                self.say("Your turn. " + text.trick_sentence(obs, self.plain))
            else:
                self.say("Your turn to lead. " + ("Spades are broken." if obs.spades_broken
                                                 else "Spades are not broken yet."))
        self.show_hand(obs, playable(obs))

    def dealt(self) -> int:
        """The cards the human was dealt this hand (0 when no hand is being played)."""
        m = self.match
        if m.phase not in (BID, PLAY) or not m.log:
            return 0
        return m.log[-1].deal[self.human]

    def show_hand(self, obs: Observation, legal: int) -> None:
        if obs.hand is None:
            self.say("You have not looked at your cards yet: type look to see them, or "
                     "blind nil to bid without looking.")
            return
        if self.console.rich:
            for row in text.hand_rich(obs.hand, legal, symbols=self.console.symbols,
                                      numbers=text.card_numbers(self.dealt())):
                self.console.say(row, hang=text.HAND_HANG)
            if legal and legal != obs.hand:  # (in words too: not every terminal dims text)
                self.say(f"You can play: {text.number_ranges(self.dealt(), legal)}.")
        else:
            # the whole hand once a hand at least, before what may be played of it (after
            # blind nil, a bid the rules made, or a resume, no bid prompt had read it)
            if not legal or legal == obs.hand or self.hand_told != self.match.hand_number:
                self.say(text.hand_plain(obs.hand))
            if legal and legal != obs.hand:
                self.say(text.hand_plain(obs.hand, legal, title="You can play"))
        self.hand_told = self.match.hand_number
        self.explain_numbers(obs.hand)
        if obs.phase is PLAY and self.told_cards != self.match.hand_number:
            self.told_cards = self.match.hand_number  # at the first card prompt of a hand
            self.say("Type a card by its number or its name, like qh or queen of hearts; "
                     "n lists the numbers.")

    def explain_numbers(self, hand: int) -> None:
        """How the cards are numbered, once a hand, where they are first shown."""
        if self.explained != self.match.hand_number:
            self.explained = self.match.hand_number
            self.say("Your cards are numbered for this hand, and keep their numbers until it "
                     f"is over: {text.number_ranges(self.dealt(), hand)}.")

    def show_looked_hand(self) -> None:
        """The cards the human has just seen without a prompt to read them: the turn timer
        looked at them for the player (blind nil was open), or the player bid Blind Nil. Read
        at once, with how they are numbered, so that the player hears the hand before the bid
        the timer makes and the bids after it; the card prompt does not read the whole hand
        again for it (``h`` does)."""
        hand = self.match.observation(self.human).hand
        if hand is None:  # not reached: the look has been applied
            return
        if self.console.rich:
            for row in text.hand_rich(hand, 0, symbols=self.console.symbols,
                                      numbers=text.card_numbers(self.dealt())):
                self.console.say(row, hang=text.HAND_HANG)
        else:
            self.say(text.hand_plain(hand))
        self.hand_told = self.match.hand_number
        self.explain_numbers(hand)

    def parse_entry(self, entry: str, obs: Observation) -> int:
        """A bid or a card as typed: ``3`` (or ``+3``), ``nil``, ``blind nil``, ``look``;
        ``QH``, ``qh``, ``10h``, ``Q♥``, ``queen of hearts`` (or ``queen hearts``) or the card's
        number for this hand."""
        number = text.read_number(entry)
        t = " ".join(entry.lower().translate(text.SUIT_INPUT).replace("-", " ").split())
        if obs.phase is BID:
            if number is None and t in text.NUMBER_WORDS:  # "five", "Five": as the prompt says
                number = text.NUMBER_WORDS[t]
            if number is not None:
                if number < 0:
                    raise SpadesError(f"a bid cannot be negative ({text.cut_short(entry)}): "
                                      f"type a number from 0 to {obs.rules.hand_size}, or nil")
                if number > MAX_BID:
                    raise SpadesError(self.bid_too_large(number))
                return parse_bid(number)
            if self.is_look(t):
                return LOOK
            if t in ("blind nil", "blind", "bn"):
                return BLIND_NIL
            if t == "nil":
                return NIL
            try:
                parse_card(t)
            except CardError:
                raise SpadesError(f"{text.short_quote(entry)} is not a bid: "
                                  + self.bids_accepted(obs)) from None
            raise SpadesError("it is time to bid, not to play a card: "
                              + self.bids_accepted(obs))
        if number is not None:
            return self.card_numbered(number, obs)
        if t in ("nil", "blind nil", "look"):
            raise SpadesError(f"bidding is over: {HOW_TO_TYPE_A_CARD}")
        try:
            return parse_card(t)
        except CardError as exc:
            if t == "joker" and obs.rules.jokers:  # which one: the engine's words say
                raise SpadesError(str(exc)) from None
            raise SpadesError(f"{text.short_quote(entry)} is not a card or a command: type a "
                              "card like QH, 10h or queen of hearts, its number, or ? for the "
                              "commands") from None

    @staticmethod
    def is_look(entry: str) -> bool:
        """Whether ``entry`` asks to look at the cards (``look``, ``l``, ``look at my
        cards``)."""
        return " ".join(entry.lower().split()) in LOOK_WORDS

    def bids_accepted(self, obs: Observation) -> str:
        """What may be typed at this bid prompt, for a refusal: ``you can bid 0 to 13, or
        nil, in digits or words (4 or four); ? lists the commands``."""
        bids = sorted(bid_value(a) for a in obs.legal_actions
                      if is_bid(a) and a not in (BLIND_NIL, LOOK))
        if not bids:  # blind nil, or look first
            head = "type blind nil, or look to see your cards"
        else:
            head = f"you can bid {text.bid_choices(bids)}, in digits or words (4 or four)"
        return head + "; ? lists the commands"

    def bid_too_large(self, number: int) -> str:
        """Why ``number``, more than any hand holds, is no bid: what the engine says of the
        largest bid there is (``a bid must be from 0 to 13, not 30``, or the reason of these
        bidding rules)."""
        m = self.match
        top = BID_BASE + MAX_BID
        if m.is_legal(top):  # a hand of MAX_BID cards
            low = min(a for a in m.legal_bids() if BID_BASE <= a <= top) - BID_BASE
            return f"a bid must be from {low} to {m.hand_size}, not {number}"
        try:
            m.check(top)
        except IllegalAction as exc:
            reason = str(exc)
        else:  # not reached: the largest bid is either legal or refused
            reason = f"{number} is not a bid"
        cut = f", not {MAX_BID}"
        return reason[:-len(cut)] + f", not {number}" if reason.endswith(cut) else reason

    def card_numbered(self, number: int, obs: Observation) -> int:
        """The card with this number in the hand as dealt (numbers do not shift as cards
        are played)."""
        numbers = text.card_numbers(self.dealt())
        if not 1 <= number <= len(numbers):
            raise SpadesError(f"there is no card number {number}: your cards are numbered 1 "
                              f"to {len(numbers)} for this hand")
        card = next(c for c, n in numbers.items() if n == number)
        if not (obs.hand or 0) >> card & 1:
            raise SpadesError(f"card {number}, the {card_name(card)}, has already been "
                              "played; n lists the cards you still hold")
        return card

    def friendly(self, reason: str) -> str:
        """An engine reason in the second person, to follow ``Refused:`` in one sentence
        (so it keeps its small first letter)."""
        me = f"seat {self.human}"
        reason = (reason.replace(f"{me} does not hold", "you do not hold")
                  .replace(f"{me} holds", "you hold").replace(f"{me} must", "you must")
                  .replace("this hand holds", "you hold")
                  .replace(NOT_LOOKED, "your cards are not shown yet, so the only bids are blind "
                           "nil and look: type look to see them and then bid, or blind nil"))
        return re.sub(r"\s+", " ", reason).strip().rstrip(".")

    # Commands ---------------------------------------------------------------------------

    def command(self, entry: str, obs: Observation | None) -> bool:
        """Run a command if ``entry`` is one; False if it is not a command."""
        word = entry.strip().lower()
        name = next((w for w, key, _ in text.COMMANDS if word in (w, key)), None)
        aliases = {"scores": "sheet", "score": "sheet", "exit": "quit", "h?": "help",
                   "commands": "help", "round": "status", "cards": "hand", "sheet": "sheet"}
        name = name or aliases.get(word)
        if name is None:
            return False
        m = self.match
        obs = m.observation(self.human)
        if name == "help":
            adapting = any(text.adapts(level) for seat, level in enumerate(self.levels)
                           if seat != self.human)
            for line in text.help_lines(adapting):
                self.console.say(line, hang=text.HELP_HANG if line.startswith("  ") else 0)
        elif name == "hand":
            if m.phase not in (BID, PLAY):
                self.say("No hand is being played.")
            else:
                legal = playable(obs)
                self.show_hand(obs, legal if self.console.rich else 0)
        elif name == "numbers":
            if m.phase not in (BID, PLAY):
                self.say("No hand is being played.")
            elif obs.hand is None:
                self.say("You have not looked at your cards yet: type look to see them.")
            else:
                self.say(text.numbered_cards(self.dealt(), obs.hand))
        elif name == "trick":
            self.say(text.trick_sentence(obs, self.plain))
        elif name == "status":
            for line in text.status_lines(m, self.names, me=self.human):
                self.say(line)
        elif name == "sheet":
            self.show_sheet()
        elif name == "hint":
            self.show_hint(obs)
        elif name == "rules":
            for line in text.rules_lines(m.rules, self.names):
                self.say(line)
        elif name == "save":
            self.say(f"Saved: every move is stored as it is made (game {self.game_id[:8]}). "
                     f"Resume it any time with: {self.resume_hint}")
        elif name == "quit":
            raise QuitGame
        return True

    def show_hint(self, obs: Observation) -> None:
        if not obs.legal_actions:
            self.say("There is nothing to decide right now.")
            return
        action, reason = cpu.hint(obs, self.plain)
        reason = reason.strip()
        if not reason:
            if action == LOOK:
                reason = "Look at your cards."
            elif action == BLIND_NIL:
                reason = "Bid Blind Nil."
            elif is_bid(action):
                reason = f"Bid {bid_words(bid_value(action))}."
            else:
                reason = f"Play the {card_name(action)}."
        if not reason.endswith((".", "!", "?")):
            reason += "."
        line = f"Hint: {reason[:1].upper()}{reason[1:]}"
        if is_play(action) and obs.hand is not None:
            number = text.card_numbers(self.dealt()).get(action)
            if number is not None:
                line += f" It is card {number} in your hand."
        self.say(line)

    def hand_pause(self) -> None:
        while True:
            line = self.console.ask("Press Enter for the next hand (or type a command): ")
            if line is None or not line.strip():
                return
            if self.is_look(line):  # as h says here: no cards to look at between hands
                self.say("No hand is being played: press Enter to deal the next hand.")
            elif not self.command(line, None):
                self.say(f"{text.short_quote(line)} is not a command: press Enter to deal "
                         "the next hand, or type ? for the commands.")


__all__ = ["QuitGame", "TerminalGame", "deal_masks"]
