"""What outlives one match in the terminal: saved games, records carried between the apps,
statistics (a user's trial of them)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.terminal.driver import run_cli

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def example() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return record


def stats(db: Path) -> dict[str, Any]:
    out = run_cli("stats", "--json", "--db", str(db))
    assert out.returncode == 0, out.stderr
    book: dict[str, Any] = json.loads(out.stdout)
    return book


def test_a_match_imported_again_is_counted_once(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    record = example()
    first = tmp_path / "match.json"
    first.write_text(json.dumps(record), encoding="utf-8")
    # The same match as the server gives it back (another id, its own names for the seats).
    served = tmp_path / "served.json"
    served.write_text(json.dumps({**record, "id": "0f0e0d0c-0000-4000-8000-000000000000",
                                  "names": ["CPU 1", "Ann", "CPU 3", "CPU 4"]}),
                      encoding="utf-8")
    for path in (first, first, served):
        out = run_cli("import", str(path), "--db", str(db))
        assert out.returncode == 0, out.stderr
    history = run_cli("history", "--db", str(db)).stdout
    assert history.count("(imported)") == 3  # all three are kept, to review
    book = stats(db)
    assert book["total"]["matches_played"] == 1, book["total"]
    assert book["total"]["hands_played"] == len(record["hands"])
    # The same match cut after its first hand is a shorter copy of it: counted once.
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps({**record, "hands": record["hands"][:1]}), encoding="utf-8")
    assert run_cli("import", str(cut), "--db", str(db)).returncode == 0
    book = stats(db)
    assert book["total"]["matches_played"] == 1
    assert book["total"]["hands_played"] == len(record["hands"])


def test_a_game_continued_after_its_export_counts_once_as_it_ended(tmp_path: Path) -> None:
    """A game quit in its second hand, exported, imported and played to its end (here, at
    the server, or in another terminal): ``spades stats`` left the finished import out as a
    copy of the game it was exported from (its ``source_id``), and counted that unfinished
    game instead: "Matches: 0 played" after a match won. The match counts once, as far as
    it went."""
    from spades.engine import replay
    from spades.store import Store

    db = tmp_path / "g.sqlite3"
    record = example()
    second = record["hands"][1]
    quit_at = {**record, "hands": [record["hands"][0], {**second, "plays": second["plays"][:6]}]}
    seats = [{"name": n, "cpu": None if i == 2 else "intermediate"}
             for i, n in enumerate(record["names"])]
    store = Store.open(db)
    played = store.save_record(replay(quit_at), kind="terminal", seats=seats,
                               options={"human": 2})
    store.close()
    out = run_cli("export", played[:8], "--db", str(db))
    assert out.returncode == 0, out.stderr
    exported = json.loads(out.stdout)
    assert exported["hands"] == quit_at["hands"]
    # The export imported and played on to the end: the stored import is the whole match.
    ended = tmp_path / "ended.json"
    ended.write_text(json.dumps({**exported, "hands": record["hands"]}), encoding="utf-8")
    assert run_cli("import", str(ended), "--db", str(db)).returncode == 0
    book = stats(db)["total"]
    assert book["matches_played"] == 1, book
    assert book["hands_played"] == len(record["hands"]), book
    # The shorter copy of it (imported here too) adds nothing; neither does the game itself.
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(quit_at), encoding="utf-8")
    assert run_cli("import", str(cut), "--db", str(db)).returncode == 0
    assert stats(db)["total"] == book
    # A copy that went on otherwise (another card in the second hand) is a match of its own.
    branches = []
    for action in replay(quit_at).legal_actions():
        other = replay(quit_at)
        other.apply(action)
        branches.append(other)
    other = next(m for m in branches
                 if m.to_record()["hands"][1]["plays"][6] != second["plays"][6])
    branch = tmp_path / "branch.json"
    branch.write_text(json.dumps({**other.to_record(), "names": record["names"]}),
                      encoding="utf-8")
    assert run_cli("import", str(branch), "--db", str(db)).returncode == 0
    # Its first hand and a half are the match's own, counted with it; it is a second
    # (unfinished) match of one more hand scored: the first.
    again = stats(db)["total"]
    assert again["matches_played"] == 1 and again["hands_played"] == book["hands_played"] + 1


def test_a_damaged_game_exports_what_can_be_read(tmp_path: Path) -> None:
    """``spades play --resume`` leaves a damaged game out and points to ``spades export``:
    the export writes the moves stored before the one that does not fit, says which, and the
    record imports to be continued."""
    import sqlite3

    db = tmp_path / "g.sqlite3"
    record = example()
    cut = tmp_path / "cut.json"
    first = record["hands"][0]
    cut.write_text(json.dumps({**record, "hands": [{**first, "plays": first["plays"][:12]}]}),
                   encoding="utf-8")
    out = run_cli("import", str(cut), "--db", str(db))
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(db) as conn:  # the 10th play becomes the 2nd again
        (gid,) = conn.execute("SELECT id FROM games").fetchone()
        second = conn.execute("SELECT value FROM events WHERE game_id = ? AND seq = 7",
                              (gid,)).fetchone()[0]
        conn.execute("UPDATE events SET value = ? WHERE game_id = ? AND seq = 15",
                     (second, gid))
    resume = run_cli("play", "--resume", "--plain", "--db", str(db), input="")
    assert f"spades export {gid[:8]} writes the moves stored before that one" in resume.stdout

    out = run_cli("export", gid[:8], "--db", str(db))
    assert out.returncode == 1
    assert "event 15: " in out.stderr and "has already been played" in out.stderr
    assert ("the record holds the moves stored before it (hand 1, after 13 bids and plays), "
            "the 3 stored events from there on are left out") in out.stderr
    salvaged = json.loads(out.stdout)
    assert salvaged["hands"][0]["plays"] == first["plays"][:9]
    saved = tmp_path / "salvaged.json"
    done = run_cli("export", gid[:8], str(saved), "--db", str(db))
    assert done.returncode == 1 and "as far as it can be read" in done.stderr
    assert json.loads(saved.read_text(encoding="utf-8")) == salvaged
    again = run_cli("import", str(saved), "--db", str(db))
    assert again.returncode == 0, again.stderr
    assert "unfinished, hand 1" in again.stdout


def test_show_says_where_you_sat_as_the_game_named_it(tmp_path: Path) -> None:
    """At three players seat 0 is North in the game; ``spades show`` said "you sat Seat 0
    as North"."""
    db = tmp_path / "g.sqlite3"
    game = tmp_path / "three.json"
    game.write_text(json.dumps({"rules": {"preset": "race400", "players": 3}, "hands": []}),
                    encoding="utf-8")
    for seat, place in [("0", "North"), ("southwest", "Southwest")]:
        assert run_cli("import", str(game), "--seat", seat, "--db", str(db)).returncode == 0
        shown = run_cli("show", "last", "--db", str(db))
        assert shown.returncode == 0, shown.stderr
        assert f"; you sat {place}. Result: unfinished." in shown.stdout, shown.stdout


