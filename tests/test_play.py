"""``itcp-check play``: a whole round driven through a pseudo-terminal as a person
would (keys in, screen read back), the same on a pipe, a scenario replayed, and
the bots."""
from __future__ import annotations

import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from itcp.cli.common import load
from itcp.model.engine.engine import Game
from itcp.report.play import choose, own_points
from itcp.spec.rulebook import SENTENCES

EXE = Path(sys.executable).with_name("itcp-check")
LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"
ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
PROMPT = re.compile(r"move 1-(\d+), \? question, t table, h help, q quit > $")


class Terminal:
    """A program on a pseudo-terminal: what it printed so far, and keys to type."""

    def __init__(self, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the program, its stdin/stdout the terminal
            os.environ["TERM"] = "xterm"
            os.environ.pop("NO_COLOR", None)
            os.execv(argv[0], argv)
        self.screen = ""
        self.seen = 0   # what was on the screen when keys were last typed

    def read_until(self, pattern: re.Pattern, timeout: float = 60.0):
        """Read until what appeared since the last keys matches ``pattern`` (at its
        end) or the program exits."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            plain = ANSI_RE.sub("", self.screen[self.seen:]).replace("\r", "")
            m = pattern.search(plain)
            if m:
                return m
            r, _, _ = select.select([self.fd], [], [], 0.5)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:   # the program has exited
                    return None
                if not data:
                    return None
                self.screen += data.decode("utf-8", "replace")
        raise AssertionError(f"timed out; the screen ends:\n{self.screen[-2000:]}")

    def type(self, keys: str) -> None:
        self.seen = len(self.screen)
        os.write(self.fd, keys.encode())

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)

    @property
    def text(self) -> str:
        return ANSI_RE.sub("", self.screen).replace("\r", "")


def test_a_whole_round_through_a_pseudo_terminal():
    """Two players against a random bot: at every prompt the person types a move
    (the first one, or the second one every fifth time) and reads the screen back,
    until the round is over."""
    t = Terminal([str(EXE), "play", "official", "--players", "2", "--seed", "12",
                  "--bots", "random"])
    moves = 0
    while True:
        m = t.read_until(re.compile(PROMPT.pattern + r"|The round is over.*\n(.*\n)*$"))
        if m is None or "The round is over" in m.group(0):
            break
        n = int(m.group(1))
        t.type(f"{2 if moves % 5 == 4 and n >= 2 else 1}\n")
        moves += 1
        assert moves < 200, "the round did not end"
    t.read_until(re.compile(r"Scores: .*\n$"), timeout=30)
    code = t.wait()
    text = t.text
    assert code == 0, text[-2000:]
    assert moves >= 6, moves          # the person moved several times
    assert "The round is over" in text and "Scores: P0" in text
    # the table was drawn and the person's hand shown; the bot's hidden until the end
    assert "P0 (you)" in text and re.search(r"P1\s+6 cards", text)
    # each rule explained as it fires, the first time with its sentence
    assert "rule play.draw_pile" in text or "rule play.draw_deck" in text
    assert f'[play.1] "{SENTENCES["play.1"][:40]}' in text.replace("\n          ", " ")
    assert "(reading " in text                      # a reading in force, named
    assert "\x1b[" in t.screen                       # suits coloured on a terminal


def run(args, stdin: str, timeout: float = 120):
    return subprocess.run([str(EXE), *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def test_on_a_pipe_with_a_question_and_bad_keys():
    """The same on a plain pipe (no terminal, no colour): a wrong key is refused, a
    question is answered at the check table (saying so), and quitting exits 130."""
    r = run(["play", "official", "--players", "2", "--seed", "4", "--bots", "greedy"],
            "zzz\n? can the passer's hand change\nq\n")
    out = r.stdout
    assert r.returncode == 130, r.stderr + out
    assert "\x1b[" not in out
    assert "not a move: 'zzz'" in out
    assert "YES: can the passer's hand change" in out
    assert "the check command's table, not this one" in out
    assert "Goodbye." in out


def test_input_ending_stops_cleanly():
    r = run(["play", "official", "--players", "3", "--seed", "2"], "")
    assert r.returncode in (0, 130) and "Traceback" not in r.stderr
    assert "(input ended)" in r.stdout or "The round is over" in r.stdout


def test_replay_a_scenario_move_by_move():
    f = LIBRARY / "frozen-pride-cycle.toml"
    r = run(["play", "--replay", str(f)], "\n\n? can a pass happen\n\n\n")
    out = r.stdout
    assert r.returncode == 0, r.stderr
    assert out.count("Move ") >= 4 and "PASS:" in out
    assert "rule pride.open" in out and "P1 has passed: that hand is frozen" in out
    # a question that does not parse is answered with the parser's message, and play goes on
    assert "error: question, column 7: unexpected 'pass'" in out


def test_watch_a_round_of_bots():
    r = run(["play", "clarified", "--watch", "--seed", "9", "--bots", "greedy",
             "--players", "3", "--suits", "2", "--ranks", "2..6", "--hand", "3"], "")
    assert r.returncode == 0, r.stdout[-2000:]
    assert "you watch" in r.stdout and "The round is over" in r.stdout


@pytest.mark.parametrize("args, needle", [
    (["--seat", "7"], "--seat 7"),
    (["--replay", "no-such-file.toml"], "no-such-file.toml"),
])
def test_bad_input_exits_2(args, needle):
    r = run(["play", "official", *args], "")
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr


def test_greedy_bot_plays_legal_moves_and_keeps_its_points_low():
    """Over a few rounds: every greedy move is legal, and where every discard ends
    the bot's say (no follow-up choice, no chance), it throws away the most points."""
    game = Game.from_variant(load("official", {"players": 3}))
    rng = random.Random(5)
    checked = 0
    for _ in range(3):
        s = game.deal(rng)
        for _ in range(300):
            if game.is_terminal(s):
                break
            if game.is_chance(s):
                s = game.apply(s, game.sample_chance(s, rng))
                continue
            acts = game.legal_actions(s)
            if not acts:
                break
            a = choose("greedy", game, s, rng)
            assert a in acts
            p = game.current_player(s)
            after = {b: game.apply(s, b) for b in acts}
            if all(b[0] == "discard" for b in acts) and all(
                    not game.is_chance(x) and game.current_player(x) != p
                    for x in after.values()):
                best = min(own_points(game, x, p) for x in after.values())
                assert own_points(game, after[a], p) == best
                checked += 1
            s = after[a]
    assert checked >= 5


def test_own_points_ignore_who_passed():
    game = Game.from_variant(load("official", {"players": 3}))
    s = game.deal(random.Random(1))
    i = game.index["passers"]
    marked = s[:i] + ((1 << game.config.players) - 1,) + s[i + 1:]
    assert [own_points(game, marked, p) for p in range(3)] == \
        [own_points(game, s, p) for p in range(3)]
    assert own_points(game, s, 0) == game.scores(s)[0]   # nobody has passed yet
