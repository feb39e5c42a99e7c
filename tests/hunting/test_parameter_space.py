"""Bounds hunted over their whole hypothesis space (issue 15), hunt verdicts (issue 14), campaign rows and
``olr-verify hunt`` arguments (issue 16).  Fast: marker ``hunt``."""
import sqlite3
import subprocess
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

from olr_verify.hunting.bounds import TARGETS, Target
from olr_verify.hunting.space import SPACES, space_for
from olr_verify.outcome import Context

pytestmark = pytest.mark.hunt


def test_every_hunted_bound_declares_its_parameters_with_open_ends_over_four_decades():
    for claim in TARGETS:
        if claim.startswith("planted:"):
            continue
        space = space_for(claim)
        assert space is not None, claim
        for p in space.params:
            assert p.printed, (claim, p.name)
            if p.scale == "log":
                assert p.decades() >= 4, (claim, p.name)
            else:
                assert p.lo == 1 and 1 in p.boundary, (claim, p.name)  # n = 1, d = 1 are tried


def test_boundary_points_come_first_and_hold_every_lower_end():
    pts = SPACES["000:theorem-1"].boundary_points()
    assert pts[0] == {"d": 1, "n": 1, "B": 1e-3, "R": 1e-3, "lam": 1e-3}
    assert {"B": 1e3} in pts and {"lam": 1e3} in pts


def test_a_hunt_explores_every_open_parameter_over_four_decades_within_the_default_budget():
    from olr_verify.hunting.optimisers import hunt

    res = hunt("000:equation-22", seed=1, max_evals=400, max_work=12000)
    explored = res.region.explored()
    for name in ("B", "R", "lam"):
        assert explored[name]["decades"] >= 4, (name, explored[name])
    assert 1 in explored["n"]["boundary_values_hit"] and 1 in explored["d"]["boundary_values_hit"]


def test_pinned_parameters_are_not_searched_and_are_reported_as_fixed(tmp_path):
    from olr_verify.hunting.checkkit import hunt_outcome

    out = hunt_outcome("000:equation-4", Context(tmp_path, quick=True), params={"d": 2})
    ev = out.evidence
    assert "d" not in ev["parameter_space"] and "pinned" in ev["fixed_parameters"]["d"]
    assert "1/B^2" in ev["fixed_parameters"]["lam"]
    assert all(v["d"] == 2 for v in [ev["params"]])
    heat = [f for f in ev["figures"] if "heatmap" in f["path"]]
    assert heat and (tmp_path / heat[0]["path"]).stat().st_size > 1000


# --------------------------------------------------------------------------- verdicts
def _register(claim, bound):
    TARGETS[claim] = Target(claim, "absorbed", "ftrl003", bound, {"D": 2.0, "n": 5}, "none")


def test_an_unconfirmed_violation_is_inconclusive_never_verified(tmp_path):
    """Planted: float64 sees lhs > rhs, but the margin changes between 50 and 80 digits (and beyond)."""
    from olr_verify.hunting.checkkit import hunt_outcome

    def imprecise(seq, run, cmp, K):
        """PLANTED: a margin that depends on the working precision."""
        # 0 in float64; at p digits 10^(p - 60): the margin never agrees between two precisions
        lhs = K.num(0) if K.name == "float64" else mpmath.mpf(10) ** (mpmath.mp.dps - 60)
        return lhs, K.num(-1e-30)

    _register("planted:imprecise", imprecise)
    try:
        out = hunt_outcome("planted:imprecise", Context(tmp_path, quick=True))
    finally:
        TARGETS.pop("planted:imprecise")
    assert out.status == "inconclusive"
    assert out.evidence["near_violations"][0]["replay_outcome"] == "unresolved"


def test_a_float_violation_dismissed_at_high_precision_stays_verified(tmp_path):
    from olr_verify.hunting.checkkit import hunt_outcome

    def equal(seq, run, cmp, K):
        """PLANTED: 1 <= 1, with float64 rounding up."""
        return (K.num(1) + K.num(4e-16) if K.name == "float64" else K.num(1)), K.num(1)

    _register("planted:equal", equal)
    try:
        out = hunt_outcome("planted:equal", Context(tmp_path, quick=True))
    finally:
        TARGETS.pop("planted:equal")
    assert out.status == "verified"
    assert out.evidence["near_violations"][0]["replay_outcome"] == "dismissed"


def test_a_planted_false_theorem_1_is_refuted_with_a_replayable_artefact(tmp_path):
    from olr_verify.hunting.checkkit import hunt_outcome
    from olr_verify.hunting.confirm import replay_artefact
    from olr_verify.hunting.planted import plant, unplant

    pid = plant("000:theorem-1", 0.2)
    try:
        out = hunt_outcome(pid, Context(tmp_path, quick=True))
        assert out.status == "refuted"
        assert out.counterexample and replay_artefact(out.counterexample)[0]
        assert out.evidence["witness_params"]
    finally:
        unplant(pid)


