"""Wire schemas: every HTTP body and WebSocket message, as pydantic models.

These are the only shapes that cross the network; domain objects (``Match``, ``Table``)
are converted to them at the edge. ``python -m spades.server.schema`` (or
``spades serve --print-schema``) prints a JSON schema for each message; docs/protocol.md
describes them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    TypeAdapter,
    ValidationInfo,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from spades.server.text import LABEL_MAX, clean_label, too_wide

#: The largest integer a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER).
SAFE_INT = 2 ** 53 - 1
#: A JSON integer only (not true, "1" or 1.0, which a lax int would take as 1).
Int = Annotated[int, Strict()]


def _ref(value: Any) -> int | str:
    if isinstance(value, str) and len(value) <= 40:
        try:  # JSON may spell half of a UTF-16 pair ("\ud800"): it could not be echoed
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"ref: character {exc.start + 1} is half of a UTF-16 surrogate "
                             "pair, not a character") from None
        return value
    if type(value) is int and -SAFE_INT <= value <= SAFE_INT:
        return value
    raise ValueError("ref is an integer from -(2**53-1) to 2**53-1 (one a JavaScript number "
                     "holds exactly) or a string of at most 40 characters")


Ref = Annotated[int | str, PlainValidator(_ref), WithJsonSchema({
    "anyOf": [{"type": "integer", "minimum": -SAFE_INT, "maximum": SAFE_INT},
              {"type": "string", "maxLength": 40}],
    "description": "client-chosen id echoed in what answers the message (its ack, error or "
                   "reply): an integer a JavaScript number holds exactly (|ref| <= 2**53-1) "
                   "or a string"})]

_ref_adapter: TypeAdapter[Any] = TypeAdapter(Ref)


def echo_ref(value: Any) -> int | str | None:
    """``value`` if it is a ref the schema takes (so an error about the rest of the
    message can still echo it), else None: a bad ref is never echoed."""
    try:
        ref: int | str = _ref_adapter.validate_python(value)
    except ValueError:
        return None
    return ref


Name = Annotated[str, Field(min_length=1, max_length=24)]
#: true or false only (not "yes", 1 or "false", which a lax bool would take).
Flag = Annotated[bool, Strict()]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


# Table options ------------------------------------------------------------------------------

def _label_narrow(label: str, info: ValidationInfo) -> str:
    """A table name a client gives is at most :data:`LABEL_MAX` letters wide
    (:func:`spades.server.text.width`); one read back from the store (``context``
    ``{"stored": True}``: restore.py) is taken as it was stored."""
    why = too_wide(label, LABEL_MAX)
    if why and not (info.context or {}).get("stored"):
        raise PydanticCustomError("too_wide", "this table name is too wide to show: {why}",
                                  {"why": why})
    return label


class TableOptions(_Strict):
    """What the owner may set before the start. ``None`` means "the profile's value"."""

    name: Annotated[str, AfterValidator(clean_label), AfterValidator(_label_narrow)] = Field(
        default="", max_length=LABEL_MAX, description="table name shown in the lobby (control, "
        "format and bidi characters removed, spaces collapsed; at most 40 characters and 40 "
        "letters wide: a Chinese character or an emoji counts 2, U+FDFD counts 20)")
    profile: str = Field(default="cardems", description="rules profile: cardems, cardgames-club, "
                         "race400, game93, cards4net")
    players: Int | None = Field(default=None, ge=3, le=6, description="3-6 where the profile allows")
    teams: Int | None = Field(default=None, ge=0, le=3, description="None: profile default; 0: solo; "
                              "2 or 3: that many teams (seated so no teammates are adjacent)")
    target: Int | None = Field(default=None, ge=1, le=10000)
    one_hand: Flag | None = None
    bag_limit: Int | None = Field(default=None, ge=1, le=100)
    bag_penalty: Int | None = Field(default=None, ge=0, le=10000)
    blind_nil: Flag | None = None
    bidding: Literal["standard", "mirror", "suicide", "whiz"] | None = None
    jokers: Flag | None = None
    ten_for_200: Flag | None = None
    turn_timer: Int | None = Field(default=None, ge=5, le=600,
                                   description="seconds per turn; None: no timer")
    cpu: str = Field(default="normal", max_length=40, description="CPU strength for empty seats "
                     "(see GET /api/profiles)")
    private: Flag = Field(default=False, description="not listed in the lobby; join by invite code")
    spectators: Flag = True
    grace_seconds: Int = Field(default=30, ge=0, le=600, description="how long a dropped player's "
                               "seat waits before a CPU covers it")
    first_dealer: Int | None = Field(default=None, ge=0, le=5, description="opening seat order: the "
                                     "first dealer's seat; None: random")


# Shared pieces ------------------------------------------------------------------------------

class UserInfo(BaseModel):
    id: int
    name: str
    guest: bool


class SeatInfo(BaseModel):
    """A seat (or, before the start, a place at the table)."""

    seat: int
    kind: Literal["empty", "human", "cpu"]
    name: str = ""
    user_id: int | None = None
    connected: bool = False
    covered: bool = Field(default=False, description="a CPU plays for this dropped player")
    team: int | None = Field(default=None, description="team chosen before the start / side after")
    owner: bool = False
    cpu: str | None = Field(default=None, description="CPU strength of a CPU seat")
    guest: bool = Field(default=False, description="a guest, not an account: show it as such "
                        "next to the name")
    kept_for: str | None = Field(default=None, description="before the start of a rematch: "
                                 "this empty place is kept for the named player of the "
                                 "match before until they are back (or the match starts): "
                                 "nobody else may choose it or sit there (a join that "
                                 "finds only kept places free is refused, saying so) "
                                 "unless the owner frees it (`remove`)")


class TurnInfo(BaseModel):
    seat: int
    deadline: float | None = Field(default=None, description="unix time when the turn timer fires")
    seconds: int | None = Field(default=None, description="the timer's length")


class ScoreInfo(BaseModel):
    scores: list[int]
    bags: list[int]
    bag_warning: list[str] = Field(description="per side: '' or e.g. '2 bags from a penalty' "
                                   "(within three bags of the limit)")
    near_bag_limit: list[bool]
    sides: list[list[int]] = Field(description="seats of each side")


class TableSummary(BaseModel):
    """A row of the lobby."""

    id: str
    name: str
    status: Literal["waiting", "active", "finished"]
    profile: str
    players: int
    humans: int
    open_seats: int
    spectators: bool
    spectating: int
    owner: str
    turn_timer: int | None
    private: bool
    paused: bool = Field(default=False, description="active, but no player is connected: "
                         "the match waits until one comes back (nothing to watch)")


class TableState(BaseModel):
    id: str
    name: str
    status: Literal["waiting", "active", "finished"]
    options: TableOptions
    rules: dict[str, Any] = Field(description=(
        "Rules.to_json() plus players, teams, hand_size and deck_words (which cards leave "
        "the 52-card deck and come in, in words; null for the plain deck)"))
    seats: list[SeatInfo]
    spectating: int
    owner: int | None = Field(default=None, description="user id of the owner")
    invite: str | None = Field(default=None, description="invite code (members only)")
    game_id: str
    winner: int | None = Field(default=None, description="winning side once over (None: draw)")
    winner_names: list[str] = Field(default_factory=list)
    partners: list[list[int]] = Field(
        default_factory=list, description="before the start, in a team game: the places "
        "that will play together if the match starts now, one list per team (places drawn "
        "across from each other, unless a team was declared; an empty place gets a CPU); "
        "empty otherwise")
    removed: list[RemovedInfo] = Field(
        default_factory=list, description="before the start, in the owner's copy only "
        "(empty for everyone else): the people the owner removed from their places, who may "
        "not sit at this table again until the owner lets them back in (`readmit`)")


class RemovedInfo(BaseModel):
    """Someone the owner removed from their place before the start (``remove``)."""

    user_id: int = Field(description="who: give it to `readmit` to let them back in")
    name: str = Field(description="their name when they were removed")
    guest: bool = Field(default=False, description="a guest, not an account")


class YouInfo(BaseModel):
    role: Literal["player", "spectator", "none"] = Field(
        description="none: no longer at the table (the owner removed you from a table that "
        "allows no spectators: the frame that tells you so is the last one)")
    seat: int | None
    invited: bool = Field(
        default=False, description="watching a rematch before its start: you played the "
        "match before, so you may sit down without its invite code (`join` as a player)")
    kept: int | None = Field(
        default=None, description="with `invited`: the empty place kept for you (you sit "
        "there when you join), if it still is; the other places `kept_for` someone are not "
        "yours to take")


class ChatLine(BaseModel):
    name: str
    guest: bool = Field(default=False, description="the writer is a guest, not an account")
    seat: int | None
    text: str = Field(description="plain text: insert with textContent")
    at: float


# The engine's events, as they travel in ``event.news`` (spades.engine.events, to_json()) ----

class _News(BaseModel):
    text: str = Field(description="one sentence for this client: its seat is \"you\", seats "
                      "named as the page draws them (spades.present.narrate)")


class DealNews(_News):
    type: Literal["deal"]
    hand: int
    dealer: int


class LookNews(_News):
    type: Literal["look"]
    seat: int
    timer: bool = Field(False, description="the turn timer looked for the seat (its time up)")


class BidNews(_News):
    type: Literal["bid"]
    seat: int
    bid: int | Literal["nil", "blind-nil"]


class BiddingClosedNews(_News):
    type: Literal["bidding_closed"]
    contracts: list[int] = Field(description="per side")
    leader: int
    nils: list[int] = Field(default_factory=list, description="the seats that bid Nil")
    blind_nils: list[int] = Field(default_factory=list,
                                  description="the seats that bid Blind Nil")


class PlayNews(_News):
    type: Literal["play"]
    seat: int
    card: str
    trick: int


class SpadesBrokenNews(_News):
    type: Literal["spades_broken"]
    seat: int
    card: str
    trick: int


class TrickNews(_News):
    type: Literal["trick"]
    winner: int
    trick: int
    cards: list[tuple[int, str]] = Field(description="(seat, card) in play order")
    card: str = Field(description="the winning card")
    taken: int = Field(description="the winner's tricks this hand")


class NilNews(_News):
    type: Literal["nil"]
    seat: int
    made: bool
    blind: bool
    trick: int


class ContractNews(_News):
    type: Literal["contract"]
    side: int
    made: bool
    contract: int
    tricks: int
    trick: int = Field(description="the trick that decided it (0: when bidding closed)")


class SideHandInfo(BaseModel):
    side: int
    contract: int
    tricks: int
    made: bool
    contract_points: int
    overtrick_points: int
    nil_points: int
    blind_nil_points: int = Field(0, description="of nil_points, what blind nil bids scored")
    nil_bids: list[int] = Field(default_factory=list, description="what each Nil bid of the "
                                "side scored, in seat order (Blind Nils apart)")
    blind_nil_bids: list[int] = Field(default_factory=list, description="what each Blind Nil "
                                      "of the side scored, in seat order")
    bonus_points: int
    loose_trick_points: int
    bag_penalty_points: int
    timer_penalty_points: int
    points: int
    score: int
    new_bags: int
    timer_bags: int
    bags: int


class HandScoredNews(_News):
    type: Literal["hand_scored"]
    hand: int
    sides: list[SideHandInfo]


class BagWarningNews(_News):
    type: Literal["bag_warning"]
    side: int
    bags: int
    left: int


class TimeoutNews(_News):
    type: Literal["timeout"]
    seat: int
    action: int | str
    side: int
    penalty_bags: int
    bags: int
    penalty_points: int


class MatchOverNews(_News):
    type: Literal["match_over"]
    winner: int | None
    scores: list[int]


News = Annotated[
    DealNews | LookNews | BidNews | BiddingClosedNews | PlayNews | SpadesBrokenNews | TrickNews
    | NilNews | ContractNews | HandScoredNews | BagWarningNews | TimeoutNews | MatchOverNews,
    Field(discriminator="type"),
]


class GameEvent(BaseModel):
    kind: Literal["deal", "bid", "look", "play", "hand_scored", "timeout", "timer_warning",
                  "match_over", "covered", "returned", "joined", "left", "seated", "options",
                  "owner", "started", "rematch", "readmitted", "freed"]
    hand: int = 0
    seat: int | None = None
    action: str | None = Field(default=None, description="the bid or card (record spelling)")
    trick: list[tuple[int, str]] | None = Field(default=None, description="a completed trick: "
                                                "(seat, card) in play order")
    trick_winner: int | None = None
    penalty_bags: int | None = None
    seconds_left: float | None = None
    result: dict[str, Any] | None = Field(default=None, description="a scored hand (sheet row)")
    details: list[list[str]] | None = Field(default=None, description=(
        "kind hand_scored: for each side (in the order of `result`'s), what its points for "
        "the hand are made of, one sentence each, in the words of the terminal's hand "
        "details (`spades play`), told to this client (its side \"Your side (...)\" or "
        "\"You\", its Nils \"Your Nil\"): \"Ann and Nora bid 10 and took 8: contract set, "
        "-200 (10 for 200: a contract of exactly 10 scores +200 made, -200 set).\", "
        "\"Bonus: +20 for a contract of 1 or 2 made exactly.\", \"Bag penalty: 10 bags cost "
        "-100.\"; without the terminal's last sentence of the side's points, score and bags "
        "(in `result`); null on other events"))
    winner: int | None = None
    rematch: str | None = Field(default=None, description="kind rematch: the id of the new "
                                "table the owner made for a rematch (the same options); the "
                                "old table's players may join it as players without its "
                                "invite code, back at their old places when free")
    user_id: int | None = Field(default=None, description="kind readmitted: the person the "
                                "owner let back in (they may sit at the table again); kind "
                                "freed: the person whose kept place (``seat``) the owner "
                                "freed at a rematch")
    text: str = Field(default="", description="a plain-text description for people: the "
                      "news' texts joined by spaces, or the frame's own sentence")
    news: list[News] = Field(default_factory=list, description="every engine event this "
                             "frame's action caused, in order, each with its sentence for this "
                             "client; [] on frames that are not game actions (and on the "
                             "hand_scored and match_over frames: their events came in the news "
                             "of the action that caused them)")


# Client -> server ---------------------------------------------------------------------------

class _Msg(_Strict):
    ref: Ref | None = None


class Hello(_Msg):
    """First message of every connection: the session token from POST /api/guest|login."""

    type: Literal["hello"]
    token: str = Field(max_length=100)
    results: Literal["all", "new"] = Field(
        default="all", description="what ``view.results`` of this connection's ``event`` "
        "frames carries: ``all`` (the default) every scored hand; ``new`` only the hands "
        "scored since the table's previous event, with ``view.results_from``: how many "
        "scored hands come before them (a client that keeps the list itself: its first "
        "``results_from`` hands, then these). A ``table`` snapshot always carries them all")


class LobbyMsg(_Msg):
    """The public tables, oldest first: all of them, or a page (``offset``, ``limit``).
    ``subscribe``: also receive ``lobby_update``/``lobby_remove`` for every table, live."""

    type: Literal["lobby"]
    subscribe: Flag = True
    offset: Int = Field(default=0, ge=0, le=1_000_000, description="first row of the page")
    limit: Int | None = Field(default=None, ge=1, le=1000, description="rows in the page "
                              "(at most the server's lobby_page_max, 100); None: every row")


class CreateMsg(_Msg):
    """Create a table and sit at it as its owner. ``cpus``: fill the empty seats with CPU
    players and start at once (play against CPUs)."""

    type: Literal["create"]
    options: TableOptions = Field(default_factory=lambda: TableOptions())
    cpus: Flag = False


class RematchMsg(_Msg):
    """Owner, once the match is finished: make a new table with the same options (as
    ``create``, under its limits) and sit at it; the old table hears an event of kind
    ``rematch`` naming it."""

    type: Literal["rematch"]


class JoinMsg(_Msg):
    """Join (or return to) a table by id or invite code, as a player or a spectator."""

    type: Literal["join"]
    table_id: str | None = Field(default=None, max_length=40)
    invite: str | None = Field(default=None, max_length=40)
    role: Literal["player", "spectator"] = "player"
    if_free: Flag = Field(
        default=False, description="for a tab that another tab of yours replaced (error "
        "`replaced`), joining again after its own reconnect: take your seat back only if no "
        "other open connection of yours holds it. If one does, nothing changes for it: this "
        "connection gets `error replaced` (with this ref) and is handed the seat when that "
        "one closes")
    back: Flag = Field(
        default=False, description="take your seat back from the CPU that plays for you "
        "because your turn waited `idle_seconds` (the page's Take my seat back). Without it, "
        "joining again (a reconnect, a reload) leaves the CPU playing for you, so a "
        "flaky connection does not hand the seat to and fro")


class LeaveMsg(_Msg):
    """Leave the table you are at (a player's seat is played by the CPU until you join again)."""

    type: Literal["leave"]
    table_id: str | None = Field(
        default=None, max_length=40, description="the table you mean to leave. When the "
        "server has put you at another table meanwhile (a rematch you made or joined), a "
        "`leave` sent by the old table's page is answered with `ack` and changes nothing. "
        "Without it, you leave whatever table you are at")


class SeatMsg(_Msg):
    """Before the start: move to an empty place."""

    type: Literal["seat"]
    seat: Int = Field(ge=0, le=5)


class TeamMsg(_Msg):
    """Before the start: choose a team (0-based; None = no preference)."""

    type: Literal["team"]
    team: Int | None = Field(ge=0, le=2)


class TeammateMsg(_Msg):
    """Before the start: name a teammate: join the team of the player at ``seat``."""

    type: Literal["teammate"]
    seat: Int = Field(ge=0, le=5)


class OptionsMsg(_Msg):
    """Owner, before the start: replace the table options."""

    type: Literal["options"]
    options: TableOptions


class AddCpuMsg(_Msg):
    """Owner, before the start: a CPU takes an empty place (if None: the first empty one
    not kept at a rematch for a player of the match before)."""

    type: Literal["add_cpu"]
    seat: Int | None = Field(default=None, ge=0, le=5)


class RemoveMsg(_Msg):
    """Owner, before the start: remove the CPU (or move the player away) from ``seat``."""

    type: Literal["remove"]
    seat: Int = Field(ge=0, le=5)


class ReadmitMsg(_Msg):
    """Owner, before the start: undo a ``remove``: the person may sit at the table again."""

    type: Literal["readmit"]
    user_id: Int = Field(ge=0, le=SAFE_INT, description="the removed person's user id, as "
                         "the owner's `table.removed` lists it (their seat's `user_id` before)")


class GiveOwnerMsg(_Msg):
    type: Literal["give_owner"]
    seat: Int = Field(ge=0, le=5)


class StartMsg(_Msg):
    """Owner: fill empty places with CPUs, arrange teams, deal."""

    type: Literal["start"]


class ActMsg(_Msg):
    """Bid or play: ``"3"``, ``"nil"``, ``"blind-nil"``, ``"look"``, or a card ``"QH"``."""

    type: Literal["act"]
    action: str = Field(max_length=12)


class ChatMsg(_Msg):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=300)


