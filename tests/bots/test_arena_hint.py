"""The arena command's report and records, and hints."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from spades.bots import hint, make_bot
from spades.bots.arena import check_specs, labels_for, mean_ci, seat_specs, spec_at
from spades.cli import main
from spades.engine import Match, profile, replay


def test_arena_json_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "deals.jsonl"
    code = main(["arena", "--a", "intermediate", "--b", "random", "--deals", "3", "--jobs", "1",
                 "--json", "--quiet", "--save", str(save)])
    assert code == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["deals"] == 3
    low, high = last["ci95"]
    assert low <= last["mean"] <= high
    for key in ("a", "b"):
        stats = last["stats"][key]
        for field in ("nil_bid_rate", "nil_success", "bags_per_hand", "decision_ms_median",
                      "decision_ms_p95"):
            assert field in stats
    records = [json.loads(line) for line in save.read_text().splitlines()]
    assert len(records) == 6
    for record in records:
        assert len(replay(record).results) == 1
    assert records[0]["hands"][0]["deal"] == records[1]["hands"][0]["deal"]


def test_arena_matches_and_solo(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--a", "beginner", "--b", "random", "--deals", "2", "--jobs", "2",
                 "--rules", "race400", "--players", "3", "--matches", "--json", "--quiet"])
    assert code == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["deals"] == 2 and last["mode"] == "matches"
    assert 0.0 <= last["a_win_share"] <= 1.0


def test_labels_and_ci() -> None:
    assert labels_for(3, swap=False) == ["a", "b", "a"]
    assert labels_for(3, swap=True) == ["b", "a", "b"]
    mean, low, high = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0 and low < 2.0 < high


@pytest.mark.parametrize("steps", [0, 4, 9, 30])
def test_hints_are_legal_and_explained(steps: int) -> None:
    match = Match.new(profile("cardems"), seed=21)
    bots = [make_bot("intermediate", s) for s in range(4)]
    for _ in range(steps):
        seat = match.current_player
        match.apply(bots[seat].act(match.observation(seat)))
    obs = match.observation(match.current_player)
    h = hint(obs, worlds=8)
    assert h.action in obs.legal_actions
    assert h.reason and "\n" not in h.reason and len(h.reason) < 160
    assert h.reason.endswith(".")


def test_hint_refuses_other_seats_turn() -> None:
    match = Match.new(profile("cardems"), seed=21)
    other = (match.current_player + 1) % 4
    with pytest.raises(ValueError):
        hint(match.observation(other))


def test_hint_cli(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hint", "--hand", "AS KS 7S 2S AH QH 5H 9D 4D KC 8C 6C 3C", "--json",
                 "--worlds", "6"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 0 and out["action"].isdigit() and out["reason"]
    assert main(["hint", "--hand", "AS KS"]) == 2


def test_seat_specs_split_a_side_in_two() -> None:
    assert seat_specs("expert") == ("expert",)
    assert seat_specs("human:over/expert:noadapt") == ("human:over", "expert:noadapt")
    assert seat_specs("cmd:python3 bots/my_bot.py") == ("cmd:python3 bots/my_bot.py",)
    assert seat_specs("expert/cmd:python3 bots/x.py") == ("expert", "cmd:python3 bots/x.py")
    for bad in ("expert/", "/expert", "a/b/c"):
        with pytest.raises(ValueError, match="SPEC1/SPEC2"):
            seat_specs(bad)


def test_mixed_side_seats_in_seat_order() -> None:
    rules = profile("cardems")
    assert [spec_at("human:over/expert", rules, s) for s in range(4)] == [
        "human:over", "human:over", "expert", "expert"]
    teams = profile("race400", players=6, teams=[[0, 3], [1, 4], [2, 5]])
    assert [spec_at("a/b", teams, s) for s in range(6)] == ["a", "a", "a", "b", "b", "b"]
    check_specs("a/b", teams)
    for solo in (profile("race400", players=3), profile("race400", players=6),
                 profile("race400", players=6, teams=[[0, 2, 4], [1, 3, 5]])):
        with pytest.raises(ValueError, match="two seats of a side"):
            check_specs("human:over/expert", solo)


def test_arena_mixed_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "deals.jsonl"
    code = main(["arena", "--a", "human:over/intermediate", "--b", "intermediate/random",
                 "--deals", "2", "--jobs", "1", "--json", "--quiet", "--save", str(save)])
    assert code == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["a"] == "human:over/intermediate" and last["b"] == "intermediate/random"
    assert last["a_seats"] == ["human:over", "intermediate"]
    assert last["b_seats"] == ["intermediate", "random"]
    assert last["stats"]["a"]["spec"] == "human:over/intermediate"
    first, second = (json.loads(line) for line in save.read_text().splitlines()[:2])
    # Play 0: A holds North-South (seat 0 first, seat 2 second); play 1: East-West.
    assert first["players"] == ["A:human:over", "B:intermediate", "A:intermediate", "B:random"]
    assert second["players"] == ["B:intermediate", "A:human:over", "B:random", "A:intermediate"]


@pytest.mark.parametrize(("args", "message"), [
    (["--a", "human:over/expert", "--b", "expert", "--rules", "race400", "--players", "3"],
     "sides of this table have one seat"),
    (["--a", "human:lazy/expert", "--b", "expert"], "--a: human:lazy is not a model"),
    (["--a", "expert", "--b", "intermediate:noadapt"], "--b: :noadapt applies to expert"),
    (["--a", "expert/", "--b", "expert"], "--a: 'expert/': a mixed side"),
])
def test_arena_refuses_bad_mixed_specs(args: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", *args, "--deals", "1", "--jobs", "1", "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_arena_help_explains_adapting_and_mixed_sides(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "95% interval" in text and "95%%" not in text
    assert "adapt" in text and ":noadapt" in text and "SPEC1/SPEC2" in text
    assert "human:nilhappy" in text
    # It said "SPEC1/SPEC2 gives the first and second seat of each of a side's two seats
    # different players", which does not parse.
    assert ("SPEC1/SPEC2 seats SPEC1 in the first and SPEC2 in the second seat of each side "
            "(partnerships and teams of two only)") in text


@pytest.mark.parametrize(("players", "teams", "seats"), [
    ("6", "2+2+2", ["A:human:over", "B:intermediate", "A:human:over", "A:random",
                    "B:beginner", "A:random"]),
    ("4", "0,2/1,3", ["A:human:over", "B:intermediate", "A:random", "B:beginner"]),
])
def test_arena_mixed_sides_in_race400_teams(players: str, teams: str, seats: list[str],
                                            tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "deals.jsonl"
    code = main(["arena", "--a", "human:over/random", "--b", "intermediate/beginner",
                 "--rules", "race400", "--players", players, "--teams", teams, "--deals", "1",
                 "--jobs", "1", "--json", "--quiet", "--save", str(save)])
    assert code == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["teams"] is True and last["players"] == int(players)
    first = json.loads(save.read_text().splitlines()[0])
    assert first["players"] == seats


def test_arena_refuses_mixed_sides_of_three(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--a", "human:over/random", "--b", "intermediate", "--rules",
                 "race400", "--players", "6", "--teams", "3+3", "--deals", "1", "--quiet"])
    assert code == 2
    assert "the sides of this table have 3 seats" in capsys.readouterr().err


def test_allseeing_is_for_the_arena_only(capsys: pytest.CaptureFixture[str]) -> None:
    from spades.bots.expert import AllSeeingBot

    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("allseeing", 1)
    match = Match.new(profile("cardems"), seed=3)
    with pytest.raises(ValueError, match="not shown the hands"):
        AllSeeingBot(1, worlds=4).act(match.observation(match.current_player))
    code = main(["arena", "--a", "allseeing:4", "--b", "intermediate", "--deals", "1",
                 "--jobs", "1", "--json", "--quiet"])
    assert code == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["a"] == "allseeing:4"


def test_arena_save_to_a_folder_that_is_not_there_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = tmp_path / "no such folder" / "x.jsonl"
    for option in ("--save", "--results"):
        code = main(["arena", "--a", "beginner", "--b", "random", "--deals", "2", "--jobs", "1",
                     "--quiet", option, str(where)])
        assert code == 2
        assert f"{where}: cannot write: No such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize(("spec", "message"), [
    ("cmd:", "--a: cmd: needs a program to run"),
    ('cmd:"python3 bot.py', "cannot split the command into words (no closing quotation)"),
    ("py:json:loads", "--a: py:json:loads: loads(seed) failed (TypeError"),
    ("py:json:JSONDecoder", "--a: py:json:JSONDecoder: JSONDecoder(seed) failed (TypeError"),
    ("ismcts:nans", "--a: bad budget 'nans'"),
    ("expert:infs", "--a: bad budget 'infs'"),
    ("expert:nancpu", "--a: bad budget 'nancpu'"),
    ("expert:-0.5s", "--a: bad budget '-0.5s'"),
])
def test_arena_refuses_specs_that_cannot_play_before_any_deal(
        spec: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", spec, "--b", "beginner", "--deals", "2", "--jobs", "1"]) == 2
    out, err = capsys.readouterr()
    assert message in err and "Traceback" not in err
    assert out == "" and err.count("\n") == 1  # refused at once: no deal, no progress


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_arena_refuses_jobs_below_one(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["arena", "--a", "beginner", "--b", "random", "--deals", "1", "--jobs", jobs])
    assert stop.value.code == 2
    assert "argument --jobs:" in capsys.readouterr().err


@pytest.mark.parametrize("worlds", ["0", "-3"])
def test_hint_refuses_worlds_below_one(worlds: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["hint", "--hand", "AS KS 7S 2S AH QH 5H 9D 4D KC 8C 6C 3C", "--worlds", worlds])
    assert stop.value.code == 2
    assert f"argument --worlds: must be 1 or more, not {worlds}" in capsys.readouterr().err


@pytest.mark.parametrize(("hand", "players", "message"), [
    ("AS KS 7S 2S AH QH 5H 9D", "6",
     "a card of --hand is not in this deck: 2S (the race400 deck for 6 players has no "
     "2C, 2D, 2H or 2S: twos are taken out, 2C first, so that the 6 players get 8 cards "
     "each)"),
    ("AS KS 7S 2C AH QH 5H 9D 4D KC 8C 6C 3C JS TS 9S 8S", "3",
     "a card of --hand is not in this deck: 2C (the race400 deck for 3 players has no 2C: "
     "twos are taken out, 2C first, so that the 3 players get 17 cards each)"),
    ("AS KS 2D 2C AH QH 5H 9D 4D KC", "5",
     "a card of --hand is not in this deck: 2C, 2D (the race400 deck for 5 players has no "
     "2C or 2D: "),
])
def test_hint_names_the_card_of_hand_not_in_the_deck_and_why(
        hand: str, players: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "--hand", hand, "--rules", "race400", "--players", players]) == 2
    assert f"spades hint: {message}" in capsys.readouterr().err


def test_hint_says_a_joker_is_not_in_a_deck_without_jokers(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "--hand", "AS KS 7S 2S AH QH 5H 9D 4D KC 8C 6C LJ"]) == 2
    assert ("spades hint: a card of --hand is not in this deck: LJ (the cardems deck has no "
            "jokers)\n") in capsys.readouterr().err


def test_arena_with_every_deal_void_has_no_result(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # (a missing program is refused before any deal: a program that fails at once voids all)
    crash = f"{sys.executable} {Path(__file__).with_name('broken_bot.py')} crash"
    code = main(["arena", "--a", f"cmd:{crash}", "--b", "beginner", "--deals", "2",
                 "--jobs", "1", "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1
    last = json.loads(out.strip().splitlines()[-1])
    assert last["deals"] == 0 and last["void"] == 2
    assert last["mean"] is None and last["ci95"] is None
    assert "A minus B: no result" in out
    assert "every deal failed (2 void), so there is no result; the first error: " in err
    assert f"external bot '{crash}' at seat " in err
    assert err.count("the program has exited") == 1  # told once, not also by the log


def test_hint_seat_by_name_as_for_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match.new(profile("cardems"), seed=5)
    record = tmp_path / "r.json"
    record.write_text(json.dumps(match.to_record()), encoding="utf-8")
    to_act = ["north", "east", "south", "west"][match.current_player]
    assert main(["hint", str(record), "--seat", to_act, "--json", "--worlds", "4"]) == 0
    assert json.loads(capsys.readouterr().out)["seat"] == match.current_player
    hand = "AS KS 7S 2S AH QH 5H 9D 4D KC 8C 6C 3C"
    assert main(["hint", "--hand", hand, "--seat", "W", "--json", "--worlds", "4"]) == 0
    assert json.loads(capsys.readouterr().out)["seat"] == 3
    assert main(["hint", "--hand", hand, "--seat", "up", "--worlds", "4"]) == 2
    assert "--seat: 'up' is not a seat; use north, east, south, west" in capsys.readouterr().err
    # (it said "it is seat 2's turn, not seat 0's" to someone who typed north)
    other = ["north", "east", "south", "west"][(match.current_player + 1) % 4]
    assert main(["hint", str(record), "--seat", other, "--worlds", "4"]) == 2
    assert (f"it is {to_act.capitalize()}'s turn (seat {match.current_player}), not "
            f"{other.capitalize()}'s (seat {(match.current_player + 1) % 4}): leave out "
            "--seat for the seat to act") in capsys.readouterr().err
    assert main(["hint", str(tmp_path / "nope.json")]) == 2
    assert f"cannot read {tmp_path / 'nope.json'}: No such file" in capsys.readouterr().err


def test_arena_teams_solo_makes_a_partnership_profile_solo_as_for_play(
        capsys: pytest.CaptureFixture[str]) -> None:
    # --help: "--teams HOW ... (as for spades play)"; spades play --teams solo plays cardems
    # solo, but the arena dropped "solo" (the same None as no --teams) and played partners.
    code = main(["arena", "--a", "beginner", "--b", "random", "--deals", "1", "--jobs", "1",
                 "--quiet", "--json", "--teams", "solo"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["teams"] is False and result["rules"] == "cardems"
    code = main(["arena", "--a", "beginner", "--b", "random", "--deals", "1", "--jobs", "1",
                 "--quiet", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out.strip().splitlines()[-1])["teams"]


def test_hint_takes_back_the_cards_it_prints(capsys: pytest.CaptureFixture[str]) -> None:
    # "North (seat 0) holds 2♥ 3♥ 4♥ Q♠ ..." then --hand with those very words: "'2♥' is not
    # a card".
    assert main(["hint", "--hand", "AS KS 7S 2S AH QH 5H 9D 4D KC 8C 6C 3C", "--worlds",
                 "6"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("North (seat 0) holds "), first
    held = first.removeprefix("North (seat 0) holds ")
    assert "♥" in held
    assert main(["hint", "--hand", held, "--worlds", "6"]) == 0, capsys.readouterr().err


def test_hint_for_a_seat_that_has_not_looked_says_so_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # bots.md: "It prints the seat's cards, then the hint"; a seat that may still bid blind
    # nil has not seen them, and the hint was printed alone, naming no seat.
    match = Match.new(profile("cards4net"), seed=5)
    path = tmp_path / "blind.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    assert main(["hint", str(path), "--worlds", "6"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first == "West (seat 3) has not looked at its cards (it may bid blind nil)"
    assert second.startswith("Hint: ") and second.endswith(("[look]", "[blind-nil]"))


def test_arena_records_name_their_players_where_replay_reads_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --save wrote the players only as "players", a field records.md does not know, so
    # spades replay (and spades import) called them North, East, South and West.
    save = tmp_path / "deals.jsonl"
    assert main(["arena", "--a", "intermediate", "--b", "random", "--deals", "1", "--jobs",
                 "1", "--quiet", "--save", str(save)]) == 0
    first = json.loads(save.read_text().splitlines()[0])
    assert first["names"] == first["players"] == ["A:intermediate", "B:random"] * 2
    capsys.readouterr()
    assert main(["replay", str(save)]) == 0
    sheet = capsys.readouterr().out
    assert "A:intermediate" in sheet and "North" not in sheet


def test_hint_names_given_as_one_text_are_refused() -> None:
    # hint(obs, names="Ann Bob Cy Di") named the seats by its letters: "A", "n", "n", " ".
    match = Match.new(profile("cardems"), seed=1)
    obs = match.observation(match.current_player)
    with pytest.raises(TypeError, match=r"^names: a list of names by seat, like \['Ann', "
                                        r"'Bob', 'Cy', 'Di'\], not the text 'Ann Bob Cy Di'$"):
        hint(obs, names="Ann Bob Cy Di")  # type: ignore[arg-type]
    assert hint(obs, worlds=4, names=["Ann", "Bob", "Cy", "Di"]).reason


def test_a_hint_under_blind_nil_names_it_blind_nil() -> None:
    """Every card after a Blind Nil bid was explained as keeping "your Nil" safe: a Blind
    Nil is said as one, as the bids and the scores say it."""
    import random

    from spades.engine import BLIND_NIL, LOOK

    said: list[str] = []
    for seed in range(30):
        m = Match(profile("cards4net"), dealer=3, rng=random.Random(seed))
        m.apply(BLIND_NIL)  # North, first to bid, before looking
        while m.phase == "bid":
            m.apply(LOOK if LOOK in m.legal_actions() else m.legal_actions()[1])
        while m.phase == "play" and m.tricks[0] == 0:
            obs = m.observation(m.current_player)
            if m.current_player == 0:
                said.append(hint(obs, worlds=4).reason)
            m.apply(m.legal_actions()[0])
        if len(said) >= 6:
            break
    nil_talk = [s for s in said if "Nil" in s]
    assert nil_talk, said
    assert all("Blind Nil" in s for s in nil_talk), nil_talk


def test_a_bid_hint_after_a_partners_blind_nil_names_it_blind_nil() -> None:
    """A blind trial heard "Your partner North bids Blind Nil.", then the hint "bid 2: …; your
    partner North bid nil, so you will need to cover": a Blind Nil is said as one (and Nil
    with its capital, as the bids say it)."""
    import random

    from spades.engine import BLIND_NIL, LOOK

    said: list[str] = []
    for seed in range(40):
        m = Match(profile("cards4net"), dealer=3, rng=random.Random(seed))
        m.apply(BLIND_NIL)  # North, first to bid, before looking
        while m.current_player != 2:  # East looks and bids
            m.apply(LOOK if LOOK in m.legal_actions() else m.legal_actions()[1])
        if LOOK in m.legal_actions():
            m.apply(LOOK)
        reason = hint(m.observation(2), worlds=4).reason
        if "nil" in reason.lower():
            said.append(reason)
        if len(said) >= 4:
            break
    assert said
    assert all("bid Blind Nil" in s for s in said), said


@pytest.mark.parametrize("extra, said", [
    (["--rules", "race400"], "--rules is"),
    (["--players", "5"], "--players is"),
    (["--seed", "3"], "--seed is"),
    (["--rules", "race400", "--seed", "3"], "--rules and --seed are"),
])
def test_hint_of_a_record_refuses_the_options_of_hand(
        extra: list[str], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # spades hint game.json --rules race400 gave the cardems record's hint as if the
    # option had been read: --rules, --players and --seed were silently ignored.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(Match.new(profile("cardems"), 1).to_record()), encoding="utf-8")
    assert main(["hint", str(path), *extra]) == 2
    assert capsys.readouterr().err == (f"spades hint: {said} for --hand only: a record holds "
                                       "its own rules and cards\n")
    assert main(["hint", str(path)]) == 0
