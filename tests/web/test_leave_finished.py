"""Going elsewhere from a finished match's table leaves it, as during the match: the others
hear so, and the owner's table passes on (before: the page sent no ``leave`` after the
match, its socket stayed open, and the server kept the player there: nobody was told, and
the table stayed the gone owner's, with nobody to offer the rematch)."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_private_table, join_by_invite
from tests.web.test_owner_gone import play_all_to_end


def test_the_owner_following_a_link_from_a_finished_match_leaves_it(
        new_page: Any, server: str) -> None:
    ann, bob = new_page(), new_page()
    code = create_private_table(ann, server, "Ann Link", "Link owner", "game93",
                                one_hand=True)
    join_by_invite(ann, bob, server, code, "Bob Link")
    ann.click("text=Start the match")
    bob.wait_for_function("spadesApp.table && spadesApp.table.view")
    play_all_to_end([ann, bob])
    ann.wait_for_selector("#match-over[open]")
    bob.wait_for_selector("#match-over[open]")
    assert bob.locator("#over-rematch").count() == 0  # Ann owns it still
    heard, ann_heard = Speech(bob), Speech(ann)
    heard.seen, ann_heard.seen = len(heard.all()), len(ann_heard.all())
    # Ann follows the end-of-match box's "New match" link (her tab stays open)
    ann.click("#match-over[open] a:has-text('New match')")
    ann.wait_for_selector("#quick-name")
    ann_heard.wait_for("You left Link owner.")
    heard.wait_for("Ann Link leaves the table")
    heard.wait_for("You own the table now")
    bob.locator("#match-over[open] #over-rematch").wait_for()
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