class ResyncMsg(_Msg):
    """Ask for a full ``table`` snapshot."""

    type: Literal["resync"]


class SheetMsg(_Msg):
    type: Literal["sheet"]


class PingMsg(_Msg):
    type: Literal["ping"]


#: The longest seat name a hint message may give.
SEAT_LABEL_MAX = 40


def _label_fits(label: str) -> str:
    # said here, not by max_length, whose words ("at most 40 items") read as a count
    if len(label) > SEAT_LABEL_MAX:
        raise PydanticCustomError(
            "name_too_long", "this name is too long: a name may be at most {most} characters, "
            "not {length}", {"most": SEAT_LABEL_MAX, "length": len(label)})
    return label


SeatLabel = Annotated[str, AfterValidator(clean_label), AfterValidator(_label_fits),
                      Field(max_length=SEAT_LABEL_MAX)]


class HintMsg(_Msg):
    """On your turn: the CPU players' suggestion for your seat (from your view only)."""

    type: Literal["hint"]
    names: list[SeatLabel] | None = Field(
        default=None, max_length=6, description="how the reason names the seats, in seat order: "
        "the names your page shows (\"North\" for the partner across from you, a player's name); "
        "ignored unless one non-empty name per seat; default: compass points from North at seat 0")


ClientMessage = Annotated[
    Hello | LobbyMsg | CreateMsg | JoinMsg | LeaveMsg | SeatMsg | TeamMsg | TeammateMsg
    | OptionsMsg | AddCpuMsg | RemoveMsg | ReadmitMsg | GiveOwnerMsg | StartMsg | ActMsg | ChatMsg
    | ResyncMsg | SheetMsg | PingMsg | HintMsg | RematchMsg,
    Field(discriminator="type"),
]
client_message: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# Server -> client ---------------------------------------------------------------------------

