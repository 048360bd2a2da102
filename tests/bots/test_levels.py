"""Every level plays legal, complete hands under every profile and seating, from its own
observation only, and the same seed gives the same decisions."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from spades.bots import LEVELS, STRENGTHS, make_bot
from spades.engine import PLAY, Match, Observation, Rules, profile
from spades.engine.cards import SUIT_MASKS
from spades.engine.handstate import HandState, public_voids
from tests.bots.conftest import play_hand
from tests.tables import EVERY_TABLE, EVERY_TABLE_IDS

FAST_SPECS = {
    "random": "random",
    "beginner": "beginner",
    "intermediate": "intermediate",
    "expert": "expert:3",
    "ismcts": "ismcts:25",
    "human": "human:nocover",
}

def rules_for(name: str, knobs: dict[str, Any]) -> Rules:
    return profile(name, **knobs)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("name", "knobs"), EVERY_TABLE, ids=EVERY_TABLE_IDS)
def test_level_plays_complete_legal_hands(level: str, name: str, knobs: dict[str, Any]) -> None:
    rules = rules_for(name, knobs)
    match = Match.new(rules, seed=7)
    bots = [make_bot(FAST_SPECS[level], seed=s) for s in range(rules.players)]
    play_hand(match, bots)
    assert len(match.results) == 1
    assert sum(match.results[0].tricks) == rules.hand_size


def test_blind_nil_is_considered_when_far_behind() -> None:
    rules = profile("cards4net")
    for level in ("intermediate", "expert:6"):
        chosen = set()
        for seed in range(6):
            match = Match.new(rules, seed=seed)
            match.scores = [0, 300]
            match.scores[rules.side_of[match.current_player]] = -150
            obs = match.observation(match.current_player)
            assert obs.hand is None
            chosen.add(make_bot(level, seed).act(obs))
        assert chosen <= set(obs.legal_actions)


def test_strengths_and_specs() -> None:
    for strength, spec in STRENGTHS.items():
        assert make_bot(strength, 1).name == spec.partition(":")[0]
    assert make_bot("expert:0.2s", 1).name == "expert"
    for bad in ("grandmaster", "expert:-1", "expert:abc", "beginner:5"):
        with pytest.raises(ValueError):
            make_bot(bad, 1)


@pytest.mark.parametrize(("spec", "message"), [
    ("hard:40", "hard is a strength (expert:12) and takes no budget; for the expert with "
     "a budget of your own write expert:40"),
    ("hard:0.5s", "hard is a strength (expert:12) and takes no budget; for the expert with "
     "a budget of your own write expert:0.5s"),
    ("hard:40:noadapt", "hard is a strength (expert:12) and takes no budget; for the expert "
     "with a budget of your own write expert:40:noadapt"),
    ("hard:abc", "hard is a strength (expert:12) and takes no budget; for the expert with "
     "a budget of your own write expert:N, expert:Ss or expert:Scpu"),
    ("easy:3", "easy is a strength (beginner) and takes no budget; beginner has none"),
    ("normal:2", "normal is a strength (intermediate) and takes no budget; intermediate has "
     "none"),
    ("easy:noadapt", ":noadapt applies to expert and hard only, not to 'easy'"),
])
def test_a_strength_with_a_budget_is_refused_saying_what_to_write(spec: str,
                                                                  message: str) -> None:
    # hard:40 was "unknown bot level 'hard'", in a message listing hard as a strength.
    with pytest.raises(ValueError) as caught:
        make_bot(spec, 1)
    assert str(caught.value) == message

@pytest.mark.parametrize(("spec", "advice"), [
    ("expert:noadapt:40", "; write :noadapt last, like expert:40:noadapt"),
    ("expert:40:foo", "; a spec is LEVEL:BUDGET, then :noadapt for expert and hard"),
    ("ismcts:5:3", "; a spec is LEVEL:BUDGET, then :noadapt for expert and hard"),
])
def test_a_budget_with_more_after_it_says_how_a_spec_is_written(spec: str, advice: str) -> None:
    # expert:noadapt:40 said only "bad budget 'noadapt:40': a whole number of worlds, ...".
    with pytest.raises(ValueError, match=r"^bad budget '.+': a whole number of \w+, or seconds "
                       r"like 0\.5s, or CPU seconds like 0\.5cpu \(more than 0, finite\)"
                       + re.escape(advice) + "$"):
        make_bot(spec, 1)



@pytest.mark.parametrize("spec", [5, None, b"expert", ["expert"]])
def test_a_spec_that_is_not_text_is_refused_by_name(spec: Any) -> None:
    # make_bot(5) was an AttributeError: 'int' object has no attribute 'startswith'.
    with pytest.raises(TypeError, match=r"a bot spec is text like 'expert'") as caught:
        make_bot(spec, 1)
    assert str(caught.value).endswith(f"not {spec!r}")


FLAGS = [("expert", name) for name in ("adapt", "cpu", "tree", "read_spread", "guide")] + [
    ("ismcts", "cpu")]


@pytest.mark.parametrize(("level", "name"), FLAGS, ids=[f"{lv}-{n}" for lv, n in FLAGS])
@pytest.mark.parametrize("value", ["no", 0, None])
def test_the_search_bots_flags_must_be_true_or_false(level: str, name: str, value: Any) -> None:
    # ExpertBot(adapt="no") adapted, and IsmctsBot(cpu=0) was taken as False but cpu="no" as
    # True: any value was read by its truth (docs/bots.md names these knobs for experiments).
    from spades.bots.expert import ExpertBot
    from spades.bots.ismcts import IsmctsBot

    cls: Any = ExpertBot if level == "expert" else IsmctsBot
    with pytest.raises(TypeError, match=rf"^{name} must be True or False, not "
                                        rf"{re.escape(repr(value))}$"):
        cls(1, **{name: value})
    cls(1, **{name: False})


def _decisions(spec: str, seed: int) -> list[int]:
    rules = profile("cardems")
    match = Match.new(rules, seed=3)
    bots = [make_bot(spec, seed=seed + s) for s in range(4)]
    actions = []
    for _ in range(4 + 12):
        seat = match.current_player
        a = bots[seat].act(match.observation(seat))
        actions.append(a)
        match.apply(a)
    return actions


@pytest.mark.parametrize("spec", ["random", "beginner", "intermediate", "expert:4",
                                  "ismcts:30"])
def test_same_seed_same_decisions(spec: str) -> None:
    assert _decisions(spec, 5) == _decisions(spec, 5)


def _swap_hidden(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with other seats' unplayed cards swapped suit by suit between them:
    the observation of ``seat`` (and every past play's legality) is unchanged."""
    hands = match.hands[:]
    others = [s for s in range(match.n) if s != seat]
    for suit in range(4):
        for _ in range(6):
            a, b = rng.sample(others, 2)
            ca, cb = hands[a] & SUIT_MASKS[suit], hands[b] & SUIT_MASKS[suit]
            if not ca or not cb:
                continue
            x = rng.choice([c for c in range(54) if ca >> c & 1])
            y = rng.choice([c for c in range(54) if cb >> c & 1])
            hands[a] ^= (1 << x) | (1 << y)
            hands[b] ^= (1 << x) | (1 << y)
    log = match.log[-1]
    deal = list(log.deal)
    for s in range(match.n):
        played = deal[s] & ~match.hands[s]
        deal[s] = hands[s] | played
    other = Match(match.rules, dealer=log.dealer)
    other.scores = match.scores[:]
    other.bags = match.bags[:]
    other.deal(deal)
    for a in log.actions:
        other.apply(a)
    return other


