#!/usr/bin/env python3
"""An external bot (spades-bot/1) that takes ``argv[1]`` seconds over each decision and
plays its first legal action: a stand-in for an expensive CPU player, without the CPU."""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    delay = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "quit":
            break
        if message.get("type") != "act":
            continue
        time.sleep(delay)
        print(message["observation"]["legal_actions"][0], flush=True)


if __name__ == "__main__":
    main()
