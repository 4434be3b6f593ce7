"""The host's own terminal client shows where the web view is."""
from __future__ import annotations

from client.model import ClientModel
from client.render import render_screen, to_text

URL = "http://192.168.1.20:41673/"


def lobby_model(web_url: str) -> ClientModel:
    m = ClientModel(name="ann")
    m.web_url = web_url
    m.host_label = "127.0.0.1:41672"
    m.on_message({"type": "welcome", "host_id": "h", "host_name": "den", "server_version": "0",
                  "version": 1, "session": "s", "resumed": None})
    m.on_message({"type": "lobby", "tables": [{
        "id": 1, "name": "harbour", "rules": "jamaica", "options": {}, "status": "waiting",
        "spectators": 0, "password": False, "owner": None,
        "seats": [{"seat": 0, "name": None, "color": "red", "bot": None, "connected": False},
                  {"seat": 1, "name": None, "color": "blue", "bot": None, "connected": False}]}]})
    return m


def test_lobby_and_waiting_table_show_the_web_url():
    m = lobby_model(URL)
    assert URL in to_text(render_screen(m, 100, 24))
    m.on_message({"type": "joined", "table": 1, "seat": 0, "token": "tok"})
    assert URL in to_text(render_screen(m, 100, 24))


def test_no_url_without_a_web_view():
    m = lobby_model("")
    text = to_text(render_screen(m, 100, 24))
    assert "web" not in text and "http" not in text
