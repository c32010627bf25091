"""The rule registry, the static scan for rule markers, and ``croupier rules``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.cli import rules_cmd
from croupier.cli.rules_cmd import rules
from croupier.errors import CroupierError
from croupier.rules import (
    Game,
    Kind,
    Provenance,
    Registry,
    RegistryError,
    Rule,
    UnknownRuleError,
    load_registry,
)
from croupier.rules.coverage import ISSUES, Status, collect_rule_tests, rule_status

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
DIGEST = REPO.parent / "shared" / "rules" / "DIGEST.md"
_COLLECT = (sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider")


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


def _subprocess_env(*extra: Path) -> dict[str, str]:
    env = dict(os.environ)
    paths = [str(path) for path in (*extra, REPO / "src")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


# --- the registry data ------------------------------------------------------------------------


def test_registry_loads_every_rule_as_a_frozen_record(registry: Registry) -> None:
    rules_ = list(registry)
    assert len(rules_) == len(registry) > 150
    assert all(isinstance(rule, Rule) for rule in rules_)
    with pytest.raises(AttributeError):
        rules_[0].id = "changed"  # type: ignore[misc]


def test_ids_and_aliases_are_unique(registry: Registry) -> None:
    names = [name.casefold() for rule in registry for name in rule.names]
    assert len(names) == len(set(names))


def test_every_alias_resolves_to_its_rule(registry: Registry) -> None:
    for rule in registry:
        for name in rule.names:
            assert registry.get(name) is rule


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("Poker 17.6(f)", "Omaha 17.6(f)"),
        ("Poker 12.2(a)", "Five Card Stud 12.2(a)"),
        ("Poker 17.5(e)", "Omaha 17.5(e)"),
        ("Poker 11.x(c)", "Draw 11.x(c)"),
        ("Poker 16.6(f)", "Hold'em 16.6(f)"),
        ("Poker definitions: Structured Limit", "Poker definitions: Fixed Bet"),
        ("Omaha 17.2(c)(i)", "Omaha 17.2(c)"),
        ("hold\u2019em 16.6(e)", "Hold'em 16.6(e)"),
    ],
)
def test_known_aliases(registry: Registry, alias: str, canonical: str) -> None:
    assert registry.get(alias).id == canonical


def test_fields_are_valid(registry: Registry) -> None:
    for rule in registry:
        assert isinstance(rule.provenance, Provenance)
        assert isinstance(rule.game, Game)
        assert isinstance(rule.kind, Kind)
        assert rule.issue is None or rule.issue in ISSUES
        assert rule.summary.strip()
        assert "\n" not in rule.summary
        assert rule.section.strip()
    assert {rule.provenance for rule in registry} == set(Provenance)


def test_ids_name_their_game(registry: Registry) -> None:
    prefixes = (
        "Poker ",
        "Draw ",
        "Five Card Stud ",
        "Seven Card Stud ",
        "Manila ",
        "3-Card Manila ",
        "Hold'em ",
        "Omaha ",
    )
    for rule in registry:
        if rule.kind is Kind.DECISION:
            assert re.fullmatch(r"Decision 3\.[12]-\d+", rule.id), rule.id
            assert (rule.game is Game.BLACKJACK) == rule.id.startswith("Decision 3.1-")
        elif rule.game is Game.BLACKJACK:
            assert rule.id.startswith("Blackjack "), rule.id
        else:
            assert rule.id.startswith(prefixes), rule.id


def _seed_ids(registry: Registry, section: str) -> set[str]:
    return {
        rule.id
        for rule in registry
        if rule.section == section and rule.provenance is Provenance.SEED and rule.kind is Kind.RULE
    }


def test_seed_rules_per_section(registry: Registry) -> None:
    omaha = {f"Omaha 17.1({c})" for c in "abcd"} | {f"Omaha 17.2({c})" for c in "abc"}
    omaha |= {f"Omaha 17.{n}({c})" for n in (3, 4) for c in "abc"}
    omaha |= {f"Omaha 17.{n}({c})" for n in (5, 6) for c in "abcdef"}
    assert _seed_ids(registry, "Omaha") == omaha
    assert _seed_ids(registry, "Draw") == {f"Draw 11.x({c})" for c in "bcdefg"}
    assert _seed_ids(registry, "Five Card Stud") == {
        "Five Card Stud 12.1(a)",
        "Five Card Stud 12.1(b)",
        "Five Card Stud 12.1(c)",
        "Five Card Stud 12.2(a)",
        "Five Card Stud 12.2(b)",
    }
    assert _seed_ids(registry, "Hold'em") == {"Hold'em 16.6(e)", "Hold'em 16.6(f)"}
    assert _seed_ids(registry, "General") == {f"Poker 18.{n}" for n in range(1, 5)}
    assert _seed_ids(registry, "Splitting pairs") == {
        "Blackjack 11.4(a)",
        "Blackjack 11.4(b)",
        "Blackjack 11.4(c)",
        "Blackjack 11.5",
        "Blackjack 11.6",
        "Blackjack 11.7",
    }
    assert _seed_ids(registry, "Drawing") == {"Blackjack 12.1"} | {
        f"Blackjack 12.1({c})" for c in "abcd"
    }
    for section in ("Definitions", "Manila", "3-Card Manila", "Seven Card Stud", "Wagers"):
        assert not _seed_ids(registry, section), section


def test_provenance_of_non_seed_sources(registry: Registry) -> None:
    assert all(
        rule.provenance is Provenance.SAME_ISSUE
        for rule in registry
        if rule.section == "Definitions"
    )
    assert all(
        registry.get(f"Blackjack 4.1({c})").provenance is Provenance.NZ_RELATED for c in "abcdefg"
    )
    assert registry.get("Blackjack 3.1 as amended").provenance is Provenance.NZ_RELATED
    for inferred in (
        "Poker 5 (rank of hands)",
        "Poker 4.1(b)",
        "Blackjack 11.1",
        "Blackjack 13 (dealer drawing)",
        "Seven Card Stud 13 (deal)",
        "Hold'em 16 (structure)",
        "Five Card Stud 12.3+ (streets)",
    ):
        assert registry.get(inferred).provenance is Provenance.INFERRED, inferred
    assert registry.get("Manila 14.4(d)").provenance is Provenance.SAME_ISSUE
    assert registry.get("3-Card Manila 15.1(c)").provenance is Provenance.SAME_ISSUE


def test_decisions_are_numbered_as_in_the_digest(registry: Registry) -> None:
    decisions = [rule for rule in registry if rule.kind is Kind.DECISION]
    assert [r.id for r in decisions if r.game is Game.BLACKJACK] == [
        f"Decision 3.1-{n}" for n in range(1, 16)
    ]
    assert [r.id for r in decisions if r.game is Game.POKER] == [
        f"Decision 3.2-{n}" for n in range(1, 18)
    ]
    assert all(rule.section == "Decisions" for rule in decisions)


@pytest.mark.skipif(not DIGEST.is_file(), reason="the rules digest is not beside the checkout")
def test_decision_counts_match_the_digest(registry: Registry) -> None:
    text = DIGEST.read_text("utf-8")
    for number, heading in (("3.1", "### 3.1 Blackjack"), ("3.2", "### 3.2 Poker")):
        block = text.split(heading, 1)[1].split("\n### ", 1)[0].split("\n---", 1)[0]
        items = re.findall(r"^(\d+)\. ", block, flags=re.MULTILINE)
        in_registry = [rule for rule in registry if rule.id.startswith(f"Decision {number}-")]
        assert len(in_registry) == len(items) == int(items[-1])


def test_unknown_rule_suggests_the_closest(registry: Registry) -> None:
    with pytest.raises(UnknownRuleError) as caught:
        registry.get("Omaha 17.6f")
    assert caught.value.suggestion == "Omaha 17.6(f)"
    assert "did you mean 'Omaha 17.6(f)'" in str(caught.value)
    assert isinstance(caught.value, CroupierError)
    with pytest.raises(UnknownRuleError) as far:
        registry.get("roulette")
    assert far.value.suggestion is None


def test_by_game_splits_the_registry(registry: Registry) -> None:
    poker, blackjack = registry.by_game("poker"), registry.by_game(Game.BLACKJACK)
    assert len(poker) + len(blackjack) == len(registry)
    assert all(rule.game is Game.POKER for rule in poker)
    assert "Blackjack 11.7" in {rule.id for rule in blackjack}
    with pytest.raises(RegistryError):
        registry.by_game("bridge")


def test_malformed_registry_is_rejected(tmp_path: Path) -> None:
    good = """
        [[rule]]
        id = "Poker 18.1"
        aliases = []
        game = "poker"
        section = "General"
        summary = "x"
        provenance = "SEED"
        kind = "rule"
    """
    path = tmp_path / "registry.toml"
    path.write_text(textwrap.dedent(good))
    assert load_registry(path).get("Poker 18.1").issue is None
    for bad, message in (
        (good.replace('"SEED"', '"GOSSIP"'), "provenance 'GOSSIP'"),
        (good.replace('"poker"', '"bridge"'), "game 'bridge'"),
        (good + good, "used twice"),
        (good.replace("kind", "knid"), "unknown field"),
        (good + "issue = 3\n", "'issue' must be a non-empty string"),
    ):
        path.write_text(textwrap.dedent(bad))
        with pytest.raises(RegistryError, match=message):
            load_registry(path)


# --- the static scan --------------------------------------------------------------------------

SAMPLE = """
import pytest
from pytest import mark

