"""Every server -> client frame, built from its model in :mod:`spades.server.protocol`.

One function per kind of frame. A frame holds only what its model declares: each part is
serialised by its pydantic model (extra keys are not kept), and the few frames put
together from parts (the ``event`` frame, sent to every member with its own view and
words) name only fields their model has, checked as they are joined.

The event frame is the hot path (every bid and card, to every member): its parts the same
for everyone (the event but its words, the engine's news but their words, turn, score, the
table's state) are serialised once per frame, and only the words (once per seat) and the
view (once per member) per member. See ``bench/frames_emit.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, TypeAdapter

from spades.server.protocol import (
    AckOut,
    BagWarningNews,
    BiddingClosedNews,
    BidNews,
    ChatLine,
    ChatOut,
    ContractNews,
    DealNews,
    ErrorOut,
    EventOut,
    GameEvent,
    HandScoredNews,
    HintOut,
    LobbyOut,
    LobbyRemoveOut,
    LobbyUpdateOut,
    LookNews,
    MatchOverNews,
    NilNews,
    PlayNews,
    PongOut,
    ScoreInfo,
    SheetOut,
    SpadesBrokenNews,
    SpectatorsOut,
    TableOut,
    TableState,
    TableSummary,
    TimeoutNews,
    TrickNews,
    TurnInfo,
    UserInfo,
    WelcomeOut,
    YouInfo,
    _News,
)

Ref = int | str | None

NEWS: dict[str, type[_News]] = {
    "deal": DealNews, "look": LookNews, "bid": BidNews, "bidding_closed": BiddingClosedNews,
    "play": PlayNews, "spades_broken": SpadesBrokenNews, "trick": TrickNews, "nil": NilNews,
    "contract": ContractNews, "hand_scored": HandScoredNews, "bag_warning": BagWarningNews,
    "timeout": TimeoutNews, "match_over": MatchOverNews,
}
_summaries: TypeAdapter[list[TableSummary]] = TypeAdapter(list[TableSummary])


class FrameError(ValueError):
    """A frame was to carry a field its model does not have."""


def _known(model: type[BaseModel], names: Iterable[str]) -> None:
    fields = model.model_fields
    for name in names:
        if name not in fields:
            raise FrameError(f"{model.__name__} has no field {name!r}")


def _joined(model: type[BaseModel], parts: Mapping[str, str]) -> str:
    """A JSON object of ``parts`` (field -> its JSON text), every one a field of ``model``."""
    _known(model, parts)
    return "{" + ",".join(f'"{name}":{text}' for name, text in parts.items()) + "}"


def _dump(model: BaseModel) -> str:
    return model.model_dump_json()


def _dump_answer(model: BaseModel, ref: Ref) -> str:
    """A frame whose ``ref`` is there only when it answers a request that had one."""
    return model.model_dump_json(exclude=None if ref is not None else {"ref"})


def with_ref(text: str, ref: Ref) -> str:
    """``text``, a frame serialised without a ref (one shared by many clients), with
    ``ref`` put in after its type (nothing added when ``ref`` is None)."""
    if ref is None:
        return text
    head, rest = text.split(",", 1)  # '{"type":"lobby"' (a type has no comma)
    return f"{head},\"ref\":{json.dumps(ref)},{rest}"


# Small frames ---------------------------------------------------------------------------------

def error(code: str, message: str, ref: Ref = None) -> str:
    return _dump(ErrorOut(ref=ref, code=code, message=message))


def ack(ref: Ref, seq: int | None = None) -> str:
    return _dump(AckOut(ref=ref, seq=seq))


def pong(ref: Ref, at: float) -> str:
    return _dump(PongOut(ref=ref, time=at))


def welcome(user: UserInfo, tables: list[str], limits: dict[str, int | float],
            ref: Ref = None) -> str:
    """The ``welcome`` answering a ``hello`` (``ref``: the hello's)."""
    return _dump_answer(WelcomeOut(ref=ref, user=user, tables=tables, limits=limits), ref)


def hint(ref: Ref, table_id: str, action: str, reason: str) -> str:
    return _dump(HintOut(ref=ref, table_id=table_id, action=action, reason=reason))


def spectators(table_id: str, names: list[str]) -> str:
    return _dump(SpectatorsOut(table_id=table_id, spectating=len(names), names=names))


def chat(seq: int, table_id: str, line: ChatLine) -> str:
    return _dump(ChatOut(seq=seq, table_id=table_id, line=line))


def sheet(table_id: str, content: Mapping[str, Any]) -> SheetOut:
    """The ``sheet`` frame's model (sent as a frame, :func:`sheet_answer`, and as the HTTP
    sheet's body, :func:`sheet_body`)."""
    return SheetOut(table_id=table_id, **content)


def sheet_answer(model: SheetOut, ref: Ref = None) -> str:
    """The ``sheet`` frame answering a ``sheet`` message (``ref``: its ref)."""
    return _dump_answer(model.model_copy(update={"ref": ref}), ref)


def sheet_text(table_id: str, fields: Mapping[str, Any], hands: str, text: str) -> str:
    """The ``sheet`` frame without a ref (:func:`with_ref` adds one) from its fields but
    ``hands`` and ``text`` (checked by its model) and those two as they are kept, ``hands``
    already JSON text (``spades.server.views.SheetParts``)."""
    model = SheetOut(table_id=table_id, hands=[], text="", **fields)
    out = model.model_dump_json(exclude={"ref", "hands", "text"})
    return f'{out[:-1]},"hands":{hands},"text":{json.dumps(text)}}}'


def sheet_body(model: SheetOut) -> dict[str, Any]:
    """The HTTP sheet's body: the frame's fields without ``ref`` (it answers no message)."""
    return model.model_dump(exclude={"ref"})


# The lobby ------------------------------------------------------------------------------------

def summaries(rows: Sequence[TableSummary | Mapping[str, Any]]) -> list[TableSummary]:
    """Lobby rows as models (rows told by other processes come as dicts)."""
    return _summaries.validate_python(rows)


def summaries_json(rows: Sequence[TableSummary | Mapping[str, Any]]) -> bytes:
    """Lobby rows as the JSON list ``GET /api/tables`` answers with."""
    return _summaries.dump_json(summaries(rows))


def lobby(rows: Sequence[TableSummary | Mapping[str, Any]], total: int, offset: int,
          limit: int | None, ref: Ref = None) -> str:
    return _dump_answer(LobbyOut(ref=ref, tables=summaries(rows), total=total, offset=offset,
                                 limit=limit), ref)


def lobby_update(row: TableSummary | Mapping[str, Any]) -> str:
    return _dump(LobbyUpdateOut(table=TableSummary.model_validate(row)))


def lobby_remove(table_id: str) -> str:
    return _dump(LobbyRemoveOut(table_id=table_id))


# A table --------------------------------------------------------------------------------------

def table(seq: int, state: TableState, you: YouInfo, view: str,
          turn: TurnInfo | None, score: ScoreInfo | None, chat: Sequence[ChatLine],
          ref: Ref = None, *, back: bool = False, arrival: bool = False) -> str:
    """The ``table`` snapshot for one client (``view``: its view as JSON text,
    ``Table.view_text``; ``ref``: of the resync it answers; ``back``: the join it answers
    brings the client back to its seat; ``arrival``: it seats the client at a continued
    record's table for the first time)."""
    out = TableOut(ref=ref, seq=seq, table=state, you=you, view=None, turn=turn,
                   score=score, chat=list(chat), back=back, arrival=arrival)
    exclude: dict[str, Any] = {"you": _you_unsaid(you), "view": True}
    if ref is None:
        exclude["ref"] = True
    text = out.model_dump_json(exclude=exclude)
    return f'{text[:-1]},"view":{view}}}'


def _you_unsaid(you: YouInfo) -> set[str]:
    """``you``'s fields left out of a frame: those only a rematch's watcher has (``invited``,
    ``kept``), when they say nothing (``{"role": "player", "seat": 2}`` as before)."""
    return {"invited", "kept"} if not you.invited else set()


def you_json(you: YouInfo) -> str:
    return you.model_dump_json(exclude=_you_unsaid(you))


def _json(value: Any) -> str:
    return json.dumps(value)


class EventFrames:
    """One ``event`` frame, for each member: the shared parts are serialised once (in the
    constructor), the words once per seat (:meth:`said`) and the view per member
    (:meth:`frame`).

    ``event``: the :class:`GameEvent`'s fields but ``text``, ``news`` and ``details``
    (given per seat, :meth:`said`); ``news``: the
    engine's events (``to_json()``), their words given per seat; ``table``: the table's
    state for members and for spectators (who see no invite code), on events that change
    it; ``owner_table``: the owner's copy of it, when theirs differs (it lists whom they
    removed)."""

    __slots__ = ("_event", "_head", "_news", "_owners", "_rest", "_tables")

    def __init__(self, seq: int, table_id: str, event: Mapping[str, Any],
                 news: Sequence[Mapping[str, Any]], turn: TurnInfo | None,
                 score: ScoreInfo | None,
                 table: tuple[TableState, TableState] | None = None,
                 owner_table: TableState | None = None) -> None:
        for name in ("text", "news", "details"):
            if name in event:
                raise FrameError(f"the event's {name} is given per seat")
        self._head = _joined(EventOut, {"type": '"event"', "seq": str(seq),
                                        "table_id": _json(table_id)})[:-1]
        _known(GameEvent, event)
        self._event = GameEvent(**event).model_dump_json(
            exclude={"text", "news", "details"})[:-1]
        self._news = [self._fact(fact) for fact in news]
        self._rest = _joined(EventOut, {
            "turn": turn.model_dump_json() if turn is not None else "null",
            "score": score.model_dump_json() if score is not None else "null"})[1:-1]
        self._tables = None if table is None else (table[0].model_dump_json(),
                                                   table[1].model_dump_json())
        self._owners = None if owner_table is None else owner_table.model_dump_json()

    @staticmethod
    def _fact(fact: Mapping[str, Any]) -> str:
        model = NEWS.get(fact.get("type", ""))
        if model is None:
            raise FrameError(f"no news of type {fact.get('type')!r}")
        _known(model, fact)
        return model(**fact, text="").model_dump_json(exclude={"text"})[:-1]

    def said(self, text: str, news_texts: Sequence[str] = (),
             details: list[list[str]] | None = None) -> str:
        """The event as one seat hears it: ``text``, each news item's words and (a scored
        hand) each side's ``details`` in words."""
        if len(news_texts) != len(self._news):
            raise FrameError("one text for each item of the news")
        items = ",".join(f'{fact},"text":{_json(said)}}}'
                         for fact, said in zip(self._news, news_texts, strict=True))
        return (f'{self._event},"details":{_json(details)},"text":{_json(text)},'
                f'"news":[{items}]}}')

    def frame(self, said: str, view: str, you: YouInfo | None = None, *,
              owner: bool = False) -> str:
        """The frame for one member: the event as its seat hears it (:meth:`said`), its
        view as JSON text (``Table.view_text``; the spectators' shared) and, with the
        table's state, its role. ``owner``: the member is the table's owner (it gets the
        owner's copy of the state, when there is one)."""
        tail = f',"event":{said},{self._rest},"view":{view}'
        if self._tables is not None:
            if you is None:
                raise FrameError("the table's state goes with the member's role")
            shown = self._tables[0] if you.role == "player" else self._tables[1]
            if owner and self._owners is not None and you.role == "player":
                shown = self._owners
            tail += f',"table":{shown},"you":{you_json(you)}'
        return self._head + tail + "}"


