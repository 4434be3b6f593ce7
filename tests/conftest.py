"""Every test runs with its own per-user directories, never the real user's.

Hosts journal by default into the per-user state directory
(``cartagena_net.portable.dirs.user_state_dir``) and clients keep seat tokens there, so
``XDG_STATE_HOME`` and ``HOME`` (and Windows' ``WIN_PD_OVERRIDE_LOCAL_APPDATA``) point at
fresh temporary folders: for the whole session
(so session and module fixtures are covered too), and again for each test, so that
tests (and the hosts they start in subprocesses, which inherit the environment) never
meet each other's folders.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from tests.userdirs import USER_VARS, private_dirs


@pytest.fixture(scope="session", autouse=True)
def private_user_dirs_for_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in USER_VARS}
    os.environ.update(private_dirs(tmp_path_factory.mktemp("user")))
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The program's words in English whatever the tester's locale says (its own
    processes and the ones it starts), and the language set back after a test that sets
    another; the tests of translations ask for Swedish themselves."""
    from cartagena_net import i18n

    monkeypatch.setenv("LANGUAGE", "en")
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(autouse=True)
def shared_loop_without_a_terminal_s_handler() -> Iterator[None]:
    """The tests' one asyncio loop (``tests.twisted_loop``) starts and ends each test with
    asyncio's own exception handler. A terminal client's app (prompt_toolkit) installs
    its handler while it runs and puts back the one it found when it ends; a test with
    two clients on the loop (two apps: a player and a watcher, two clients of one user)
    that end in the order they began leaves the first app's handler installed: the
    second puts it back. For the next tests of that worker each error on the loop (a
    full disk's, on purpose) then made it ask for Enter on a terminal there is not, fail
    and ask again: 3,492 times in one browser seat's test, which starved the host it
    served and timed out. (A real client is one app in its process.)"""
    def reset() -> None:
        shared = sys.modules.get("tests.twisted_loop")
        if shared is not None:
            shared.loop().set_exception_handler(None)

    reset()
    yield
    reset()


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in private_dirs(tmp_path_factory.mktemp("user")).items():
        monkeypatch.setenv(key, value)


# -- what a test needs from the machine -------------------------------------------------
# Here (Linux, root, tests/install.sh run) every test runs. On the other platforms' CI
# runners (.github/workflows/ci.yml) the tests that need what they lack are skipped, each
# saying why; nothing else is.

LINUX_PROC = ("tests/host/test_workers.py", "tests/host/test_crash_thinking.py",
              "tests/host/test_passwords.py")  # they read /proc to find processes


def _lacks(item: pytest.Item) -> str | None:
    import shutil
    import sys

    path = item.nodeid.split("::")[0]
    if item.get_closest_marker("netns") is not None and not (
            sys.platform.startswith("linux") and hasattr(os, "geteuid")
            and os.geteuid() == 0 and shutil.which("ip")):
        return "needs Linux network namespaces: root and iproute2"
    tmux = item.get_closest_marker("tmux") is not None or "/test_tmux" in path
    if tmux and shutil.which("tmux") is None:
        return "needs tmux to drive the terminal client in a real terminal"
    if "browser" in getattr(item, "fixturenames", ()) and not (
            os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        return "needs Debian's chromium and chromium-driver in /usr/bin"
    if path in LINUX_PROC and not os.path.exists("/proc/self/stat"):
        return "finds processes through /proc (Linux)"
    return None


# -- the fast lane ------------------------------------------------------------------------
# ``python3 -m pytest -m "not slow"`` leaves out what starts browsers, terminals (tmux),
# network namespaces, package builds or other heavy runs of real processes; CI runs
# everything. A test is slow by its marker (``netns``, ``tmux``, ``slow``), by the
# fixtures it uses (a browser, a host process), or by its file or its own id (SLOW: whole
# files, or single tests, that start and kill hosts, run the command line, the bots'
# worker processes, or play whole games for minutes; each was measured).

SLOW_FIXTURES = ("browser", "host_process")
SLOW = (
    "tests/test_package.py",  # builds wheels and an sdist, installs them in venvs
    "tests/test_platforms.py",  # collects the whole suite again in a subprocess
    "tests/discovery/test_two_laptops.py",
    "tests/discovery/test_loopback.py::test_list_command_finds_a_loopback_host",
    "tests/engine/test_cli_story.py",  # selfplay from the command line
    "tests/bots/test_parallel.py",  # the bots' worker processes
    "tests/bots/test_kept_trees.py",
    "tests/bots/test_host_ismcts.py",
    "tests/bots/test_host_magic.py::test_a_hosted_magic_game_of_default_level_bots_plays_to_the_end_without_fallback",
    "tests/bots/test_netbot.py::test_cartagena_bot_command_plays_a_game",
    "tests/bots/test_ismcts.py::test_cli_selfplay_reports_win_rates_intervals_and_decision_times",
    "tests/bots/test_greedy_ends.py::test_selfplay_finishes_the_table_that_looped",
    "tests/bots/test_greedy_ends.py::test_selfplay_stops_a_game_past_the_action_cap_and_reports_it",
    "tests/bots/test_search_positions.py::test_selfplay_in_magic_reports_no_search_failure",
    # long searches and whole games played many times over, in this process
    "tests/bots/test_search_positions.py::test_the_search_answers_on_every_kind_of_magic_position",
    "tests/bots/test_ismcts.py::test_a_settled_search_answers_as_the_whole_count_nearly_always_and_sooner",
    "tests/bots/test_bots.py::test_greedy_beats_random_clearly",
    "tests/bots/test_bots.py::test_greedy_beats_a_longest_advance_baseline",
    "tests/bots/test_coach.py::test_the_rooms_chances_read_only_what_a_spectator_sees",
    "tests/engine/test_rebuild.py::test_every_position_of_magic_games_rebuilds_exactly",
    "tests/client/test_swedish_screens.py",  # every screen of six whole games
    "tests/host/test_cli.py",  # hosts started, killed and resumed as processes
    "tests/host/test_coach.py",  # the bots' worker processes, timed
    "tests/host/test_crash_machine.py",
    "tests/host/test_crash_thinking.py",
    "tests/host/test_default_journal.py",
    "tests/host/test_full_disk.py",
    "tests/host/test_fuzz_log.py",
    "tests/host/test_locks.py",
    "tests/host/test_no_posix.py",
    "tests/host/test_passwords.py",
    "tests/host/test_platform_net.py",
    "tests/host/test_resume.py",
    "tests/host/test_workers.py",
    "tests/host/test_records_host.py::test_the_host_reviews_a_finished_game_in_its_workers_beside_its_record",
    "tests/i18n/test_language.py",  # every command's help, run as a process
    "tests/i18n/test_option_errors_cli.py",
    "tests/protocol/test_proto_interop.py",
    "tests/records/test_cli.py",
    "tests/records/test_review.py::test_cartagena_review_makes_keeps_and_prints_a_review",
    "tests/records/test_review_due.py",
)


def _slow(item: pytest.Item) -> bool:
    node = item.nodeid
    path = node.split("::")[0]
    if any(item.get_closest_marker(m) is not None for m in ("slow", "netns", "tmux")):
        return True
    if "/test_tmux" in path or "/test_browser" in path or path in SLOW:
        return True
    if any(node == s or node.startswith(s + "[") for s in SLOW if "::" in s):
        return True
    return any(f in getattr(item, "fixturenames", ()) for f in SLOW_FIXTURES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _slow(item) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
        why = _lacks(item)
        if why is not None:
            item.add_marker(pytest.mark.skip(reason=why))
