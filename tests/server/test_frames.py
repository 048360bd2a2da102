"""spades.server.frames: every frame is built from its protocol model, matches the published
schema, and carries nothing its model lacks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from spades.server import frames
from spades.server.protocol import (
    ChatLine,
    ScoreInfo,
    TableOptions,
    TableState,
    TurnInfo,
    UserInfo,
    YouInfo,
)
from tests.server.frames import check_schema


def _frame(text: str) -> dict[str, Any]:
    frame = json.loads(text)
    check_schema(frame)
    return frame


def _state(invite: str | None) -> TableState:
    return TableState(id="t1", name="T", status="active", options=TableOptions(), rules={},
                      seats=[], spectating=0, owner=1, invite=invite, game_id="t1")


def test_small_frames_are_their_models() -> None:
    assert _frame(frames.error("state", "no", 3)) == {
        "type": "error", "ref": 3, "code": "state", "message": "no"}
    assert _frame(frames.ack("a", 7)) == {"type": "ack", "ref": "a", "seq": 7}
    assert _frame(frames.ack(None)) == {"type": "ack", "ref": None, "seq": None}
    assert _frame(frames.pong(1, 2.5)) == {"type": "pong", "ref": 1, "time": 2.5}
    assert _frame(frames.welcome(UserInfo(id=1, name="Kim", guest=True), ["t1"],
                                 {"chat_max": 300})) == {
        "type": "welcome", "user": {"id": 1, "name": "Kim", "guest": True}, "tables": ["t1"],
        "limits": {"chat_max": 300}}
    assert _frame(frames.hint(None, "t1", "QH", "why")) == {
        "type": "hint", "ref": None, "table_id": "t1", "action": "QH", "reason": "why"}
    assert _frame(frames.spectators("t1", ["A", "B"])) == {
        "type": "spectators", "table_id": "t1", "spectating": 2, "names": ["A", "B"]}
    line = ChatLine(name="Kim", guest=False, seat=0, text="hi", at=1.0)
    assert _frame(frames.chat(4, "t1", line))["line"] == line.model_dump()
    assert _frame(frames.lobby_remove("t1")) == {"type": "lobby_remove", "table_id": "t1"}


def test_lobby_rows_keep_only_their_fields() -> None:
    row = {"id": "t1", "name": "T", "status": "waiting", "profile": "cardems", "players": 4,
           "humans": 1, "open_seats": 3, "spectators": True, "spectating": 0, "owner": "Kim",
           "turn_timer": None, "private": False, "paused": False}
    lobby = _frame(frames.lobby([{**row, "secret": "x"}], 1, 0, None))
    assert lobby == {"type": "lobby", "tables": [row], "total": 1, "offset": 0, "limit": None}
    assert _frame(frames.lobby_update(row))["table"] == row
    # A row from a process that predates ``paused`` (a cluster mid-upgrade) is not paused.
    older = {k: v for k, v in row.items() if k != "paused"}
    assert _frame(frames.lobby_update(older))["table"] == row
    with pytest.raises(ValidationError):
        frames.lobby_update({**row, "status": "nonsense"})



def test_a_lobby_or_table_answer_carries_its_ref_only_when_asked_with_one() -> None:
    """``ref`` is in a ``lobby``/``table`` frame only as the answer to a request that had one
    (the shared whole-lobby text gets it spliced in), never as ``"ref": null``."""
    row = {"id": "t1", "name": "T", "status": "waiting", "profile": "cardems", "players": 4,
           "humans": 1, "open_seats": 3, "spectators": True, "spectating": 0, "owner": "Kim",
           "turn_timer": None, "private": False, "paused": False}
    plain = frames.lobby([row], 1, 0, None)
    assert "ref" not in _frame(plain)
    for ref in ("a,b", 0, -5):
        asked = _frame(frames.lobby([row], 1, 0, None, ref))
        assert asked == {**_frame(plain), "ref": ref}
        assert _frame(frames.with_ref(plain, ref)) == asked
    assert frames.with_ref(plain, None) == plain
    you = YouInfo(role="player", seat=0)
    table = _frame(frames.table(3, _state(None), you, "null", None, None, []))
    assert "ref" not in table
    assert _frame(frames.table(3, _state(None), you, "null", None, None, [], "r")) == {
        **table, "ref": "r"}


def test_the_schema_section_of_protocol_md_is_current() -> None:
    """docs/protocol.md ends with ``python -m spades.server.schema --markdown``'s output
    (``--update-doc docs/protocol.md`` writes it): a model changed without it fails here."""
    from pathlib import Path

    from spades.server.schema import MARKER, markdown

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(
        encoding="utf-8")
    assert doc.split(MARKER, 1)[1] == "\n" + markdown() + "\n", (
        "run python -m spades.server.schema --update-doc docs/protocol.md")


def test_event_frames_share_their_parts_and_word_each_seat() -> None:
    fact = {"type": "play", "seat": 1, "card": "3C", "trick": 1}
    out = frames.EventFrames(5, "t1", {"kind": "play", "hand": 1, "seat": 1, "action": "3C"},
                             [fact], TurnInfo(seat=2, deadline=None, seconds=None), None,
                             (_state("ABC"), _state(None)))
    said = out.said("West plays 3C", ["West plays 3C"])
    player = _frame(out.frame(said, '{"hand": []}', YouInfo(role="player", seat=0)))
    watcher = _frame(out.frame(said, "null", YouInfo(role="spectator", seat=None)))
    assert player["seq"] == 5 and player["event"]["news"] == [{**fact, "text": "West plays 3C"}]
    assert player["event"]["text"] == "West plays 3C" and player["event"]["trick"] is None
    assert player["table"]["invite"] == "ABC" and watcher["table"]["invite"] is None
    assert watcher["view"] is None and player["view"] == {"hand": []}
    bare = frames.EventFrames(6, "t1", {"kind": "started"}, [], None,
                              ScoreInfo(scores=[0, 0], bags=[0, 0], bag_warning=["", ""],
                                        near_bag_limit=[False, False], sides=[[0, 2], [1, 3]]))
    frame = _frame(bare.frame(bare.said("the match starts"), "null"))
    assert "table" not in frame and "you" not in frame and frame["event"]["news"] == []


def test_a_field_the_model_lacks_cannot_be_sent() -> None:
    with pytest.raises(frames.FrameError):
        frames.EventFrames(1, "t1", {"kind": "play", "secret": 1}, [], None, None)
    with pytest.raises(frames.FrameError):
        frames.EventFrames(1, "t1", {"kind": "play"},
                           [{"type": "deal", "hand": 1, "dealer": 0, "secret": 1}], None, None)
    with pytest.raises(ValidationError):
        frames.EventFrames(1, "t1", {"kind": "play"}, [{"type": "play", "seat": 1}], None,
                           None)
    with pytest.raises(frames.FrameError):
        frames.EventFrames(1, "t1", {"kind": "play", "text": "words"}, [], None, None)
    out = frames.EventFrames(1, "t1", {"kind": "play"},
                             [{"type": "deal", "hand": 1, "dealer": 0}], None, None)
    with pytest.raises(frames.FrameError):
        out.said("words")  # one text for each item of the news
    news = json.loads(out.frame(out.said("x", ["y"]), "null"))["event"]["news"]
    assert news == [{"type": "deal", "hand": 1, "dealer": 0, "text": "y"}]


def test_the_schema_section_lists_every_message_the_server_reads_and_sends() -> None:
    """Each message type the WebSocket accepts or sends has its schema in docs/protocol.md
    (``rematch`` was read by the server but missing from it: the models were a second list)."""
    from spades.server.protocol import client_message, server_message

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    client, server = doc.split("## Schemas\n")[1].split("### Server → client")
    for adapter, part in ((client_message, client), (server_message, server)):
        kinds = set(adapter.json_schema()["discriminator"]["mapping"])
        listed = set(re.findall(r"^#### `(\w+)`$", part, re.M))
        assert kinds == listed, (kinds - listed, listed - kinds)
