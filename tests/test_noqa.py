"""Tests for bgcheck.run.noqa: parsing and applying ``# noqa`` comments."""

from __future__ import annotations

import copy
import pickle
import textwrap

import pytest

from bgcheck.run import noqa as noqa_module
from bgcheck.run.noqa import ALL, is_suppressed, parse_noqa
from conftest import codes as found_codes


def codes(*names: str) -> frozenset[str]:
    return frozenset(names)


# --------------------------------------------------------------------------
# Syntax


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("x = 1  # noqa", ALL),
        ("x = 1  # NOQA", ALL),
        ("x = 1  # NoQa", ALL),
        ("x = 1  #noqa", ALL),
        ("x = 1  # noqa - reason given without codes", ALL),
        ("x = 1  # noqa because reasons", ALL),
        ("x = 1  # noqa: BG101", codes("BG101")),
        ("x = 1  # noqa:BG101", codes("BG101")),
        ("x = 1  #noqa:BG101", codes("BG101")),
        ("x = 1  #noqa : BG101", codes("BG101")),
        ("x = 1  # noqa :BG101", codes("BG101")),
        ("x = 1  # noqa:   BG101", codes("BG101")),
        ("x = 1  # noqa: BG101, BG102", codes("BG101", "BG102")),
        ("x = 1  # noqa: BG101,BG102", codes("BG101", "BG102")),
        ("x = 1  # noqa: BG101 BG102", codes("BG101", "BG102")),
        ("x = 1  # noqa: BG101 , BG102,,E501", codes("BG101", "BG102", "E501")),
        ("x = 1  # noqa:BG101,E501", codes("BG101", "E501")),
        ("x = 1  # noqa: E501", codes("E501")),
        ("x = 1  # NOQA: bg101, e501", codes("BG101", "E501")),
        ("x = 1  # noqa: BG101 because reasons", codes("BG101")),
        ("x = 1  # noqa: BG101, BG102 -- see issue 12", codes("BG101", "BG102")),
        ("x = 1  # noqa: BG101. reason", codes("BG101")),
        ("x = 1  # noqa: PLR0913,RUF100", codes("PLR0913", "RUF100")),
        ("x = 1  # type: ignore  # noqa: BG101", codes("BG101")),
        ("x = 1  # type: ignore[attr]  # noqa", ALL),
        ("x = 1  # noqa: BG101  # pragma: no cover", codes("BG101")),
        ("x = 1  # fmt: skip # NOQA:BG102", codes("BG102")),
        # a colon with no code after it is malformed: it suppresses nothing
        ("x = 1  # noqa:", codes()),
        ("x = 1  # noqa: see below", codes()),
        ("x = 1  # noqa: BG101x", codes()),
    ],
)
def test_directive_syntax(line, expected):
    assert parse_noqa(line + "\n") == {1: expected}


@pytest.mark.parametrize(
    "line",
    [
        "x = 1  # no qa",
        "x = 1  # noqa_not",
        "x = 1  # noqanda",
        "x = 1  # TODO: remove noqa later",  # "noqa" not right after a "#"
        "x = 1  # nonqa",
        "noqa = 1",
        "x = 1",
    ],
)
def test_not_a_directive(line):
    assert parse_noqa(line + "\n") == {}


def test_whole_line_comment_is_keyed_by_its_own_line():
    source = "x = 1\n# noqa: BG101\ny = 2\n"
    assert parse_noqa(source) == {2: codes("BG101")}


def test_two_directives_on_one_line_merge():
    assert parse_noqa("x = 1  # noqa: BG101 # noqa: BG102\n") == {1: codes("BG101", "BG102")}
    assert parse_noqa("x = 1  # noqa: BG101 # noqa\n") == {1: ALL}
    assert parse_noqa("x = 1  # noqa # noqa: BG101\n") == {1: ALL}


def test_line_numbers_are_one_based_and_per_line():
    source = textwrap.dedent(
        """\
        import os  # noqa
        def f():
            x = 1  # noqa: BG101
            return x

        y = [
            1,  # noqa: BG102, BG103
        ]
        """
    )
    assert parse_noqa(source) == {1: ALL, 3: codes("BG101"), 7: codes("BG102", "BG103")}


def test_crlf_source():
    source = "x = 1  # noqa: BG101\r\ny = 2\r\nz = 3  # noqa\r\n"
    assert parse_noqa(source) == {1: codes("BG101"), 3: ALL}