def test_hint_on_a_finished_record_with_a_seat_says_the_match_is_over(tmp_path: Path) -> None:
    """``spades hint match.json --seat 1`` on a finished match said "it is seat -2's turn"."""
    for seat in ([], ["--seat", "1"]):
        out = run_cli("hint", str(EXAMPLE), *seat)
        assert out.returncode == 2
        assert out.stderr == ("spades hint: nobody is to act at the end of this record (the "
                              "match is over)\n"), out.stderr


def test_export_takes_its_file_after_the_db_option(tmp_path: Path) -> None:
    """``spades export last --db games.sqlite3 match.json`` (every command takes --db) was
    refused: 'unrecognized arguments: match.json'."""
    db = tmp_path / "g.sqlite3"
    assert run_cli("import", str(EXAMPLE), "--db", str(db)).returncode == 0
    target = tmp_path / "match.json"
    out = run_cli("export", "last", "--db", str(db), str(target))
    assert out.returncode == 0, out.stderr
    assert json.loads(target.read_text(encoding="utf-8"))["hands"] == example()["hands"]
    out = run_cli("export", "last", "--db", str(db), str(target), "another.json")
    assert out.returncode == 2 and "unrecognized arguments: another.json" in out.stderr
    assert not (tmp_path / "another.json").exists()


