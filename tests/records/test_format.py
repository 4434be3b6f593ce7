"""Game records: every preset and option mix played to the end by bots, recorded,
written, read back and replayed exactly; damaged records get clear errors; a record of
an unfinished game holds no hidden card."""
from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from cartagena_net.bots.kinds import make_bot
from cartagena_net.engine import PRESETS, SPECTATOR, State, make_game, view
from cartagena_net.records import (
    RecordError,
    build,
    dumps,
    loads,
    replay,
    score,
    steps,
    store,
)
from cartagena_net.records import format as fmt

MIXES: list[tuple[str, dict[str, Any]]] = [
    *((name, {"players": 2, "segments": 2}) for name in PRESETS),
    ("jamaica", {"players": 3, "segments": 2}),
    ("studiogiochi-2017", {"players": 3, "segments": 4, "magic": True}),
    ("studiogiochi-2017", {"players": 2, "story": "whole", "segments": 4}),
    ("studiogiochi-2017", {"players": 3, "segments": 4, "morgan": "instead",
                           "filibusters": True}),
    ("studiogiochi-2017", {"players": 2, "segments": 4, "morgan": "also", "magic": True,
                           "filibusters": True}),
    ("studiogiochi-2017", {"players": 2, "story": "whole", "segments": 4, "magic": True}),
    ("studiogiochi-2017", {"players": 2, "story": "island", "morgan": "also"}),
    ("studiogiochi-2017", {"players": 2, "story": "whole", "morgan": "island",
                           "filibusters": True}),
]


def bot_game(rules: str, options: dict[str, Any], seed: int, stop_after: int | None = None):
    """A game of greedy and random bots (with an undo when one is allowed), to the end
    or ``stop_after`` actions."""
    game = make_game(rules, **options)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    bots = [make_bot("greedy" if s % 2 == 0 else "random", random.Random(seed + s))
            for s in range(game.players)]
    undone = False
    for n in range(20000):
        if state.is_over or (stop_after is not None and n >= stop_after):
            return state
        seat = state.actor
        legal = [str(a) for a in state.legal_actions()]
        if not undone and state.can_undo() and rng.random() < 0.5:
            state.apply("undo")
            undone = True
            continue
        state.apply(bots[seat].choose(view(state, seat), legal))
    raise AssertionError("the game did not end")


def players_of(game) -> list[dict[str, Any]]:
    return [fmt.player(0, game.colors[0], "ann")] + [
        fmt.player(s, game.colors[s], f"bot{s}", bot="ismcts" if s == 1 else "greedy",
                   level="hard") for s in range(1, game.players)]


def record_of(state, end: str = "won") -> dict[str, Any]:
    return build(state, record_id="20261124T200000Z-abcdef-1", players=players_of(state.game),
                 started="2026-11-24T20:00:00Z", ended="2026-11-24T20:30:00Z", end=end,
                 table="ann's table", host="den")