@pytest.mark.parametrize("spec", ["beginner", "intermediate", "expert:5", "ismcts:40"])
@pytest.mark.parametrize("steps", [0, 2, 14, 27])
def test_decisions_depend_on_the_observation_only(spec: str, steps: int) -> None:
    rules = profile("cardems")
    match = Match.new(rules, seed=11)
    driver = [make_bot("intermediate", s) for s in range(4)]
    for _ in range(steps):
        seat = match.current_player
        match.apply(driver[seat].act(match.observation(seat)))
    seat = match.current_player
    twin = _swap_hidden(match, seat, random.Random(steps))
    assert twin.hands != match.hands or steps > 40
    obs: Observation = match.observation(seat)
    assert twin.observation(seat) == obs
    assert make_bot(spec, 9).act(obs) == make_bot(spec, 9).act(twin.observation(seat))


def test_public_voids_and_hand_state_agree_with_the_engine() -> None:
    rules = profile("game93")
    match = Match.new(rules, seed=4)
    bots = [make_bot("random", s) for s in range(4)]
    for _ in range(4 + 30):
        seat = match.current_player
        match.apply(bots[seat].act(match.observation(seat)))
    obs = match.observation(match.current_player)
    voids = public_voids(obs)
    for s in range(4):
        for suit in range(4):
            if voids[s] >> suit & 1:
                assert not match.hands[s] & SUIT_MASKS[suit]
    sim = HandState.from_obs(obs, match.hands)
    assert sim.legal_mask() == match.legal_cards_mask()
    while sim.phase is PLAY:
        card = min(c for c in range(54) if sim.legal_mask() >> c & 1)
        assert sim.legal_mask() == match.legal_cards_mask()
        sim.play(card)
        match.apply(card)
    assert sim.tricks == list(match.results[-1].tricks)