class WelcomeOut(BaseModel):
    type: Literal["welcome"] = "welcome"
    ref: Ref | None = Field(default=None, description="the ref of the hello this answers; "
                            "absent when it had none")
    user: UserInfo
    tables: list[str] = Field(description="ids of unfinished tables where you hold a seat")
    limits: dict[str, int | float] = Field(
        description="every limit a client can run into, by its Settings (`--limit`) name "
        "(docs/server.md, Limits; 0: no limit), and chat_max")


class ErrorOut(BaseModel):
    type: Literal["error"] = "error"
    ref: Ref | None = None
    code: str = Field(description="bad_message, bad_options (table options the rules refuse: "
                      "the message names the knob), not_allowed, illegal, not_found, rate_limit,"
                      " auth, too_big, state, limit (a cap on tables, uploads or spectators), "
                      "busy, unavailable (the database is not answering), server, replaced (no ref: another "
                      "connection of the same user, another tab, took this one's seat; join "
                      "again to take it back; with a ref: the answer to a `join` with "
                      "`if_free` while another tab of yours holds the seat)")
    message: str


class AckOut(BaseModel):
    type: Literal["ack"] = "ack"
    ref: Ref | None = None
    seq: int | None = None


class PongOut(BaseModel):
    type: Literal["pong"] = "pong"
    ref: Ref | None = None
    time: float


