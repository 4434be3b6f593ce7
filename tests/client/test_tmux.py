"""End to end in a real terminal: `cartagena play` under tmux, driven by keystrokes.

One seat is played from the keyboard against a bot on a one-segment board until the
end screen shows the ranking; `cartagena spectate` in a second tmux session watches
the same game and shows the same board.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "cartagena_net"]
WAIT = 60.0

pytestmark = pytest.mark.tmux


class Tmux:
    """A private tmux server (own socket), killed at the end."""

    def __init__(self, name: str, env: dict[str, str]) -> None:
        self.sock = name
        self.env = env

    def tmux(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True, text=True, check=False,
                             timeout=30, env=self.env, cwd=ROOT)
        return out.stdout

    def start(self, session: str, argv: list[str], window_of: str = "") -> None:
        """Run argv in a new session, or in a new window ``session`` of ``window_of``."""
        cmd = " ".join(_quote(a) for a in argv)
        shell = f"{cmd} 2>>{_quote(self.env['CTGN_ERR'])}; echo EXIT=$?; sleep 120"
        if window_of:
            self.tmux("new-window", "-d", "-t", f"{window_of}:", "-n", session, shell)
        else:
            self.tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", session, shell)

    def screen(self, session: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", session)

    def keys(self, session: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", session, *keys)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True, check=False,
                       timeout=30)


def terminal_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of the programs under test: own state dir, UTF-8, no outer tmux."""
    env = dict(os.environ)
    env.update({"XDG_STATE_HOME": str(tmp_path / "state"), "CTGN_ERR": str(tmp_path / "err"),
                "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **extra})
    env.pop("TMUX", None)
    return env


def assert_no_traceback(env: dict[str, str]) -> None:
    err = Path(env["CTGN_ERR"])
    text = err.read_text() if err.exists() else ""
    assert "Traceback" not in text, f"the programs' standard error:\n{text}"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def wait_screen(t: Tmux, session: str, pred, what: str, timeout: float = WAIT) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = t.screen(session)
        if pred(text):
            time.sleep(0.1)  # a screen caught mid-redraw differs from the next capture
            again = t.screen(session)
            if again == text:
                return text
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; screen:\n{text}\n"
                         f"stderr:\n{Path(t.env['CTGN_ERR']).read_text()}")


def board(text: str) -> list[str]:
    """The board rows of a game screen (between the turn line and the start line)."""
    lines = text.splitlines()
    start = next((i for i, x in enumerate(lines) if "turn" in x or "GAME OVER" in x), None)
    end = next((i for i, x in enumerate(lines) if "⛴ " in x), None)
    if start is None or end is None:
        return []
    return [x.split(" [selected")[0].rstrip() for x in lines[start + 1:end + 1]
            if x.strip() != "│"]


def hand_keys(text: str) -> list[str]:
    """Keys of the cards in hand (the hand line shows glyph, key, count)."""
    line = next(x for x in text.splitlines() if x.startswith("hand:"))
    return [k for k, n in re.findall(r"\S\*?([a-zA-Z])×(\d+)", line) if int(n) > 0]


GOALS = ("rowboat", "sloop", "cove", "boat")


def pirates(text: str) -> list[tuple[str, str]]:
    """(pirate number, where) from ``pirates: [1],2@meeting place 3@7``."""
    line = next(x for x in text.splitlines() if x.startswith("pirates:"))
    out = []
    for ids, where in re.findall(r"([\d,\[\]]+)@(.+?)(?= [\[\d]|$)", line[8:].rstrip()):
        out += [(n, where) for n in re.findall(r"\d", ids)]
    return out


def my_turn(text: str) -> bool:
    return "your turn" in text and "pirates:" in text and "hand:" in text


def take_turn_action(t: Tmux, s: str, text: str) -> None:
    """Choose an action from what the screen shows, preview it, confirm it."""
    cards = hand_keys(text)
    free = [n for n, where in pirates(text) if where not in GOALS]
    tries: list[list[str]] = []
    if cards and free:
        tries.append([free[0], cards[0]])
    if "r retreat" in text:
        tries += [[n, "r"] for n, where in pirates(text) if where != "meeting place"]
    for keys in tries:
        t.keys(s, *keys)
        shown = wait_screen(t, s, lambda x: "Esc cancel" in x or "cannot" in x.lower(),
                            "the preview or a refusal")
        if "Esc cancel" not in shown:
            continue
        before = t.screen(s)
        t.keys(s, "Enter")
        wait_screen(t, s, lambda x, b=before: x != b and "Esc cancel" not in x
                    and "sent: " not in x, "the host to take the move")
        return
    for key, label in (("w", "w draw"), ("e", "e end turn")):
        if label in text:
            before = t.screen(s)
            t.keys(s, key)
            wait_screen(t, s, lambda x, b=before: x != b and "sent: " not in x,
                        f"{label} to be taken")
            return
    raise AssertionError(f"no move found on:\n{text}")


def test_play_against_a_bot_with_a_spectator(tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    t = Tmux(f"ctgn-client-{os.getpid()}", env)
    try:
        t.start("play", [*CLI, "play", "--rules", "ravensburger", "--option", "segments=1",
                         "--option", "pirates=3", "--players", "2", "--bots", "1",
                         "--bot-delay", "0", "--name", "ann"])
        text = wait_screen(t, "play", my_turn, "the game screen")
        port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
        assert "you: ann (red)" in text
        # 100x30: the winding board; one segment is one row of 6 cells between the ends
        rows = board(text)
        assert rows[0].startswith("⚑ meeting place") and "⛴ rowboat" in rows[-1]
        assert len(rows) == 3 and re.findall(r"\[ ?(\d+) ", rows[1]) == list("123456")
        # your turn, noticed: the terminal's title says so, and the bell rang
        assert t.tmux("display-message", "-p", "-t", "play", "#{pane_title}").strip() == \
            "cartagena: your turn"
        assert t.tmux("display-message", "-p", "-t", "play", "#{window_bell_flag}").strip() == "1"

        t.start("watch", [*CLI, "spectate", f"127.0.0.1:{port}"], window_of="play")
        spec = wait_screen(t, "play:watch", lambda x: "SPECTATING" in x and "meeting place" in x,
                           "the spectator's game screen")
        assert "hand:" not in spec

        # Ctrl-C asks before leaving a running game; "n" stays
        t.keys("play", "C-c")
        wait_screen(t, "play", lambda x: "Quit? The game is kept: the next cartagena play "
                    "offers it back." in x, "the question (the journal keeps the game)")
        t.keys("play", "n")
        wait_screen(t, "play", lambda x: "Quit?" not in x, "staying")

        moves = 0
        compared = False
        while True:
            text = wait_screen(t, "play", lambda x: my_turn(x) or "GAME OVER" in x,
                               "my turn or the end")
            if "GAME OVER" in text:
                break
            if moves >= 1 and not compared:
                mine = board(text)
                assert mine
                wait_screen(t, "play:watch", lambda x, m=mine: "SPECTATING" in x and board(x) == m,
                            "the spectator to show the same board")
                compared = True
            take_turn_action(t, "play", text)
            moves += 1
            assert moves < 200, "the game does not end"
        assert compared
        assert re.search(r"Ranking: 1\. .+? \((red|blue)\)\s+2\. .+? \((red|blue)\)", text)
        assert "play again" in text
        spec = wait_screen(t, "play:watch", lambda x: "GAME OVER" in x, "the spectator's end screen")
        assert board(spec) == board(text)

        t.keys("play:watch", "q")
        wait_screen(t, "play:watch", lambda x: "EXIT=0" in x, "the spectator to exit")
        t.keys("play", "q")
        wait_screen(t, "play", lambda x: "EXIT=0" in x, "cartagena play to exit")
        assert_no_traceback(env)
    finally:
        t.kill()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen) -> None:
    import socket

    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the host exited"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the host does not listen")


