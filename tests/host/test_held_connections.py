"""Held connections over real TCP: a trickle of bytes never keeps a slot."""
from __future__ import annotations

import asyncio

from protocol import encode_frame, messages

from .helpers import join, make_host, run, stop_host


def test_a_trickling_client_is_dropped_while_an_honest_one_stays():
    async def scenario() -> None:
        # (no pings during the test: the client would answer one mid-frame)
        host = make_host(handshake_timeout=1.0, ping_interval=30, idle_timeout=60)
        try:
            trickler, _ = await join(host.port, "slow")
            honest, _ = await join(host.port, "ann")
            frame = encode_frame(messages.Chat(text="x" * 40).to_wire())
            loop = asyncio.get_running_loop()
            started = loop.time()
            sent = 0
            while not trickler.lost.done() and sent < len(frame):
                trickler.send_raw(frame[sent:sent + 1])
                sent += 1
                await asyncio.sleep(0.2)
            reason = await trickler.closed()
            assert sent < len(frame), "the frame was never meant to complete in time"
            err = [m for m in trickler.seen if isinstance(m, messages.Error)][-1]
            assert (err.code, err.fatal) == ("idle-timeout", True)
            assert "incomplete" in err.message, (err, reason)
            assert loop.time() - started < 8
            # the honest client is still there
            honest.send(messages.Ping(nonce=9))
            assert (await honest.expect(messages.Pong, lambda m: m.nonce == 9)).nonce == 9
            assert not honest.lost.done()
            assert len(host.connections) == 1
            honest.close()
        finally:
            await stop_host(host)

    run(scenario())
