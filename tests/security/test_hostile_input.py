"""Adversarial corpus (issue 16): injection, tampered artefacts, malformed files, DoS sizes, bad CLI arguments.

Every case asserts what the issue counts: no code executed (a sentinel file that each payload would
create stays absent), no tampered artefact confirmed, no file lost, no traceback (a CLI error is one
line on stderr with exit status 2), and each case ends within ``CASE_SECONDS``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from olr_verify import artefacts, cli, paper_folder, registry, runner
from olr_verify.expr import ExprError, parse_any, parse_expr, parse_relation
from olr_verify.outcome import Outcome

registry.load_checks()  # at collection, before any test monkeypatches registry._CHECKS (load_checks is cached)

CASE_SECONDS = 10.0
# a fresh interpreter that imports the package: several seconds on a machine whose two cores are busy (make test
# runs two workers); the limit only catches a command that hangs
CLI_SECONDS = 60.0
ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "reports" / "latest" / "counterexamples"


@pytest.fixture
def sentinel(tmp_path):
    """A path every injection payload tries to create; it must never exist."""
    path = tmp_path / "pwned"
    yield path
    assert not path.exists(), "a payload was executed"


@pytest.fixture
def timed():
    start = time.perf_counter()
    yield
    assert time.perf_counter() - start < CASE_SECONDS, "a hostile input took too long"


def _payloads(path: Path) -> list[str]:
    cmd = f"touch {path}"
    return [
        f"__import__('os').system('{cmd}')",
        f"__import__('os').system('{cmd}') <= 1",
        f"x + __import__('os').system('{cmd}') <= 1",
        "().__class__.__bases__[0].__subclasses__()",
        f"exp.__globals__['__builtins__']['__import__']('os').system('{cmd}')",
        f"(lambda: __import__('os').system('{cmd}'))()",
        f"[__import__('os').system('{cmd}') for _ in (1,)]",
        f"{{'a': __import__('os').system('{cmd}')}}",
        f"exec('import os; os.system(\"{cmd}\")')",
        f"eval('__import__(\"os\").system(\"{cmd}\")')",
        f"open('{path}', 'w')",
        "Symbol('x').__init__.__globals__",
        f"sympify('__import__(\"os\").system(\"{cmd}\")')",
        f"Function('system')('{cmd}')",
        f"x if __import__('os').system('{cmd}') else 1",
        "(y := __import__('os'))",
        f"f'{{__import__(\"os\").system(\"{cmd}\")}}'",
        "exp(x)[0]",
        "x.__class__",
        "getattr(x, '__class__')",
        f"S('__import__(\"os\").system(\"{cmd}\")')",
        "Lambda(x, x)(1)",
    ]


# --------------------------------------------------------------------------- 1. the expression reader
@pytest.mark.parametrize("k", range(22))
def test_injection_payloads_are_refused_by_the_reader(k, sentinel, timed):
    text = _payloads(sentinel)[k]
    with pytest.raises(ExprError):
        parse_any(text)


@pytest.mark.parametrize("text, says", [
    ("2**(2**(2**40))", "exponent"),
    ("factorial(10**7)", "unknown function"),
    ("x**(10**10)", "exponent"),
    ("(10**300)**400", "bits"),
    ("1e999999999", "exponent"),
    ("9" * 5000, "syntax"),
    ("(" * 500 + "x" + ")" * 500, "nested"),
    ("exp(" * 100 + "x" + ")" * 100, "nested"),
    ("x" * 30_000, "longer"),
    ("(x+1", "never closed"),
    ("foo(x)", "unknown function 'foo'"),
    ("zoo", "not allowed"),
    ("I*x", "not allowed"),
    ("0 <= x <= 1", "one comparison"),
    ("diff(x, x, 10**6)", "order"),
    ("1/0", "undefined"),
])
def test_denial_of_service_and_malformed_text_fail_fast_with_a_clear_message(text, says, timed):
    with pytest.raises(ExprError, match=says):
        parse_any(text)


def test_the_reader_keeps_the_registry_syntax():
    rel = parse_relation("x + exp(-x) <= exp(9*x**2/16)")
    assert str(rel) == "x + exp(-x) <= exp(9*x**2/16)"
    assert parse_expr("0.5619") * 10000 == 5619  # decimals are exact
    assert str(parse_expr("(e^0.34-1.34)/0.34^2", names=["e"])) == str(parse_expr("(e**(17/50)-67/50)/(17/50)**2",
                                                                                  names=["e"]))
    assert str(parse_expr("Piecewise((x, x < 0), (x**2, True))")) == "Piecewise((x, x < 0), (x**2, True))"
    with pytest.raises(ExprError, match="unknown name 'y'"):
        parse_expr("x + y", names=["x"])


# --------------------------------------------------------------------------- 2. tampered artefacts
def _committed(name: str, tmp_path: Path) -> tuple[dict, Path]:
    src = COMMITTED / name
    if not src.exists():
        pytest.skip(f"committed artefact {name} not in reports/latest")
    art = json.loads(src.read_text())
    return art, tmp_path / name


def _replay(art: dict, path: Path) -> tuple[bool, dict]:
    path.write_text(json.dumps(art))
    return artefacts.replay(path)


SCALAR = "000_lemma-3__step-5-6.json"  # replay type "scalar" with a domain
IDENTITY = "000_lemma-8__derivative-at-0.json"
RELATION = "004_claim-18.json"  # replay type "scalar_relation"
AIOLI = "000_algorithm-1.json"
HUNT = "002_claim-23.json"
GAF = "001_equation-5.json"


@pytest.mark.parametrize("name", [SCALAR, IDENTITY, RELATION, AIOLI, HUNT, GAF])
def test_an_untouched_committed_artefact_from_an_older_version_replays(name, tmp_path, timed):
    art, path = _committed(name, tmp_path)
    art.pop("version", None)
    art.pop("format", None)
    ok, details = _replay(art, path)
    assert ok, details
    assert "checked" in details and "older version" in details["version"]


def _tamper_scalar_domain_deleted_point_outside(art):
    del art["replay"]["domain"]
    art["replay"]["point"]["a1"] = "-5"


def _tamper_scalar_relation_swapped(art):
    art["replay"]["relation"] = "x1 <= -1000"


def _tamper_scalar_under_a_proved_claim(art):
    art["claim"] = "000:lemma-5"
    art["replay"]["relation"] = "x1 <= -1000"


def _tamper_scalar_domain_widened(art):
    art["replay"]["domain"]["a1"] = ["-10", "10"]
    art["replay"]["point"]["a1"] = "-5"


def _tamper_scalar_huge_point(art):
    art["replay"]["point"]["a1"] = "1e999999999"


def _tamper_scalar_power_tower_point(art):
    art["replay"]["point"]["a1"] = "2**(2**(2**40))"


def _tamper_scalar_injected_relation(art):
    art["replay"]["relation"] = "__import__('os').system('touch pwned') <= 1"


def _tamper_identity_lhs_1_rhs_0(art):
    art["replay"]["lhs"], art["replay"]["rhs"] = "1", "0"


def _tamper_identity_injected_point(art):
    art["replay"]["point"] = {"a": "__import__('os').system('touch pwned')"}


def _tamper_relation_made_strict(art):
    art["replay"]["relation"] = art["replay"]["relation"].replace(">=", ">")
    art["replay"]["point"] = {k: "0" for k in art["replay"]["point"]}


def _tamper_unknown_claim(art):
    art["claim"] = "000:lemma-999"


def _tamper_unknown_type(art):
    art["replay"]["type"] = "no-such-replayer"


def _tamper_foreign_replayer(art):
    art["claim"] = "000:lemma-5"  # a gaf replayer under another claim's id


def _tamper_aioli_tolerance(art):
    art["replay"]["tolerance"] = "-1"
    art["replay"]["X"] = [["0.0"], ["0.0"]]  # no signal: the printed and exact algorithms agree


def _tamper_aioli_other_algorithm(art):
    art["replay"]["algorithm"] = "corrected"


def _tamper_aioli_huge_T(art):
    art["replay"]["T"] = 10 ** 12


def _tamper_gaf_huge_exponent(art):
    art["replay"]["lam"] = "1e999999999"


def _tamper_gaf_huge_integer(art):
    art["replay"]["lam"] = "7" * 100_000


def _tamper_hunt_target(art):
    art["replay"]["target"] = "000:theorem-1"


TAMPERS = [
    (SCALAR, _tamper_scalar_domain_deleted_point_outside), (SCALAR, _tamper_scalar_relation_swapped),
    (SCALAR, _tamper_scalar_under_a_proved_claim), (SCALAR, _tamper_scalar_domain_widened),
    (SCALAR, _tamper_scalar_huge_point), (SCALAR, _tamper_scalar_power_tower_point),
    (SCALAR, _tamper_scalar_injected_relation), (IDENTITY, _tamper_identity_lhs_1_rhs_0),
    (IDENTITY, _tamper_identity_injected_point), (RELATION, _tamper_relation_made_strict),
    (RELATION, _tamper_unknown_claim), (RELATION, _tamper_unknown_type), (GAF, _tamper_foreign_replayer),
    (AIOLI, _tamper_aioli_tolerance), (AIOLI, _tamper_aioli_other_algorithm), (AIOLI, _tamper_aioli_huge_T),
    (HUNT, _tamper_hunt_target), (GAF, _tamper_gaf_huge_exponent), (GAF, _tamper_gaf_huge_integer),
]


@pytest.mark.parametrize("name, tamper", TAMPERS, ids=[t.__name__[8:] for _, t in TAMPERS])
def test_a_tampered_artefact_is_never_confirmed(name, tamper, tmp_path, timed, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a payload 'touch pwned' would land here
    art, path = _committed(name, tmp_path)
    tamper(art)
    ok, details = _replay(art, path)
    assert ok is False, details
    assert details.get("reason") or details.get("mismatch")
    assert not (tmp_path / "pwned").exists()


def test_the_replay_names_the_mismatch_and_what_it_checked(tmp_path):
    art, path = _committed(SCALAR, tmp_path)
    ok, details = _replay(art, path)
    assert ok and any("registry" in c for c in details["checked"])
    _tamper_scalar_relation_swapped(art)
    ok, details = _replay(art, path)
    assert not ok and "x1 <= -1000" in details["mismatch"] and details["registry_statements"]


@pytest.mark.parametrize("content, says", [
    ("{not json", "not a readable JSON"),
    ('{"claim": "000:lemma-5", "replay": {"type": "scalar", "point": {"x": NaN}}}', "NaN is not a number"),
    ('{"claim": "000:lemma-5", "replay": {"type": "scalar", "point": {"x": 1e999999999}}}', "not finite"),
    ('{"claim": "000:lemma-5", "replay": {"type": "scalar", "point": {"x": ' + "9" * 5000 + "}}}", "digits"),
    ("[1, 2, 3]", "an artefact is an object"),
    ('{"replay": {"type": "scalar"}}', "an artefact is an object"),
    ("[" * 100_000 + "]" * 100_000, "not a readable JSON"),
    (b"\xff\xfe\x00garbage", "not a readable JSON"),
])
def test_a_malformed_artefact_file_is_a_one_line_error(content, says, tmp_path, timed):
    path = tmp_path / "bad.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(artefacts.ArtefactError, match=says):
        artefacts.replay(path)


# --------------------------------------------------------------------------- 3. the command line
def _cli(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        rc = cli.main(argv)
    except SystemExit as exc:  # argparse
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def _assert_one_line_error(rc, err):
    assert rc == 2, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err


CLI_ERRORS = [
    (["prove", "x <= 1/2", "--var", "x=1..0"], "empty range"),
    (["prove", "__import__('os').system('touch pwned') <= 1", "--var", "x=0..1"], "named functions"),
    (["prove", "x <= 1", "--var", "x=0..__import__('os').system('touch pwned')"], "upper bound of x"),
    (["prove", "x <= 1", "--var", "x=zoo..1"], "zoo"),
    (["prove", "x <= 1", "--var", "x=0..1e400"], "1e300"),
    (["prove", "x**(10**10) <= 1", "--var", "x=0..1"], "exponent"),
    (["prove", "factorial(10**7) <= 1", "--var", "x=0..1"], "unknown function"),
    (["prove", "2**(2**(2**40)) <= x", "--var", "x=0..1"], "exponent"),
    (["prove", "(x+1 <= 2", "--var", "x=0..1"], "never closed"),
    (["prove", "foo(x) <= 1", "--var", "x=0..1"], "unknown function 'foo'"),
    (["prove", "x <= 1", "--var", "x=0..1", "--var", "x=0..2"], "given twice"),
    (["prove", "x <= y", "--var", "x=0..1"], "unknown name 'y'"),
    (["prove", "x + 1", "--var", "x=0..1"], "relation"),
    (["prove", "x <= 1", "--var", "x"], "NAME=LO..HI"),
    (["prove", "x <= 1", "--var", "1x=0..1"], "variable name"),
    (["prove", "x <= 1", "--var", "x=0..1", "--timeout", "0"], "> 0"),
    (["prove", "x <= 1", "--var", "x=0..1", "--timeout", "nan"], "finite"),
    (["prove", "x <= 1", "--var", "x=0..1", "--max-boxes", "abc"], "integer"),
    (["prove", "x <= 1"], "--var"),
    (["run", "--jobs", "-1"], "jobs must be >= 0"),
    (["run", "--jobs", "abc"], "integer"),
    (["run", "--seed", "abc"], "integer"),
    (["run", "--seed", "-5"], "seed"),
    (["nonsense"], "invalid choice"),
    (["replay"], "required"),
]


@pytest.mark.parametrize("argv, says", CLI_ERRORS, ids=[" ".join(a)[:40] for a, _ in CLI_ERRORS])
def test_a_bad_command_line_is_one_line_on_stderr_and_exit_2(argv, says, capsys, tmp_path, monkeypatch, timed):
    monkeypatch.chdir(tmp_path)
    rc, _, err = _cli(argv, capsys)
    _assert_one_line_error(rc, err)
    assert says in err
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("content", ["{not json", '{"no_claims": 1}', '{"claims": [{"status": "proved"}]}',
                                     '{"claims": 5}'])
def test_list_with_a_malformed_results_file_is_a_one_line_error(content, capsys, tmp_path, timed):
    path = tmp_path / "results.json"
    path.write_text(content)
    rc, _, err = _cli(["list", "--results", str(path)], capsys)
    _assert_one_line_error(rc, err)
    assert "results" in err


@pytest.mark.parametrize("content", ["{not json", "[1]", '{"claim": "000:lemma-5", "replay": {"type": 1}}'])
def test_replay_of_a_malformed_file_is_a_one_line_error(content, capsys, tmp_path, timed):
    path = tmp_path / "art.json"
    path.write_text(content)
    rc, _, err = _cli(["replay", str(path)], capsys)
    _assert_one_line_error(rc, err)


def test_replay_of_a_missing_file_is_a_one_line_error(capsys, tmp_path):
    rc, _, err = _cli(["replay", str(tmp_path / "missing.json")], capsys)
    _assert_one_line_error(rc, err)


def test_the_debug_flag_shows_the_traceback(capsys, tmp_path):
    with pytest.raises(artefacts.ArtefactError):
        cli.main(["replay", str(tmp_path / "missing.json"), "--debug"])


@pytest.mark.parametrize("argv", [
    ["prove", "__import__('os').system('touch pwned') <= 1", "--var", "x=0..1"],
    ["prove", "x <= 1/2", "--var", "x=1..0"],
    ["run", "--jobs", "-1"],
    ["replay", "missing.json"],
])
def test_the_installed_command_fails_in_one_line(argv, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "olr_verify.cli", *argv], cwd=tmp_path, capture_output=True,
                          text=True, timeout=CLI_SECONDS, env={**os.environ, "PYTHONPATH": str(ROOT)})
    _assert_one_line_error(proc.returncode, proc.stderr)
    assert not (tmp_path / "pwned").exists()


# --------------------------------------------------------------------------- 4. the runner never loses files
def _claim(cid: str) -> registry.Claim:
    return registry.Claim(id=cid, title=cid, check_kind="scalar-inequality", source="test", statement="s")


def _proved(ctx):
    return Outcome("proved", "exact", {})


def _refuted(ctx):
    return Outcome("refuted", "search", {}, counterexample={"replay": {"type": "security-test", "x": "-1"}})


@artefacts.replayer("security-test")
def _replay_security_test(artefact):
    return True, {}


@pytest.fixture
def fake_registry(monkeypatch):
    """Two fake claims in a fake registry (so that the runner takes milliseconds)."""
    claims = (_claim("000:claim-981"), _claim("000:claim-982"))
    monkeypatch.setattr(registry, "_CHECKS", {**registry._CHECKS, "000:claim-981": _proved,
                                              "000:claim-982": _refuted})
    monkeypatch.setattr(registry, "claims", lambda: claims)
    return claims


def _report(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path -> content), symlinks as their target text."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if p.is_symlink():
            out[rel] = b"-> " + os.readlink(p).encode()
        elif p.is_file():
            out[rel] = p.read_bytes()
    return out


def _existing_report(out: Path) -> None:
    (out / "counterexamples").mkdir(parents=True)
    (out / "figures").mkdir()
    for k in range(3):
        (out / "counterexamples" / f"000_claim-{k}.json").write_text("{}")
        (out / "figures" / f"fig-{k}.png").write_bytes(b"png")
    (out / "notes.txt").write_text("mine")
    (out / "benchmarks.json").write_text("{}")
    claims = [{"id": f"000:claim-{k}", "title": "t", "kind": "k", "status": "proved", "method": "m", "seconds": 0,
               "evidence": {}, "counterexample": None} for k in range(3)]
    (out / "results.json").write_text(json.dumps({"claims": claims}))
    (out / "REPORT.md").write_text("# old")


def test_an_only_pattern_that_matches_nothing_touches_no_file(tmp_path, fake_registry, timed):
    out = tmp_path / "out"
    _existing_report(out)
    before = _report(out)
    with pytest.raises(ValueError, match="selects no claim"):
        runner.run(out, only="typo", progress=False, jobs=1)
    assert _report(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_only_updates_the_selected_claims_and_keeps_the_others(tmp_path, fake_registry, timed):
    out = tmp_path / "out"
    _existing_report(out)
    runner.run(out, only="000:claim-982", progress=False, jobs=1)
    data = json.loads((out / "results.json").read_text())
    ids = [c["id"] for c in data["claims"]]
    assert {"000:claim-0", "000:claim-1", "000:claim-2", "000:claim-982"} <= set(ids)
    assert "000:claim-981" not in ids
    for k in range(3):
        assert (out / "counterexamples" / f"000_claim-{k}.json").exists()
        assert (out / "figures" / f"fig-{k}.png").exists()
    assert (out / "counterexamples" / "000_claim-982.json").exists()
    assert (out / "notes.txt").read_text() == "mine" and (out / "benchmarks.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging folder left


def test_a_full_run_keeps_files_the_runner_did_not_create(tmp_path, fake_registry, timed):
    out = tmp_path / "out"
    _existing_report(out)
    runner.run(out, progress=False, jobs=1)
    assert (out / "notes.txt").read_text() == "mine" and (out / "benchmarks.json").exists()
    assert [c["id"] for c in json.loads((out / "results.json").read_text())["claims"]] == \
        ["000:claim-981", "000:claim-982"]


def test_a_symlink_in_the_output_is_refused_and_its_target_kept(tmp_path, fake_registry, timed):
    out, precious = tmp_path / "out", tmp_path / "precious"
    _existing_report(out)
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    shutil.rmtree(out / "figures")
    (out / "figures").symlink_to(precious, target_is_directory=True)
    before = _report(out)
    with pytest.raises(runner.OutputError, match="symbolic link"):
        runner.run(out, progress=False, jobs=1)
    assert (precious / "thesis.tex").read_text() == "years of work"
    assert _report(out) == before


def test_an_output_folder_that_is_a_symlink_is_refused(tmp_path, fake_registry, timed):
    real = tmp_path / "real"
    _existing_report(real)
    (tmp_path / "out").symlink_to(real, target_is_directory=True)
    before = _report(real)
    with pytest.raises(runner.OutputError, match="symbolic link"):
        runner.run(tmp_path / "out", progress=False, jobs=1)
    assert _report(real) == before


def test_a_run_killed_midway_leaves_the_old_report_intact(tmp_path, fake_registry, monkeypatch, timed):
    out = tmp_path / "out"
    _existing_report(out)
    before = _report(out)

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_checks", killed)
    with pytest.raises(KeyboardInterrupt):
        runner.run(out, progress=False, jobs=1)
    assert _report(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_only_with_a_malformed_results_file_is_refused_before_anything_changes(tmp_path, fake_registry, timed):
    out = tmp_path / "out"
    _existing_report(out)
    (out / "results.json").write_text("{broken")
    before = _report(out)
    with pytest.raises(runner.OutputError, match="cannot update"):
        runner.run(out, only="000:claim-981", progress=False, jobs=1)
    assert _report(out) == before


def test_the_cli_run_with_a_typo_is_one_line_and_touches_nothing(tmp_path, capsys, fake_registry, timed):
    out = tmp_path / "out"
    _existing_report(out)
    before = _report(out)
    rc, _, err = _cli(["run", "--only", "typo", "--out", str(out), "--no-progress"], capsys)
    _assert_one_line_error(rc, err)
    assert _report(out) == before


# --------------------------------------------------------------------------- 5. artefacts of a paper folder
@pytest.fixture
def demo_paper():
    """examples/short-note added to the registry for one test, then removed again."""
    saved_checks, saved_folders = dict(registry._CHECKS), list(registry._FOLDERS)
    registry.add_paper(ROOT / "examples" / "short-note")
    try:
        yield registry.get("demo:lemma-3")
    finally:
        registry._CHECKS.clear()
        registry._CHECKS.update(saved_checks)
        registry._FOLDERS[:] = saved_folders
        registry.papers.cache_clear()
        registry.claims.cache_clear()


DEMO = {"claim": "demo:lemma-3", "replay": {"type": "scalar", "relation": "tanh(x) >= x - x**3/4",
                                            "point": {"x": "69356846137/100365170192"}, "domain": {"x": ["0", "2"]}}}


@pytest.mark.parametrize("change, confirmed", [
    ({}, True),
    ({"relation": "tanh(x) >= x - x**3/400"}, False),
    ({"domain": {"x": ["0", "20"]}, "point": {"x": "3"}}, False),
    ({"point": {"x": "3"}}, False),
    ({"point": {"x": "-1/2"}, "domain": None}, False),
])
def test_a_paper_folder_artefact_is_bound_to_its_paper_toml(change, confirmed, demo_paper, tmp_path, timed):
    art = json.loads(json.dumps(DEMO))
    art["replay"].update(change)
    if art["replay"].get("domain", 0) is None:
        del art["replay"]["domain"]
    ok, details = _replay(art, tmp_path / "demo.json")
    assert ok is confirmed, details


def test_a_declared_regret_bound_must_equal_its_paper_toml(demo_paper):
    claim = registry.get("demo:theorem-6")
    rep = {"type": "regret_bound", "learner": "OGD", "learner_params": {"B": "B", "R": "R"},
           "bound": "3*B*R*sqrt(n)"}
    entry = next(e for e in paper_folder.read(claim.source)[1] if e["id"] == claim.id)
    rep["params"] = entry["params"]
    bound, _ = artefacts.bind_declared({"claim": claim.id, "replay": rep}, claim)
    assert bound is not None
    for field, value in (("bound", "3000*B*R*sqrt(n)"), ("learner", "FTL"), ("params", {"B": ["1", "1"]})):
        bound, why = artefacts.bind_declared({"claim": claim.id, "replay": {**rep, field: value}}, claim)
        assert bound is None and field in why["mismatch"]
