#!/usr/bin/env python3
"""A minimal external Spades bot speaking spades-bot/1 (see docs/bot-protocol.md).

It needs nothing but the Python standard library. Run it against the built-in players:

    spades arena --a cmd:"python3 examples/bots/simple_bot.py" --b beginner --deals 20

Strategy: bid the aces and kings held plus one per spade beyond three; play the lowest card
that wins the trick when it can, otherwise its lowest legal card.
"""

from __future__ import annotations

import json
import sys

RANKS = "23456789TJQKA"


def strength(card: str) -> tuple[int, int]:
    """(suit order with spades on top, rank) of a card like 'QH', 'BJ'."""
    if card in ("LJ", "BJ"):
        return 3, 13 if card == "LJ" else 14
    return "CDHS".index(card[1]), RANKS.index(card[0])


def choose_bid(obs: dict) -> str:
    legal = obs["legal_actions"]
    if "look" in legal:
        return "look"
    hand = obs["hand"]
    tricks = sum(1 for c in hand if c[0] in "AK" or c in ("LJ", "BJ"))
    spades = sum(1 for c in hand if c[-1] == "S" or c in ("LJ", "BJ"))
    tricks += max(0, spades - 3)
    numbers = [a for a in legal if a.isdigit() and int(a) > 0]
    if not numbers:
        return legal[0]
    return min(numbers, key=lambda a: abs(int(a) - max(1, tricks)))


def beats(card: str, best: str, led: int) -> bool:
    s, r = strength(card)
    bs, br = strength(best)
    if s == bs:
        return r > br
    return s == 3 and bs != 3


def choose_card(obs: dict) -> str:
    legal = obs["legal_actions"]
    trick = obs["trick"]
    if not trick:
        return min(legal, key=lambda c: (strength(c)[1], strength(c)[0]))
    led = strength(trick[0][1])[0]
    best = trick[0][1]
    for _, card in trick[1:]:
        if beats(card, best, led):
            best = card
    winners = [c for c in legal if beats(c, best, led)]
    if winners:
        return min(winners, key=lambda c: strength(c))
    return min(legal, key=lambda c: (strength(c)[1], strength(c)[0]))


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "quit":
            break
        if kind == "error":
            print(f"simple_bot: refused: {message['message']}", file=sys.stderr)
            continue
        if kind != "act":
            continue  # "start" and anything new: nothing to answer
        obs = message["observation"]
        answer = choose_bid(obs) if obs["phase"] == "bid" else choose_card(obs)
        print(answer, flush=True)


if __name__ == "__main__":
    main()
