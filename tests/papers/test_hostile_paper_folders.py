"""A hostile review of paper folders: statements that got a wrong or misleading verdict, or an error instead of a
one-line message, from a paper.toml with no Python. Each test failed on the code before the review."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from olr_verify import registry
from olr_verify.outcome import Context
from olr_verify.paper_folder import PaperError

ROOT = Path(__file__).resolve().parents[2]


def _paper(tmp_path: Path, claims: str, key: str = "h") -> Path:
    (tmp_path / "paper.toml").write_text(
        f'[paper]\nkey = "{key}"\ntitle = "T"\nauthors = "A"\n\n' + textwrap.dedent(claims), encoding="utf-8")
    return tmp_path


def _decide(claim_id: str, tmp_path: Path, quick: bool = True):
    return registry.get(claim_id).check(Context(out_dir=tmp_path, quick=quick))


def _bound(bound: str, params: str, learner_params: str = '{ B = "B", R = "R" }', learner: str = "OGD") -> str:
    return f'''
        [[claim]]
        id = "h:theorem-1"
        check_kind = "regret-bound"
        statement = "s"
        learner = "{learner}"
        learner_params = {learner_params}
        bound = "{bound}"
        params = {params}
    '''


PARAMS = '{ B = ["1/10", "10"], R = ["1/2", "2"], n = ["1", "50"], d = ["1", "2"] }'


# --------------------------------------------------------------------------- regret bounds
def test_a_vacuous_regret_bound_is_not_verified(fresh_registry, tmp_path):
    """OGD plays in the B-ball, so |yhat| <= BR and no sequence has regret above n B R: the hunt cannot fail.
    It was `verified`; the campaign hunts call such a bound vacuous (run_quantities.regret_cap) and so does this one now."""
    fresh_registry.add_paper(_paper(tmp_path, _bound("n*B*R", PARAMS)))
    out = _decide("h:theorem-1", tmp_path)
    assert out.status == "inconclusive" and "vacuous" in out.evidence["reason"]
    assert out.evidence["could_fail"] is False


def test_a_bound_that_can_fail_is_still_verified(fresh_registry, tmp_path):
    fresh_registry.add_paper(_paper(tmp_path, _bound("3*B*R*sqrt(n)", PARAMS.replace('"50"', '"200"'))))
    out = _decide("h:theorem-1", tmp_path)
    assert out.status == "verified" and out.evidence["could_fail"] is True


def test_a_bound_false_only_at_the_all_high_corner_is_refuted(fresh_registry, tmp_path):
    """The bound is 0 only at B = 10, R = 2. The hunt took the first corners in sorted order (all with B low in
    quick mode, and never B and R both high with five parameters in full mode): `verified`."""
    fresh_registry.add_paper(_paper(tmp_path, _bound("B*R*sqrt(n)*(12 - B - R)", PARAMS)))
    out = _decide("h:theorem-1", tmp_path)
    assert out.status == "refuted"
    assert out.evidence["worst_point"]["B"] == "10" and out.evidence["worst_point"]["R"] == "2"


def test_full_mode_tries_every_corner(fresh_registry):
    from olr_verify.hunting.declared import _param_points

    ranges = {k: (Fraction(0), Fraction(1)) for k in "abcde"}
    points = _param_points(ranges, 40, np.random.default_rng(0), corner_limit=64)
    corners = {tuple(p.values()) for p in points if all(v in (0, 1) for v in p.values())}
    assert len(corners) == 32
    quick = _param_points(ranges, 8, np.random.default_rng(0))
    assert tuple(quick[0].values()) == (0,) * 5 and tuple(quick[1].values()) == (1,) * 5


@pytest.mark.parametrize("bound, learner_params", [
    ("10*B*R*sqrt(n) + sqrt(B - 1)", '{ B = "B", R = "R" }'),  # complex for B < 1: was an `error` (TypeError)
    ("oo", '{ B = "B", R = "R" }'),
    ("-oo", '{ B = "B", R = "R" }'),  # was an `error` (ValueError from mpmath)
    ("10*B*R*sqrt(n)", '{ B = "B - 1/10", R = "R" }'),  # the learner refuses B = 0: was an `error`
    ("10*B*R*sqrt(n)", '{ B = "log(B)", R = "R" }'),
    ("10*B*R*sqrt(n)", '{ B = "B", R = "R/2" }'),  # the learner refuses the hunt's inputs: was an `error`
])
def test_a_bound_or_argument_undefined_somewhere_is_inconclusive_not_an_error(fresh_registry, tmp_path, bound,
                                                                             learner_params):
    fresh_registry.add_paper(_paper(tmp_path, _bound(bound, PARAMS, learner_params)))
    out = _decide("h:theorem-1", tmp_path)
    assert out.status == "inconclusive" and "could not be tested" in out.evidence["reason"]
    assert out.evidence["untested"]


def test_a_zero_division_in_the_bound_still_refutes_where_it_is_defined(fresh_registry, tmp_path):
    fresh_registry.add_paper(_paper(tmp_path, _bound("1/(B - 1)", PARAMS.replace('"1/10"', '"1"'))))
    assert _decide("h:theorem-1", tmp_path).status == "refuted"  # false at B = 10 (bound 1/9), undefined at B = 1


def test_the_one_direction_sequences_have_a_certified_comparator():
    """All x_t = R e1 in R^3: the comparator's optimum is degenerate in e2, e3 and was not certified (the claim was
    `inconclusive` whenever the hunt reached B = 10, R = 2, n = 200, d = 3). It is solved in the span of the inputs."""
    from olr_verify.hunting import declared

    spec = declared.DeclaredBound("OGD", {"B": "B", "R": "R"}, "3*B*R*sqrt(n)",
                                  {"B": ("1/10", "10"), "R": ("1/2", "2"), "n": ("1", "200"), "d": ("1", "3")})
    point = {"B": Fraction(10), "R": Fraction(2), "n": Fraction(200), "d": Fraction(3)}
    for kind in ("constant", "adaptive", "alternating"):
        case = declared._evaluate(spec, spec.compiled(), point, kind, np.random.default_rng(0))
        assert "uncertified" not in case and 0 <= case["ratio"] < 1


@pytest.mark.parametrize("params, learner_params, learner, message", [
    # R <= 0: no sequence satisfies ||x_t|| <= R; the hunt used |R| and *refuted* a vacuously true statement
    ('{ B = ["1/10", "10"], R = ["-2", "-1"], n = ["1", "50"], d = ["1", "2"] }', '{ B = "B", R = "-R" }', "OGD",
     "params.R: the radius"),
    (PARAMS.replace('"10"]', '"10**300"]'), '{ B = "B", R = "R" }', "OGD", "magnitude"),  # was OverflowError
    (PARAMS.replace('"1/10"', '"10**-300"'), '{ B = "B", R = "R" }', "OGD", "magnitude"),  # was ZeroDivisionError
    (PARAMS.replace('"50"', '"1000"').replace('"2"] }', '"64"] }'), '{ B = "B", R = "R" }', "OGD", "n x d"),
    (PARAMS.replace("}", ', pi = ["1", "2"] }'), '{ B = "B", R = "R" }', "OGD", "may not be named pi"),
    (PARAMS.replace("}", ', "a b" = ["1", "2"] }'), '{ B = "B", R = "R" }', "OGD", "parameter name"),
    (PARAMS.replace('["1/10", "10"]', '["1/10"]'), '{ B = "B", R = "R" }', "OGD", "must be \\[lo, hi\\]"),
    (PARAMS.replace('["1/10", "10"]', '["1/10", "10", "20"]'), '{ B = "B", R = "R" }', "OGD", "must be \\[lo, hi\\]"),
    (PARAMS.replace("}", ", " + ", ".join(f'p{i} = ["1", "2"]' for i in range(10)) + " }"), '{ B = "B", R = "R" }',
     "OGD", "at most 8 parameters"),  # 2^14 corners were listed (2^34 hung)
    (PARAMS, '{ B = "B", R = "R", foo = "1" }', "OGD", "takes no argument 'foo'"),
    (PARAMS, '{ B = "B", R = "R", d = "1" }', "OGD", "learner_params.d"),
    (PARAMS, '{ K = "2", eta = "1" }', "MulticlassOGD", "not a binary learner"),
])
def test_a_malformed_regret_bound_is_one_clear_error(fresh_registry, tmp_path, params, learner_params, learner,
                                                     message):
    _paper(tmp_path, _bound("3*B*R*sqrt(n)", params, learner_params, learner))
    with pytest.raises(PaperError, match=message):
        fresh_registry.add_paper(tmp_path)


# --------------------------------------------------------------------------- the loader
CLAIM = '''
    [[claim]]
    id = "h:lemma-1"
    check_kind = "scalar-inequality"
    statement = "s"
    relation = "x >= 5"
    domain = { x = ["0", "1"] }
'''


@pytest.mark.parametrize("old, new, message", [
    # an empty range made every statement vacuously true: x >= 5 on [1, 0] was `verified` (40000 "samples")
    ('domain = { x = ["0", "1"] }', 'domain = { x = ["1", "0"] }', "the range is empty"),
    ('domain = { x = ["0", "1"] }', 'domain = { x = ["oo", "oo"] }', "is empty"),
    ('domain = { x = ["0", "1"] }', 'domain = { x = { lo = "0" } }', "must be \\[lo, hi\\]"),  # was KeyError: 0
    ('id = "h:lemma-1"', 'id = "h:lemma-1\\n"', "does not follow"),  # a second id that prints as h:lemma-1
    ('id = "h:lemma-1"', 'id = "h:lemma-1"\ntitle = { a = 1 }', "title must be a string"),
    ('id = "h:lemma-1"', 'id = "h:lemma-1"\nvariant_of = "000:lemma-5"', "not a claim of this paper.toml"),
    ('id = "h:lemma-1"', 'id = "h:lemma-1"\ndepends_on = ["000:theorem-1"]', "depends_on names results of this"),
    ('id = "h:lemma-1"', 'id = "h:lemma-1"\nlearner = "OGD"', "do not apply"),  # silently ignored
    ('id = "h:lemma-1"', 'id = "h:lemma-1"\ninconclusive = { reason = "r" }', "do not apply"),
    ('domain = {', 'prover_seconds = "10"\ndomain = {', "prover_seconds"),  # the prover raised: `verified`
    ('domain = {', 'prover_seconds = 1e300\ndomain = {', "prover_seconds"),
    ('domain = {', 'search_only = "false"\ndomain = {', "search_only must be true or false"),  # read as true
    ('domain = {', 'cited = ""\ndomain = {', "cited must be a non-empty string"),  # was an `error` at run time
    ('domain = {', 'restricted = { proved_on = "", printed = "" }\ndomain = {', "restricted must be"),
])
def test_a_malformed_claim_is_one_clear_error(fresh_registry, tmp_path, old, new, message):
    assert old in CLAIM
    _paper(tmp_path, CLAIM.replace(old, new))
    with pytest.raises(PaperError, match=message):
        fresh_registry.add_paper(tmp_path)


def test_a_trailing_newline_in_the_key_is_refused(fresh_registry, tmp_path):
    (tmp_path / "paper.toml").write_text('[paper]\nkey = "h\\n"\ntitle = "T"\nauthors = "A"\n\n'
                                         + CLAIM.replace("h:", "h\\n:"), encoding="utf-8")
    with pytest.raises(PaperError, match="must match"):
        fresh_registry.add_paper(tmp_path)


def test_a_duplicate_id_is_named_in_the_file(fresh_registry, tmp_path):
    _paper(tmp_path, CLAIM + CLAIM.replace("x >= 5", "x >= 0"))
    with pytest.raises(PaperError, match="declared twice"):
        fresh_registry.add_paper(tmp_path)


def test_two_links_with_one_label_are_refused(fresh_registry, tmp_path):
    """The evidence is a table by label: the refuted link was replaced by the proved one of the same label."""
    _paper(tmp_path, '''
        [[claim]]
        id = "h:lemma-1"
        check_kind = "chain"
        statement = "s"
        links = [{ label = "a", relation = "x >= 2", domain = { x = ["0", "1"] } },
                 { label = "a", relation = "x >= 0", domain = { x = ["0", "1"] } }]
    ''')
    with pytest.raises(PaperError, match="same label"):
        fresh_registry.add_paper(tmp_path)


@pytest.mark.parametrize("name", ["pi", "E", "I", "x y"])
def test_a_symbol_may_not_be_a_constant(fresh_registry, tmp_path, name):
    """symbols = { pi = "real" } made pi a variable: sin(pi) = 0 would be refuted."""
    _paper(tmp_path, f'''
        [[claim]]
        id = "h:equation-1"
        check_kind = "identity"
        statement = "s"
        lhs = "sin(pi)"
        rhs = "0*pi"
        domain = {{}}
        symbols = {{ "{name}" = "real" }}
    ''')
    with pytest.raises(PaperError, match="not a constant"):
        fresh_registry.add_paper(tmp_path)


def test_declared_evidence_never_replaces_the_computed_evidence(fresh_registry, tmp_path):
    """evidence = { links = "all fine" } replaced the chain's table of links (and its refuted link) in the report."""
    _paper(tmp_path, '''
        [[claim]]
        id = "h:lemma-1"
        check_kind = "chain"
        statement = "s"
        evidence = { links = "all fine", note = "kept" }
        links = [{ relation = "x >= 2", domain = { x = ["0", "1"] } }]

        [[claim]]
        id = "h:lemma-2"
        check_kind = "scalar-inequality"
        statement = "s"
        search_only = true
        evidence = { search_points = 10000000 }
        relation = "x >= 0"
        domain = { x = ["0", "1"] }
    ''')
    fresh_registry.add_paper(tmp_path)
    chain = _decide("h:lemma-1", tmp_path)
    assert chain.status == "refuted" and isinstance(chain.evidence["links"], dict)
    assert chain.evidence["declared_evidence"] == {"links": "all fine"} and chain.evidence["note"] == "kept"
    search = _decide("h:lemma-2", tmp_path)
    assert search.evidence["search_points"] != 10000000
    assert search.evidence["declared_evidence"] == {"search_points": 10000000}


# --------------------------------------------------------------------------- command line and runner
def test_an_empty_only_pattern_is_refused(tmp_path):
    """--only '' selected every claim: a full run of the five papers (and of --paper folders) instead of none."""
    proc = subprocess.run([sys.executable, "-m", "olr_verify.cli", "run", "--only", "", "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists() and list(tmp_path.iterdir()) == []


def test_sigterm_removes_the_staging_folder(tmp_path):
    """A run stopped by SIGTERM (timeout, a cancelled CI job) left its .<out>.run-* folder beside --out."""
    script = textwrap.dedent(f"""
        import os, signal
        from olr_verify import runner

        def terminated(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGTERM)
            raise AssertionError("SIGTERM did not stop the run")

        runner.run_checks = terminated
        before = signal.getsignal(signal.SIGTERM)
        try:
            runner.run({str(tmp_path / "out")!r}, only="000:lemma-5", progress=False, jobs=1)
        except SystemExit as exc:
            assert signal.getsignal(signal.SIGTERM) == before
            raise SystemExit(7)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 7, proc.stderr[-2000:]
    assert list(tmp_path.iterdir()) == []