@pytest.mark.parametrize(("rules", "options"), MIXES,
                         ids=[f"{r}-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for r, o in MIXES])
def test_a_game_played_to_the_end_is_recorded_read_back_and_replayed_exactly(
        rules, options, tmp_path):
    state = bot_game(rules, options, seed=len(rules) + len(options))
    assert any(a.kind == "undo" for a in state.history)  # undone: the replay keeps notes
    rec = record_of(state)
    assert rec["kind"] == "full" and rec["outcome"]["winner"] == state.outcome.winner
    path = store.write(tmp_path, rec)
    back = store.read(path)
    assert back == json.loads(json.dumps(rec))
    again = replay(back)
    assert again == state
    assert again.record() == state.record()
    # every position on the way is the one playing forward reaches
    every = steps(back)
    assert len(every) == len(back["moves"]) + 1 and every[-1] == state
    assert [m["action"] for m in back["moves"]] == [str(a) for a in state.history]
    text = score(back)
    assert "# result: 1. " in text and back["moves"][0]["action"] in text
    assert "ismcts hard" in text
    _each_turn_is_told_in_sentences(back, text)


def _each_turn_is_told_in_sentences(rec, text):
    """After each turn's notation, a ``#`` line says what happened, as the spectator's
    events say it (a person reads the score, not only a program)."""
    lines = text.splitlines()
    turns = [k for k, line in enumerate(lines) if re.match(r"\d+\. ", line)]
    assert turns
    told = [line for line in lines if line.startswith("#   ")]
    assert len(told) == len(turns)
    for k in turns:
        assert lines[k + 1].startswith("#   ")
    first = rec["moves"][0]["action"].split()
    if first[0] == "advance":  # "advance 0 key": "red plays key: start → 5"
        assert f"plays {first[2]}: " in told[0] and " → " in told[0]
    assert all(w not in line for line in told for w in ("advance ", "retreat "))


def test_stepping_back_and_forth_matches_playing_forward():
    state = bot_game("jamaica", {"players": 3, "segments": 2}, seed=3)
    rec = loads(dumps(record_of(state)))
    every = steps(rec)
    assert every[0] == make_game(**rec["spec"]).new_state(seed=3)
    full = state.record()
    actions = [m["action"] for m in rec["moves"]]
    rng = random.Random(1)
    n = 0
    for _ in range(60):  # back and forth: by one action, by many, to either end
        n = max(0, min(len(every) - 1, n + rng.choice((-1, 1, 1, -7, 9, -1000, 1000))))
        forward = State.replay(state.game, full["chance"], actions[:n])
        assert every[n] == forward
        assert view(every[n], 1) == view(forward, 1)


@pytest.mark.parametrize("options", [{"players": 3, "magic": True},
                                     {"players": 3, "morgan": "instead", "filibusters": True}])
def test_a_record_of_an_unfinished_game_holds_no_hidden_card(options):
    length = len(bot_game("studiogiochi-2017", options, seed=4).history)
    for stop in (5, length // 2, length - 1):
        state = bot_game("studiogiochi-2017", options, seed=4, stop_after=stop)
        assert not state.is_over
        rec = loads(dumps(record_of(state, end="stopped")))
        assert rec["kind"] == "spectator" and rec["outcome"] is None
        assert "chance" not in rec and "spec" in rec
        assert all("action" not in m for m in rec["moves"])
        assert len(rec["moves"]) == stop
        assert rec["final"] == json.loads(json.dumps(view(state, SPECTATOR)))
        text = json.dumps(rec)
        assert all(s["hand"] is None for s in rec["final"]["seats"])
        # no card drawn from the stock or taken by a power is named anywhere
        for s in rec["final"]["seats"]:
            assert '"cards"' not in text or s["hand"] is None
        for m in rec["moves"]:
            for e in m["events"]:
                assert not (e["type"] in ("retreat", "draw", "morgan") and "cards" in e)
                assert e["type"] not in ("take", "give", "keep", "stack") or "card" not in e
        with pytest.raises(RecordError, match="spectator"):
            replay(rec)
        assert score(rec).count("\n") > 8


def damaged_cases() -> list[tuple[str, Any, str]]:
    state = bot_game("jamaica", {"players": 2, "segments": 2}, seed=9)
    good = dumps(record_of(state))

    def edited(change) -> bytes:
        r = json.loads(good)
        change(r)
        return json.dumps(r).encode()

    return [
        ("truncated", good[: len(good) // 2], "damaged JSON"),
        ("empty", b"", "damaged JSON"),
        ("not utf-8", b"\xff\xfe" + good, "not UTF-8"),
        ("not a record", b'{"hello": 1}', "not a record"),
        ("a list", b"[1, 2]", "not a record"),
        ("newer version", edited(lambda r: r.update(version=2)), "newer cartagena-net"),
        ("bad version", edited(lambda r: r.update(version="1")), "version is not a number"),
        ("edited action", edited(lambda r: r["moves"][3].update(action="advance 99 skull")),
         "move 4"),
        ("wrong seat", edited(lambda r: r["moves"][0].update(seat=1)), "seat 0 was to act"),
        ("lost chance", edited(lambda r: r.update(chance=r["chance"][:-1])), "chance"),
        ("edited chance", edited(lambda r: r["chance"][-1].reverse() or r["chance"][-1]
                                 .append(999)), "cannot be dealt again"),
        ("moves cut", edited(lambda r: r.update(moves=r["moves"][:-3])), "ends"),
        ("bad rules", edited(lambda r: r["spec"].update(preset="chess")), "rules cannot"),
        ("bad players", edited(lambda r: r.update(players=r["players"][:1])), "players"),
        ("bad outcome", edited(lambda r: r.update(outcome={"winner": "x"})), "outcome"),
        ("huge", b" " * (fmt.MAX_BYTES + 1), "larger than"),
        ("a bad move", edited(lambda r: r["moves"].append(7)), "move"),
        ("nesting", b"[" * 100000 + b"]" * 100000, "nested too deeply"),
        ("kind", edited(lambda r: r.update(kind="spectator")), "a game that ended"),
        ("no final view", edited(lambda r: r.update(kind="spectator", outcome=None)),
         "no start view"),
    ]


@pytest.mark.parametrize(("name", "data", "message"), damaged_cases(),
                         ids=[c[0] for c in damaged_cases()])
def test_a_damaged_record_gets_a_clear_error(name, data, message, tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(data)
    with pytest.raises(RecordError) as caught, fmt.in_file(path):
        replay(store.read(path))
    assert message in str(caught.value)
    assert str(caught.value).count(str(path)) == 1  # named once, found reading or replaying


def test_a_records_rules_the_engine_refuses_are_worded_in_each_language():
    """A record whose rules no game can be made with says the engine's reason in the
    reader's language (the web port words it for each browser), its notation as is."""
    from cartagena_net.i18n import translation

    state = bot_game("jamaica", {"players": 2, "segments": 2}, seed=9)
    for change, english, swedish in (
            ({"preset": "chess"}, "unknown rules 'chess'; presets: jamaica",
             "okänd regeluppsättning 'chess'; regeluppsättningar: jamaica"),
            ({"segments": 40}, "option segments must be 1..12",
             "alternativet segments måste vara 1..12")):
        rec = json.loads(dumps(record_of(state)))
        rec["spec"].update(change)
        with pytest.raises(RecordError) as caught:
            fmt.check(rec)
        assert caught.value.text(lambda m: m).startswith(
            "damaged record: its rules cannot be set up: " + english)
        said = caught.value.text(translation("sv").gettext)
        assert said.startswith("skadad partifil: dess regler kan inte ställas upp: " + swedish)


@pytest.mark.parametrize(("name", "data", "message"), [
    c for c in damaged_cases() if c[0] in ("edited action", "wrong seat", "moves cut",
                                           "lost chance", "edited chance", "truncated")],
    ids=lambda c: c if isinstance(c, str) else None)
def test_the_commands_name_the_damaged_records_file(name, data, message, tmp_path):
    """``damaged record: move 51 ...`` did not say which file: every command does."""
    from .test_cli import cartagena

    folder = tmp_path / "records"
    folder.mkdir()
    path = folder / "20261124T200000Z-0123abcd-1.json"
    path.write_bytes(data)
    for command in (["replay", "--check"], ["export", "--print", "score"],
                    ["review", "--playouts", "2", "--search", "5", "--workers", "1"]):
        done = cartagena(*command, path.stem, "--dir", str(folder))
        assert done.returncode == 1, (command, done.stdout)
        (line,) = done.stderr.splitlines()  # one line, no traceback
        assert str(path) in line and message in line, (command, line)


def test_the_scoreboard_counts_games_wins_and_places_per_player_and_bot_level():
    from cartagena_net.records.format import scoreboard

    recs = []
    for seed in range(4):
        state = bot_game("jamaica", {"players": 3, "segments": 1}, seed=seed)
        g = state.game
        people = [fmt.player(0, g.colors[0], "ann"), fmt.player(1, g.colors[1], "bob"),
                  fmt.player(2, g.colors[2], "Blackbeard", bot="ismcts", level="hard")]
        rec = record_of(state)
        rec["players"] = people
        recs.append((rec, list(state.outcome.ranking)))
    unfinished = record_of(bot_game("jamaica", {"players": 3}, seed=1, stop_after=3),
                           end="stopped")
    board = {r["player"]: r for r in scoreboard([r for r, _ in recs] + [unfinished])}
    assert set(board) == {"ann", "bob", "ismcts hard", "greedy"}
    for seat, key in enumerate(("ann", "bob", "ismcts hard")):
        places = [ranking.index(seat) for _, ranking in recs]
        row = board[key]
        assert row["games"] == 4 and row["bot"] == (key == "ismcts hard")
        assert row["wins"] == places.count(0)
        assert row["places"] == [places.count(p) for p in range(len(row["places"]))]
        assert sum(row["places"]) == 4
    assert board["greedy"]["unfinished"] == 1 and board["greedy"]["games"] == 0
    assert board["ismcts hard"]["unfinished"] == board["ann"]["unfinished"] == 1
    assert sum(r["wins"] for r in board.values()) == 4
    assert board["greedy"]["rating"] == 0.0  # never finished a game: as a newcomer
    # The rating follows the places: whoever placed better on average rates higher.
    mean_place = {k: sum(i * n for i, n in enumerate(board[k]["places"])) / 4
                  for k in ("ann", "bob", "ismcts hard")}
    best, worst = min(mean_place, key=mean_place.get), max(mean_place, key=mean_place.get)
    if mean_place[best] < mean_place[worst]:
        assert board[best]["rating"] > board[worst]["rating"]


def test_two_bots_of_one_kind_at_a_table_are_one_player_in_that_game():
    """Games, wins, places and the rating alike: a game's wins sum to one however many
    seats one bot kind holds (two greedy bots won twice and were counted as 2 of 4)."""
    from cartagena_net.records.format import scoreboard

    state = bot_game("jamaica", {"players": 3, "segments": 1}, seed=2)
    g = state.game
    recs = []
    for n, ranking in enumerate(([0, 1, 2], [2, 0, 1], [1, 0, 2], [0, 2, 1])):
        rec = record_of(state)
        rec["players"] = [fmt.player(0, g.colors[0], "Blackbeard", bot="greedy"),
                          fmt.player(1, g.colors[1], "ann"),
                          fmt.player(2, g.colors[2], "Calico Jack", bot="greedy")]
        rec["outcome"] = {"winner": ranking[0], "ranking": ranking}
        rec["started"] = f"2026-11-24T20:0{n}:00Z"
        recs.append(rec)
    board = {r["player"]: r for r in scoreboard(recs)}
    assert board["greedy"]["games"] == 4 and board["ann"]["games"] == 4
    assert board["greedy"]["wins"] == 3 and board["ann"]["wins"] == 1
    assert sum(r["wins"] for r in board.values()) == len(recs)
    # places among the game's two players: greedy's best seat, ann after or before it
    assert board["greedy"]["places"] == [3, 1] and board["ann"]["places"] == [1, 3]
    assert board["greedy"]["rating"] > board["ann"]["rating"]


def test_a_rating_rises_with_wins_against_the_same_players():
    from cartagena_net.records.format import scoreboard

    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=1)
    g = state.game
    recs = []
    for n in range(6):
        rec = record_of(state)
        rec["players"] = [fmt.player(0, g.colors[0], "ann"), fmt.player(1, g.colors[1], "bob")]
        rec["outcome"] = {"winner": 0, "ranking": [0, 1]}  # ann always wins
        rec["started"] = f"2026-11-24T20:0{n}:00Z"
        recs.append(rec)
    ratings = [{r["player"]: r["rating"] for r in scoreboard(recs[:k])}
               for k in (1, 3, 6)]
    assert ratings[0]["ann"] > 0 > ratings[0]["bob"]
    assert ratings[0]["ann"] < ratings[1]["ann"] < ratings[2]["ann"]


def test_rows_added_up_are_the_rows_of_all_their_games_tallied_at_once():
    """The evening's scoreboard adds up blocks of games' rows (``add_rows``): the same
    rows as tallying every game into one, hinted games and unfinished ones included."""
    rng = random.Random(7)
    people = [fmt.player(0, "red", n) for n in ("ann", "bob", "cy")] + [
        fmt.player(0, "red", "Anne Bonny", bot="greedy")]
    games = []
    for n in range(40):
        seats = rng.randint(2, 4)
        players = [dict(rng.choice(people), seat=s) for s in range(seats)]
        ranking = list(range(seats))
        rng.shuffle(ranking)
        games.append({"players": players, "hinted": [0] if n % 3 == 0 else [],
                      "outcome": None if n % 7 == 0 else
                      {"winner": ranking[0], "ranking": ranking}})
    whole: dict = {}
    for g in games:
        fmt.tally(whole, g)
    total: dict = {}
    for block in (games[:13], games[13:14], games[14:]):
        rows: dict = {}
        for g in block:
            fmt.tally(rows, g)
        fmt.add_rows(total, rows)
    assert total == whole
    assert any(r.get("hinted") for r in whole.values())
    assert any(r["unfinished"] for r in whole.values())


@pytest.mark.parametrize("stop", [None, 40], ids=["full", "spectator"])
def test_a_record_encoded_a_move_at_a_time_is_the_record_built_and_dumped(stop):
    """What a host writes as each game ends (``encode``: no game's worth of move dicts
    at once) is byte for byte the file of the record built whole, hinted moves and all,
    and its head is the record without its moves."""
    state = bot_game("studiogiochi-2017", {"players": 3, "magic": True}, seed=6,
                     stop_after=stop)
    args = {"record_id": "20261124T200000Z-abcdef-1", "players": players_of(state.game),
            "started": "2026-11-24T20:00:00Z", "ended": "2026-11-24T20:30:00Z",
            "end": "stopped" if stop else "won", "hinted": {0, 7, 8}}
    whole = build(state, **args)
    head, data = fmt.encode(state, **args)
    assert data == dumps(whole)
    assert head == {k: v for k, v in whole.items() if k != "moves"}
    assert head["hinted"] == sorted({whole["moves"][k]["seat"] for k in (0, 7, 8)})
    back = loads(data)
    assert back == json.loads(json.dumps(whole))
    # one key a line at the top, then one move a line
    lines = data.decode().splitlines()
    assert lines[0] == "{" and lines[-2:] == [" ]", "}"]
    assert len(lines) == 1 + (len(whole) - 1) + 1 + len(whole["moves"]) + 2
    for line in lines[1:len(whole)]:
        key, _, value = line.strip().rstrip(",").partition(": ")
        assert json.loads(key) in whole and json.loads(value) == back[json.loads(key)]
    assert [json.loads(line.strip().rstrip(",")) for line in lines[len(whole) + 1:-2]] \
        == back["moves"]


LONG = [*MIXES, ("jamaica", {"players": 5}), ("tortuga", {"players": 4})]  # reshuffles


@pytest.mark.parametrize(("rules", "options"), LONG,
                         ids=[f"{r}-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for r, o in LONG])
def test_a_record_read_from_the_course_a_host_kept_is_the_record_replayed(rules, options):
    """A host keeps each action's seat and the chance outcomes drawn by then as the game
    is played (``kept``), and writes its record from that without replaying the game:
    byte for byte the record the replay makes, draws, reshuffles, take-backs, powers
    and hinted moves included. A course that does not cover every action (a game read
    back from its journal keeps none) is not used."""
    game = make_game(rules, **options)
    seed = len(rules) + len(options)
    state = game.new_state(seed=seed)
    bots = [make_bot("greedy" if s % 2 == 0 else "random", random.Random(seed + s))
            for s in range(game.players)]
    rng = random.Random(seed)
    dealt, acted = len(state.chance), []
    while not state.is_over:
        seat = state.actor
        if state.can_undo() and rng.random() < 0.3:
            state.apply("undo")
        else:
            state.apply(bots[seat].choose(view(state, seat),
                                          [str(a) for a in state.legal_actions()]))
        acted.append((seat, len(state.chance)))
    assert any(a.kind == "undo" for a in state.history)
    args = {"record_id": "20261124T200000Z-abcdef-1", "players": players_of(game),
            "started": "2026-11-24T20:00:00Z", "ended": "2026-11-24T20:30:00Z",
            "end": "won", "hinted": {0, 3, len(acted) - 1}}
    replayed = fmt.encode(state, **args)
    assert fmt.encode(state, **args, kept=(dealt, acted)) == replayed
    drew = any("chance" in m for m in loads(replayed[1])["moves"])
    assert drew == (len(state.chance) > dealt)
    assert fmt.encode(state, **args, kept=(dealt, acted[:-1])) == replayed
    other = [((seat + 1) % game.players, n) for seat, n in acted]
    assert fmt.encode(state, **args, kept=(dealt, other)) != replayed  # it is read


def test_a_long_record_is_encoded_without_a_piece_for_each_value():
    """Python's JSON encoder keeps a small string for each piece of what it encodes
    until it is done: a whole record encoded so (for the file, or the review's queue)
    takes ten times its size in small objects among the host's games. Encoded a move at
    a time, it takes about its own size a few times over (the bytes and their copy)."""
    import tracemalloc

    state = bot_game("jamaica", {"players": 4}, seed=2)
    rec = record_of(state)
    assert len(rec["moves"]) > 100
    for encode in (dumps, fmt.compact):
        tracemalloc.start()
        try:
            size = len(encode(rec))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 4 * size, (encode.__name__, peak, size)
        assert json.loads(encode(rec)) == json.loads(json.dumps(rec))