pytestmark = [pytest.mark.rule("Poker 18.2"), pytest.mark.slow]


@pytest.mark.rule("Poker 17.6(f)")
def test_cap() -> None:
    pass


@mark.rule("Omaha 17.6(e)")
def helper_not_a_test() -> None:
    pass


@pytest.mark.parametrize(
    "n",
    [
        1,
        pytest.param(2, marks=pytest.mark.rule("Blackjack 11.7"), id="split"),
        pytest.param(3, marks=[pytest.mark.slow, pytest.mark.rule("Blackjack 12.1(d)")]),
    ],
)
def test_params(n: int) -> None:
    pass


@pytest.mark.rule("Poker definitions: All-in")
class TestPots:
    pytestmark = pytest.mark.rule("Omaha 17.5(e)")

    def test_side_pot(self) -> None:
        pass

    def not_collected(self) -> None:
        pass
"""


def test_scan_finds_markers_everywhere(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    (tests / "game").mkdir(parents=True)
    (tests / "game" / "test_sample.py").write_text(SAMPLE)
    (tests / "game" / "helpers.py").write_text(SAMPLE)  # not a test file
    (tests / "test_broken.py").write_text("def test_(:\n")  # does not parse: skipped
    (tests / "test_unknown.py").write_text(
        "import pytest as pt\n@pt.mark.rule('Omaha 99.9')\ndef test_x() -> None: ...\n"
    )
    module = "tests/game/test_sample.py"
    found = collect_rule_tests(tests)
    assert found == {
        "Poker 18.2": [
            f"{module}::test_cap",
            f"{module}::test_params",
            f"{module}::TestPots::test_side_pot",
        ],
        "Omaha 17.6(f)": [f"{module}::test_cap"],
        "Blackjack 11.7": [f"{module}::test_params[split]"],
        "Blackjack 12.1(d)": [f"{module}::test_params"],
        "Poker definitions: All-in": [f"{module}::TestPots::test_side_pot"],
        "Omaha 17.5(e)": [f"{module}::TestPots::test_side_pot"],
        "Omaha 99.9": ["tests/test_unknown.py::test_x"],
    }


def test_scan_node_ids_follow_rootdir(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text(
        "import pytest\n@pytest.mark.rule('Poker 17.6(f)')\ndef test_a() -> None: ...\n"
    )
    assert collect_rule_tests(tests, rootdir=tests) == {"Omaha 17.6(f)": ["test_a.py::test_a"]}


def test_scan_agrees_with_pytest_collection(tmp_path: Path, registry: Registry) -> None:
    """Every node id of the scan is one pytest collects there, and every collected rule marker
    is found by the scan (files that fail to collect are left out of both)."""
    out = tmp_path / "collected.json"
    (tmp_path / "rule_probe.py").write_text(
        textwrap.dedent(
            f"""
            import json

            errors = []

            def pytest_collectreport(report):
                if report.failed:
                    errors.append(report.nodeid)

            def pytest_collection_finish(session):
                items = {{
                    item.nodeid: [a for m in item.iter_markers("rule") for a in m.args]
                    for item in session.items
                }}
                with open({str(out)!r}, "w") as fh:
                    json.dump({{"items": items, "errors": errors}}, fh)
            """
        )
    )
    proc = subprocess.run(
        [*_COLLECT, "-p", "rule_probe", "tests"],
        cwd=REPO,
        env=_subprocess_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode in (0, 2), proc.stdout[-3000:] + proc.stderr[-3000:]
    data = json.loads(out.read_text())
    collected: dict[str, list[str]] = data["items"]
    broken = {error.split("::")[0] for error in data["errors"]}

    scanned = collect_rule_tests(TESTS, registry=registry, rootdir=REPO)
    for rule_id, node_ids in scanned.items():
        for node_id in node_ids:
            if node_id.split("::")[0] in broken:
                continue
            matching = [c for c in collected if c == node_id or c.startswith(node_id + "[")]
            assert matching, f"{node_id} ({rule_id}) is not collected by pytest"
            assert any(
                registry.get(name).id == rule_id for c in matching for name in collected[c]
            ), f"pytest sees no {rule_id!r} marker on {node_id}"
    for node_id, names in collected.items():
        for name in names:
            rule_id = registry.get(name).id
            base = node_id.split("[", 1)[0]
            assert node_id in scanned.get(rule_id, []) or base in scanned.get(rule_id, []), (
                f"the scan misses {rule_id!r} on {node_id}"
            )


def test_unknown_rule_marker_fails_collection(tmp_path: Path) -> None:
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_bad.py").write_text(
        "import pytest\n"
        "@pytest.mark.rule('Omaha 17.6(f)')\n"
        "def test_good() -> None: ...\n"
        "@pytest.mark.rule('Omaha 17.6f')\n"
        "def test_bad() -> None: ...\n"
    )
    proc = subprocess.run(
        [*_COLLECT, "-W", "ignore::pytest.PytestUnknownMarkWarning", str(tmp_path)],
        cwd=tmp_path,
        env=_subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "test_bad.py::test_bad: unknown rule 'Omaha 17.6f'" in output
    assert "did you mean 'Omaha 17.6(f)'" in output
    assert "test_good" not in output.split("unknown rules", 1)[1]


# --- status -----------------------------------------------------------------------------------


def test_status_rules(registry: Registry) -> None:
    soft17 = registry.get("Decision 3.1-1")
    seed = registry.get("Omaha 17.6(f)")
    inferred = registry.get("Blackjack 13 (dealer drawing)")
    tested = {"Omaha 17.6(f)": ["tests/t.py::test_cap"], "Decision 3.1-1": ["tests/t.py::x"]}
    doc = "| Decision 3.1-1, Omaha 17.6(f), Blackjack 13 | choice |"
    assert rule_status(seed, tested) is Status.TESTED
    assert rule_status(soft17, tested) is Status.TESTED
    assert rule_status(soft17, {}, doc) is Status.DECISION
    assert rule_status(soft17, {}, "Decision 3.1-15 only") is Status.NOT_YET
    assert rule_status(inferred, {}, doc) is Status.DECISION  # via its alias "Blackjack 13"
    assert rule_status(seed, {}, doc) is Status.NOT_YET  # a SEED rule is never a "decision"
    assert rule_status(seed, {"Omaha 17.6(f)": []}) is Status.NOT_YET


# --- the CLI ----------------------------------------------------------------------------------


def _marked_tests(tmp_path: Path) -> Path:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_m.py").write_text(
        "import pytest\n"
        "@pytest.mark.rule('Poker 17.6(f)')\n"
        "def test_cap() -> None: ...\n"
        "@pytest.mark.rule('Blackjack 11.7')\n"
        "def test_split() -> None: ...\n"
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "decisions.md").write_text("Decision 3.1-1: stand on soft 17.\n")
    return tests


def test_cli_json_lists_every_rule(tmp_path: Path, registry: Registry) -> None:
    tests = _marked_tests(tmp_path)
    result = CliRunner().invoke(rules, ["--json", "--tests-dir", str(tests)])
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert [record["id"] for record in records] == list(registry.ids)
    fields = {"id", "aliases", "game", "section", "kind", "provenance", "status", "tests"}
    assert all(fields | {"summary"} <= set(record) for record in records)
    by_id = {record["id"]: record for record in records}
    assert by_id["Omaha 17.6(f)"]["status"] == "tested"
    assert by_id["Omaha 17.6(f)"]["tests"] == ["tests/test_m.py::test_cap"]
    assert by_id["Decision 3.1-1"]["status"] == "decision"
    assert by_id["Omaha 17.6(e)"]["status"] == "not yet"
    assert by_id["Omaha 17.6(e)"]["provenance"] == "SEED"


def test_cli_status_tested_lists_only_tested_rules(tmp_path: Path) -> None:
    tests = _marked_tests(tmp_path)
    result = CliRunner().invoke(rules, ["--json", "--status", "tested", "--tests-dir", str(tests)])
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert {record["id"] for record in records} == {"Omaha 17.6(f)", "Blackjack 11.7"}
    assert all(record["status"] == "tested" and record["tests"] for record in records)


def test_cli_status_tested_on_the_real_suite() -> None:
    result = CliRunner().invoke(rules, ["--json", "--status", "tested"])
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert all(record["status"] == "tested" and record["tests"] for record in records)
    assert len(records) == len(
        collect_rule_tests(TESTS, rootdir=REPO).keys() & set(load_registry().ids)
    )


def test_cli_filters_and_table(tmp_path: Path) -> None:
    tests = _marked_tests(tmp_path)
    result = CliRunner().invoke(
        rules, ["--game", "blackjack", "--status", "not-yet", "--tests-dir", str(tests)]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "provenance", "status", "tests"]
    body = lines[1:-1]
    assert body
    assert all(line.startswith(("Blackjack ", "Decision 3.1-")) for line in body)
    assert not any(line.startswith(("Blackjack 11.7 ", "Decision 3.1-1 ")) for line in body)
    assert len({line.index(" NZ-") for line in body if " NZ-" in line}) == 1  # aligned
    assert re.fullmatch(rf"{len(body)} rules: 0 tested, 0 decision, {len(body)} not yet", lines[-1])


@pytest.mark.parametrize(
    "args",
    [["--game", "chess"], ["--status", "done"], ["--tests-dir", "/no/such/dir"], ["--bogus"]],
)
def test_cli_bad_input_is_one_line(args: list[str]) -> None:
    result = CliRunner().invoke(rules, args)
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert result.output.startswith("Error: ")


def test_cli_warns_without_a_tests_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_cmd, "find_project_root", lambda start=None: None)
    result = CliRunner().invoke(rules, ["--json", "--game", "poker"])
    assert result.exit_code == 0
    assert result.stderr.strip() == rules_cmd.NO_CHECKOUT
    assert "needs a croupier checkout" in result.stderr
    records = json.loads(result.stdout)
    assert records
    assert all(record["status"] == "not yet" for record in records)


# --- the registry and the coverage scanner are apart -------------------------------------------


def test_the_runtime_registry_does_not_load_the_coverage_scanner() -> None:
    code = (
        "import sys; import croupier.rules, croupier.rules.registry; "
        "croupier.rules.load_registry().get('Omaha 17.6(f)'); "
        "print('croupier.rules.coverage' in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_subprocess_env()
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_coverage_names_are_still_importable_from_the_package() -> None:
    import croupier.rules
    from croupier.rules import coverage

    for name in coverage.__all__:
        assert getattr(croupier.rules, name) is getattr(coverage, name)
        assert name in dir(croupier.rules)
        assert name in croupier.rules.__all__
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = croupier.rules.nothing  # type: ignore[attr-defined]


def test_modules_stay_small() -> None:
    for module in ("registry.py", "coverage.py"):
        lines = (REPO / "src" / "croupier" / "rules" / module).read_text("utf-8").count("\n")
        assert lines < 600, (module, lines)


def test_an_installed_package_says_coverage_needs_a_checkout(tmp_path: Path) -> None:
    """A copy of the package with no checkout around it (as a wheel installs it)."""
    site = tmp_path / "site"
    shutil.copytree(
        REPO / "src" / "croupier", site / "croupier", ignore=shutil.ignore_patterns("__pycache__")
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(site))
    proc = subprocess.run(
        [sys.executable, "-m", "croupier", "rules", "--json"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "test coverage needs a croupier checkout" in proc.stderr
    records = json.loads(proc.stdout)
    assert [record["id"] for record in records] == list(load_registry().ids)
    assert all(record["tests"] == [] for record in records)