def test_a_game_whose_rules_cannot_be_read_is_named_not_skipped_in_silence(
        tmp_path: Path) -> None:
    """A saved game whose stored rules cannot be read (a damaged database) was left out of
    ``spades history`` and ``spades play --resume`` with only a log line ("skipping an
    unreadable game: ..."), and out of ``spades stats`` without a word."""
    import sqlite3

    db = tmp_path / "g.sqlite3"
    cut = tmp_path / "cut.json"
    record = example()
    cut.write_text(json.dumps({**record, "hands": record["hands"][:1]}), encoding="utf-8")
    for _ in range(2):
        assert run_cli("import", str(cut), "--db", str(db)).returncode == 0
    with sqlite3.connect(db) as conn:
        gid = conn.execute("SELECT id FROM games ORDER BY created_at").fetchone()[0]
        conn.execute("UPDATE games SET rules = ? WHERE id = ?",
                     (json.dumps({"preset": "nope"}), gid))
    why = "rules: unknown rules profile 'nope'"

    history = run_cli("history", "--db", str(db))
    assert history.returncode == 0
    assert f"  {gid[:8]}: cannot be read: {why}" in history.stdout, history.stdout
    assert "skipping" not in history.stderr, history.stderr

    resume = run_cli("play", "--resume", "--plain", "--db", str(db), input="q\n")
    assert f"Game {gid[:8]} cannot be read ({why}" in resume.stdout, resume.stdout
    assert "it is left out." in resume.stdout and "Continuing the only one." in resume.stdout
    assert "skipping" not in resume.stderr, resume.stderr

    stats = run_cli("stats", "--json", "--db", str(db))
    assert stats.returncode == 0
    assert json.loads(stats.stdout)["total"]["hands_played"] == 1
    assert (f"spades stats: game {gid[:8]} cannot be read ({why}" in stats.stderr
            and "it is left out of the statistics" in stats.stderr), stats.stderr


def test_a_record_whose_human_is_no_seat_says_so_on_import(tmp_path: Path) -> None:
    """A record edited by hand to ``"human": 7`` (or ``"west"``) was imported with you at
    South without a word; a seat's name is now read as ``--seat`` reads it, and a value that
    is no seat is named, with where you sit instead."""
    db = tmp_path / "g.sqlite3"
    record = example()
    for human, seat, note in [
            (7, "South as Sofia", "human: 7 is not a seat at this table (a number from 0 to 3, or a "
                         "seat's name); you sit South: give --seat to choose"),
            ("west", "West as Walt", None), (1, "East as Emil", None)]:
        path = tmp_path / "edited.json"
        path.write_text(json.dumps({**record, "human": human}), encoding="utf-8")
        out = run_cli("import", str(path), "--db", str(db))
        assert out.returncode == 0, out.stderr
        assert out.stderr == ("" if note is None else f"spades import: {path}: {note}\n")
        shown = run_cli("show", "last", "--db", str(db)).stdout
        assert f"; you sat {seat}. Result: won." in shown or \
            f"; you sat {seat}. Result: lost." in shown, shown


