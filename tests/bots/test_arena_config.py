"""``ArenaConfig`` from Python (docs/bots.md, "From Python") refuses what the command line
refuses, at once and by name, instead of an AttributeError or a run of the wrong thing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from spades.bots.arena import ArenaConfig, run_arena
from spades.engine import profile


def config(**changes: Any) -> ArenaConfig:
    knobs: dict[str, Any] = {"a": "intermediate", "b": "beginner", "rules": profile("cardems"),
                             "deals": 2}
    return ArenaConfig(**(knobs | changes))


def test_rules_given_by_name_are_refused_with_the_way_to_write_them() -> None:
    # run_arena(ArenaConfig(..., rules="cardems")) failed deep inside with
    # AttributeError: 'str' object has no attribute 'sides'.
    with pytest.raises(TypeError, match=r"^rules must be a Rules, like profile\('cardems'\), "
                                        r"not 'cardems'$"):
        config(rules="cardems")


@pytest.mark.parametrize("deals", [0, -1, 2.0, True, "10"])
def test_deals_must_be_a_whole_number_1_or_more(deals: object) -> None:
    # deals=-1 ran nothing and reported 0 deals; --deals refuses it.
    with pytest.raises(ValueError, match=rf"^deals must be a whole number 1 or more, "
                                         rf"not {deals!r}$"):
        config(deals=deals)


def test_a_mixed_side_on_a_solo_table_is_refused_as_the_command_refuses_it() -> None:
    # docs/bots.md: "with solo sides ... the arena refuses it with an error naming the
    # spec"; from Python it played race400 with the two specs anyway.
    with pytest.raises(ValueError, match=r"^a: 'random/beginner': SPEC1/SPEC2 gives the two "
                                         r"seats of a side different players, but the sides "
                                         r"of this table have one seat \(solo\)$"):
        config(a="random/beginner", rules=profile("race400"))


@pytest.mark.parametrize("name", ["a", "b"])
def test_a_spec_that_is_no_text_is_refused_by_name(name: str) -> None:
    with pytest.raises(TypeError, match=rf"^{name}: a bot spec is text like 'expert', not 3$"):
        config(**{name: 3})


def test_a_good_config_is_kept_as_given() -> None:
    cfg = config(a="human:over/expert", seed=7)
    assert (cfg.a, cfg.b, cfg.deals, cfg.seed) == ("human:over/expert", "beginner", 2, 7)


@pytest.mark.parametrize("name", ["matches", "save_records"])
@pytest.mark.parametrize("value", ["yes", 1, None])
def test_the_flags_must_be_true_or_false(name: str, value: object) -> None:
    # ArenaConfig(..., matches="no") played whole matches: any truthy value was True.
    with pytest.raises(TypeError, match=rf"^{name} must be True or False, not "
                                        rf"{re.escape(repr(value))}$"):
        config(**{name: value})
    assert getattr(config(**{name: True}), name) is True


@pytest.mark.parametrize("seed", ["x", None, 1.5, True, [1]])
def test_a_seed_that_is_no_whole_number_is_refused_by_name(seed: object) -> None:
    # seed="x" was TypeError: can only concatenate str (not "int") to str, at the first deal;
    # None failed the same way; 1.5 and True were played as seeds.
    with pytest.raises(TypeError, match=rf"^seed must be a whole number, not "
                                        rf"{re.escape(repr(seed))}$"):
        config(seed=seed)


def test_a_seed_of_any_integer_type_is_that_int() -> None:
    np = pytest.importorskip("numpy")
    cfg = config(seed=np.int64(-7))
    assert cfg.seed == -7 and type(cfg.seed) is int  # (the --json summary writes it)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", True, None])
def test_run_arena_refuses_jobs_that_are_not_a_whole_number_1_or_more(jobs: object) -> None:
    # --jobs refuses them; from Python "2" was TypeError: '<=' not supported between
    # instances of 'str' and 'int', and 0 or -1 played on as if 1.
    with pytest.raises(ValueError, match=rf"^jobs must be a whole number 1 or more, "
                                         rf"not {re.escape(repr(jobs))}$"):
        run_arena(config(), jobs=jobs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["a", "b"])
@pytest.mark.parametrize("spec, why", [
    ("nope", r"unknown bot level 'nope'; choose one of "),
    ("expert:0", r"bad budget '0'"),
    ("py:no_such_module_here:Bot", r"py:no_such_module_here:Bot: cannot import module "),
    ("cmd:no-such-program-here --fast", r"cmd:no-such-program-here --fast: cannot run the "
                                        r"program 'no-such-program-here': not found on PATH$"),
    ("beginner/cmd:./no/such/bot.py", r"cmd:\./no/such/bot\.py: cannot run the program "
                                      r"'\./no/such/bot\.py': not found$"),
])
def test_a_spec_of_no_player_is_refused_at_once_by_name(name: str, spec: str, why: str) -> None:
    # ArenaConfig(a="cmd:no-such-program", ...) was accepted, and run_arena returned
    # {"deals": 0, "void": 2, "mean": None, ...} after printing an error for each deal;
    # an unknown level was refused only once run_arena had started. spades arena refuses
    # both before any deal.
    with pytest.raises(ValueError, match=rf"^{name}: {why}"):
        config(**{name: spec})


def test_a_runnable_program_is_checked_not_started() -> None:
    cfg = config(a="cmd:python3 -c 'raise SystemExit(3)'")
    assert cfg.a.startswith("cmd:python3")


class _MyBot:
    """A bot of the user's own, as docs/bots.md writes one."""

    name = "mine"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, obs: Any) -> int:
        return int(obs.legal_actions[0])


@pytest.mark.parametrize("given", [_MyBot(1), _MyBot], ids=["object", "class"])
def test_a_bot_of_ones_own_given_for_a_spec_is_told_how_to_name_it(given: object) -> None:
    # make_bot(MyBot(1)) and ArenaConfig(a=MyBot, ...) said only "a bot spec is text like
    # 'expert', not <...MyBot object at 0x...>": not how to give the bot one has.
    from spades.bots import make_bot

    where = rf"; a bot class of your own is named by where it is: 'py:{__name__}:_MyBot' " \
            rf"\(docs/bots\.md\)$"
    with pytest.raises(TypeError, match=rf"^a: a bot spec is text like 'expert', not .*{where}"):
        config(a=given)
    with pytest.raises(TypeError, match=rf"^a bot spec is text like 'expert' or .*{where}"):
        make_bot(given, 1)  # type: ignore[arg-type]
    assert make_bot(f"py:{__name__}:_MyBot", 1).name == "mine"


@pytest.mark.parametrize("cfg, what", [("intermediate", "'intermediate'"),
                                       ({"a": "expert"}, "a dict"), (None, "a NoneType")])
def test_run_arena_refuses_what_is_no_arena_config(cfg: object, what: str) -> None:
    # run_arena("intermediate") was AttributeError: 'str' object has no attribute 'deals'.
    with pytest.raises(TypeError, match=r"^run_arena takes an ArenaConfig, like ArenaConfig\("
                                        rf"a='expert', .*\), not {re.escape(what)}$"):
        run_arena(cfg)  # type: ignore[arg-type]


def test_run_arena_takes_jobs_of_any_integer_type() -> None:
    # run_arena(cfg, jobs=np.int64(1)) said "jobs must be a whole number 1 or more, not
    # np.int64(1)", a whole number 1 (ArenaConfig takes a numpy seed as that int).
    np = pytest.importorskip("numpy")
    summary = run_arena(config(deals=1), jobs=np.int64(1))
    assert summary["deals"] == 1
