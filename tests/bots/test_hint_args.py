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


@pytest.mark.parametrize("names", [5, 2.5, {0: "Ann"}])
def test_names_that_are_no_list_are_refused_by_name(names: object) -> None:
    # hint(obs, names=5) was TypeError: 'int' object is not iterable.
    match = Match.new(profile("cardems"), seed=3)
    with pytest.raises(TypeError, match=r"^names: a list of names by seat, like \['Ann', "
                                        r"'Bob', 'Cy', 'Di'\], not "):
        hint(match.observation(match.current_player), names=names)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1.5, "x", None, True])
def test_a_seed_that_is_no_whole_number_is_refused_by_name(seed: object) -> None:
    # hint(obs, seed=1.5) seeded another search and gave another hint, silently.
    match = Match.new(profile("cardems"), seed=1)
    with pytest.raises(TypeError, match=rf"^seed: must be a whole number, not {seed!r}$"):
        hint(match.observation(match.current_player), seed=seed)  # type: ignore[arg-type]


def test_a_seed_of_any_integer_type_is_that_int() -> None:
    np = pytest.importorskip("numpy")
    match = Match.new(profile("cardems"), seed=1)
    obs = match.observation(match.current_player)
    assert hint(obs, seed=np.int64(5), worlds=4) == hint(obs, seed=5, worlds=4)
