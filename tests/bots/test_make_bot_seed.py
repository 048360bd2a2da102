"""``make_bot(spec, seed)`` takes a seed of any integer type, as ``ArenaConfig`` and the
learning environments do, and refuses one that is no whole number by name."""

from __future__ import annotations

import pytest

from spades.bots import make_bot
from spades.engine import Match, profile

SPECS = ["random", "beginner", "intermediate", "expert:4", "ismcts:20", "human:over"]


@pytest.mark.parametrize("spec", SPECS)
def test_a_numpy_seed_is_that_int(spec: str) -> None:
    # make_bot("beginner", np.int64(1)) built a bot whose first act raised Python's
    # "The only supported seed types are: None, int, float, str, bytes, and bytearray."
    np = pytest.importorskip("numpy")
    match = Match.new(profile("cardems"), 1)
    obs = match.observation(match.current_player)
    assert make_bot(spec, np.int64(1)).act(obs) == make_bot(spec, 1).act(obs)


@pytest.mark.parametrize("seed", [1.5, "x", True, [1]])
def test_a_seed_that_is_no_whole_number_is_refused_by_name(seed: object) -> None:
    # make_bot("expert", 1.5) and make_bot("expert", "x") seeded the bot all the same.
    with pytest.raises(TypeError, match=rf"^seed: must be a whole number \(or None\), "
                                        rf"not {__import__('re').escape(repr(seed))}$"):
        make_bot("beginner", seed)  # type: ignore[arg-type]
    assert make_bot("beginner", None).name == "beginner"