def test_the_servers_games_in_a_shared_database_are_not_the_terminals(tmp_path: Path) -> None:
    """``spades serve`` and ``spades play`` use the same database file by default. The
    records people uploaded to the server for review were listed by ``spades history`` and
    counted by ``spades stats`` as the terminal player's own games, and ``spades play --resume
    TABLE`` took a live table of the server into the terminal, storing moves under it."""
    from spades.engine import profile, replay
    from spades.store import Store

    db = tmp_path / "shared.sqlite3"
    record = example()
    store = Store.open(db)
    seats = [{"name": n} for n in ("Ann", "Bob", "Cid", "Dee")]
    store.save_record(replay(record), kind="import", seats=seats, options={"uploader": 7})
    table = store.create_game("table", profile("cardems"), seats=seats, first_dealer=0,
                              options={"owner": 7}, status="active")
    store.close()

    assert "No saved games yet" in run_cli("history", "--db", str(db)).stdout
    assert "No games played yet" in run_cli("stats", "--db", str(db)).stdout
    resume = run_cli("play", "--resume", table[:8], "--plain", "--db", str(db), input="q\n")
    assert resume.returncode == 2
    assert (f"spades play: game {table[:8]} is a table of the game server (spades serve), "
            "which shares this database, not a game of this terminal") in resume.stderr
    assert "There is no unfinished game" in run_cli(
        "play", "--resume", "--plain", "--db", str(db), input="q\n").stdout
    store = Store.open(db)
    assert store.events(table) == []  # nothing was stored under the server's table
    uploaded = store.list_games(kind="import")[0].id
    store.close()
    # spades show reads them, without a "you": it said "you sat South as Cid. Result: won."
    for game, what, result in [
            (uploaded, "a record uploaded to the game server (spades serve) for review",
             "finished"),
            (table, "a table of the game server (spades serve)", "unfinished")]:
        shown = run_cli("show", game[:8], "--db", str(db)).stdout
        assert f": {what}. Result: {result}.\n" in shown, shown
        assert "you sat" not in shown, shown
    # the terminal's own import of the same record is the player's
    assert run_cli("import", str(EXAMPLE), "--db", str(db)).returncode == 0
    assert stats(db)["total"]["matches_played"] == 1
    assert run_cli("history", "--db", str(db)).stdout.count("(imported)") == 1


def test_stats_say_whose_bids_nils_and_bags_they_count(tmp_path: Path) -> None:
    """"Bids: 7 made" counted the side's contracts, "Nil: 0 tried" only your own bids (your
    partner's nils are not there) and "Bags" the side's: the lines did not say whose."""
    db = tmp_path / "g.sqlite3"
    assert run_cli("import", str(EXAMPLE), "--seat", "south", "--db", str(db)).returncode == 0
    out = run_cli("stats", "--db", str(db)).stdout
    book = stats(db)["total"]
    assert (f"  Bids: {book['bids_made']} made, {book['bids_set']} set (your side's "
            "contracts).") in out, out
    assert "blind nil 0 tried, 0 made (your own bids)." in out, out
    assert book["bag_penalties"] == 1  # one, said as one: not "1 bag penalties"
    assert f"  Bags: {book['bags']} taken, 1 bag penalty (your side's)." in out, out


def test_importing_a_record_that_names_no_human_says_where_you_sit(tmp_path: Path) -> None:
    """A record from the server (or the arena) has no ``human``: imported, you sat South and
    your statistics counted South's side, without a word, though you may have sat North."""
    db = tmp_path / "g.sqlite3"
    out = run_cli("import", str(EXAMPLE), "--db", str(db))
    assert out.returncode == 0
    assert out.stderr == (f"spades import: {EXAMPLE}: the record does not say which seat is "
                          "yours (no human); you sit South, and your statistics count that "
                          "seat: give --seat to choose\n"), out.stderr
    for args in (["--seat", "north"], []):
        path = tmp_path / "own.json"
        path.write_text(json.dumps({**example(), "human": 0}), encoding="utf-8")
        again = run_cli("import", str(path if not args else EXAMPLE), *args, "--db", str(db))
        assert again.returncode == 0 and again.stderr == "", again.stderr


def test_the_resume_list_marks_imported_games_as_history_does(tmp_path: Path) -> None:
    """An unfinished game and its exported and imported copy were listed by ``--resume`` as
    two identical lines; ``spades history`` marks the copy "(imported)"."""
    db = tmp_path / "g.sqlite3"
    record = example()
    first = record["hands"][0]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps({**record, "hands": [{**first, "plays": first["plays"][:5]}]}),
                   encoding="utf-8")
    out = run_cli("import", str(cut), "--db", str(db))
    assert out.returncode == 0
    resume = run_cli("play", "--resume", "--plain", "--db", str(db), input="q\n")
    line = next(x for x in resume.stdout.splitlines() if x.startswith("  1. "))
    assert line.endswith(", cardems, hand 1: Nora and Sofia 0 to Emil and Walt 0 (imported)"), line
    assert "hand 1: Nora and Sofia 0 to Emil and Walt 0 (imported)" in run_cli(
        "history", "--db", str(db)).stdout


