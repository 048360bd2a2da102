"""Hostile clients against the HTTP side: headers on every answer, a database that fails,
private tables read by strangers."""

from __future__ import annotations

from starlette.testclient import TestClient


def test_every_http_answer_carries_the_security_headers(client: TestClient) -> None:
    answers = [client.get("/api/health"), client.get("/api/nowhere"),
               client.post("/api/guest", json={"name": ""}), client.get("/api/me"),
               client.get("/api/openapi.json")]
    for r in answers:
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], r.url
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert "cdn.jsdelivr.net" in client.get("/api/docs").headers["content-security-policy"]