class LobbyOut(BaseModel):
    type: Literal["lobby"] = "lobby"
    ref: Ref | None = Field(default=None, description="the ref of the lobby message this "
                            "answers; absent when it had none")
    tables: list[TableSummary]
    total: int = Field(default=0, description="listed tables in all")
    offset: int = Field(default=0, description="row of the first table of this page")
    limit: int | None = Field(default=None, description="the page size used (None: every row)")


class LobbyUpdateOut(BaseModel):
    type: Literal["lobby_update"] = "lobby_update"
    table: TableSummary


class LobbyRemoveOut(BaseModel):
    type: Literal["lobby_remove"] = "lobby_remove"
    table_id: str


class TableOut(BaseModel):
    """A full snapshot of the table as this client may see it. ``seq`` is the number of the
    table's last event; the next event will carry ``seq + 1``."""

    type: Literal["table"] = "table"
    ref: Ref | None = Field(default=None, description="the ref of the resync this answers; "
                            "absent when it had none, and on the snapshot after a create's or "
                            "join's ack")
    seq: int
    table: TableState
    you: YouInfo
    view: dict[str, Any] | None = Field(description="Observation.to_json() of your seat "
                                        "(spectators: public view, hand null); null before start")
    turn: TurnInfo | None
    score: ScoreInfo | None
    chat: list[ChatLine]
    back: bool = Field(default=False, description="the join this answers brings you back to "
                       "your seat, and the `returned` event that follows tells the table so "
                       "(\"you are back\"): a page opened anew (a reload) says it before where "
                       "the game stands")
    arrival: bool = Field(default=False, description="the join this answers seats you at a "
                          "continued record's table for the first time, and the `joined` "
                          "event that follows says so (\"you sit down at the continued "
                          "match\"): a page says that first, then where the game stands and "
                          "whose turn it is")


