"""A hunted counterexample is confirmed only on data that satisfy the bound's hypotheses."""
import copy
import json
from pathlib import Path

import pytest

from olr_verify import artefacts
from olr_verify.hunting.bounds import TARGETS
from olr_verify.hunting.confirm import hypotheses_broken

COMMITTED = Path(__file__).resolve().parents[2] / "reports" / "latest" / "counterexamples"


def _theorem_7():
    return json.loads((COMMITTED / "000_theorem-7.json").read_text())


def test_committed_hunt_artefacts_satisfy_their_hypotheses():
    arts = [json.loads(p.read_text()) for p in sorted(COMMITTED.glob("*.json"))]
    hunts = [a for a in arts if a["replay"]["type"] == "hunt-regret"]
    assert hunts
    for a in hunts:
        assert hypotheses_broken(TARGETS[a["replay"]["target"]], a["replay"]) is None, a["claim"]


@pytest.mark.parametrize("change, broken", [
    ({"X": [["1000"], ["1000"]]}, "||x_1|| > R"),
    ({"Y": [1, 0]}, "not +-1"),
    ({"params": {"B": "1", "R": "1", "d": 1, "lam": "1", "n": 3}}, "n = 3"),
    ({"params": {"B": "-1", "R": "1", "d": 1, "lam": "1", "n": 2}}, "B = -1"),
    ({"params": {"B": "1", "R": "1", "d": 2, "lam": "1", "n": 2}}, "d = 2"),
])
def test_a_forged_theorem_1_artefact_is_rejected(change, broken):
    art = _theorem_7()
    art["claim"] = "000:theorem-1"
    art["replay"].update(target="000:theorem-1", learner="aioli", U=None, comparator=["0"], X=[["0.5"], ["0.5"]],
                         Y=[1, -1], params={"B": "1", "R": "1", "d": 1, "lam": "1", "n": 2})
    art["replay"].update(copy.deepcopy(change))
    assert broken in (hypotheses_broken(TARGETS["000:theorem-1"], art["replay"]) or "")
    ok, details = artefacts.recheck(art)
    assert not ok and details["replay_outcome"] == "rejected"