def test_a_servers_table_exported_from_a_shared_database_names_no_human(
        tmp_path: Path) -> None:
    """``spades export TABLE`` (the server's database) wrote ``"human": 2`` for a table of
    people, so importing it put you at South without the note that says so."""
    from spades.engine import replay
    from spades.store import Store

    db = tmp_path / "shared.sqlite3"
    store = Store.open(db)
    ann, cid = store.create_user("Ann", guest=True), store.create_user("Cid", guest=True)
    seats = [{"name": "Ann", "user_id": ann, "cpu": None}, {"name": "CPU 2", "cpu": "normal"},
             {"name": "Cid", "user_id": cid, "cpu": None}, {"name": "CPU 4", "cpu": "normal"}]
    table = store.save_record(replay(example()), kind="table", seats=seats,
                              options={"owner": ann})
    store.close()
    out = run_cli("export", table[:8], "--db", str(db))
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert "human" not in record and record["cpu"] == [None, "normal", None, "normal"]
    assert record["names"] == ["Ann", "CPU 2", "Cid", "CPU 4"]


def test_stats_of_custom_rules_can_be_asked_for_by_the_name_they_are_listed_under(
        tmp_path: Path) -> None:
    """An imported record of ``"preset": "custom"`` rules is counted under "custom rules:",
    but ``spades stats --rules custom`` was refused as an unknown rules profile."""
    db = tmp_path / "g.sqlite3"
    path = tmp_path / "custom.json"
    path.write_text(json.dumps({**example(), "human": 2, "rules": {
        "preset": "custom", "players": 4, "teams": [[0, 2], [1, 3]]}}), encoding="utf-8")
    assert run_cli("import", str(path), "--db", str(db)).returncode == 0
    assert run_cli("stats", "--db", str(db)).stdout.startswith("custom rules:\n")
    out = run_cli("stats", "--rules", "custom", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("custom rules:\n  Matches: 1 played"), out.stdout
    assert "No games played yet under cardems rules" in run_cli(
        "stats", "--rules", "cardems", "--db", str(db)).stdout


def test_history_reads_imports_a_page_at_a_time(tmp_path: Path,
                                                monkeypatch: Any) -> None:
    """The terminal's list of games leaves out the records uploaded to a server sharing the
    database; it read every import row there was to find its few (a club's server keeps
    thousands of uploads), and now reads them newest first, a page at a time, until it has
    enough of the terminal's own."""
    import spades.store
    from spades.cli.games import local_games
    from spades.engine import replay
    from spades.store import Store

    store = Store.open(tmp_path / "shared.sqlite3")
    match = replay(example())
    seats = [{"name": n} for n in ("Ann", "Bob", "Cid", "Dee")]
    for _ in range(30):  # older: uploads to the server
        store.save_record(match, kind="import", seats=seats, options={"uploader": 7})
    for _ in range(120):  # newer: the terminal's own imports
        store.save_record(match, kind="import", seats=seats, options={})
    read = 0
    real = spades.store._game_row

    def counted(row: Any) -> Any:
        nonlocal read
        read += 1
        return real(row)

    monkeypatch.setattr(spades.store, "_game_row", counted)
    games = local_games(store, 5)
    assert len(games) == 5 and all(g.options.get("uploader") is None for g in games)
    assert read <= 100  # one page (before: all 150 rows)
    read = 0
    assert len(local_games(store, 200)) == 120  # every page, to the last
    assert read == 150
    store.close()


def test_the_resume_list_takes_a_game_by_the_id_it_shows(tmp_path: Path) -> None:
    """``spades play --resume`` lists each unfinished game with its id, then took only its
    number: the id it had just shown (or its first letters, as ``--resume GAME`` takes
    them) was refused as "not one of the numbers 1 to 2"."""
    db = tmp_path / "g.sqlite3"
    ids = []
    for cut in (5, 9):
        record = example()
        record["hands"] = [dict(record["hands"][0], plays=record["hands"][0]["plays"][:cut])]
        path = tmp_path / f"cut{cut}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        out = run_cli("import", str(path), "--seat", "south", "--db", str(db)).stdout
        ids.append(out.split("Imported as game ")[1][:8])
    older = ids[0]  # listed second
    out = run_cli("play", "--plain", "--resume", "--db", str(db), input=f"{older[:6]}\nq\n")
    assert f"Resuming game {older}" in out.stdout, out.stdout
    assert "or its id (Enter for 1, q to quit)" in out.stdout
    out = run_cli("play", "--plain", "--resume", "--db", str(db), input="zz\nq\n")
    assert "'zz' is not one of the numbers 1 to 2, nor the start of one of these games' ids." in out.stdout
    assert "Nothing resumed." in out.stdout


def test_stats_of_unfinished_games_alone_give_no_average(tmp_path: Path) -> None:
    """An unfinished game before its first hand is scored put its profile in the statistics
    as "Hands: 0 played, 0 won, 0.0 points a hand on average": an average of no hands."""
    db = tmp_path / "g.sqlite3"
    record = example()
    record["hands"] = [dict(record["hands"][0], plays=record["hands"][0]["plays"][:5])]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert run_cli("import", str(path), "--seat", "south", "--db", str(db)).returncode == 0
    out = run_cli("stats", "--db", str(db)).stdout
    assert "  Hands: 0 played, 0 won, no average yet." in out, out
    assert run_cli("import", str(EXAMPLE), "--seat", "south", "--db", str(db)).returncode == 0
    assert "  Hands: 13 played, 7 won, 41.5 points a hand on average." in run_cli(
        "stats", "--db", str(db)).stdout


def _cut(record: dict[str, Any], plays: int) -> dict[str, Any]:
    """``record``'s first hand, stopped after ``plays`` cards."""
    first = record["hands"][0]
    return {**record, "hands": [{**first, "plays": first["plays"][:plays]}]}


def test_show_of_a_game_stopped_in_a_trick_lists_the_trick_so_far(tmp_path: Path) -> None:
    """``spades show`` of a game stopped in the middle of a trick said each player's bid
    and tricks taken, not the cards already played to the trick it stopped in."""
    db = tmp_path / "g.sqlite3"
    for plays, said in [
            (10, "Trick 3 so far: Walt led the two of hearts, Nora played the five of hearts; "
                 "Emil is to play. Spades are not broken yet."),
            (8, "Trick 3: no card has been played to it yet; Walt leads. Spades are not "
                "broken yet.")]:
        path = tmp_path / f"cut{plays}.json"
        path.write_text(json.dumps(_cut(example(), plays)), encoding="utf-8")
        assert run_cli("import", str(path), "--db", str(db)).returncode == 0
        shown = run_cli("show", "last", "--db", str(db))
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.endswith(
            "Emil and Walt: contract 3, 1 trick taken.\n" + said + "\n"), shown.stdout
    # between hands there is no trick to tell
    path = tmp_path / "two.json"
    path.write_text(json.dumps({**example(), "hands": example()["hands"][:2]}), "utf-8")
    assert run_cli("import", str(path), "--db", str(db)).returncode == 0
    assert "Trick" not in run_cli("show", "last", "--db", str(db)).stdout


def test_last_is_taken_in_any_case_as_ids_are(tmp_path: Path) -> None:
    """``spades show LAST`` said "no game with id 'LAST'", though ``spades show 1A2B``
    finds game 1a2b...: ``last`` is a word typed as ids are, in any case."""
    db = tmp_path / "g.sqlite3"
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(_cut(example(), 10)), encoding="utf-8")
    assert run_cli("import", str(path), "--db", str(db)).returncode == 0
    for word in ("LAST", "Last", " last"):
        shown = run_cli("show", word, "--db", str(db))
        assert shown.returncode == 0, shown.stderr  # before: no game with id 'LAST'
        assert "Result: unfinished." in shown.stdout
        exported = run_cli("export", word, "--db", str(db))
        assert exported.returncode == 0 and json.loads(exported.stdout)["hands"]
    resumed = run_cli("play", "--resume", "LAST", "--plain", "--db", str(db), input="q\n")
    assert "Resuming game" in resumed.stdout, resumed.stdout + resumed.stderr


