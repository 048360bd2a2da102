"""The "Skip to the page" link, the first Tab stop of every page, moves the focus to the page
and changes nothing else. Its ``#main`` was read as the name of a page by the hash router: the
home page went blank, and at a table the player left it ("You left …: a CPU plays for you")."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import start_quick_match


def skip_by_keyboard(page: Any) -> None:
    page.focus("a.skip")  # (the first Tab stop of a page freshly opened)
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'main'")


def test_skip_to_the_page_on_the_home_page_keeps_the_page(new_page: Any) -> None:
    page = new_page()
    # the home page whole: its CPU strength list comes from the server after the rest (a CI
    # run read the page before it came, and after)
    page.wait_for_selector("#quick-cpu")
    before = page.url
    text = page.inner_text("main")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    skip_by_keyboard(page)
    assert page.url == before
    assert page.inner_text("main") == text
    assert page.get_attribute(".topbar nav a[href='#/']", "aria-current") == "page"
    # the next Tab goes on into the page, not round to the skip link again
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")
    assert not page.errors, page.errors


def test_skip_to_the_page_at_a_table_does_not_leave_it(new_page: Any) -> None:
    page = new_page()
    start_quick_match(page, "Skip Sid", one_hand=True)
    page.wait_for_selector("#hand")
    url = page.url
    table_id = page.evaluate("spadesApp.table.id")
    skip_by_keyboard(page)
    assert page.url == url
    assert page.evaluate("spadesApp.table && spadesApp.table.id") == table_id
    assert page.locator("main #hand").count() == 1
    said = page.evaluate("[...document.querySelectorAll('[aria-live]')].map(e => e.textContent)"
                         ".join(' ')")
    assert "You left" not in said, said
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")
    assert not page.errors, page.errors
