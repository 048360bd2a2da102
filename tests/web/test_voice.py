"""Self-voicing (issue 11, item 5): with the setting on, every announcement is spoken with
speechSynthesis — the same text, in the same order, as the live regions got it. The browser's
speechSynthesis is replaced by a recorder (headless chromium has no voices)."""

from __future__ import annotations

import json
from typing import Any

from tests.web.helpers import Speech, play_hinted_to_end, start_quick_match

RECORDER = """
window.__spoken = [];
window.SpeechSynthesisUtterance = function (text) { this.text = text; };
Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: {
  speak(u) { window.__spoken.push({ text: u.text, rate: u.rate, volume: u.volume }); },
  cancel() { window.__spoken.push({ cancel: true }); },
  getVoices() { return []; },
} });
"""


def test_self_voicing_speaks_a_whole_hand_in_order(new_page: Any) -> None:
    settings = {"pace": 0, "volume": 0, "summarySeconds": 1, "selfVoicing": True,
                "voiceRate": 1.5, "voiceVolume": 0.8}
    page = new_page(settings=json.dumps(settings))
    page.add_init_script(RECORDER)
    page.reload()
    page.wait_for_selector("#quick-name")
    speech = Speech(page)
    start_quick_match(page, "Vic", profile="game93", one_hand=True)
    play_hinted_to_end(page)
    speech.wait_for_match_over()  # (said at once, before the last summary goes)
    page.wait_for_selector("#match-over[open]")
    page.keyboard.press("Escape")  # (the end-of-match box)
    page.keyboard.press("l")  # repeat: spoken too
    speech.wait_for("Again:")
    spoken = page.evaluate("window.__spoken")
    said = [e["text"] for e in speech.all()]
    assert [u["text"] for u in spoken] == said
    assert len(said) > 40 and any("Hand 1 scored" in t for t in said)
    assert all(u["rate"] == 1.5 and u["volume"] == 0.8 for u in spoken)
    # X stops the voice
    page.focus("#hand")
    page.keyboard.press("x")
    page.wait_for_function("window.__spoken.some(u => u.cancel)")
    assert not page.errors, page.errors
