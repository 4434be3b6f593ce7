"""Passwords: hashed, checked the same way when set and offered, guessing throttled."""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import unicodedata

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.logger import globalLogPublisher

from cartagena_net.cli.password_args import ENV, add_password_arguments, read_password
from cartagena_net.host.passwords import (
    GuessThrottle,
    PasswordChecker,
    StoredPassword,
    hash_password,
    is_hash,
    journaled_password,
    verify_password,
)
from protocol import clean_secret, messages

from .helpers import connect, join, make_host, run, stop_host
from .test_resume import ROOT, _host_command

# -- hashing and cleaning -----------------------------------------------------------


def test_a_hash_is_salted_and_verifies_only_its_password():
    h1, h2 = hash_password("s3cret"), hash_password("s3cret")
    assert h1 != h2 and is_hash(h1) and "s3cret" not in h1
    assert verify_password("s3cret", h1) and verify_password("s3cret", h2)
    for wrong in ("s3cre", "s3cret ", "S3CRET", "", None):
        assert not verify_password(wrong, h1)
    assert not verify_password("s3cret", "scrypt$1$2$3$!!$!!")  # a mangled hash never matches


def test_a_password_is_cleaned_the_same_way_when_set_and_when_offered():
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    assert unicodedata.normalize("NFC", decomposed) == composed
    assert verify_password(decomposed, hash_password(composed))
    assert clean_secret("x" * 128) == "x" * 128
    assert clean_secret("") is None
    for bad, why in (("x" * 129, "at most 128"), ("a\tb", "control"), ("a\nb", "control"),
                     ("\u202ex", "control"), ("a\x00", "control")):
        with pytest.raises(ValueError, match=why):
            clean_secret(bad)
        with pytest.raises(ValueError):
            hash_password(bad)
        # what the host refuses to set, the protocol refuses to carry: nothing is cut
        with pytest.raises(Exception, match="bad-field"):
            messages.Hello(password=bad)
        with pytest.raises(Exception, match="bad-field"):
            messages.JoinTable(table=1, password=bad)


def test_journaled_tables_hold_the_hash_and_old_plaintext_journals_still_work():
    h = hash_password("pw")
    restored = journaled_password({"password_hash": h})
    assert restored.hash == h
    # restored from a journal, this process has not seen the password: only the slow
    # check knows; once it passed, checks are quick
    assert restored.quick_check("pw") is None and restored.quick_check("no") is None
    assert restored.slow_check("pw") and not restored.slow_check("no")
    restored.learn("pw")
    assert restored.quick_check("pw") is True and restored.quick_check("no") is False
    legacy = journaled_password({"password": "pw"})
    assert is_hash(legacy.hash) and verify_password("pw", legacy.hash)
    assert journaled_password({}) is None and journaled_password({"password": None}) is None


def test_a_password_set_here_checks_quickly_and_refuses_unusable_offers():
    stored = StoredPassword.make("caf\u00e9")
    assert stored.quick_check("cafe\u0301") is True
    for wrong in ("cafe", "", None, "a\tb", "x" * 200, 5):
        assert stored.quick_check(wrong) is False


# -- the throttle, on a fake clock ------------------------------------------------------


def test_guesses_are_answered_more_and_more_slowly_then_forgotten():
    clock = Clock()
    t = GuessThrottle(clock.seconds, free=3, base=0.5, cap=4.0, forget=600)
    for _ in range(3):
        assert t.delay("a") == 0.0
        t.failed("a")
    waits = []
    for _ in range(5):
        waits.append(t.delay("a"))
        clock.advance(waits[-1])
        t.failed("a")
    assert waits == [0.5, 1.0, 2.0, 4.0, 4.0]
    # checks arriving together from one address are spaced out, not run in parallel
    assert [t.delay("a") for _ in range(3)] == [4.0, 8.0, 12.0]
    assert t.delay("b") == 0.0  # another address is not slowed
    clock.advance(700)
    assert t.failures("a") == 0 and t.delay("a") == 0.0
    t.failed("c")
    t.succeeded("c")
    assert t.failures("c") == 0