def test_source_without_trailing_newline():
    assert parse_noqa("x = 1  # noqa: BG101") == {1: codes("BG101")}


def test_empty_source():
    assert parse_noqa("") == {}


# --------------------------------------------------------------------------
# Comments only, not strings


@pytest.mark.parametrize(
    "source",
    [
        'x = "# noqa"\n',
        "x = '# noqa: BG101'\n",
        'x = f"{y}  # noqa"\n',
        'x = b"# noqa"\n',
        'x = r"#noqa"\n',
        'x = """\n# noqa\n"""\n',
        "def f():\n    '''Docstring.\n\n    # noqa: BG101\n    '''\n",
    ],
)
def test_noqa_inside_a_string_is_not_a_comment(source):
    assert parse_noqa(source) == {}


def test_string_and_real_comment_on_one_line():
    assert parse_noqa('x = "# noqa"  # noqa: BG101\n') == {1: codes("BG101")}
    assert parse_noqa('x = "# noqa: BG102"  # unrelated\n') == {}


def test_multiline_string_followed_by_comment_keeps_line_numbers():
    source = 'x = """\nline\n# noqa\n"""  # noqa: BG101\ny = 1  # noqa\n'
    assert parse_noqa(source) == {4: codes("BG101"), 5: ALL}


# --------------------------------------------------------------------------
# Fast path and fallback


def test_fast_path_does_not_tokenize(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("tokenize must not run")

    monkeypatch.setattr(noqa_module.tokenize, "generate_tokens", boom)
    assert parse_noqa("x = 1  # type: ignore\ny = 2\n" * 100) == {}


def _tokenize_calls(monkeypatch) -> list:
    calls = []
    real = noqa_module.tokenize.generate_tokens

    def spy(readline):
        calls.append(1)
        return real(readline)

    monkeypatch.setattr(noqa_module.tokenize, "generate_tokens", spy)
    return calls


def test_tokenizes_when_a_directive_may_be_in_a_string(monkeypatch):
    calls = _tokenize_calls(monkeypatch)
    assert parse_noqa('x = "# noqa"  # NoQA: BG101\n') == {1: codes("BG101")}
    assert calls == [1]


@pytest.mark.skipif(not noqa_module._TOKENIZE_IS_PYTHON, reason="from Python 3.12 tokenize is CPython's tokenizer: always used")
def test_directives_in_comments_are_read_without_tokenizing(monkeypatch):
    calls = _tokenize_calls(monkeypatch)
    source = '"""Doc: no noqa."""\nx = 1  # NoQA\ny = "a#b" + \'c\'  # type: ignore  # noqa: BG101\n'
    assert parse_noqa(source) == {2: ALL, 3: codes("BG101")}
    assert calls == []


# Directive-like text in strings, comments or both, and strings that close (or not) in unusual
# places: reading the text alone must give exactly what tokenize gives.
_TRICKY = [
    'x = "# noqa"  # noqa: BG101\n',
    "x = '''\n# noqa\n'''  # noqa: BG102\n",
    'x = """a""" """b # noqa""" # noqa\n',
    'x = """ "" \\""" # noqa """  # noqa: BG103\n',
    "x = 'it\\'s # noqa'  # noqa: BG104\n",
    "x = 'unterminated # noqa\ny = 1  # noqa: BG105\n",
    "x = 'continued \\\n # noqa' # noqa: BG106\n",
    'x = f"{y!r} # noqa"  # noqa\n',
    "x = f'{d[\"k\"]}'  # noqa: BG107\n",
    'x = """never closed # noqa\n# noqa\n',
    "# noqa: BG108\n'''\n# noqa\n'''\n#noqa\n",
    'x = rb"\\" # noqa"  # noqa: BG109\n',
    "x = ''''# noqa'''  # noqa: BG110\n",
    "x = (1,  # noqa: BG111\n",
    "if x:\n        a = 1\n    b = 2  # noqa\n",
    "x = 1  # noqa: BG112\r\ny = '# noqa'\r\n",
    "x = 1  # noqa: BG113",
    'x = "#"; y = 2  # noqa: BG114\n',
    'x = 1  # type: ignore  # noqa BG115  # noqa:\ny = "# noqa BG116"  # noqa:  \n',
    "x = '''# noqa:'''  # note # noqa BG117, E501\n",
]


@pytest.mark.parametrize("source", _TRICKY)
def test_text_reading_agrees_with_tokenize(source, monkeypatch):
    read, malformed = parse_noqa(source), noqa_module.malformed_noqa(source)
    monkeypatch.setattr(noqa_module, "_TOKENIZE_IS_PYTHON", False)
    assert (read, malformed) == (parse_noqa(source), noqa_module.malformed_noqa(source))


@pytest.mark.skipif(not noqa_module._TOKENIZE_IS_PYTHON, reason="from Python 3.12 tokenize is CPython's tokenizer: always used")
def test_malformed_directives_read_without_tokenizing(monkeypatch):
    calls = _tokenize_calls(monkeypatch)
    source = "x = 1  # noqa BG101\ny = 2  # type: ignore  # noqa:\nz = 3  # noqa F401\n"
    assert noqa_module.malformed_noqa(source) == [(1, noqa_module.MISSING_COLON), (2, noqa_module.MISSING_CODES)]
    assert calls == []


def test_malformed_directives_of_a_file_that_does_not_tokenize_are_read_off_the_text():
    # as parse_noqa reads them: the same whichever way the text was read
    assert noqa_module.malformed_noqa("x = (1,  # noqa BG101\n") == [(1, noqa_module.MISSING_COLON)]
    assert noqa_module.malformed_noqa('x = """\n# noqa:\n') == [(2, noqa_module.MISSING_CODES)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # unterminated triple-quoted string: tokenize raises at EOF
        ('x = 1  # noqa: BG101\ny = """\nnever closed  # noqa\n', {1: codes("BG101"), 3: ALL}),
        # unclosed bracket
        ("x = (1,  # noqa: BG102\n", {1: codes("BG102")}),
        # inconsistent dedent
        ("if x:\n        a = 1\n    b = 2  # noqa\n", {3: ALL}),
        # several directives and a shared comment still parse in the fallback
        ("def f(:\n  # type: ignore  #NOQA : bg101,E501 why\n", {2: codes("BG101", "E501")}),
    ],
)
def test_broken_source_falls_back_to_line_regex(source, expected):
    assert parse_noqa(source) == expected