def test_the_true_theorem_1_is_not_refuted_at_the_same_budget(tmp_path):
    from olr_verify.hunting.checkkit import hunt_outcome

    assert hunt_outcome("000:theorem-1", Context(tmp_path, quick=True)).status == "verified"


# --------------------------------------------------------------------------- campaign rows
def _row(claim, k, ratio):
    return {"claim": claim, "k": k, "seed": 1, "unit_seconds": 1.0, "best_ratio": ratio, "baseline_ratio": 0.1,
            "sequences_evaluated": 10, "seconds": 1.0, "best_found_by": "random", "confirmed": 0, "replay": None,
            "details": None, "artefact": None}


def test_two_campaigns_on_one_database_keep_each_others_rows(tmp_path):
    from olr_verify.hunting import campaign

    db = tmp_path / "c.sqlite"
    con = campaign._db(db)
    assert campaign.store(con, _row("003:lemma-13", 0, 0.5), "first")
    assert campaign.store(con, _row("003:lemma-13", 0, 0.7), "second")
    assert not campaign.store(con, _row("003:lemma-13", 0, 0.9), "first")  # kept, not replaced
    rows = sqlite3.connect(db).execute("SELECT campaign, best_ratio FROM hunt_units ORDER BY campaign").fetchall()
    assert rows == [("first", 0.5), ("second", 0.7)]
    assert campaign.summary(db, "first")[0]["best_ratio"] == 0.5
    assert campaign.done_units(con, 1.0, "second") == {("003:lemma-13", 0)}
    assert campaign.done_units(con, 1.0, "third") == set()


def test_campaign_summary_calls_an_unresolved_candidate_inconclusive(tmp_path):
    from olr_verify.hunting import campaign

    db = tmp_path / "c.sqlite"
    con = campaign._db(db)
    campaign.store(con, {**_row("003:lemma-13", 0, 1.2), "replay": "unresolved"})
    assert campaign.summary(db)[0]["status"] == "inconclusive"


@pytest.mark.parametrize("args, word", [(["--budget", "abc"], "duration"), (["--workers", "0"], ">= 1"),
                                        (["--unit-seconds", "0"], "> 0"), (["--unit-seconds", "nan"], ""),
                                        (["--claims", "no-such-claim"], "no hunted bound")])
def test_hunt_cli_rejects_bad_arguments_in_one_line_with_status_2(args, word, tmp_path):
    exe = Path(sys.executable).parent / "olr-verify"
    p = subprocess.run([str(exe), "hunt", "--db", str(tmp_path / "x.sqlite"), *args], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr and word in lines[0], p.stderr
    assert not (tmp_path / "x.sqlite").exists()


def test_run_campaign_refuses_zero_workers_before_starting_dask(tmp_path):
    from olr_verify.hunting import campaign

    with pytest.raises(ValueError, match="workers"):
        campaign.run_campaign(["003:lemma-13"], 10, workers=0, db=tmp_path / "c.sqlite")


def test_reading_a_database_from_before_named_campaigns_leaves_it_untouched(tmp_path):
    from olr_verify.hunting import campaign

    db = tmp_path / "old.sqlite"
    con = sqlite3.connect(db)
    con.execute("""CREATE TABLE units (claim TEXT, k INTEGER, seed INTEGER, unit_seconds REAL, best_ratio REAL,
                   baseline_ratio REAL, evaluated INTEGER, seconds REAL, found_by TEXT, confirmed INTEGER,
                   details TEXT, artefact TEXT, finished REAL, PRIMARY KEY (claim, k, unit_seconds))""")
    con.execute("INSERT INTO units VALUES ('003:lemma-13', 0, 1, 1.0, 0.5, 0.1, 10, 1.0, 'random', 0, NULL, NULL, 0)")
    con.commit()
    con.close()
    before = db.read_bytes()
    assert campaign.summary(db)[0]["best_ratio"] == 0.5
    assert db.read_bytes() == before
    assert campaign.done_units(campaign._db(db), 1.0) == {("003:lemma-13", 0)}  # a resumed campaign keeps it


def test_a_replay_refuses_precisions_the_replayer_does_not_use():
    from olr_verify.hunting.confirm import make_artefact, replay_artefact
    from olr_verify.hunting.bounds import Sequence, with_defaults

    t = TARGETS["003:lemma-13"]
    seq = Sequence("absorbed", with_defaults(t, {"n": 3}), np.array([[0.5], [-1.0], [1.0]]))
    art = make_artefact("003:lemma-13", seq, None, 1.0, 0.5, "test", 0)
    art["replay"]["dps"] = [15, 16]
    with pytest.raises(ValueError, match="dps"):
        replay_artefact(art)