def test_the_checker_delays_with_the_reactor_and_logs_the_guesser():
    clock = Clock()
    checker = PasswordChecker(clock, GuessThrottle(clock.seconds, free=1, base=2.0))
    stored = journaled_password({"password_hash": hash_password("right")})
    events = []
    globalLogPublisher.addObserver(events.append)
    try:
        results = []
        checker.check("10.1.1.1", "wrong", stored, "host").addCallback(results.append)
        assert results == [False]  # the first failure is free: answered at once
        checker.check("10.1.1.1", "right", stored, "host").addCallback(results.append)
        assert results == [False]  # now even the right password waits its turn
        clock.advance(1.9)
        assert results == [False]
        clock.advance(0.2)
        assert results == [False, True]
    finally:
        globalLogPublisher.removeObserver(events.append)
    texts = [e.get("log_format", "") for e in events]
    assert any("wrong {what} password" in t for t in texts)
    # a check still waiting when the host stops is dropped with its timer
    checker.check("10.1.1.1", "wrong", stored, "host")
    checker.check("10.1.1.1", "wrong", stored, "host")
    assert any(c.active() for c in clock.getDelayedCalls())
    checker.stop()
    assert not any(c.active() for c in clock.getDelayedCalls())


def test_a_web_password_asked_again_while_it_is_checked_is_checked_once():
    """A browser polling with a password this process has not seen yet starts one
    background check, not one per request: a late second success would otherwise clear
    the wrong guesses counted after the first, and let the guesser in unthrottled."""
    clock = Clock()
    checker = PasswordChecker(clock, GuessThrottle(clock.seconds, free=2, base=30.0))
    started: list = []

    def in_thread(f, *args):
        d = Deferred()
        started.append((d, f, args))
        return d

    checker._in_thread = in_thread
    stored = journaled_password({"password_hash": hash_password("right")})
    for _ in range(3):
        assert checker.check_now("10.1.1.1", "right", stored, "table") == "password-checking"
    assert len(started) == 1
    d, f, args = started.pop()
    d.callback(f(*args))  # the scrypt check, run here
    assert checker.check_now("10.1.1.1", "right", stored, "table") is None  # learned
    for _ in range(2):
        assert checker.check_now("10.1.1.1", "wrong", stored, "table") == "password-wrong"
    assert checker.check_now("10.1.1.1", "right", stored, "table") == "password-wait"
    assert started == [] and checker.throttle.failures("10.1.1.1") == 2
    # another wrong offer, unseen, is checked once too once its turn comes
    other = journaled_password({"password_hash": hash_password("deck")})
    clock.advance(3600)  # the address is forgotten
    for _ in range(2):
        assert checker.check_now("10.1.1.2", "nope", other, "table") == "password-checking"
    assert len(started) == 1
    d, f, args = started.pop()
    d.callback(f(*args))
    assert checker.throttle.failures("10.1.1.2") == 1
    assert checker.check_now("10.1.1.2", "nope", other, "table") == "password-checking"
    assert len(started) == 1  # a new offer after the answer is checked again


# -- command line -----------------------------------------------------------------------


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_password_arguments(parser, "the password")
    return parser.parse_args(argv)


def test_password_sources_and_their_order(tmp_path):
    f = tmp_path / "pw"
    f.write_text("from file\nsecond line is ignored\n")
    assert read_password(_args("--password-file", str(f)), {ENV: "env"}) == "from file"
    assert read_password(_args("--password", "argv"), {ENV: "env"}) == "argv"
    assert read_password(_args(), {ENV: "env"}) == "env"
    assert read_password(_args(), {ENV: ""}) is None
    assert read_password(_args(), {}) is None
    crlf = tmp_path / "crlf"
    crlf.write_bytes(b"dos\r\n")
    assert read_password(_args("--password-file", str(crlf)), {}) == "dos"
    with pytest.raises(SystemExit):
        _args("--password", "a", "--password-file", str(f))