def test_fallback_still_requires_a_hash():
    source = 'noqa = 1\nx = (  # noqa: BG101\n'
    assert parse_noqa(source) == {2: codes("BG101")}


# --------------------------------------------------------------------------
# is_suppressed


def test_bare_noqa_suppresses_every_code():
    noqa = parse_noqa("x = 1  # noqa\n")
    assert is_suppressed(noqa, "BG101", [1])
    assert is_suppressed(noqa, "BG999", [1])


def test_listed_codes_only():
    noqa = parse_noqa("x = 1  # noqa: BG101, BG102\n")
    assert is_suppressed(noqa, "BG101", [1])
    assert is_suppressed(noqa, "BG102", [1])
    assert not is_suppressed(noqa, "BG103", [1])


def test_other_tools_codes_do_not_suppress_bgcheck_codes():
    noqa = parse_noqa("x = 1  # noqa: E501\n")
    assert noqa == {1: codes("E501")}
    assert not is_suppressed(noqa, "BG101", [1])


def test_another_linters_code_for_the_same_check_suppresses_it_alone():
    # ruff's RUF006 (asyncio-dangling-task) is BG602's check: the maintainer judged the line already
    noqa = parse_noqa("asyncio.create_task(job())  # noqa: RUF006\n")
    assert is_suppressed(noqa, "BG602", [1])
    assert is_suppressed(noqa, "BG606", [1])  # split from BG602: the same dropped tasks
    assert not is_suppressed(noqa, "BG605", [1])  # split from BG602 too, but executor futures
    assert not is_suppressed(noqa, "BG101", [1])
    assert noqa_module.suppressing_code(noqa[1], "BG602") == "RUF006"
    assert noqa_module.suppressing_code(parse_noqa("x  # noqa: BG602, RUF006\n")[1], "BG602") == "BG602"


def test_code_prefix_does_not_suppress():
    noqa = parse_noqa("x = 1  # noqa: BG1\n")
    assert not is_suppressed(noqa, "BG101", [1])
    noqa = parse_noqa("x = 1  # noqa: BG1011\n")
    assert not is_suppressed(noqa, "BG101", [1])


