"""`cartagena host --headless` as a subprocess: port on stdout, JSON logs from public views."""
from __future__ import annotations

import json
import re
import signal
import subprocess

from cartagena_net.discovery import DiscoveryResponder
from protocol import messages

from .helpers import make_host, reactor, run, seat_players, state_at, stop_host
from .test_resume import _spawn


def test_headless_json_logs_hold_public_information_only(tmp_path):
    proc, port = _spawn(tmp_path / "state", "--players", "2", "--bots", "1",
                        "--bot-kind", "random", "--log-format", "json", "--name", "den",
                        stderr=subprocess.PIPE)
    try:
        async def play():
            ((ann, _, token),) = await seat_players(port, 1, ["ann"])
            ann.send(messages.Start(table=1))
            seen = 0
            while seen < 12:
                s = await state_at(ann)
                seen += 1
                if s.view["outcome"] is not None:
                    break
                if s.legal:
                    retreats = [a for a in s.legal if a.startswith("retreat")]
                    ann.send(messages.Action(table=1, seq=s.seq,
                                             action=(retreats or list(s.legal))[0]))
            ann.close()
            return token

        token = run(play())
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert lines, "no log lines"
    texts = [str(e.get("line", "")) for e in lines if e.get("log_namespace", "").endswith("table")]
    assert any("plays" in t or "retreats" in t for t in texts)
    for t in texts:
        if "draws" in t:
            assert re.search(r"draws (\d+ cards?|no card)( as the whole turn)?$", t), t
    assert token not in err
    assert "hand" not in err


def test_summary_feeds_the_discovery_responder():
    async def scenario() -> None:
        host = make_host(password="pw")
        try:
            host.create_table("den", "jamaica", {"players": 3}, bots=1)
            responder = DiscoveryResponder(reactor, host.summary, host.port,
                                           interface="127.0.0.1")
            announce = responder.announcement()
            assert announce.port == host.port and announce.name == "test host"
            (table,) = announce.tables
            assert (table["id"], table["free"], table["seats"], table["status"]) == (
                1, 2, 3, "waiting")
            assert "pw" not in repr(announce)
        finally:
            await stop_host(host)

    run(scenario())