class EventOut(BaseModel):
    """Something happened at the table. ``view``/``turn``/``score`` are the state after it."""

    type: Literal["event"] = "event"
    seq: int
    table_id: str
    event: GameEvent
    view: dict[str, Any] | None
    turn: TurnInfo | None
    score: ScoreInfo | None
    table: TableState | None = Field(default=None, description="the new table state, on events that "
                                     "change seats, owner, options or status")
    you: YouInfo | None = Field(default=None, description="your role and seat, with ``table``")


class ChatOut(BaseModel):
    type: Literal["chat"] = "chat"
    seq: int
    table_id: str
    line: ChatLine


class HintOut(BaseModel):
    type: Literal["hint"] = "hint"
    ref: Ref | None = None
    table_id: str
    action: str = Field(description="a legal action (record spelling)")
    reason: str = Field(description="one line, plain text")


class SpectatorsOut(BaseModel):
    """Spectators came or went: who watches now. Not numbered (``seq``): it changes no
    game state. Sent at most every half second per table, instead of the whole table."""

    type: Literal["spectators"] = "spectators"
    table_id: str
    spectating: int
    names: list[str] = Field(description="display names of the spectators, sorted")


class SheetOut(BaseModel):
    type: Literal["sheet"] = "sheet"
    ref: Ref | None = Field(default=None, description="the ref of the sheet message this "
                            "answers; absent when it had none (and in the HTTP sheet)")
    table_id: str
    hands: list[dict[str, Any]] = Field(description=(
        "one row per scored hand: the `hand_scored` event's `result` (`number`, `dealer`, "
        "`bids`, `tricks`, `points`, `scores`, `bags`, `timeout_bags`, `sides`) and "
        "`parts_text`: per side, what its points are made of, in the words of `text` (the "
        "terminal's sheet) that follow its points in brackets: \"10 for 200, set\", "
        "\"contract +40, bonus +20 for a contract of 1 or 2 made exactly\", \"contract "
        "+60, overtricks +3, bag penalty -100\"; \"\" when the contract and its overtricks "
        "alone make them"))
    scores: list[int]
    bags: list[int]
    bag_warning: list[str]
    sides: list[list[int]]
    names: list[str]
    text: str = Field(description="the whole sheet as plain text, as the terminal gives it")
    finished: bool
    winner: int | None


