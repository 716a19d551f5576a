"""The rule pages in ``rules/``: one per code, one shape, and examples the rules agree with.

Every page is picked up from the folder, so a page written for a new rule is tested without
touching this file. A page's ``## Example`` must make its rule fire; its ``## Use instead`` must
make no rule fire at all.

Fenced blocks in those two sections become a small project:

- ```` ```python ```` is written to ``example.py``;
- ```` ```python file=proj/tasks.py ```` is written to that path;
- ```` ```toml ```` is the body of ``[tool.bgcheck]`` for that project;
- blocks in any other language (``text``, ``console``...) are ignored.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest
from click.testing import CliRunner

from bgcheck.cli import main, rule_table
from bgcheck.load.config import load_config
from bgcheck.run.engine import RunRequest, run
from conftest import write_project

PAGES_DIR = Path(__file__).resolve().parent.parent / "rules"
PAGES = sorted(PAGES_DIR.glob("*.md"))

SECTIONS = (
    "What it does",
    "Why does this lose work?",
    "Example",
    "Use instead",
    "When it stays silent",
    "Options",
    "Related rules",
    "References",
)

# Sections a page may have, each right after the section named here: what a rule's model follows
# across the project (wrappers, calls, other modules) and what it does not.
OPTIONAL_SECTIONS = {"What bgcheck follows": "When it stays silent"}

_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_SEVERITY = re.compile(r"^Severity: (?P<severity>\w+) · Family: (?P<family>\S.*)$")


# ---------------------------------------------------------------------------
# A small parser for rule pages


@dataclass
class Block:
    info: str  # the whole info string, e.g. "python file=proj/tasks.py"
    text: str
    line: int  # line of the opening fence, for messages

    @property
    def language(self) -> str:
        return self.info.split()[0] if self.info.split() else ""

    @property
    def attributes(self) -> dict[str, str]:
        attributes = {}
        for word in self.info.split()[1:]:
            key, equals, value = word.partition("=")
            if not equals:
                raise ValueError(f"line {self.line}: {word!r} in the info string is not key=value")
            attributes[key] = value
        return attributes


@dataclass
class Section:
    heading: str
    line: int
    text: list[str] = field(default_factory=list)  # lines outside fenced blocks
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Page:
    title: str  # the "# " line without its marker
    preamble: list[str]  # lines between the title and the first section
    sections: list[Section]

    def section(self, heading: str) -> Section:
        for section in self.sections:
            if section.heading == heading:
                return section
        raise AssertionError(f"the page has no '## {heading}' section")


def parse_page(text: str) -> Page:
    """Split a page into its title, the lines before the first ``## ``, and its sections.

    Headings inside fenced blocks are code, not headings.
    """
    title = ""
    preamble: list[str] = []
    sections: list[Section] = []
    fence = None  # (marker, info, first line, lines) while inside a fenced block
    for number, line in enumerate(text.splitlines(), start=1):
        if fence is not None:
            marker, info, start, lines = fence
            if line.strip() == marker[0] * len(line.strip()) and len(line.strip()) >= len(marker):
                block = Block(info=info.strip(), text="\n".join(lines) + "\n", line=start)
                if not sections:
                    raise ValueError(f"line {start}: a fenced block before the first section")
                sections[-1].blocks.append(block)
                fence = None
            else:
                lines.append(line)
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = (opening["fence"], opening["info"], number, [])
        elif line.startswith("## "):
            sections.append(Section(heading=line[3:].strip(), line=number))
        elif line.startswith("# ") and not title and not sections:
            title = line[2:].strip()
        elif sections:
            sections[-1].text.append(line)
        else:
            preamble.append(line)
    if fence is not None:
        raise ValueError(f"line {fence[2]}: the fenced block is never closed")
    return Page(title=title, preamble=preamble, sections=sections)


def project_of(section: Section) -> tuple[dict[str, str], str]:
    """The files (path -> source) and ``[tool.bgcheck]`` body that a section's blocks describe."""
    files: dict[str, str] = {}
    config = ""
    for block in section.blocks:
        attributes = block.attributes
        if block.language == "python":
            unknown = set(attributes) - {"file"}
            assert not unknown, f"line {block.line}: unknown attributes {sorted(unknown)}"
            path = attributes.get("file", "example.py")
            pure = PurePosixPath(path)
            assert not pure.is_absolute() and ".." not in pure.parts, f"line {block.line}: {path!r} leaves the project"
            assert path not in files, f"line {block.line}: two blocks for {path}"
            files[path] = block.text
        elif block.language == "toml":
            assert not attributes, f"line {block.line}: a toml block takes no attributes"
            assert not config, f"line {block.line}: only one toml block per section"
            config = block.text
    assert files, f"## {section.heading} (line {section.line}) has no python block"
    return files, config