def test_reconnect_when_the_host_is_killed_and_resumed(tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    port = free_port()
    host_cmd = [*CLI, "host", "--headless", "--port", str(port), "--bind", "127.0.0.1",
                "--discovery", "off", "--web", "off", "--state-dir", str(tmp_path / "host"),
                "--bot-delay", "0"]
    log = open(tmp_path / "host.log", "w")  # noqa: SIM115 - closed in finally
    hosts: list[subprocess.Popen] = []
    t = Tmux(f"ctgn-client-rc-{os.getpid()}", env)
    try:
        hosts.append(subprocess.Popen([*host_cmd, "--players", "2", "--bots", "1"], cwd=ROOT,
                                      env=env, stdout=log, stderr=log))
        wait_port(port, hosts[-1])
        t.start("join", [*CLI, "join", f"127.0.0.1:{port}", "--name", "ann"])
        wait_screen(t, "join", lambda x: "lobby of" in x and "blue: Anne Bonny (thinking bot" in x, "lobby")
        t.keys("join", "Enter")
        wait_screen(t, "join", lambda x: "you own this table" in x, "the seat")
        t.keys("join", "s")
        text = wait_screen(t, "join", my_turn, "my turn")
        take_turn_action(t, "join", text)
        before = board(wait_screen(t, "join", my_turn, "my turn again"))
        assert before

        hosts[-1].kill()  # like kill -9
        hosts[-1].wait(timeout=30)
        wait_screen(t, "join", lambda x: "reconnecting" in x, "the reconnecting notice")
        hosts.append(subprocess.Popen([*host_cmd, "--resume"], cwd=ROOT, env=env, stdout=log,
                                      stderr=log))
        text = wait_screen(t, "join", lambda x: "back in your seat" in x, "the seat again")
        assert board(text) == before

        # leave, then a later `cartagena join` offers the saved seat and takes it on `r`
        t.keys("join", "q")
        wait_screen(t, "join", lambda x: "Leave the running game?" in x, "the question")
        t.keys("join", "y")
        wait_screen(t, "join", lambda x: "EXIT=0" in x, "the client to exit")
        t.start("again", [*CLI, "join", f"127.0.0.1:{port}", "--name", "ann"])
        wait_screen(t, "again", lambda x: "take it back" in x, "the offer of the saved seat")
        t.keys("again", "r")
        text = wait_screen(t, "again", lambda x: "back in your seat" in x and my_turn(x),
                           "the seat from the saved token")
        assert board(text) == before
    finally:
        t.kill()
        for h in hosts:
            if h.poll() is None:
                h.kill()
                h.wait(timeout=30)
        log.close()
