"""Searching bots in hosted Black Magic Woman games: no search fails, and a search that
fails anyway is one log line, its level's fallback (greedy) plays, and the host counts it."""
from __future__ import annotations

from cartagena_net.bots.ismcts import search
from tests.host.crashkit import captured_logs, grep
from tests.twisted_loop import make_host, run, stop_host, until

# A short magic board: four chest spaces, a game of a few dozen bot actions.
SHORT_MAGIC = {"players": 2, "magic": True, "segments": 4, "pirates": 3}


def play_bots(host, options, setup=None) -> tuple:
    """Create a table of two ismcts bots, start it and wait for the end."""

    async def go():
        tid = host.create_table("magic bots", "studiogiochi-2017", options, bots=2,
                                bot_kind="ismcts")
        table = host.lobby.tables[tid]
        if setup is not None:
            setup(table)
        table.start(None)
        await until(lambda: table.status == "finished", "the game is over", timeout=240)
        return table

    try:
        table = run(go(), timeout=300)
        lobby = host.web.lobby_data() if host.web is not None else None
    finally:
        run(stop_host(host))
    return table, lobby


def test_a_hosted_magic_game_of_default_level_bots_plays_to_the_end_without_fallback():
    # Three segments and a seed whose game lasts about 30 actions (the full default
    # level's search for each): a margin above the 20 asked, at three quarters of the time.
    host = make_host(bot_workers=2, seed=3)
    assert host.config.bot_level == "normal" and host.config.bot_think is None
    with captured_logs() as lines:
        table, _ = play_bots(host, {**SHORT_MAGIC, "segments": 3})
    assert table.state.outcome.winner in (0, 1)
    assert any(str(a).startswith("power") for a in table.state.history)
    assert len(table.state.history) >= 20
    assert table.bot_fallbacks == 0 and host.bot_fallbacks == 0
    assert not grep(lines, "fallback") and not grep(lines, "random action")


def test_a_failed_search_is_one_line_the_greedy_fallback_plays_and_the_host_counts_it():
    host = make_host(bot_think=0.05, bot_workers=1, web_port=0, seed=7)
    failing = {"left": 3}

    def setup(table):
        bot = table.seats[0].controller
        real = bot.job

        def job(view, legal, deadline=True):
            if failing["left"] <= 0:
                return real(view, legal, deadline)
            failing["left"] -= 1
            _, args = real(view, legal, deadline)
            # A legal list the view cannot have: the search (in its worker) refuses it.
            return search, (args[0], [*legal, "power gun 9"], *args[2:])

        bot.job = job

    with captured_logs() as lines:
        table, lobby = play_bots(host, {**SHORT_MAGIC, "morgan": "also", "filibusters": True}, setup)
    assert table.state.is_over
    failed = grep(lines, "search failed")
    assert len(failed) == 3, failed
    assert all("\n" not in line and "greedy plays instead" in line for line in failed)
    assert "the legal actions do not match the view" in failed[0]
    assert table.bot_fallbacks == 3 and host.bot_fallbacks == 3
    assert lobby["bot_fallbacks"] == 3 and lobby["tables"][0]["bot_fallbacks"] == 3
    assert not grep(lines, "random action")