def diagnostics_of(section: Section, root: Path, monkeypatch) -> list:
    files, config = project_of(section)
    write_project(root, files, config)
    monkeypatch.chdir(root)
    return run(RunRequest([Path(".")], load_config(start=root))).diagnostics


def describe(diagnostics) -> str:
    if not diagnostics:
        return "no diagnostics"
    return "\n".join(f"  {d.location.path}:{d.location.line}: {d.code} {d.message}" for d in diagnostics)


def _page_id(path: Path) -> str:
    return path.stem


def _rules() -> dict[str, dict]:
    return {row["code"]: row for row in rule_table()}


# ---------------------------------------------------------------------------
# (a) one page per code, one code per page


def test_every_rule_has_a_page():
    missing = sorted(set(_rules()) - {path.stem for path in PAGES})
    assert not missing, f"rules without a page in rules/: {missing}"


def test_every_page_belongs_to_a_rule():
    orphans = sorted({path.name for path in PAGES} - {f"{code}.md" for code in _rules()})
    assert not orphans, f"pages in rules/ for no rule: {orphans}"


# ---------------------------------------------------------------------------
# (b) the shape


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_page_title_and_severity_match_the_rule(path):
    row = _rules().get(path.stem)
    if row is None:
        pytest.fail(f"{path.name}: no rule has this code")
    page = parse_page(path.read_text(encoding="utf-8"))
    assert page.title == f"{row['code']}: {row['name']}", f"{path.name}: title is {page.title!r}"
    lines = [line for line in page.preamble if line.strip()]
    assert len(lines) == 1, f"{path.name}: expected one 'Severity: ... · Family: ...' line before the first section"
    match = _SEVERITY.match(lines[0])
    assert match, f"{path.name}: {lines[0]!r} is not 'Severity: <severity> · Family: <family>'"
    assert match["severity"] == row["severity"], f"{path.name}: severity {match['severity']}, rule says {row['severity']}"
    marked = lines[0].endswith(" · Preview (off by default)")
    assert marked == row["preview"], f"{path.name}: the Severity line must say ' · Preview (off by default)' exactly when the rule is in preview"
    if row["code"] != "BG000":
        family = f"BG{row['code'][2]}xx"
        assert match["family"].startswith(family), f"{path.name}: family {match['family']!r} is not {family}"


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_page_has_every_section_in_order(path):
    page = parse_page(path.read_text(encoding="utf-8"))
    headings = [section.heading for section in page.sections]
    required = [heading for heading in headings if heading not in OPTIONAL_SECTIONS]
    assert required == list(SECTIONS), f"{path.name}: sections are {headings}, expected {list(SECTIONS)}"
    for optional, after in OPTIONAL_SECTIONS.items():
        if optional in headings:
            position = headings.index(optional)
            assert headings[position - 1] == after, f"{path.name}: ## {optional} must come right after ## {after}"
    for section in page.sections:
        has_text = any(line.strip() for line in section.text)
        assert has_text or section.blocks, f"{path.name}: ## {section.heading} is empty"


# ---------------------------------------------------------------------------
# (c) the examples


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_example_is_flagged(path, tmp_path, monkeypatch):
    page = parse_page(path.read_text(encoding="utf-8"))
    found = diagnostics_of(page.section("Example"), tmp_path / "example", monkeypatch)
    assert any(d.code == path.stem for d in found), (
        f"{path.name}: the Example should produce {path.stem}, got:\n{describe(found)}"
    )


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_use_instead_is_clean(path, tmp_path, monkeypatch):
    page = parse_page(path.read_text(encoding="utf-8"))
    found = diagnostics_of(page.section("Use instead"), tmp_path / "use_instead", monkeypatch)
    assert not found, f"{path.name}: the Use instead code should produce nothing, got:\n{describe(found)}"


