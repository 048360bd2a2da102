"""Hint texts agree with the action they give, and name seats by name (issue 11)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.bots import make_bot
from spades.bots.hints import compass_names, explain, hint
from spades.engine import NIL, Match, Observation, parse_card, profile


def _mask(cards: str) -> int:
    return sum(1 << parse_card(c) for c in cards.split())


def _deal(fixed: dict[int, str], no_hearts: int) -> list[int]:
    """A deal giving each seat its fixed cards, the seat ``no_hearts`` no hearts and no
    spades beyond its own, the rest handed out in order."""
    masks = [_mask(fixed.get(s, "")) for s in range(4)]
    used = masks[0] | masks[1] | masks[2] | masks[3]
    rest = [c for c in range(52) if not used >> c & 1]
    for seat in [no_hearts] + [s for s in range(4) if s != no_hearts]:
        for c in list(rest):
            if masks[seat].bit_count() == 13:
                break
            if seat == no_hearts and c // 13 in (2, 3):  # hearts, spades
                continue
            masks[seat] |= 1 << c
            rest.remove(c)
    assert all(m.bit_count() == 13 for m in masks) and not rest
    return masks


def _south_after_east_leads_the_ace(bids: list[int]) -> Observation:
    """North leads a heart, East trumps it with the 3 of spades and leads the ace of spades;
    South holds the king and the 4 of spades. ``bids`` in bidding order N, E, S, W."""
    match = Match(profile("cardems"), dealer=3)
    match.deal(_deal({0: "2H", 1: "3S AS", 2: "5H KS 4S", 3: "6H"}, no_hearts=1))
    for bid in bids:
        match.apply(NIL + bid)
    for card in ("2H", "3S", "5H", "6H", "AS"):
        match.apply(parse_card(card))
    assert match.current_player == 2
    return match.observation(2)


def test_no_take_control_when_the_card_cannot_take_the_trick() -> None:
    obs = _south_after_east_leads_the_ace([0, 3, 4, 2])  # North bid nil
    reason = explain(obs, parse_card("KS"))
    assert "take control" not in reason
    assert reason == ("Play the king of spades: East's ace of spades already wins this trick, "
                      "which keeps your partner North's Nil safe; there is no need to spend "
                      "a better card.")
    named = explain(obs, parse_card("KS"), ["Ann", "Bob", "Cy", "Di"])
    assert "Bob's ace of spades" in named and "your partner Ann's Nil" in named


def test_an_opponents_nil_is_named_not_numbered() -> None:
    obs = _south_after_east_leads_the_ace([3, 3, 4, 0])  # West bid nil, plays after South
    low = next(a for a in obs.legal_actions if a == parse_card("4S"))
    for names in (None, ["Ann", "Bob", "Cy", "Di"]):
        reason = explain(obs, low, names)
        assert "seat " not in reason.lower()
    assert "seat" not in hint(obs, worlds=4).reason.lower()


def test_compass_names_at_every_table_size() -> None:
    assert compass_names(4) == ("North", "East", "South", "West")
    for n in (3, 5, 6):
        names = compass_names(n)
        assert len(set(names)) == n and names[0] == "North"


@pytest.mark.parametrize("rules_name", ["cardems", "race400", "cards4net"])
def test_a_bid_is_never_said_to_be_worth_other_tricks(rules_name: str) -> None:
    """Over many deals and table moments, the expert's bid and its reason agree: when the
    reason gives the hand's worth in tricks, it rounds to the bid."""
    rules = profile(rules_name)
    said = 0
    for seed in range(12):
        match = Match.new(rules, seed=seed)
        bots = [make_bot("random", seed * 7 + s) for s in range(rules.players)]
        for _ in range(seed % rules.players):  # the bidder varies: some bids before it
            seat = match.current_player
            match.apply(bots[seat].act(match.observation(seat)))
        obs = match.observation(match.current_player)
        if obs.hand is None:
            continue
        h = hint(obs, worlds=4, seed=seed)
        if h.action < NIL or h.action > NIL + 13:
            continue
        worth = re.search(r"worth about (\d+\.\d) tricks", h.reason)
        if worth and h.action != NIL:
            said += 1
            assert abs(float(worth.group(1)) - (h.action - NIL)) < 0.5, h.reason
        assert re.match(rf"Bid {'Nil' if h.action == NIL else h.action - NIL}\b|"
                        r"This is the only bid", h.reason), h.reason
    assert said > 0


