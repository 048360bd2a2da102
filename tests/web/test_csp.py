"""The page works under the server's Content-Security-Policy (issue 15): nothing it needs is
blocked, from the home page to a dealt hand against CPUs and the rules page.

This test's browser context enforces the policy (the other browser tests bypass it, because
Playwright's ``wait_for_function`` evaluates strings, which the policy forbids); it waits with
selectors only."""

from __future__ import annotations

from typing import Any

import httpx

WATCH = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
         "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def test_the_page_runs_under_its_content_security_policy(browser: Any, server: str) -> None:
    head = httpx.get(server, timeout=10)
    csp = head.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert head.headers["x-frame-options"] == "DENY"
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text)
                if "Content Security Policy" in m.text else None)
        page.add_init_script(WATCH)
        page.goto(server)
        page.wait_for_selector("#quick-name")
        page.fill("#quick-name", "Csp")
        page.click("form.quick button[type=submit]")
        page.wait_for_selector("#hand .card.in-hand", timeout=20000)
        page.goto(server + "#/rules")
        page.wait_for_selector("article.prose")
        assert page.evaluate("window.__csp") == []
        assert errors == []
    finally:
        ctx.close()