def test_an_id_prefix_of_several_games_lists_them(tmp_path: Path) -> None:
    """``spades show 1`` with two games whose ids begin with 1 said "'1' matches more than
    one game; type more of its id", naming neither: the games are listed (up to five, the
    most recently played first), with how to choose."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from spades.engine import replay
    from spades.store import Store
    from spades.store.schema import games

    db = tmp_path / "g.sqlite3"
    store = Store.open(db)
    seats = [{"name": n} for n in example()["names"]]
    start = datetime(2026, 6, 2, 14, 5, tzinfo=UTC)
    for i in range(7):
        gid = f"1a2b{i:04d}-0000-4000-8000-000000000000"
        store.save_record(replay(_cut(example(), 4 * i)), kind="import", seats=seats,
                          options={"human": 2}, game_id=gid)
        with store.engine.begin() as conn:  # game 1a2b0006 played last
            conn.execute(update(games).where(games.c.id == gid)
                         .values(updated_at=start + timedelta(minutes=i)))
    store.close()
    for command in ("show", "export"):
        out = run_cli(command, "1a2b000", "--db", str(db))
        assert out.returncode == 1 and out.stdout == ""
        lines = out.stderr.splitlines()
        assert lines[0] == (f"spades {command}: '1a2b000' begins the ids of more than 5 "
                            "games; the 5 played last:"), out.stderr
        assert [line[:10] for line in lines[1:6]] == [
            f"  1a2b000{i}" for i in (6, 5, 4, 3, 2)], out.stderr
        assert lines[1].startswith("  1a2b0006, 2 June 2026 at ") and lines[1].endswith(
            ", cardems, unfinished, hand 1: Nora and Sofia 0 to Emil and Walt 0 (imported)"), lines[1]
        assert lines[6] == (f"Type more of the id to choose one, such as spades {command} "
                            "1a2b0006 (spades history lists the others).")
    # play --resume GAME says it the same way
    out = run_cli("play", "--resume", "1a2b", "--plain", "--db", str(db), input="q\n")
    assert out.returncode == 1
    assert "spades play: '1a2b' begins the ids of more than 5 games" in out.stderr, out.stderr
    assert "such as spades play --resume 1a2b0006 " in out.stderr
    # a few: all of them, and no others to look for
    few = tmp_path / "few.sqlite3"
    store = Store.open(few)
    for i in range(2):
        store.save_record(replay(_cut(example(), 4)), kind="import", seats=seats,
                          options={"human": 2}, game_id=f"2c{i}d0000-0000-4000-8000-000000000000")
    store.close()
    lines = run_cli("show", "2C", "--db", str(few)).stderr.splitlines()
    assert lines[0] == "spades show: '2C' begins the ids of 2 games:", lines
    assert len(lines) == 4 and re.fullmatch(
        r"Type more of the id to choose one, such as spades show 2c[01]d0000\.", lines[3]), lines


def test_finished_games_of_an_id_prefix_are_listed_as_spades_history_lists_them(
        tmp_path: Path) -> None:
    """The games an ambiguous id names said "finished" where ``spades history`` says "won" or
    "lost" (from your side), though the list is to be read as history's."""
    from spades.engine import replay
    from spades.store import Store

    db = tmp_path / "g.sqlite3"
    store = Store.open(db)
    seats = [{"name": n} for n in example()["names"]]
    for human in (0, 1):  # the same finished match, from either side
        store.save_record(replay(example()), kind="import", seats=seats,
                          options={"human": human},
                          game_id=f"3d{human}e0000-0000-4000-8000-000000000000")
    store.close()
    listed = run_cli("show", "3d", "--db", str(db)).stderr.splitlines()[1:3]
    history = run_cli("history", "--db", str(db)).stdout.splitlines()
    assert len(listed) == 2 and all(line in history for line in listed), (listed, history)
    assert {"won", "lost"} == {re.search(r", (won|lost|finished):", line)[1]  # type: ignore[index]
                               for line in listed}, listed