ServerMessage = Annotated[
    WelcomeOut | ErrorOut | AckOut | PongOut | LobbyOut | LobbyUpdateOut | LobbyRemoveOut
    | TableOut | EventOut | ChatOut | SheetOut | HintOut | SpectatorsOut,
    Field(discriminator="type"),
]
server_message: TypeAdapter[Any] = TypeAdapter(ServerMessage)


# HTTP bodies --------------------------------------------------------------------------------

class GuestIn(_Strict):
    name: Name


class AccountIn(_Strict):
    name: Name
    password: str = Field(min_length=8, max_length=200)


class SessionOut(BaseModel):
    token: str = Field(description="send as 'Authorization: Bearer TOKEN' and in WS hello")
    user: UserInfo
    expires_at: float


class OkOut(BaseModel):
    ok: bool = True


class ProfileInfo(BaseModel):
    name: str
    players: list[int]
    teams: bool = Field(description="partnership by default")
    options: list[str]
    rules: dict[str, Any]


class ProfilesOut(BaseModel):
    profiles: list[ProfileInfo]
    cpu: list[str]
    default_cpu: str


class RecordIn(_Strict):
    record: dict[str, Any]
    mode: Literal["review", "continue"] = "review"
    seat: Int | None = Field(default=None, ge=0, le=5, description="continue: the seat you "
                             "take; left out, the seat the record names as its `human` (as "
                             "`spades export` and a player's own download write it), else "
                             "refused (400)")
    options: TableOptions | None = Field(default=None, description="continue: table options "
                                         "(cpu, timer, private...); rules come from the record")


