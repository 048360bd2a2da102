"""``hint(obs, worlds=...)`` refuses a number of deals that is not one, as ``spades hint
--worlds`` does, naming the argument."""

from __future__ import annotations

import pytest

from spades.bots import hint
from spades.engine import Match, profile


@pytest.mark.parametrize("worlds", [0, -3, "x", 2.5, True, None])
def test_worlds_must_be_a_whole_number_1_or_more(worlds: object) -> None:
    # worlds=0 gave a hint from a search of the minimum (2 deals) as if all was well;
    # worlds='x' raised a bare "invalid literal for int() with base 10: 'x'".
    match = Match.new(profile("cardems"), seed=3)
    obs = match.observation(match.current_player)
    with pytest.raises(ValueError, match=rf"^worlds: must be a whole number 1 or more, "
                                         rf"not {worlds!r}$"):
        hint(obs, worlds=worlds)  # type: ignore[arg-type]


def test_a_whole_number_of_worlds_gives_a_hint() -> None:
    match = Match.new(profile("cardems"), seed=3)
    assert hint(match.observation(match.current_player), worlds=1).action in \
        match.legal_actions()
