"""Tests for bgcheck.load.files: file discovery, exclude patterns and .gitignore."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bgcheck.load import config, files
from bgcheck.load.files import GitIgnore, discover

DEFAULT_EXCLUDE = ["build", "dist", "node_modules", "site-packages", "venv", ".venv", "__pycache__"]


def make(base: Path, tree: dict[str, str]) -> None:
    """Create files (content) and folders (keys ending in "/")."""
    for rel, content in tree.items():
        path = base / rel
        if rel.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)


def found(base: Path, paths=None, root=None, exclude=()) -> list[str]:
    """discover() results as posix paths relative to `base`."""
    result = discover(paths if paths is not None else [base], root or base, list(exclude))
    return [p.relative_to(base).as_posix() for p in result]


# --------------------------------------------------------------------------
# Basics


def test_walks_folders_for_py_files_only(tmp_path):
    make(tmp_path, {
        "a.py": "", "b.txt": "", "c.pyi": "", "d.pyc": "", "setup.cfg": "",
        "pkg/__init__.py": "", "pkg/sub/deep.py": "", "pkg/data.json": "",
        "empty/": "",
    })
    assert found(tmp_path) == ["a.py", "pkg/__init__.py", "pkg/sub/deep.py"]


def test_no_paths_gives_nothing(tmp_path):
    assert discover([], tmp_path, []) == []


def test_nonexistent_path_raises_with_path_in_message(tmp_path):
    missing = tmp_path / "nope" / "missing.py"
    with pytest.raises(FileNotFoundError) as excinfo:
        discover([tmp_path, missing], tmp_path, [])
    assert str(missing) in str(excinfo.value)
    assert excinfo.value.filename == str(missing)


def test_broken_symlink_given_explicitly_raises(tmp_path):
    link = tmp_path / "dangling.py"
    link.symlink_to(tmp_path / "gone.py")
    with pytest.raises(FileNotFoundError):
        discover([link], tmp_path, [])


def test_explicit_file_is_returned_whatever_its_extension(tmp_path):
    make(tmp_path, {"script": "", "notes.txt": "", "a.py": ""})
    result = discover([tmp_path / "script", tmp_path / "notes.txt"], tmp_path, [])
    assert result == [tmp_path / "notes.txt", tmp_path / "script"]


def test_explicit_files_are_returned_even_if_ignored_excluded_hidden_or_in_venv(tmp_path):
    make(tmp_path, {
        ".git/": "",
        ".gitignore": "ignored.py\ngen/\n",
        "ignored.py": "",
        "gen/g.py": "",
        "build/b.py": "",
        ".hidden/h.py": "",
        "env/pyvenv.cfg": "",
        "env/lib/e.py": "",
        "__pycache__/c.py": "",
    })
    explicit = ["ignored.py", "gen/g.py", "build/b.py", ".hidden/h.py", "env/lib/e.py", "__pycache__/c.py"]
    result = found(tmp_path, [tmp_path / p for p in explicit], exclude=DEFAULT_EXCLUDE)
    assert result == sorted(explicit)
    # ... while a walk of the same tree finds none of them.
    assert found(tmp_path, exclude=DEFAULT_EXCLUDE) == []


def test_explicit_folder_is_walked_even_if_hidden_or_excluded(tmp_path):
    make(tmp_path, {".hidden/a.py": "", "build/b.py": "", "env/pyvenv.cfg": "", "env/c.py": ""})
    assert found(tmp_path, [tmp_path / ".hidden"], exclude=DEFAULT_EXCLUDE) == [".hidden/a.py"]
    assert found(tmp_path, [tmp_path / "build"], exclude=DEFAULT_EXCLUDE) == ["build/b.py"]
    assert found(tmp_path, [tmp_path / "env"]) == ["env/c.py"]


# --------------------------------------------------------------------------
# Built-in skips


def test_hidden_folders_and_pycache_are_skipped(tmp_path):
    make(tmp_path, {
        ".git/hooks/h.py": "", ".tox/t.py": "", ".mypy_cache/m.py": "",
        "pkg/.hidden/x.py": "", "pkg/__pycache__/y.py": "", "pkg/ok.py": "",
        ".hidden_file.py": "",  # only hidden *folders* are skipped
    })
    assert found(tmp_path) == [".hidden_file.py", "pkg/ok.py"]


def test_virtualenv_detected_by_pyvenv_cfg_whatever_its_name(tmp_path):
    make(tmp_path, {
        "my-env-3.11/pyvenv.cfg": "home = /usr/bin\n",
        "my-env-3.11/lib/python3.11/site-packages/pkg/mod.py": "",
        "my-env-3.11/bin/activate_this.py": "",
        "nested/deeper/tools_env/pyvenv.cfg": "",
        "nested/deeper/tools_env/x.py": "",
        "nested/deeper/real.py": "",
        "not_env/pyvenv.cfg.bak": "",
        "not_env/y.py": "",
    })
    assert found(tmp_path) == ["nested/deeper/real.py", "not_env/y.py"]


def test_symlinked_folders_are_not_followed(tmp_path):
    make(tmp_path, {"pkg/a.py": "", "outside/o.py": ""})
    (tmp_path / "pkg" / "loop").symlink_to(tmp_path, target_is_directory=True)  # a cycle
    (tmp_path / "pkg" / "ext").symlink_to(tmp_path / "outside", target_is_directory=True)
    assert found(tmp_path, [tmp_path / "pkg"]) == ["pkg/a.py"]


def test_symlinked_py_file_is_returned(tmp_path):
    make(tmp_path, {"elsewhere/real.py": "", "pkg/a.py": ""})
    (tmp_path / "pkg" / "link.py").symlink_to(tmp_path / "elsewhere" / "real.py")
    (tmp_path / "pkg" / "broken.py").symlink_to(tmp_path / "gone.py")
    assert found(tmp_path, [tmp_path / "pkg"]) == ["pkg/a.py", "pkg/link.py"]


def test_explicit_symlinked_folder_is_walked(tmp_path):
    make(tmp_path, {"real/a.py": ""})
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    assert found(tmp_path, [tmp_path / "alias"]) == ["alias/a.py"]


# --------------------------------------------------------------------------
# Exclude patterns


def test_exclude_basename_patterns_match_at_any_depth(tmp_path):
    make(tmp_path, {
        "build/a.py": "", "src/build/b.py": "", "src/builder/c.py": "",
        "src/pkg.egg-info/d.py": "",
        "app/migrations/0001.py": "", "app/models.py": "",
        "proto/msg_pb2.py": "", "proto/msg.py": "",
    })
    exclude = ["build", "*.egg-info", "migrations", "*_pb2.py"]
    assert found(tmp_path, exclude=exclude) == ["app/models.py", "proto/msg.py", "src/builder/c.py"]


def test_default_excludes(tmp_path):
    make(tmp_path, {
        "dist/a.py": "", "node_modules/x/b.py": "", "lib/site-packages/c.py": "",
        "venv/d.py": "", "src/main.py": "",
    })
    assert found(tmp_path, exclude=DEFAULT_EXCLUDE) == ["src/main.py"]


def test_exclude_path_patterns_are_relative_to_root(tmp_path):
    make(tmp_path, {
        "src/legacy/old.py": "", "src/legacy/deep/older.py": "", "src/new.py": "",
        "other/src/legacy/kept.py": "",
        "tests/fixtures/f.py": "", "tests/fixtures/sub/g.py": "", "tests/test_x.py": "",
    })
    exclude = ["src/legacy/*", "tests/fixtures/**"]
    assert found(tmp_path, exclude=exclude) == ["other/src/legacy/kept.py", "src/new.py", "tests/test_x.py"]


def test_exclude_path_patterns_apply_when_walking_a_subfolder(tmp_path):
    make(tmp_path, {"src/legacy/old.py": "", "src/new.py": ""})
    assert found(tmp_path, [tmp_path / "src"], exclude=["src/legacy"]) == ["src/new.py"]


def test_exclude_path_pattern_with_double_star(tmp_path):
    make(tmp_path, {"a/migrations/m.py": "", "a/b/migrations/n.py": "", "migrations/o.py": "", "a/ok.py": ""})
    assert found(tmp_path, exclude=["**/migrations"]) == ["a/ok.py"]
    assert found(tmp_path, exclude=["a/**/migrations"]) == ["a/ok.py", "migrations/o.py"]


def test_exclude_patterns_are_normalised(tmp_path):
    make(tmp_path, {"build/a.py": "", "src/gen/b.py": "", "src/c.py": ""})
    # "./x", "x/" and "/x" all mean the same folder.
    assert found(tmp_path, exclude=["build/", "./src/gen"]) == ["src/c.py"]
    assert found(tmp_path, exclude=["/src/gen/", "  ", ""]) == ["build/a.py", "src/c.py"]


def test_exclude_does_not_descend_into_pruned_folders(tmp_path, monkeypatch):
    make(tmp_path, {
        "node_modules/x/y/z.py": "", "big/a/b.py": "", "venv/pyvenv.cfg": "",
        "venv/lib/v.py": "", "src/a.py": "",
    })
    (tmp_path / ".gitignore").write_text("big/\n")
    scanned: list[str] = []
    real_scandir = os.scandir

    def spy(path):
        scanned.append(Path(path).relative_to(tmp_path).as_posix())
        return real_scandir(path)

    monkeypatch.setattr(files.os, "scandir", spy)
    assert found(tmp_path, exclude=DEFAULT_EXCLUDE) == ["src/a.py"]
    assert sorted(scanned) == [".", "src"]


# --------------------------------------------------------------------------
# .gitignore in a walk


def test_gitignore_unanchored_patterns_match_at_any_depth(tmp_path):
    make(tmp_path, {
        ".gitignore": "generated.py\ntmp\n",
        "generated.py": "", "pkg/generated.py": "", "pkg/real.py": "",
        "tmp/a.py": "", "pkg/tmp/b.py": "",
    })
    assert found(tmp_path) == ["pkg/real.py"]


def test_gitignore_anchored_patterns(tmp_path):
    make(tmp_path, {
        ".gitignore": "/top.py\ndocs/gen\n",
        "top.py": "", "pkg/top.py": "",
        "docs/gen/a.py": "", "pkg/docs/gen/b.py": "", "docs/keep.py": "",
    })
    # A slash at the start or in the middle anchors to the .gitignore's folder.
    assert found(tmp_path) == ["docs/keep.py", "pkg/docs/gen/b.py", "pkg/top.py"]


def test_gitignore_dir_only_patterns(tmp_path):
    make(tmp_path, {
        ".gitignore": "gen.py/\nout/\n",
        "gen.py": "",  # a file: "gen.py/" does not match it
        "sub/gen.py/inner.py": "",  # a folder named gen.py: ignored
        "out/x.py": "", "a/out/y.py": "",
    })
    assert found(tmp_path) == ["gen.py"]


def test_gitignore_negation_and_last_match_wins(tmp_path):
    make(tmp_path, {
        ".gitignore": "gen_*.py\n!gen_keep.py\n",
        "gen_a.py": "", "gen_keep.py": "", "sub/gen_keep.py": "", "sub/gen_b.py": "",
    })
    assert found(tmp_path) == ["gen_keep.py", "sub/gen_keep.py"]
    (tmp_path / ".gitignore").write_text("!gen_keep.py\ngen_*.py\n")
    assert found(tmp_path) == []


def test_gitignore_cannot_reinclude_file_in_ignored_folder(tmp_path):
    make(tmp_path, {".gitignore": "build/\n!build/keep.py\n", "build/keep.py": "", "build/x.py": ""})
    assert found(tmp_path) == []


def test_gitignore_trailing_double_star_allows_reinclusion(tmp_path):
    make(tmp_path, {
        ".gitignore": "abc/**\n!abc/keep.py\n",
        "abc/keep.py": "", "abc/drop.py": "", "abc/sub/deep.py": "",
    })
    assert found(tmp_path) == ["abc/keep.py"]


def test_gitignore_double_star_forms(tmp_path):
    make(tmp_path, {
        ".gitignore": "**/cache\na/**/b\n",
        "cache/x.py": "", "p/q/cache/y.py": "",
        "a/b/1.py": "", "a/x/b/2.py": "", "a/x/y/b/3.py": "", "a/bb/4.py": "", "z/a/b/5.py": "",
    })
    assert found(tmp_path) == ["a/bb/4.py", "z/a/b/5.py"]


def test_gitignore_star_does_not_cross_slash(tmp_path):
    make(tmp_path, {".gitignore": "src/*.py\n", "src/a.py": "", "src/sub/b.py": ""})
    assert found(tmp_path) == ["src/sub/b.py"]


def test_gitignore_comments_blank_lines_and_trailing_spaces(tmp_path):
    make(tmp_path, {
        ".gitignore": "# a comment: comment.py\n\n   \nspaced.py   \n\\#hash.py\n\\!bang.py\n",
        "comment.py": "", "spaced.py": "", "#hash.py": "", "!bang.py": "", "ok.py": "",
    })
    assert found(tmp_path) == ["comment.py", "ok.py"]


def test_gitignore_with_crlf_line_endings(tmp_path):
    (tmp_path / ".gitignore").write_bytes(b"a.py\r\nsub/\r\n")
    make(tmp_path, {"a.py": "", "sub/b.py": "", "c.py": ""})
    assert found(tmp_path) == ["c.py"]


def test_deeper_gitignore_overrides_shallower(tmp_path):
    make(tmp_path, {
        ".gitignore": "*_gen.py\n",
        "top_gen.py": "",
        "pkg/.gitignore": "!keep_gen.py\nlocal.py\n",
        "pkg/keep_gen.py": "", "pkg/drop_gen.py": "", "pkg/local.py": "",
        "local.py": "",  # the deeper file does not reach up
        "pkg/deeper/keep_gen.py": "", "pkg/deeper/.gitignore": "keep_gen.py\n",
        "pkg/deeper/x.py": "",
    })
    assert found(tmp_path) == ["local.py", "pkg/deeper/x.py", "pkg/keep_gen.py"]


def test_nested_gitignore_anchors_to_its_own_folder(tmp_path):
    make(tmp_path, {
        "sub/.gitignore": "/local.py\ndata/raw\n",
        "local.py": "", "sub/local.py": "", "sub/deeper/local.py": "",
        "sub/data/raw/r.py": "", "data/raw/top.py": "",
    })
    assert found(tmp_path) == ["data/raw/top.py", "local.py", "sub/deeper/local.py"]


def test_parent_gitignore_applies_up_to_repository_top(tmp_path):
    repo = tmp_path / "repo"
    make(tmp_path, {
        ".gitignore": "*.py\n",  # above the repository: never applies
        "repo/.git/": "",
        "repo/.gitignore": "pkg/gen/\n",
        "repo/pkg/.gitignore": "skip.py\n",
        "repo/pkg/gen/g.py": "", "repo/pkg/sub/skip.py": "", "repo/pkg/sub/a.py": "",
    })
    # Parent .gitignore files apply even above `root`, up to the repository top.
    for root in (repo, repo / "pkg" / "sub"):
        assert found(repo, [repo / "pkg" / "sub"], root=root) == ["pkg/sub/a.py"]
        assert found(repo, [repo / "pkg"], root=root) == ["pkg/sub/a.py"]


def test_git_file_marks_repository_top(tmp_path):
    # Worktrees and submodules have a .git *file*.
    make(tmp_path, {
        ".git/": "", ".gitignore": "*.py\n",
        "sub/.git": "gitdir: ../.git/modules/sub\n", "sub/a.py": "",
    })
    assert found(tmp_path, [tmp_path / "sub"]) == ["sub/a.py"]


def test_without_repository_gitignore_goes_up_to_root(tmp_path):
    make(tmp_path, {
        ".gitignore": "a.py\n",  # above root: ignored
        "proj/.gitignore": "b.py\n",
        "proj/pkg/a.py": "", "proj/pkg/b.py": "", "proj/pkg/c.py": "",
    })
    proj = tmp_path / "proj"
    assert found(proj, [proj / "pkg"], root=proj) == ["pkg/a.py", "pkg/c.py"]
    # Walking a folder outside `root` uses only its own .gitignore files.
    assert found(proj, [proj / "pkg"], root=tmp_path / "elsewhere") == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]


def test_each_gitignore_is_compiled_once(tmp_path, monkeypatch):
    make(tmp_path, {
        ".git/": "", ".gitignore": "x.py\n", "pkg/.gitignore": "y.py\n",
        "pkg/a.py": "", "pkg/sub/b.py": "", "other/c.py": "",
    })
    loaded: list[str] = []
    real = GitIgnore.from_file.__func__

    def spy(cls, path):
        loaded.append(Path(path).relative_to(tmp_path.resolve()).as_posix())
        return real(cls, path)

    monkeypatch.setattr(GitIgnore, "from_file", classmethod(spy))
    result = found(tmp_path, [tmp_path, tmp_path / "pkg", tmp_path / "pkg" / "sub"])
    assert result == ["other/c.py", "pkg/a.py", "pkg/sub/b.py"]
    assert sorted(loaded) == [".gitignore", "pkg/.gitignore"]


# --------------------------------------------------------------------------
# Output form, deduplication and order


def test_paths_keep_the_form_they_were_given_in(tmp_path, monkeypatch):
    make(tmp_path, {"src/pkg/a.py": "", "src/b.py": "", "tool": ""})
    monkeypatch.chdir(tmp_path)
    result = discover([Path("src"), Path("./tool")], Path("."), [])
    assert result == [Path("src/b.py"), Path("src/pkg/a.py"), Path("tool")]
    assert all(not p.is_absolute() for p in result)
    assert discover([Path(".")], Path("."), []) == [Path("src/b.py"), Path("src/pkg/a.py")]


def test_duplicates_are_removed_by_resolved_path(tmp_path):
    make(tmp_path, {"pkg/a.py": "", "pkg/sub/b.py": ""})
    paths = [tmp_path / "pkg" / "sub", tmp_path / "pkg", tmp_path / "pkg" / "a.py", tmp_path / "pkg" / "sub" / ".." / "a.py"]
    assert found(tmp_path, paths) == ["pkg/a.py", "pkg/sub/b.py"]


def test_symlink_to_a_file_in_the_tree_counts_once(tmp_path):
    make(tmp_path, {"a.py": ""})
    (tmp_path / "link.py").symlink_to(tmp_path / "a.py")
    assert found(tmp_path) == ["a.py"]


def test_result_is_sorted_by_posix_string_and_independent_of_input_order(tmp_path):
    make(tmp_path, {"b/z.py": "", "b/a.py": "", "a_b.py": "", "a/c.py": "", "B.py": "", "a.py": ""})
    inputs = [tmp_path / "b", tmp_path / "a", tmp_path / "a.py", tmp_path / "a_b.py", tmp_path / "B.py"]
    first = discover(inputs, tmp_path, [])
    assert first == discover(list(reversed(inputs)), tmp_path, [])
    assert first == discover([tmp_path], tmp_path, [])
    posix = [p.as_posix() for p in first]
    assert posix == sorted(posix)
    assert found(tmp_path) == ["B.py", "a.py", "a/c.py", "a_b.py", "b/a.py", "b/z.py"]


# --------------------------------------------------------------------------
# GitIgnore patterns, one at a time


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "expected"),
    [
        # plain names match at any depth, files and folders
        ("foo", "foo", False, True),
        ("foo", "a/b/foo", True, True),
        ("foo", "foobar", False, None),
        # "*" and "?" never cross "/"
        ("*.py", "x.py", False, True),
        ("*.py", "a/x.py", False, True),
        ("a/*.py", "a/x.py", False, True),
        ("a/*.py", "a/b/x.py", False, None),
        ("a/*", "a/b", True, True),
        ("fo?.py", "foo.py", False, True),
        ("fo?.py", "fooo.py", False, None),
        ("a?b", "a/b", False, None),
        # brackets
        ("[abc].py", "b.py", False, True),
        ("[abc].py", "d.py", False, None),
        ("[a-c]x.py", "bx.py", False, True),
        ("[!abc].py", "d.py", False, True),
        ("[!abc].py", "a.py", False, None),
        ("[^abc].py", "d.py", False, True),
        ("[]]x", "]x", False, True),
        ("[oops", "[oops", False, True),  # unterminated: literal
        # anchoring
        ("/foo", "foo", False, True),
        ("/foo", "a/foo", False, None),
        ("a/b", "a/b", False, True),
        ("a/b", "x/a/b", False, None),
        # directory-only
        ("foo/", "foo", True, True),
        ("foo/", "foo", False, None),
        ("foo/", "x/foo", True, True),
        ("/a/b/", "a/b", True, True),
        # "**"
        ("**/foo", "foo", False, True),
        ("**/foo", "a/b/foo", False, True),
        ("**/a/b", "x/y/a/b", True, True),
        ("a/**", "a/x", False, True),
        ("a/**", "a/x/y", False, True),
        ("a/**", "a", True, None),
        ("a/**/b", "a/b", True, True),
        ("a/**/b", "a/x/y/b", True, True),
        ("a/**/b", "a/xb", True, None),
        ("a**b", "axxb", False, True),  # not a whole component: a plain "*"
        ("a**b", "ax/xb", False, None),
        ("**", "anything/at/all", False, True),
        # escapes and spaces
        ("\\#x", "#x", False, True),
        ("\\!x", "!x", False, True),
        ("x\\ ", "x ", False, True),
        ("x   ", "x", False, True),
        ("x\\*", "x*", False, True),
        ("x\\*", "xy", False, None),
        # negation
        ("!foo", "foo", False, False),
    ],
)
def test_gitignore_pattern(pattern, path, is_dir, expected):
    assert GitIgnore([pattern]).match(path, is_dir) is expected


def test_gitignore_skips_comments_and_blank_lines():
    gitignore = GitIgnore(["# comment", "", "   ", "!", "/", "real"])
    assert len(gitignore) == 1
    assert gitignore.match("# comment", False) is None


def test_gitignore_last_matching_pattern_decides():
    gitignore = GitIgnore(["*.py", "!keep*.py", "keep_not.py"])
    assert gitignore.match("a.py", False) is True
    assert gitignore.match("keep.py", False) is False
    assert gitignore.match("keep_not.py", False) is True
    assert gitignore.match("a.txt", False) is None


def test_gitignore_dir_only_negation_does_not_apply_to_files():
    gitignore = GitIgnore(["*", "!*/"])
    assert gitignore.match("pkg", True) is False
    assert gitignore.match("a.py", False) is True


# --------------------------------------------------------------------------
# What cannot be walked or read: skipped (and said), never an abort or a hang


def skipped_by(base: Path, paths=None) -> tuple[list[str], list[tuple[str, str, bool]]]:
    notes: list = []
    result = discover(paths if paths is not None else [base], base, [], lambda path, why, warn: notes.append((path, why, warn)))
    return [p.relative_to(base).as_posix() for p in result], notes


def test_symlink_loop_file_is_skipped_with_a_note_and_the_rest_is_walked(tmp_path):
    make(tmp_path, {"a.py": "", "pkg/b.py": ""})
    (tmp_path / "loop.py").symlink_to("loop.py")
    (tmp_path / "pkg" / "x.py").symlink_to("y.py")
    (tmp_path / "pkg" / "y.py").symlink_to("x.py")
    paths, notes = skipped_by(tmp_path)
    assert paths == ["a.py", "pkg/b.py"]
    assert sorted((Path(p).name, warn) for p, _why, warn in notes) == [("loop.py", False), ("x.py", False), ("y.py", False)]
    assert all("symbolic links" in why for _p, why, _w in notes)


def test_symlink_loop_folders_are_not_followed_and_noted(tmp_path):
    make(tmp_path, {"a.py": "", "pkg/b.py": ""})
    (tmp_path / "pkg" / "up").symlink_to("..", target_is_directory=True)  # a cycle through a real folder
    (tmp_path / "d1").symlink_to("d2", target_is_directory=True)  # a loop of links
    (tmp_path / "d2").symlink_to("d1", target_is_directory=True)
    paths, notes = skipped_by(tmp_path)
    assert paths == ["a.py", "pkg/b.py"]
    assert sorted(Path(p).name for p, _why, _warn in notes) == ["d1", "d2"]  # the cycle through ".." is just a link not followed


def test_ordinary_links_give_no_note(tmp_path):
    """The other direction: a working link to a file or folder, or a broken one, is no loop."""
    make(tmp_path, {"a.py": "", "lib/c.py": ""})
    (tmp_path / "b.py").symlink_to("a.py")
    (tmp_path / "libs").symlink_to("lib", target_is_directory=True)
    (tmp_path / "gone.py").symlink_to("nowhere.py")
    paths, notes = skipped_by(tmp_path)
    assert paths == ["a.py", "lib/c.py"] and notes == []  # (b.py is a.py: counted once)


def test_fifos_and_devices_in_a_folder_are_not_files(tmp_path):
    make(tmp_path, {"a.py": ""})
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    paths, notes = skipped_by(tmp_path)
    assert paths == ["a.py"] and notes == []


def test_fifo_or_loop_named_explicitly_is_returned(tmp_path):
    """Named on the command line (pre-commit passes names), it is checked: reading it then
    gives a BG000 that says why, instead of a hang or an abort."""
    make(tmp_path, {"a.py": ""})
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "loop.py").symlink_to("loop.py")
    paths, _notes = skipped_by(tmp_path, [tmp_path / "a.py", tmp_path / "fifo.py", tmp_path / "loop.py"])
    assert paths == ["a.py", "fifo.py", "loop.py"]


def _refuse_scandir(monkeypatch, refused: Path) -> None:
    """Make one folder unreadable, for root too (permissions do not stop root)."""
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path) == os.fspath(refused):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(files.os, "scandir", scandir)


def test_unreadable_folder_is_skipped_with_a_warning(tmp_path, monkeypatch):
    make(tmp_path, {"a.py": "", "locked/b.py": "", "open/c.py": ""})
    _refuse_scandir(monkeypatch, tmp_path / "locked")
    paths, notes = skipped_by(tmp_path)
    assert paths == ["a.py", "open/c.py"]
    assert notes == [((tmp_path / "locked").as_posix() + "/", "folder not checked: cannot read it (Permission denied)", True)]


def test_unreadable_named_folder_is_a_one_line_error(tmp_path, monkeypatch):
    from bgcheck.load.config import ConfigError

    make(tmp_path, {"locked/b.py": ""})
    _refuse_scandir(monkeypatch, tmp_path / "locked")
    with pytest.raises(ConfigError, match=r"locked: cannot read the folder: Permission denied$"):
        discover([tmp_path / "locked"], tmp_path, [])
    with pytest.raises(OSError):  # what the language server catches to carry on
        discover([tmp_path / "locked"], tmp_path, [])


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read anything")
def test_unreadable_folder_for_real(tmp_path):
    make(tmp_path, {"a.py": "", "locked/b.py": ""})
    (tmp_path / "locked").chmod(0)
    try:
        paths, notes = skipped_by(tmp_path)
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert paths == ["a.py"] and [warn for _p, _w, warn in notes] == [True]


def test_gitignore_that_is_a_device_or_fifo_is_not_read(tmp_path):
    make(tmp_path, {"a.py": "", "sub/b.py": ""})
    (tmp_path / ".gitignore").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "sub" / ".gitignore")
    assert found(tmp_path) == ["a.py", "sub/b.py"]


def test_gitignore_line_with_a_reversed_range_matches_nothing(tmp_path):
    make(tmp_path, {"a.py": "", "b.py": "", "x.py": ""}.copy())
    (tmp_path / ".gitignore").write_text("[z-a].py\nb.py\n")
    assert found(tmp_path) == ["a.py", "x.py"]  # the line is ignored, the next one is honoured


def test_glob_error():
    assert files.glob_error("[z-a]") == "bad character range z-a"
    assert files.glob_error("[a-z]*.py") is None and files.glob_error("src/**") is None


def test_read_regular_refuses_what_is_not_a_regular_file(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "big").write_bytes(b"x" * 101)
    (tmp_path / "ok").write_bytes(b"x" * 100)
    with pytest.raises(files.NotRegularFile, match="a named pipe"):
        files.read_regular(tmp_path / "fifo", 100)
    with pytest.raises(files.NotRegularFile, match="a device"):
        files.read_regular("/dev/zero", 100)
    with pytest.raises(files.NotRegularFile, match="a folder"):
        files.read_regular(tmp_path, 100)
    with pytest.raises(files.FileTooLarge):
        files.read_regular(tmp_path / "big", 100)
    assert files.read_regular(tmp_path / "ok", 100) == b"x" * 100


# --------------------------------------------------------------------------
# the same through the command line (in a child process with a deadline: a
# regression hangs the child, never the test run)

FINDING = "import queue\n\nwork = queue.Queue()\n\n\ndef feed(source):\n    while True:\n        work.put(source.read())\n"  # BG301 (a preview rule: the projects below turn preview on)


def bgcheck_in(folder: Path, *args: str):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "bgcheck", "check", "--no-cache", "-j", "1", "--format", "json", *args],
        cwd=folder, capture_output=True, text=True, timeout=120,
    )


def reported(done) -> list[tuple[str, str]]:
    import json

    return [(d["path"], d["code"]) for d in json.loads(done.stdout)["diagnostics"]]


@pytest.fixture
def hostile_tree(tmp_path) -> Path:
    root = tmp_path / "svc"
    make(root, {"pyproject.toml": "[tool.bgcheck]\npreview = true\n", "app/jobs.py": FINDING, "app/more.py": FINDING})
    (root / "app" / "loop.py").symlink_to("loop.py")
    (root / "app" / "d1").symlink_to("d2", target_is_directory=True)
    (root / "app" / "d2").symlink_to("d1", target_is_directory=True)
    os.mkfifo(root / "app" / "fifo.py")
    return root


def test_a_tree_with_link_loops_and_fifos_is_checked(hostile_tree):
    done = bgcheck_in(hostile_tree, ".")
    assert done.returncode == 1, done.stderr
    assert {path for path, _code in reported(done)} == {"app/jobs.py", "app/more.py"}
    assert done.stderr == ""  # loops are said under --verbose only
    verbose = bgcheck_in(hostile_tree, ".", "--verbose")
    assert reported(verbose) == reported(done)
    assert "bgcheck: note: app/loop.py: not checked: Too many levels of symbolic links\n" in verbose.stderr
    assert "bgcheck: note: app/d1: not checked" in verbose.stderr


def test_a_fifo_or_loop_named_on_the_command_line_is_bg000_and_the_rest_is_checked(hostile_tree):
    done = bgcheck_in(hostile_tree, "app/fifo.py", "app/loop.py", "app/jobs.py")
    assert done.returncode == 1, done.stderr
    assert sorted(reported(done)) == [("app/fifo.py", "BG000"), ("app/jobs.py", "BG301"), ("app/loop.py", "BG000")]
    import json

    messages = {d["path"]: d["message"] for d in json.loads(done.stdout)["diagnostics"] if d["code"] == "BG000"}
    assert messages == {
        "app/fifo.py": "file not analysed: not a regular file (a named pipe)",
        "app/loop.py": "file not analysed: cannot read it (Too many levels of symbolic links)",
    }


def test_unreadable_folder_is_a_warning_on_the_command_line(tmp_path, monkeypatch):
    import json

    from click.testing import CliRunner

    from bgcheck.cli import main

    root = tmp_path / "svc"
    make(root, {"pyproject.toml": "[tool.bgcheck]\npreview = true\n", "app/jobs.py": FINDING, "locked/hidden.py": FINDING})
    _refuse_scandir(monkeypatch, root / "locked")
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check", ".", "--no-cache", "-j", "1", "--format", "json"])
    assert result.exit_code == 1
    assert {d["path"] for d in json.loads(result.stdout)["diagnostics"]} == {"app/jobs.py"}
    assert result.stderr == "bgcheck: warning: locked/: folder not checked: cannot read it (Permission denied)\n"


@pytest.mark.parametrize(
    "pyproject",
    ["link-to-dev-zero", "[project]\nscripts = 1\n[tool.bgcheck]\n", "project = 1\n[tool.bgcheck]\n", "[tool.bgcheck]\nx = " + "[" * 5000],
    ids=["link-to-dev-zero", "scripts-not-a-table", "project-not-a-table", "not-toml"],
)
def test_a_hostile_pyproject_beside_a_bgcheck_toml_is_no_entry_point_table(tmp_path, pyproject):
    """bgcheck.toml holds the settings; the pyproject.toml beside it is read for entry points only."""
    root = tmp_path / "svc"
    make(root, {"bgcheck.toml": "replicas = 1\n", "app/jobs.py": FINDING})
    if pyproject == "link-to-dev-zero":
        (root / "pyproject.toml").symlink_to("/dev/zero")
    else:
        (root / "pyproject.toml").write_text(pyproject)
    done = bgcheck_in(root, ".")
    assert done.returncode in (0, 1) and "error" not in done.stderr, done.stderr


def test_unreadable_named_folder_exits_2_with_one_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from bgcheck.cli import main

    root = tmp_path / "svc"
    make(root, {"pyproject.toml": "[tool.bgcheck]\n", "locked/jobs.py": FINDING})
    _refuse_scandir(monkeypatch, root / "locked")
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check", "locked", "--no-cache", "-j", "1"])
    assert result.exit_code == 2
    assert result.stderr == "bgcheck: error: locked: cannot read the folder: Permission denied\n"


def test_vendored_code_is_left_out_by_default_and_a_vendor_package_is_not(tmp_path):
    """Code copied from other projects (``_vendor``, ``_vendored``, ``vendored``, ``vendored_deps``)
    is read as an installed library is; a package named ``vendor`` may be the project's own."""
    make(tmp_path, {
        "pkg/_vendor/websockets/client.py": "",
        "pkg/_vendored/dateutil/tz.py": "",
        "pkg/vendored/menus.py": "",
        "pkg/vendored_deps/conda.py": "",
        "pkg/vendor/models.py": "",
        "pkg/vendors.py": "",
        "pkg/worker.py": "",
    })
    assert found(tmp_path, exclude=config.DEFAULT_EXCLUDE) == ["pkg/vendor/models.py", "pkg/vendors.py", "pkg/worker.py"]


def test_test_code_is_left_out_by_default_and_code_named_like_it_is_not(tmp_path):
    make(tmp_path, {
        "pkg/tests/t.py": "",
        "pkg/_tests/t.py": "",
        "pkg/_smoke_tests/notebook.py": "",
        "pkg/integration_tests/t.py": "",
        "pkg/testing/helpers.py": "",
        "pkg/test_support/fakes.py": "",
        "pkg/test_worker.py": "",
        "pkg/worker_test.py": "",
        "pkg/conftest.py": "",
        # deployed code whose names only contain "test"
        "pkg/tests_runner/run.py": "",
        "pkg/latest/worker.py": "",
        "pkg/contest.py": "",
        "pkg/ab_testing.py": "",
    })
    assert found(tmp_path, exclude=config.DEFAULT_EXCLUDE) == ["pkg/ab_testing.py", "pkg/contest.py", "pkg/latest/worker.py", "pkg/tests_runner/run.py"]