@pytest.mark.parametrize(("content", "message"), [
    (b"a\tb\n", "control characters"),
    (b"x" * 129, "at most 128"),
    (b"\n", "empty"),
    (b"\xff\xfe", "cannot read"),
])
def test_unusable_password_files_are_refused_with_a_reason(tmp_path, content, message):
    f = tmp_path / "pw"
    f.write_bytes(content)
    with pytest.raises(ValueError, match=message) as info:
        read_password(_args("--password-file", str(f)), {})
    assert str(f) in str(info.value)


def test_the_host_refuses_an_unusable_password_at_start_up(tmp_path):
    f = tmp_path / "pw"
    f.write_text("tab\there\n")
    for extra, env in ((["--password-file", str(f)], {}), ([], {ENV: "y" * 200})):
        proc = subprocess.run(
            [*_host_command(), "--headless", "--port", "0", "--bind", "127.0.0.1",
             "--discovery", "off", *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=60, env={**os.environ, **env},
            check=False)
        assert proc.returncode == 2, proc.stderr
        assert "unusable password" in proc.stderr and "Traceback" not in proc.stderr
        assert "listening" not in proc.stdout


def test_a_host_password_from_the_environment_stays_out_of_the_process_list(tmp_path):
    secret = "env-only-s3cret"
    proc = subprocess.Popen(
        [*_host_command(), "--headless", "--port", "0", "--bind", "127.0.0.1",
         "--discovery", "off"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, ENV: secret})
    try:
        line = proc.stdout.readline()
        port = int(line.rsplit(" ", 1)[1])
        with open(f"/proc/{proc.pid}/cmdline", "rb") as f:
            assert secret.encode() not in f.read()

        async def scenario():
            bad = await connect(port)
            bad.send(messages.Hello(name="eve", password="guess"))
            err = await bad.expect(messages.Error)
            assert (err.code, err.fatal) == ("bad-password", True)
            await bad.closed()
            good, welcome = await join(port, "ann", password=secret)
            assert welcome.resumed is None
            good.close()

        run(scenario())
    finally:
        proc.kill()
        proc.wait(timeout=30)


# -- over real TCP ----------------------------------------------------------------------


def test_table_passwords_over_tcp_are_hashed_journaled_as_hashes_and_checked(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        try:
            owner, _ = await join(host.port, "ann")
            owner.send(messages.CreateTable(name="locked", options={"players": 2},
                                            password="t4ble pw"))
            joined = await owner.expect(messages.Joined)
            table = host.lobby.tables[joined.table]
            assert is_hash(table.password.hash)
            journal = (tmp_state / f"table-{joined.table}.journal").read_text()
            assert "t4ble pw" not in journal
            assert table.password.hash in journal
            entry = (await owner.expect(
                messages.Lobby, lambda m: any(t["id"] == joined.table for t in m.tables))
            ).tables
            assert next(t for t in entry if t["id"] == joined.table)["password"] is True

            guest, _ = await join(host.port, "bob")
            guest.send(messages.JoinTable(table=joined.table))
            err = await guest.expect(messages.Error)
            assert (err.code, err.fatal) == ("bad-password", False)
            guest.send(messages.JoinTable(table=joined.table, password="wrong"))
            err = await guest.expect(messages.Error)
            assert (err.code, err.fatal, err.ref) == ("bad-password", False, "join_table")
            guest.send(messages.JoinTable(table=joined.table, password="t4ble pw"))
            assert (await guest.expect(messages.Joined)).seat == 1

            # an unusable table password is a clear, non-fatal error; nothing was made
            maker, _ = await join(host.port, "cat")
            before = set(host.lobby.tables)
            maker.send_map({"type": "create_table", "name": "t", "rules": "jamaica",
                            "options": {}, "password": "tab\there"})
            err = await maker.expect(messages.Error)
            assert (err.code, err.fatal) == ("bad-field", False)
            assert "control characters" in err.message
            maker.send_map({"type": "create_table", "name": "t", "rules": "jamaica",
                            "options": {}, "password": "z" * 129})
            err = await maker.expect(messages.Error)
            assert err.code == "bad-field" and "at most 128" in err.message
            assert set(host.lobby.tables) == before
            maker.send(messages.Ping(nonce=5))
            assert (await maker.expect(messages.Pong)).nonce == 5
            # an unusable host password in a hello is a clear fatal error (the handshake)
            bad = await connect(host.port)
            bad.send_map({"type": "hello", "versions": [1], "name": "x", "password": "a\tb"})
            err = await bad.expect(messages.Error)
            assert (err.code, err.fatal) == ("bad-field", True)
            assert "control characters" in err.message
            await bad.closed()
            for c in (owner, guest, maker):
                c.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_a_guesser_is_slowed_down_and_logged_while_others_are_served(tmp_state):
    events: list[dict] = []
    globalLogPublisher.addObserver(events.append)

    async def guess(port: int, password: str) -> messages.Error | messages.Welcome:
        c = await connect(port)
        c.send(messages.Hello(name="eve", password=password))
        msg = await c.expect((messages.Error, messages.Welcome))
        c.close()
        return msg

    async def scenario() -> None:
        host = make_host(password="right", guess_free=2, guess_delay=0.6)
        try:
            loop = asyncio.get_running_loop()
            for _ in range(2):  # free failures: answered at once
                assert (await guess(host.port, "wrong")).code == "bad-password"
            # the next guess waits at least 0.6 s; meanwhile a client from another
            # address is welcomed: nothing blocks
            started = loop.time()
            slow = asyncio.ensure_future(guess(host.port, "wrong"))
            other = await connect(host.port, source="127.0.0.2")
            other.send(messages.Hello(name="ann", password="right"))
            await other.expect(messages.Welcome)
            assert not slow.done()
            assert (await slow).code == "bad-password"
            assert loop.time() - started >= 0.6
            # parallel guesses from one address queue up: 1.2 s, then 1.2 s more
            started = loop.time()
            answers = await asyncio.gather(*(guess(host.port, "right") for _ in range(2)))
            assert [type(a) for a in answers] == [messages.Welcome] * 2
            assert loop.time() - started >= 2.4
            # a success forgives the address
            assert host.passwords.throttle.failures("127.0.0.1") == 0
            other.close()
        finally:
            await stop_host(host)

    try:
        run(scenario())
    finally:
        globalLogPublisher.removeObserver(events.append)
    warnings = [e for e in events if "in a row" in e.get("log_format", "")]
    assert warnings and all(e["addr"] == "127.0.0.1" for e in warnings)
    assert max(e["n"] for e in warnings) >= 3
    assert not [e for e in events if e.get("log_failure") is not None]


def test_the_passwords_json_is_never_in_a_summary():
    async def scenario() -> None:
        host = make_host(password="s3cret")
        try:
            host.create_table("t", "jamaica", {"players": 2}, password="t4ble")
            text = json.dumps(host.summary()) + repr(host.lobby.entries())
            assert "s3cret" not in text and "t4ble" not in text and "scrypt" not in text
        finally:
            await stop_host(host)

    run(scenario())


def test_hashing_runs_off_the_reactor_thread():
    import threading

    from tests.twisted_loop import reactor, wait

    checker = PasswordChecker(reactor)
    seen = []

    def where(*_):
        seen.append(threading.current_thread() is threading.main_thread())
        return "x"

    async def scenario() -> None:
        assert await wait(checker._in_thread(where)) == "x"

    try:
        run(scenario())
    finally:
        checker.stop()
    assert seen == [False]