def _said_worth_rounds_to_the_bid(reason: str, bid: int) -> bool:
    worth = re.search(r"worth about (\d+\.\d) tricks", reason)
    return worth is None or abs(float(worth.group(1)) - bid) < 0.5


@pytest.mark.parametrize(("hand", "rules_name", "players"), [
    ("KS 5C QH 5D 8S JH TH 2S 4C 9H 2H JS TC", "cardems", None),  # about 3.0, bid 2
    ("JC 2H 8S 9H AS 2C 5D 9D 9S 6D QD 4H AH", "cardems", None),  # about 2.9, bid 2
    ("AS KS 7S 2S AH QH 5H 9D 4D KC", "race400", "5"),  # about 4.8, bid 4
])
def test_the_trial_hands_say_a_worth_only_when_it_rounds_to_the_bid(
        hand: str, rules_name: str, players: str | None,
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from spades.cli import main

    args = ["hint", "--hand", hand, "--rules", rules_name, "--json"]
    assert main(args + (["--players", players] if players else [])) == 0
    out = json.loads(capsys.readouterr().out)
    bid = 0 if out["action"] == "nil" else int(out["action"])
    assert _said_worth_rounds_to_the_bid(out["reason"], bid), out["reason"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([("cardems", 4), ("race400", 3), ("race400", 5), ("cards4net", 4)]),
       st.randoms(use_true_random=False), st.integers(0, 3))
def test_no_number_bid_is_said_to_be_worth_other_tricks(
        table: tuple[str, int], rnd: random.Random, before: int) -> None:
    """Every number bid of any hand, whatever was bid before: a worth said rounds to it."""
    rules_name, players = table
    rules = profile(rules_name, players=players)
    match = Match.new(rules, seed=rnd.randrange(2**31))
    for _ in range(before % rules.players):
        match.apply(rnd.choice(match.legal_actions()))
    obs = match.observation(match.current_player)
    if obs.hand is None:
        return
    for action in obs.legal_actions:
        if NIL < action <= NIL + rules.hand_size:
            reason = explain(obs, action)
            assert reason.startswith(f"Bid {action - NIL}")
            assert _said_worth_rounds_to_the_bid(reason, action - NIL), reason


def _beats(card: int, best: int, led: int) -> bool:
    def rank(c: int) -> tuple[int, int]:
        suit = 3 if c >= 39 else c // 13
        return (2 if suit == 3 else 1 if suit == led else 0, c)

    return rank(card) > rank(best)


@pytest.mark.parametrize("rules_name, players", [("cardems", 4), ("race400", 3),
                                                  ("race400", 6), ("cards4net", 4)])
def test_every_card_reason_agrees_with_the_trick(rules_name: str, players: int) -> None:
    """For every legal card at every turn of whole hands (not only the expert's choice), a
    reason that says the card takes the trick is given only to a card that beats the cards
    played so far, and one that says it cannot, only when no legal card can."""
    from spades.engine import card_name

    rules = profile(rules_name, players=players) if rules_name == "race400" else profile(
        rules_name)
    checked = 0
    for seed in range(3):
        match = Match.new(rules, seed=seed)
        bots = [make_bot("random", seed * 11 + s) for s in range(rules.players)]
        # some seats bid nil, so that the nil reasons are reached
        while not match.results:  # one whole hand
            seat = match.current_player
            obs = match.observation(seat)
            if match.phase == "bid":
                legal = obs.legal_actions
                match.apply(NIL if NIL in legal and seat % 3 == seed % 3 else
                            bots[seat].act(obs))
                continue
            trick = obs.trick
            led = (3 if trick[0][1] >= 39 else trick[0][1] // 13) if trick else -1
            best = trick[0][1] if trick else -1
            for _, c in trick[1:]:
                if _beats(c, best, led):
                    best = c
            legal = list(obs.legal_actions)
            for card in legal:
                reason = explain(obs, card)
                checked += 1
                assert "seat " not in reason.lower(), reason
                assert card_name(card) in reason, reason
                if re.search(r"\ba low (lead|card)\b", reason) and card < 52:
                    assert card % 13 <= 6, reason  # an eight or lower (blind trials: a
                    # queen, then a ten)
                if not trick:
                    continue
                wins = _beats(card, best, led)
                if re.search(r"takes the trick|take control|beats the cards played", reason):
                    assert wins, (reason, trick)
                if re.search(r"cannot win this trick", reason):
                    assert not any(_beats(c, best, led) for c in legal), (reason, trick)
                if "keep your better cards" in reason:  # (a sighted trial: "Play the king
                    # of hearts: ... keep your better cards", the queen held too)
                    suit = [c for c in legal if c // 13 == card // 13]
                    assert not (min(suit) < card == max(suit)), (reason, legal)
                if "the only card you may play" in reason:
                    assert legal == [card], (reason, legal)
                if re.search(r"already wins this trick|without taking the trick|stays under",
                             reason):
                    assert not wins, (reason, trick)
                if "cheapest card that takes" in reason:
                    assert card == min((c for c in legal if _beats(c, best, led)),
                                       key=lambda c: (c >= 39, c)), reason
            match.apply(bots[seat].act(obs))
    assert checked > 100


def test_a_high_lead_over_a_partners_nil_is_not_called_low() -> None:
    """Blind trial (terminal): partner North bid Nil, South has made its bid of 1 and leads
    the queen of clubs, the king out; the hint said "a low lead avoids bags"."""
    match = Match(profile("cardems"), dealer=1)  # South bids and leads first
    match.deal(_deal({0: "4H", 1: "5H", 2: "AH QC 2D 3D 4D", 3: "6H"}, no_hearts=3))
    for bid in (1, 5, 0, 5):  # South, West, North (nil), East
        match.apply(NIL + bid)
    for card in ("AH", "6H", "4H", "5H"):  # South wins trick 1: its contract of 1 is made
        match.apply(parse_card(card))
    assert match.current_player == 2
    reason = explain(match.observation(2), parse_card("QC"))
    assert "low" not in reason, reason
    assert reason == ("Lead the queen of clubs: a high lead leaves your partner North room "
                      "to play under it, which keeps your partner North's Nil safe.")


def _seed5_nil_position() -> Observation:
    """Hand 1 of ``spades play --plain --seed 5``: South bids nil, East leads the five of
    diamonds; South holds the four, six and nine of diamonds."""
    from spades.tui.game import deal_masks

    match = Match(profile("cardems"), dealer=0)
    match.deal(deal_masks(match, 5))
    for bid in (5, 0, 3, 3):  # East, South (nil), West, North
        match.apply(NIL + bid)
    match.apply(parse_card("5D"))
    obs = match.observation(2)
    assert list(obs.legal_actions) == [parse_card(c) for c in ("4D", "6D", "9D")]
    return obs


def test_a_nil_bidder_is_told_to_duck_when_it_can(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from spades.cli import main

    obs = _seed5_nil_position()
    for worlds in (4, 40):
        h = hint(obs, worlds=worlds)
        assert h.action == parse_card("4D"), h
        assert h.reason == ("Play the four of diamonds: the highest card you can play "
                            "without taking the trick.")
    # The same position through spades hint RECORD.
    from spades.tui.game import deal_masks

    match = Match(profile("cardems"), dealer=0)
    match.deal(deal_masks(match, 5))
    for action in (NIL + 5, NIL, NIL + 3, NIL + 3, parse_card("5D")):
        match.apply(action)
    record = tmp_path / "nil.json"
    record.write_text(json.dumps(match.to_record()), encoding="utf-8")
    assert main(["hint", str(record), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 2 and out["action"] == "4D"
    # A card that would take the trick is never said to be a nil bidder's good play.
    assert "may hold" not in explain(obs, parse_card("9D"))


@pytest.mark.parametrize("seed", range(6))
def test_a_nil_bidder_never_gets_a_card_that_wins_when_one_ducks(seed: int) -> None:
    from spades.bots.hints import nil_duck

    rng = random.Random(seed)
    rules = profile("cardems")
    checked = 0
    for deal in range(30):
        match = Match.new(rules, seed=seed * 100 + deal)
        nil_seat = match.current_player
        while match.phase == "bid":
            seat = match.current_player
            legal = match.legal_actions()
            match.apply(NIL if seat == nil_seat and NIL in legal else
                        rng.choice([a for a in legal if a > NIL] or legal))
        while match.phase == "play" and match.tricks[nil_seat] == 0:
            seat = match.current_player
            obs = match.observation(seat)
            if seat == nil_seat and obs.trick:
                for card in obs.legal_actions:
                    chosen = nil_duck(obs, card)
                    assert chosen in obs.legal_actions
                    led = obs.trick[0][1] // 13
                    best = obs.trick[0][1]
                    for _, c in obs.trick[1:]:
                        if _beats(c, best, led):
                            best = c
                    ducks = [c for c in obs.legal_actions if not _beats(c, best, led)]
                    if ducks:
                        assert chosen in ducks
                        checked += 1
            match.apply(rng.choice(obs.legal_actions))
    assert checked > 0


# Hand 1 of a cardems deal (dealer East): South bids Nil, West 3, North 4, East 4 (or 2);
# South's Nil is broken at trick 2 and it has taken two tricks. At trick 9 West leads the
# eight of spades, North plays the five and East (void) the jack of hearts: South, last,
# holds the jack of diamonds and the two, seven, nine and queen of spades.
_BROKEN_NIL_HANDS = ("2C 4C TC KC 3D 6H 7H 8H 9H TH 5S TS KS",
                     "6C 7C 8C 9C JC AC 5D 8D QD AD 2H 3H JH",
                     "3C 5C 4D 7D 9D TD JD 4H KH 2S 7S 9S QS",
                     "QC 2D 6D KD 5H QH AH 3S 4S 6S 8S JS AS")
_BROKEN_NIL_PLAYS = ("7D 2D 3D 5D TD 6D 4C AD 8D 9D KD 8H AH TH 2H 4H 5H 6H 3H KH 5C QC "
                     "TC AC QD 4D QH 2C 7C 3C 4S KC 8S 5S JH")


def _broken_nil_match(rules_name: str, east_bid: int = 4) -> Match:
    from spades.engine import parse_action

    match = Match(profile(rules_name), dealer=1)
    match.deal([_mask(h) for h in _BROKEN_NIL_HANDS])
    for action in ["nil", "3", "4", str(east_bid), *_BROKEN_NIL_PLAYS.split()]:
        match.apply(parse_action(action))
    assert match.current_player == 2 and match.tricks == [0, 3, 2, 3]
    return match


def _never_keeps_the_nil(obs: Observation) -> None:
    for card in obs.legal_actions:
        reason = explain(obs, card)
        assert "Nil is broken" in reason, reason
        assert "safe" not in reason and "keep your Nil" not in reason, reason
        assert "Nil is lost" not in reason, reason


def test_a_broken_nil_is_told_what_its_tricks_are_worth_under_the_rules() -> None:
    """Trial: once a player's own Nil was broken, the hint still played and spoke as for a
    Nil (the rule-based play the expert keeps unless clearly beaten ducked every trick
    after a failed Nil, as if its tricks were only bags). Under cardems a failed Nil's
    tricks count toward the side's bid: North bid 4 and has none, South two, so South takes
    the trick. Under cardgames-club they are only bags, and a trick taken from East and West,
    one short of their 7, may set them; with East's 2 they have made theirs, so it is left."""
    counts = _broken_nil_match("cardems").observation(2)
    h = hint(counts)
    assert h.action in (parse_card("9S"), parse_card("QS")), h  # (it takes the trick)
    assert h.reason.startswith(
        f"Play the {'nine' if h.action == parse_card('9S') else 'queen'} of spades: your Nil "
        "is broken, but your tricks still count toward your side's bid of 4, 2 more to make "
        "it; "), h.reason
    _never_keeps_the_nil(counts)

    bags = _broken_nil_match("cardgames-club").observation(2)
    h = hint(bags)
    assert h.action == parse_card("9S"), h
    assert h.reason == ("Play the nine of spades: your Nil is broken, and each trick you take "
                        "now is only a bag, not a trick toward your partner North's bid, but a "
                        "trick taken from East and West may set their bid of 7 (they need 1 "
                        "more); the cheapest card that takes the trick.")
    _never_keeps_the_nil(bags)

    made = _broken_nil_match("cardgames-club", east_bid=2).observation(2)
    h = hint(made)
    assert h.action == parse_card("7S"), h
    assert h.reason == ("Play the seven of spades: your Nil is broken, and each trick you take "
                        "now is only a bag, not a trick toward your partner North's bid; it "
                        "stays under the eight of spades and leaves the trick to others.")
    _never_keeps_the_nil(made)
    # The intermediate level (the expert's rule-based default) plays so too.
    from spades.bots.heuristic import own_state
    from spades.bots.policy import play_card

    assert play_card(own_state(counts)) == parse_card("9S")
    assert play_card(own_state(made)) == parse_card("7S")


def test_spades_hint_of_a_record_after_a_broken_nil(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from spades.cli import main

    for rules_name, worth in (("cardems", "your tricks still count toward your side's bid"),
                              ("game93", "each trick you take now is only a bag")):
        record = tmp_path / f"{rules_name}.json"
        record.write_text(json.dumps(_broken_nil_match(rules_name).to_record()),
                          encoding="utf-8")
        assert main(["hint", str(record), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["seat"] == 2 and out["action"] in ("9S", "QS"), out
        assert f"your Nil is broken, {'but' if rules_name == 'cardems' else 'and'} {worth}" \
            in out["reason"], out
        assert "safe" not in out["reason"], out
        assert main(["hint", str(record)]) == 0
        text = capsys.readouterr().out
        assert "Hint: Play the " in text and "your Nil is broken" in text, text


def test_a_single_legal_card_is_said_in_one_wording() -> None:
    """A player's report: the hint said the same thing two ways, "is your only legal card"
    and "it is the only card you may play". One wording, the latter, wherever it is said
    (the page's own hint, spades/web/static/js/hint.js, says it too)."""
    clubs = " ".join(r + "C" for r in "3456789TJQKA")
    match = Match(profile("cardems"), dealer=3)
    match.deal(_deal({0: "2H", 1: "3S", 2: "5H " + clubs}, no_hearts=1))
    for bid in (3, 4, 4, 2):
        match.apply(NIL + bid)
    match.apply(parse_card("2H"))  # North leads a heart, East trumps: South's one heart
    match.apply(parse_card("3S"))
    obs = match.observation(2)
    assert list(obs.legal_actions) == [parse_card("5H")]
    reason = explain(obs, parse_card("5H"))
    assert reason == "Play the five of hearts: it is the only card you may play."
    assert hint(obs).reason == reason
    js = Path(__file__).resolve().parents[2] / "spades/web/static/js/hint.js"
    assert "it is the only card you may play" in js.read_text()
    assert "only legal card" not in reason


def _seed8_ace_king_position(scores: tuple[int, int] = (0, 0)) -> Observation:
    """Hand 1 of ``spades play --seed 8`` dealt by East: South bids first holding the ace,
    king, eight, four and three of diamonds, the ace, ten, six and four of clubs, the seven
    and five of hearts, the eight and six of spades; the sides' scores ``scores``."""
    from spades.tui.game import deal_masks

    match = Match(profile("cardems"), dealer=1)
    match.deal(deal_masks(match, 8))
    match.scores = list(scores)
    assert match.current_player == 2
    obs = match.observation(2)
    assert obs.hand == _mask("AD KD 8D 4D 3D AC TC 6C 4C 7H 5H 8S 6S")
    return obs


def test_no_nil_hint_with_an_ace_king_of_a_side_suit() -> None:
    """A player's report: the hint suggested Nil on a hand holding the ace and king of
    diamonds. The search's play-outs made this Nil 71 times in 80 (their opponents hardly
    attack a Nil); a person is told the best number bid instead, at an even score."""
    obs = _seed8_ace_king_position()
    got = hint(obs)
    assert got.action != NIL, got
    assert NIL < got.action <= NIL + 4, got
    assert not got.reason.startswith("Bid Nil"), got


def test_a_nil_with_an_ace_king_is_hinted_only_when_the_side_needs_it() -> None:
    """Far behind with the opponents near the target (500), a Nil may be the side's only
    way back: then the hint may say Nil, and its reason says why, naming the ace-king."""
    obs = _seed8_ace_king_position((180, 450))  # South's side (North-South) is side 0
    got = hint(obs)
    assert got.action == NIL, got
    assert got.reason == ("Bid Nil: your ace and king of diamonds make it a long shot, but "
                          "your side is 270 points behind and needs the 100 a Nil is worth "
                          "to catch up.")
    assert explain(_seed8_ace_king_position(), NIL).startswith(
        "Bid Nil: a risky bid, as your ace and king of diamonds take a trick")
