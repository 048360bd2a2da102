"""External bots that misbehave, for the protocol tests: ``broken_bot.py MODE``.

crash: exits on the first request; crash-in-play: exits (status 5) when first asked for a
card; garbage: answers nonsense; sleep: never answers; bom-crlf: answers as a program on
Windows may write, a byte order mark first and lines ended by CR LF; illegal-once: first
answers an illegal action, then the first legal one; superscript: answers '²', text of a
digit that is no number; flood: writes without end, and no newline.
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    mode = sys.argv[1]
    refused = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "error":
            refused = True
            continue
        if message["type"] != "act":
            continue
        if mode == "crash":
            sys.exit(3)
        if mode == "crash-in-play" and message["observation"]["phase"] == "play":
            sys.exit(5)
        if mode == "garbage":
            print("what is a spade?", flush=True)
        elif mode == "sleep":
            time.sleep(30)
        elif mode == "bom-crlf":
            sys.stdout.buffer.write(b"\xef\xbb\xbf" * (not refused) + b"nil\r\n")
            sys.stdout.buffer.flush()
            refused = True  # (the mark once, at the start of the output)
        elif mode == "flood":
            while True:
                sys.stdout.write("x" * 65536)
        elif mode == "superscript":
            print("\u00b2", flush=True)
        elif mode == "illegal-once" and not refused:
            print("14", flush=True)
        else:
            print(message["observation"]["legal_actions"][0], flush=True)


if __name__ == "__main__":
    main()
