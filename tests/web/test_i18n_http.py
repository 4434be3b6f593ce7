"""The pages' language over a real socket: ``/i18n.js`` speaks the browser's
``Accept-Language``, or the language its switch's cookie remembers (checked against the
languages we speak, never reflected); a refused Host or Origin reaches it no more than any
other route; the plural index table gives "1 kort", "2 kort"."""
from __future__ import annotations

import json

from cartagena_net import i18n
from tests.twisted_loop import run, stop_host
from tests.web.test_web_port_guard import raw, web_host


def script_data(body: bytes) -> dict:
    head = body.split(b"\n", 1)[0].decode("ascii")
    assert head.startswith("window.CARTAGENA_I18N = ") and head.endswith(";")
    return json.loads(head[len("window.CARTAGENA_I18N = "):-1])


def test_the_pages_language_is_negotiated_and_remembered():
    host = web_host()

    async def get(*lines: str):
        return await raw(host.web.port, ["GET /i18n.js HTTP/1.1", "Host: 127.0.0.1",
                                         "Connection: close", *lines])

    async def go():
        cases = [
            ([], "en"),
            (["Accept-Language: sv-SE,sv;q=0.9,en;q=0.5"], "sv"),
            (["Accept-Language: de-DE, sv;q=0.4, en;q=0.8"], "en"),
            (["Accept-Language: sv;q=0, en"], "en"),
            (["Accept-Language: fr, sv;q=0.1"], "sv"),
            (["Accept-Language: sv-SE", f"Cookie: {i18n.COOKIE}=en"], "en"),
            ([f"Cookie: {i18n.COOKIE}=sv"], "sv"),
            (["Accept-Language: sv", f"Cookie: {i18n.COOKIE}=<script>"], "sv"),
            ([f"Cookie: {i18n.COOKIE}=xx%22%3B"], "en"),
            (["Accept-Language: \xe9\xe9"], "en"),
        ]
        for lines, want in cases:
            status, headers, body = await get(*lines)
            assert status == 200, lines
            assert headers["content-type"].startswith("text/javascript")
            assert "Accept-Language" in headers["vary"] and "Cookie" in headers["vary"]
            data = script_data(body)
            assert data["lang"] == want, (lines, data["lang"])
            assert data["languages"] == i18n.LANGUAGES
            assert b"<script>" not in body and b"xx\"" not in body
            assert b"function nt(" in body  # static/i18n.js follows its data
        # Swedish carries the page's words and the plural rule; English carries none.
        _, _, body = await get("Accept-Language: sv-SE")
        sv = script_data(body)
        assert sv["messages"]["Your name"] == "Ditt namn"
        assert sv["messages"]["Confirm"] == "Bekräfta"
        assert sv["plural"][:3] == [1, 0, 1] and len(sv["plural"]) == 200
        _, _, body = await get("Accept-Language: en")
        assert script_data(body)["messages"] == {}
        # Another site's script reaches nothing here either.
        status, _, _ = await get("Origin: http://evil.example", "Accept-Language: sv")
        assert status == 403
        status, _, _ = await raw(host.web.port, ["GET /i18n.js HTTP/1.1", "Host: evil.example",
                                                 "Connection: close"])
        assert status == 421
        # Every page loads it before its own scripts.
        for path in ("/", "/play", "/table/99"):
            _, _, page = await raw(host.web.port, [f"GET {path} HTTP/1.1", "Host: 127.0.0.1",
                                                   "Connection: close"])
            assert b'<script src="/i18n.js" defer></script>' in page, path

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))