def test_a_game_between_hands_is_said_after_its_hand_everywhere(tmp_path: Path) -> None:
    """A record of a first hand played to its end (the next not dealt yet) was imported as
    "unfinished, hand 1" and listed so by ``spades history``, though ``spades play --resume``
    listed it "after hand 1" and said "hand 2 is next"; a record of no hand said "hand 1"
    too. Each says it as the list to resume does."""
    db = tmp_path / "g.sqlite3"
    record = example()
    one = tmp_path / "one.json"
    one.write_text(json.dumps({**record, "hands": record["hands"][:1]}), encoding="utf-8")
    out = run_cli("import", str(one), "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "(unfinished, after hand 1)." in out.stdout, out.stdout
    history = run_cli("history", "--db", str(db)).stdout
    assert ", cardems, unfinished, after hand 1: Nora and Sofia" in history, history
    resume = run_cli("play", "--resume", "--plain", "--db", str(db), input="q\n").stdout
    assert ", cardems, after hand 1: Nora and Sofia" in resume, resume
    none = tmp_path / "none.json"
    none.write_text(json.dumps({**record, "hands": []}), encoding="utf-8")
    out = run_cli("import", str(none), "--db", str(db))
    assert "(unfinished, not dealt yet)." in out.stdout, out.stdout
    assert ", cardems, unfinished, not dealt yet: " in run_cli("history", "--db", str(db)).stdout


def test_stats_say_that_unfinished_games_count_their_hands_so_far(tmp_path: Path) -> None:
    """``spades stats`` counts the hands so far of an unfinished game (the page's statistics,
    a server's finished matches only, do not): "Matches: 1 played" beside the hands of two
    matches, and nothing said of it, so the same games gave other numbers on the page."""
    db = tmp_path / "g.sqlite3"
    record = example()
    cut = tmp_path / "cut.json"  # one hand and a half of another match: one hand scored
    second = record["hands"][1]
    cut.write_text(json.dumps({**record, "hands": [record["hands"][0],
                                                   {**second, "plays": second["plays"][:6]}]}),
                   encoding="utf-8")
    out = run_cli("import", str(cut), "--db", str(db))
    assert out.returncode == 0, out.stderr
    text = run_cli("stats", "--db", str(db)).stdout
    assert ("  Counted: 0 finished matches and 1 unfinished one, whose 1 hand so far is in "
            "Hands, Bids, Nil and Bags (Matches counts finished ones only).") in text, text
    book = stats(db)["total"]
    assert (book["matches_unfinished"], book["hands_unfinished"]) == (1, 1), book
    assert run_cli("import", str(EXAMPLE), "--db", str(db)).returncode == 0  # it ended
    text = run_cli("stats", "--db", str(db)).stdout
    assert "  Counted: 1 finished match, no unfinished one.\n" in text, text
    book = stats(db)["total"]
    assert (book["matches_unfinished"], book["hands_unfinished"]) == (0, 0), book
    # an unfinished match with no hand scored yet adds no hands: said so, not "whose 0 hands"
    none = tmp_path / "none.json"
    none.write_text(json.dumps({**record, "hands": [{**record["hands"][0], "plays": []}]}),
                    encoding="utf-8")
    other = tmp_path / "other.sqlite3"  # (here it would be a copy of the match's beginning)
    assert run_cli("import", str(none), "--db", str(other)).returncode == 0
    text = run_cli("stats", "--db", str(other)).stdout
    assert ("  Counted: 0 finished matches and 1 unfinished one, which has no hand scored yet "
            "(Matches counts finished ones only).\n") in text, text
