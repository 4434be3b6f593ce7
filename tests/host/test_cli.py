"""`cartagena host --headless` as a subprocess: port on stdout, JSON logs from public views."""
from __future__ import annotations

import json
import re
import subprocess

from cartagena_net.discovery import DiscoveryResponder
from protocol import messages
from tests.portable import spawn_options, stop_politely

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
        stop_politely(proc)
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


def _host_run(*extra):
    """A headless host on 127.0.0.1 run to its end (these ones stop at once)."""
    from .test_resume import _host_command

    return subprocess.run(
        [*_host_command(), "--headless", "--port", "0", "--bind", "127.0.0.1",
         "--discovery", "off", *extra],
        check=False, capture_output=True, text=True, timeout=60, input="")


def _host_in(state_dir, *extra):
    return _host_run("--web", "off", "--state-dir", str(state_dir), *extra)


def test_a_state_dir_that_is_a_file_is_refused_with_a_message_not_a_traceback(tmp_path):
    path = tmp_path / "state"
    path.write_text("my notes\n")
    done = _host_in(path)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "state" in done.stderr and str(path) in done.stderr
    assert path.read_text() == "my notes\n"  # untouched


def test_an_unreadable_host_id_is_kept_aside_and_replaced(tmp_path):
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "host-id").write_bytes(b"\xff\xfe\x00garbage\n")
    proc, _port = _spawn_host(state)
    try:
        assert proc.poll() is None
    finally:
        stop_politely(proc)
        _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err
    assert "host-id" in err
    aside = [p for p in state.iterdir() if p.name.startswith("host-id.bad")]
    assert len(aside) == 1 and aside[0].read_bytes() == b"\xff\xfe\x00garbage\n"
    new_id = (state / "host-id").read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{32}", new_id)


def _spawn_host(state_dir):
    from .test_resume import _host_command

    proc = subprocess.Popen(
        [*_host_command(), "--headless", "--port", "0", "--bind", "127.0.0.1",
         "--discovery", "off", "--web", "off", "--state-dir", str(state_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **spawn_options())
    line = proc.stdout.readline()
    assert "listening on port" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, int(line.rsplit(" ", 1)[1])


def test_a_second_host_on_the_same_state_dir_is_refused_and_touches_nothing(tmp_path):
    """Two hosts on one state dir would archive or drop each other's live journals."""
    state = tmp_path / "state"
    first, _port = _spawn_host(state)
    try:
        before = {p.name: p.read_bytes() for p in state.iterdir() if p.is_file()}
        assert any(name.startswith("table-") for name in before)
        for extra in ((), ("--resume",)):
            done = _host_in(state, *extra)
            assert done.returncode != 0, done.stderr
            assert "Traceback" not in done.stderr
            assert "another host" in done.stderr and str(state) in done.stderr
            after = {p.name: p.read_bytes() for p in state.iterdir() if p.is_file()}
            assert after == before  # nothing archived, removed or rewritten
            assert not [p for p in state.iterdir() if p.is_dir()]
        assert first.poll() is None
    finally:
        stop_politely(first)
        first.communicate(timeout=30)
    # once the first host is gone, the dir is free again
    again, _port = _spawn_host(state)
    stop_politely(again)
    again.communicate(timeout=30)


def test_a_busy_web_port_is_named_with_the_options_that_avoid_it(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        web = busy.getsockname()[1]
        done = _host_run("--web", str(web))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert str(web) in done.stderr and "--web off" in done.stderr


def test_the_default_web_port_stays_a_port_next_to_the_highest_game_port():
    from cartagena_net.cli.host import web_port

    assert web_port(None, 41672) == 41673
    assert web_port(None, 65535) == 0  # any free port, never 65536
    assert web_port(None, 0) == 0
