"""Helpers for the crash-safety tests: log capture and a policy that makes long games.

Small boards with many pirates and a preference for retreats draw many cards, so the
stock runs out and the discard pile is reshuffled (and Tortuga's row refilled) often.
"""
from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

from twisted.logger import formatEvent, globalLogPublisher

# Games that reshuffle and refill rows within a few dozen actions, and still end fast.
LONG_GAMES = {
    "jamaica": {"players": 2, "segments": 1, "pirates": 6},
    "tortuga": {"players": 2, "segments": 1, "pirates": 6},
}


@contextlib.contextmanager
def captured_logs() -> Iterator[list[str]]:
    """Every host log line (formatted, with a traceback when there is one) meanwhile."""
    lines: list[str] = []

    def observe(event: dict[str, Any]) -> None:
        text = formatEvent(event)
        failure = event.get("log_failure")
        if failure is not None:
            text += "\n" + failure.getTraceback()
        lines.append(text)

    globalLogPublisher.addObserver(observe)
    try:
        yield lines
    finally:
        globalLogPublisher.removeObserver(observe)


def grep(lines: list[str], *words: str) -> list[str]:
    """The lines holding every one of ``words``."""
    return [line for line in lines if all(w in line for w in words)]


def reshuffles(events: list[dict[str, Any]]) -> int:
    return sum(1 for e in events if e.get("type") == "reshuffle")


def choose(legal: list[str], rng: random.Random, finish: bool) -> str:
    """Retreat (drawing cards) most of the time; once ``finish``, advance to end the game."""
    if finish:
        for text in legal:
            if text.startswith("advance"):
                return text
        return legal[0]
    retreats = [a for a in legal if a.startswith(("retreat", "morgan", "draw"))]
    if retreats and rng.random() < 0.9:
        return rng.choice(retreats)
    return rng.choice(legal)


class Player:
    """A seated wire client and the latest ``state`` it was sent."""

    def __init__(self, client: Any, seat: int | None, token: str | None) -> None:
        self.client = client
        self.seat = seat
        self.token = token
        self.latest: Any = None
        self.events: list[dict[str, Any]] = []
        self.refused = 0
        self.last_sent: str | None = None  # the last action text sent (if a test keeps it)

    def take(self, msg: Any) -> None:
        from protocol import messages

        if isinstance(msg, messages.State):
            if self.latest is None or msg.seq >= self.latest.seq:
                self.latest = msg
            self.events.extend(msg.events)
        elif isinstance(msg, messages.Error):
            if msg.code not in ("stale", "not-your-turn"):
                raise AssertionError(f"host error: {msg.code}: {msg.message}")
            self.refused += 1

    def drain(self) -> None:
        """Take every queued message: keep the newest state; raise on a real error."""
        inbox = self.client.inbox
        while not inbox.empty():
            self.take(inbox.get_nowait())

    async def pump(self, timeout: float = 30.0) -> None:
        """Wait for one more message, then take it and every other one queued."""
        import asyncio

        self.take(await asyncio.wait_for(self.client.inbox.get(), timeout))
        self.drain()


async def play_to_end(players: list[Player], table: int, rng: random.Random,
                      min_reshuffles: int = 0, max_steps: int = 20000,
                      stop: Any = None, policy: Any = None) -> Any:
    """Play the seated clients' moves (bots may hold the other seats) until the game ends
    (or ``stop(state)`` holds for the newest state).

    Retreats are preferred until ``min_reshuffles`` reshuffles were seen (``policy``, a
    function like :func:`choose`, picks instead). Returns the final state message (of
    the first player that saw it).
    """
    from protocol import messages

    for _ in range(max_steps):
        for p in players:
            p.drain()
        known = [p.latest for p in players if p.latest is not None]
        if known:
            newest = max(s.seq for s in known)
            done = [s for s in known if s.seq == newest and s.view["outcome"] is not None]
            if done:
                return done[0]
            if stop is not None and any(stop(s) for s in known if s.seq == newest):
                return next(s for s in known if s.seq == newest and stop(s))
            seen = max(reshuffles(p.events) for p in players)
            mover = next((p for p in players if p.latest is not None
                          and p.latest.seq == newest and p.latest.legal), None)
            if mover is not None:
                action = (policy or choose)(list(mover.latest.legal), rng,
                                            seen >= min_reshuffles)
                mover.client.send(messages.Action(table=table, seq=newest, action=action))
                refused = mover.refused
                while mover.latest.seq <= newest and mover.refused == refused:
                    await mover.pump()
                continue
        # Nobody here may move (a bot's turn, nothing seen yet, or the player to move has
        # not been sent the newest state yet): wait for the next message to any of them
        # (a stall times out).
        await pump_any(players, timeout=60.0)
    raise AssertionError("the game did not end")


async def pump_any(players: list[Player], timeout: float = 60.0) -> None:
    """Wait until one of ``players`` has a message, then take every queued one. (Waiting
    on one player alone stalls when it already holds the newest state and another, to
    move, is sent it a moment later: it would wait for that player's next ping.)"""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while all(p.client.inbox.empty() for p in players):
        if loop.time() > deadline:
            raise TimeoutError(f"no message from the host in {timeout} s")
        await asyncio.sleep(0.005)
    for p in players:
        p.drain()