# ---------------------------------------------------------------------------
# (d) bgcheck explain


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into output by default
    except TypeError:
        return CliRunner()  # click >= 8.2 always keeps stderr apart


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_explain_prints_the_page_by_code_and_by_name(path):
    row = _rules().get(path.stem)
    if row is None:
        pytest.fail(f"{path.name}: no rule has this code")
    expected = path.read_text(encoding="utf-8")
    for key in (row["code"], row["name"]):
        result = _runner().invoke(main, ["explain", key, "--format", "markdown"])
        assert result.exit_code == 0, f"bgcheck explain {key}: exit {result.exit_code}, stderr {result.stderr!r}"
        assert result.stdout == expected, f"bgcheck explain {key} does not print {path.name}"


def test_explain_cancellation_swallowed_by_code_and_by_name():
    expected = (PAGES_DIR / "BG101.md").read_text(encoding="utf-8")
    for key in ("BG101", "cancellation-swallowed"):
        result = _runner().invoke(main, ["explain", key, "--format", "markdown"])
        assert result.exit_code == 0
        assert result.stdout == expected


def test_explain_unknown_rule_is_a_one_line_error():
    result = _runner().invoke(main, ["explain", "BG999"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {result.stderr!r}"
    assert "BG999" in lines[0]


# ---------------------------------------------------------------------------
# the parser itself


def test_parser_keeps_headings_inside_code_and_reads_info_strings():
    page = parse_page(
        "# BG1: x\n\nSeverity: error · Family: BG1xx, y\n\n## Example\n\n"
        "```python file=proj/a.py\n## not a heading\nx = 1\n```\n\n"
        "````toml\nreplicas = 2\n````\n\n## Use instead\ntext\n"
    )
    assert page.title == "BG1: x"
    assert [s.heading for s in page.sections] == ["Example", "Use instead"]
    files, config = project_of(page.section("Example"))
    assert files == {"proj/a.py": "## not a heading\nx = 1\n"}
    assert config == "replicas = 2\n"
    assert page.section("Use instead").text == ["text"]


def test_parser_rejects_an_unclosed_fence():
    with pytest.raises(ValueError, match="never closed"):
        parse_page("# BG1: x\n\n## Example\n```python\nx = 1\n")


# ---------------------------------------------------------------------------
# (e) links: every relative link resolves, in the checkout and in the wheel

_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    page = path.read_text(encoding="utf-8")
    return {_slug(line.lstrip("#")) for line in page.splitlines() if line.startswith("#")}


def _force_include() -> dict[str, str]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    data = tomllib.loads((PAGES_DIR.parent / "pyproject.toml").read_text(encoding="utf-8"))
    return data["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_relative_links_resolve_in_the_checkout_and_in_the_wheel(path):
    repository = PAGES_DIR.parent
    force = _force_include()
    wheel_pages = PurePosixPath(force["rules"])
    for match in _LINK.finditer(path.read_text(encoding="utf-8")):
        target, _, anchor = match["target"].partition("#")
        if "://" in target or target.startswith("mailto:") or not target:
            continue
        checkout = (path.parent / target).resolve()
        assert checkout.is_file(), f"{path.name}: {match['target']} does not exist in the repository"
        assert repository in checkout.parents, f"{path.name}: {match['target']} leaves the repository"
        assert "shared" not in checkout.relative_to(repository).parts
        if anchor:
            assert anchor in _anchors(checkout), f"{path.name}: {checkout.name} has no heading for #{anchor}"
        # In the wheel the page sits in force["rules"]: the link must land where the file is included.
        in_wheel = PurePosixPath(os.path.normpath(str(wheel_pages / target)))
        relative = checkout.relative_to(repository).as_posix()
        shipped = {
            PurePosixPath(dest) / PurePosixPath(relative).relative_to(source)
            for source, dest in force.items()
            if relative == source or relative.startswith(source.rstrip("/") + "/")
        }
        assert in_wheel in shipped, f"{path.name}: {match['target']} is not shipped at {in_wheel} in the wheel"


def test_pages_link_to_the_failure_model():
    linked = [path.name for path in PAGES if "../docs/failure-model.md#" in path.read_text(encoding="utf-8")]
    assert len(linked) == len(PAGES), f"pages without a link to the failure model: {sorted({p.name for p in PAGES} - set(linked))}"


def _rule_table_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("rule_table", PAGES_DIR.parent / "scripts" / "rule_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_rule_table_is_the_registry():
    """The README's rule table and its sentence naming the preview rules are written by
    scripts/rule_table.py from the registry."""
    module = _rule_table_script()
    text = (PAGES_DIR.parent / "README.md").read_text(encoding="utf-8")
    assert module.render(text) == text, "README.md's rule table or preview rules are out of date: run python scripts/rule_table.py"


def test_readme_names_the_preview_rules_of_the_registry():
    """The sentence names every preview rule of the registry and no other, and a stale one is rewritten."""
    module = _rule_table_script()
    sentence = module.preview_sentence()
    preview = {row["code"] for row in rule_table() if row["preview"]}
    assert set(re.findall(r"BG\d{3}", sentence)) == preview
    text = (PAGES_DIR.parent / "README.md").read_text(encoding="utf-8")
    stale = text.replace(sentence, "Today BG102 is in preview; its page says what its false alarms were.")
    assert stale != text and module.render(stale) == text


# ---------------------------------------------------------------------------
# bgcheck explain, rendered for a terminal


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_explain_renders_the_page_without_markdown_syntax(path):
    """Headings underlined, code indented, links as their text, no fence or its test attributes."""
    page = parse_page(path.read_text(encoding="utf-8"))
    result = _runner().invoke(main, ["explain", path.stem])
    assert result.exit_code == 0, result.stderr
    shown = result.stdout
    assert "\x1b[" not in shown  # not a terminal: no colour
    lines = shown.splitlines()
    assert lines[:2] == [page.title, "=" * len(page.title)]
    for section in page.sections:
        assert f"{section.heading}\n{'-' * len(section.heading)}\n" in shown
    assert "```" not in shown and "file=" not in shown
    assert "](" not in shown, "a link is shown as its text"
    example = page.section("Example")
    for block in example.blocks:
        path_attribute = block.attributes.get("file")
        if path_attribute:
            assert f"    # {path_attribute}\n" in shown
        first = next(line for line in block.text.splitlines() if line.strip())
        assert f"    {first}" in lines


def test_explain_with_colour_highlights_code_and_headings():
    result = _runner().invoke(main, ["explain", "BG501", "--color", "always"], color=True)
    assert result.exit_code == 0, result.stderr
    assert "\x1b[1;36mExample\x1b[0m" in result.stdout
    assert "\x1b[34mimport\x1b[39;49;00m" in result.stdout  # pygments' Python keyword
    assert "every replica runs every scheduled job," in result.stdout  # a link's text, without its target


def test_explain_shows_the_references_with_their_urls():
    """The References section is there for its addresses: each link as `text <URL>` (links
    elsewhere stay their text only)."""
    result = _runner().invoke(main, ["explain", "BG102"])
    assert result.stdout.split("\nReferences\n", 1)[1] == (
        "----------\n"
        "\n"
        "- asyncio: Task cancellation <https://docs.python.org/3/library/asyncio-task.html#task-cancellation>\n"
        "- asyncio: Handling keyboard interruption <https://docs.python.org/3/library/asyncio-runner.html#handling-keyboard-interruption>\n"
    )


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_every_reference_is_shown_with_its_url(path):
    import re

    page = path.read_text(encoding="utf-8")
    if "\n## References\n" not in page:
        return
    references = page.split("\n## References\n", 1)[1].split("\n## ", 1)[0]
    links = re.findall(r"\[([^\]]+)\]\(([^)\s]+)\)", references)
    shown = _runner().invoke(main, ["explain", path.stem]).stdout.split("\nReferences\n", 1)[1]
    assert links and all(f"{text} <{url}>" in shown for text, url in links)