def test_code_comparison_is_case_insensitive():
    noqa = parse_noqa("x = 1  # noqa: bg101\n")
    assert is_suppressed(noqa, "BG101", [1])
    assert is_suppressed(noqa, "bg101", [1])


def test_any_of_the_lines_suppresses():
    source = textwrap.dedent(
        """\
        result = call(  # noqa: BG101
            arg,
            other,  # noqa: BG102
        )
        """
    )
    noqa = parse_noqa(source)
    # diagnostic on line 3, statement starting on line 1
    assert is_suppressed(noqa, "BG101", [3, 1])
    assert is_suppressed(noqa, "BG102", [3, 1])
    assert not is_suppressed(noqa, "BG102", [2, 1])
    assert not is_suppressed(noqa, "BG103", [3, 1])


def test_other_lines_do_not_suppress():
    noqa = parse_noqa("x = 1  # noqa\ny = 2\n")
    assert not is_suppressed(noqa, "BG101", [2])
    assert not is_suppressed(noqa, "BG101", [])


def test_lines_may_be_any_iterable():
    noqa = parse_noqa("x = 1\ny = 2  # noqa: BG101\n")
    assert is_suppressed(noqa, "BG101", iter([1, 2]))
    assert is_suppressed(noqa, "BG101", {2})
    assert is_suppressed(noqa, "BG101", (line for line in (1, 2)))


def test_empty_code_list_suppresses_nothing():
    noqa = parse_noqa("x = 1  # noqa:\n")
    assert not is_suppressed(noqa, "BG101", [1])


def test_is_suppressed_accepts_a_hand_built_mapping():
    assert is_suppressed({5: ALL}, "BG101", [5])
    assert is_suppressed({5: frozenset({"BG101"})}, "BG101", [5])
    assert not is_suppressed({5: frozenset()}, "BG101", [5])


# --------------------------------------------------------------------------
# The ALL sentinel


def test_all_is_a_singleton_that_survives_copy_and_pickle():
    assert pickle.loads(pickle.dumps(ALL)) is ALL
    assert copy.deepcopy(ALL) is ALL
    assert copy.copy(ALL) is ALL
    assert repr(ALL) == "ALL"


def test_all_contains_every_code():
    assert "BG101" in ALL
    assert "E501" in ALL


def test_all_is_distinct_from_code_sets():
    assert ALL != frozenset()
    assert not isinstance(ALL, frozenset)


def test_noqa_with_another_code_does_not_suppress(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:  # noqa: E501
                pass
        """
    )
    assert found_codes(found) == [("BG105", 7)]


@pytest.mark.parametrize("line, codes, expected", [
    # the colon forgotten: the directive suppresses nothing, so suppressing gives it its colon
    ("x = f()  # noqa BG101", ["BG101"], "x = f()  # noqa: BG101"),
    ("x = f()  # noqa BG101", ["BG102"], "x = f()  # noqa: BG101, BG102"),
    ("x = f()  # noqa: BG101", ["BG102"], "x = f()  # noqa: BG101, BG102"),
    ("x = f()", ["BG101"], "x = f()  # noqa: BG101"),
    # already suppressed: nothing to do
    ("x = f()  # noqa", ["BG101"], None),
    ("x = f()  # noqa: BG101", ["BG101"], None),
])
def test_suppressing_a_finding_makes_a_directive_that_suppresses_it(line, codes, expected):
    from bgcheck.run.noqa import noqa_insertion, parse_noqa

    found = noqa_insertion(line + "\n", 0, codes)
    if expected is None:
        assert found is None
        return
    start, end, text = found
    fixed = line[:start] + text + line[end:]
    assert fixed == expected
    assert parse_noqa(fixed + "\n")[1] >= frozenset(codes)


@pytest.mark.parametrize("comment, warned", [
    ("# noqa BG101", True),
    ("# noqa E501, BG101", True),
    ("# noqa E501 BG101", True),
    ("# noqa F401", False),  # another linter's directive (flake8 reads it as a blanket noqa)
    ("# noqa E501,F401", False),
    ("# noqa", False),
    ("# noqa: BG101", False),
])
def test_a_directive_without_its_colon_is_warned_of_only_when_it_names_our_code(comment, warned):
    from bgcheck.run.noqa import MISSING_COLON, malformed_noqa

    assert malformed_noqa(f"x = 1  {comment}\n") == ([(1, MISSING_COLON)] if warned else [])