class RecordOut(BaseModel):
    game_id: str
    table_id: str | None = None
    summary: dict[str, Any]


class HistoryItem(BaseModel):
    game_id: str
    kind: str
    status: str
    profile: str
    seat: int
    names: list[str]
    scores: list[int]
    winner: int | None
    won: bool
    finished: bool
    updated_at: float
    #: The seats of each side (``scores[k]`` is side ``k``'s), for saying whose score is whose.
    sides: list[list[int]] = []
    #: A record the user uploaded for review (they did not play it here: ``seat`` is 0,
    #: ``won`` false, and it is not in their statistics); its record downloads all the same.
    uploaded: bool = False
    #: A match not finished: how many hands are scored so far, ``scores`` being the scores
    #: after them; ``None`` for a finished match, or an unfinished one older than the
    #: newest 20 unfinished of the list (its ``scores`` empty: not worked out).
    hands_scored: int | None = None
    #: A match the user continued from a record they uploaded (``POST /api/records``
    #: ``continue``): counted, ended or not, in the caps on records kept for review.
    continued: bool = False
    #: The user may delete it (``DELETE /api/games/{id}``): a record they uploaded for
    #: review, or a match they continued from an upload once it has ended (``finished`` or
    #: ``abandoned``; answered 409 all the same while someone is still at its table). True
    #: only in the user's own history, asked with their session.
    deletable: bool = False


class StatsOut(BaseModel):
    user: UserInfo
    stats: dict[str, Any]


def _members(message: Any) -> list[type[BaseModel]]:
    """The models of an ``Annotated[A | B | …, discriminator]`` union, in order."""
    return list(get_args(get_args(message)[0]))


#: every message model, in the order of its union (the schema section of docs/protocol.md)
CLIENT_MODELS: list[type[BaseModel]] = _members(ClientMessage)
SERVER_MODELS: list[type[BaseModel]] = _members(ServerMessage)
