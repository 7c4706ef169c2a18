"""zero.when = after_move: the zero rule waits for the whole move, then stops
the round (the library's reading-zero-when-whole-move.toml shows the wait)."""
from __future__ import annotations

from pathlib import Path

from itcp.scenarios.format import load_scenario, resolve
from itcp.scenarios.replay import replay
from itcp.spec.rules.vocabulary import OVER, RACE, ZERO

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios" / "library"


def test_the_race_and_its_discard_come_first_then_the_round_stops():
    sc = load_scenario(LIBRARY / "reading-zero-when-whole-move.toml")
    sc.readings = dict(sc.readings) | sc.contrast
    sc.expect = {"phase": "RACE"}
    resolve(sc)
    res = replay(sc)
    assert res.ok, res.message
    game, s = sc.game, res.states[-1]
    assert game.get(s, "phase") == RACE and game.get(s, "ended") == 0
    ends = []
    for race in game.legal_actions(s):  # whoever wins the race
        s2 = game.apply(s, race)
        for discard in game.legal_actions(s2):
            s3 = game.apply(s2, discard)
            ends.append((game.get(s3, "phase"), game.get(s3, "ended")))
    assert len(ends) >= 2 and set(ends) == {(OVER, ZERO)}, ends
