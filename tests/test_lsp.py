"""The language server, end to end: a real LSP client (pytest-lsp) talks to ``bgcheck lsp`` over stdio."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import textwrap
import urllib.parse
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from bgcheck.language_server import noqa_edit  # noqa: E402
from bgcheck.diagnostics import BG000_SUMMARY  # noqa: E402
from bgcheck.rules import catalog  # noqa: E402
from bgcheck.rules.pages import page_path  # noqa: E402

BG105_SUMMARY = next(row[3] for row in catalog.RULES if row[0] == "BG105")


def page_links(code: str) -> str:
    """The last line of a hover: the rule page (installed, and online), and the command that prints it.
    The installed page's URI is PAGE here: see ``shown``."""
    online = f"https://github.com/bgcheck/bgcheck/blob/main/rules/{code}.md"
    return f"[{code} rule page](PAGE) · [online]({online}) · `bgcheck explain {code}`"


def shown(hover) -> str:
    """A hover's text with the installed page's file URI replaced by PAGE, once checked: it is the
    page of the server's own bgcheck (a checkout's rules/ or an installed package's rule_pages/,
    whichever the server runs from), with the text of this checkout's page."""
    value = hover.contents.value
    found = re.search(r"\[(BG\d{3}) rule page\]\((file://[^)]+)\)", value)
    assert found, value
    code, uri = found.groups()
    page = Path(urllib.parse.unquote(urllib.parse.urlparse(uri).path))
    assert page.name == f"{code}.md" and page.read_text(encoding="utf-8") == page_path(code).read_text(encoding="utf-8")
    return value.replace(uri, "PAGE")

PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
TIMEOUT = 10.0  # seconds to wait for an expected notification

SWALLOWS = textwrap.dedent(
    """\
    import asyncio


    async def worker():
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            pass
    """
)
SWALLOWS_LINE = 6  # 0-based line of `except asyncio.CancelledError:`
FIXED = SWALLOWS.replace("pass", "raise")
CLEAN = "def add(a, b):\n    return a + b\n"

TASKS = textwrap.dedent(
    """\
    from celery import shared_task

    import billing


    @shared_task
    def handle_order(order_id):
        billing.process(order_id)
    """
)
BILLING_PLAIN = "def process(order_id):\n    return order_id\n"
BILLING_MONEY = textwrap.dedent(
    """\
    import stripe


    def process(order_id):
        return stripe.PaymentIntent.create(amount=100, currency="usd")
    """
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text(
        '[tool.bgcheck]\npreview = true\nextend-exclude = ["vendor"]\nextend-select = ["BG001"]\n', encoding="utf-8"
    )
    files = {
        "swallows.py": SWALLOWS,
        "clean.py": CLEAN,
        "tasks.py": TASKS,
        "billing.py": BILLING_PLAIN,
        "vendor/swallows.py": SWALLOWS,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "bgcheck", "lsp"]))
async def client(lsp_client: LanguageClient, workspace: Path):
    registrations: list = []
    lsp_client.registrations = registrations

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams):
        registrations.extend(params.registrations)

    # Neovim's capabilities: it prefers UTF-8 positions, and the server must still answer UTF-16.
    capabilities = client_capabilities("neovim")
    capabilities.workspace.did_change_watched_files.dynamic_registration = True
    lsp_client.initialize_result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=workspace.as_uri(),
            initialization_options={"debounce": 0.05},
        )
    )
    yield
    server = lsp_client._server
    if server is not None and server.returncode is None:
        await lsp_client.shutdown_session()


# ---------------------------------------------------------------------------
# helpers


def uri_of(workspace: Path, name: str) -> str:
    return (workspace / name).as_uri()


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)
        )
    )


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def diagnostics_for(client: LanguageClient, uri: str, predicate, published: list | None = None):
    """Wait until the diagnostics the client holds for ``uri`` satisfy ``predicate``; return them.
    Every publishDiagnostics params received meanwhile is appended to ``published``."""

    async def wait():
        while not (uri in client.diagnostics and predicate(client.diagnostics[uri])):
            params = await client.wait_for_notification(PUBLISH)
            if published is not None:
                published.append(params)

    try:
        await asyncio.wait_for(wait(), TIMEOUT)
    except asyncio.TimeoutError:
        pytest.fail(f"no diagnostics matching the expectation for {uri}; last: {client.diagnostics.get(uri)!r}")
    return list(client.diagnostics[uri])


def codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics]


def has(code: str):
    return lambda diagnostics: code in codes(diagnostics)


def empty(diagnostics) -> bool:
    return len(diagnostics) == 0


def apply_edit(text: str, edit: types.TextEdit) -> str:
    """Apply one single-line edit (columns are UTF-16; the test texts are ASCII)."""
    lines = text.split("\n")
    start, end = edit.range.start, edit.range.end
    assert start.line == end.line
    line = lines[start.line]
    lines[start.line] = line[: start.character] + edit.new_text + line[end.character :]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# end to end (each test starts its own server: about a second each)


def hover_params(uri: str, position: types.Position) -> types.HoverParams:
    return types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)


async def code_actions(client: LanguageClient, uri: str, diagnostic: types.Diagnostic) -> list:
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return list(actions or [])


@pytest.mark.asyncio
async def test_open_change_shutdown_and_exit(client: LanguageClient, workspace: Path):
    capabilities = client.initialize_result.capabilities
    assert capabilities.position_encoding == types.PositionEncodingKind.Utf16
    assert capabilities.hover_provider and capabilities.code_action_provider
    bad, clean = uri_of(workspace, "swallows.py"), uri_of(workspace, "clean.py")

    published: list = []
    open_document(client, bad, SWALLOWS)
    (diagnostic,) = await diagnostics_for(client, bad, has("BG105"), published)
    assert diagnostic.code == "BG105"
    assert diagnostic.source == "bgcheck"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (SWALLOWS_LINE, 4)  # 0-based
    assert diagnostic.code_description.href.endswith("BG105.md")
    assert published[-1].version == 1
    # on `initialized` (so before these diagnostics) the server asked to watch files: pyproject.toml
    # changes reload the configuration
    assert types.WORKSPACE_DID_CHANGE_WATCHED_FILES in [r.method for r in client.registrations]

    open_document(client, clean, CLEAN)
    assert await diagnostics_for(client, clean, lambda d: True) == []

    change_document(client, bad, FIXED, version=2)
    assert await diagnostics_for(client, bad, empty) == []

    await client.shutdown_session()  # shutdown, then exit
    assert client._server.returncode == 0


@pytest.mark.asyncio
async def test_broken_document_reports_bg000_and_server_lives_on(client: LanguageClient, workspace: Path):
    uri = uri_of(workspace, "swallows.py")
    open_document(client, uri, "def broken(:\n    pass\n")
    (diagnostic,) = await diagnostics_for(client, uri, has("BG000"))
    assert diagnostic.range.start.line == 0
    assert "syntax error" in diagnostic.message

    hover = await client.text_document_hover_async(hover_params(uri, diagnostic.range.start))
    # the finding's message and why (its explanation), then the page
    why = (
        f"Neither Python {sys.version_info[0]}.{sys.version_info[1]} (the Python bgcheck runs on) nor libcst (which reads the "
        f"syntax of Python 3.0 to 3.14) parses it. Python {sys.version_info[0]}.{sys.version_info[1]} says: invalid syntax "
        "(line 1, column 12)."
    )
    assert hover is not None and shown(hover) == (
        f"**BG000** `file-not-analysed`: {BG000_SUMMARY}\n\n{diagnostic.message}\n\n{why}\n\n" + page_links("BG000")
    )

    change_document(client, uri, SWALLOWS, version=2)
    assert codes(await diagnostics_for(client, uri, has("BG105"))) == ["BG105"]


def no_error_popups(client: LanguageClient) -> bool:
    return not [m for m in client.messages if "Error in server" in m.message or "internal error" in m.message]


@pytest.mark.asyncio
async def test_malformed_requests_get_an_error_response_and_no_popup(client: LanguageClient, workspace: Path):
    from pygls.exceptions import JsonRpcException

    uri = uri_of(workspace, "swallows.py")
    # wrongly typed params: an InvalidParams error response, not silence
    from concurrent.futures import Future

    answer: Future = Future()
    client.protocol._request_futures["bad-hover"] = answer  # the raw request below bypasses the client's types
    client.protocol._send_data(
        {"jsonrpc": "2.0", "id": "bad-hover", "method": types.TEXT_DOCUMENT_HOVER, "params": {"textDocument": 5, "position": "top"}}
    )
    with pytest.raises(JsonRpcException) as raised:
        await asyncio.wait_for(asyncio.wrap_future(answer), TIMEOUT)
    assert raised.value.code == -32602  # InvalidParams
    # malformed notifications, a JSON value that is not a message: logged only
    for params in ({"textDocument": 3}, {"textDocument": {"uri": 7}, "contentChanges": "x"}):
        client.protocol._send_data({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_DID_OPEN, "params": params})
    client.protocol._send_data([1, 2, 3])
    # the server still answers and analyses
    open_document(client, uri, SWALLOWS)
    assert codes(await diagnostics_for(client, uri, has("BG105"))) == ["BG105"]
    hover = await client.text_document_hover_async(hover_params(uri, types.Position(line=0, character=0)))
    assert hover is None
    assert no_error_popups(client), client.messages


@pytest.mark.asyncio
async def test_did_change_after_did_close_is_ignored(client: LanguageClient, workspace: Path):
    uri, other = uri_of(workspace, "swallows.py"), uri_of(workspace, "clean.py")
    open_document(client, uri, SWALLOWS)
    await diagnostics_for(client, uri, has("BG105"))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    change_document(client, uri, CLEAN, version=2)  # a late change for the closed document
    change_document(client, uri_of(workspace, "never_opened.py"), CLEAN, version=1)
    open_document(client, other, SWALLOWS)  # the server lives on
    assert codes(await diagnostics_for(client, other, has("BG105"))) == ["BG105"]
    assert no_error_popups(client), client.messages
    # opened again: analysed from the new text
    open_document(client, uri, FIXED, version=3)
    assert await diagnostics_for(client, uri, empty) == []


@pytest.mark.asyncio
async def test_a_hostile_file_in_the_workspace_leaves_other_documents_their_diagnostics(client: LanguageClient, workspace: Path):
    hostile = uri_of(workspace, "hostile.py")
    open_document(client, hostile, HOSTILE_FOLDING)
    uri = uri_of(workspace, "swallows.py")
    open_document(client, uri, SWALLOWS)
    assert codes(await diagnostics_for(client, uri, has("BG105"))) == ["BG105"]
    deep = uri_of(workspace, "deep.py")
    open_document(client, deep, SWALLOWS + "x = (1\n" + " + 1\n" * 4000 + ")\n")  # job code a rule reads, then the chain
    (diagnostic,) = await diagnostics_for(client, deep, has("BG000"))
    assert "nested more than 500 levels" in diagnostic.message
    assert codes(await diagnostics_for(client, uri, has("BG105"))) == ["BG105"]
    assert no_error_popups(client), client.messages


HOSTILE_FOLDING = textwrap.dedent(
    """\
    import queue
    import redis
    from celery import Celery

    app = Celery()
    app.conf.task_soft_time_limit = (2 ** 64) ** 64
    r = redis.Redis()
    KEY = "%09999999999d" % 1
    q = queue.Queue(-(2 ** 64) ** 64)


    @app.task
    def job():
        with r.lock(KEY, timeout=((10 ** 64) ** 64) ** 64):
            pass
    """
)


@pytest.mark.asyncio
async def test_burst_of_edits_publishes_the_final_state(client: LanguageClient, workspace: Path):
    uri = uri_of(workspace, "swallows.py")
    open_document(client, uri, CLEAN)
    await diagnostics_for(client, uri, empty)

    published: list = []
    for i in range(1, 21):  # odd edits have the finding, one line further down each time; the last has it too
        text = "\n" * i + (SWALLOWS if i % 2 or i == 20 else CLEAN)
        change_document(client, uri, text, version=1 + i)
    final_line = 20 + SWALLOWS_LINE
    found = await diagnostics_for(
        client, uri, lambda d: codes(d) == ["BG105"] and d[0].range.start.line == final_line, published
    )
    assert len(found) == 1
    mine = [p for p in published if p.uri == uri]
    assert mine[-1].version == 21
    assert len(mine) <= 5, f"debounce: {len(mine)} publications for 20 quick edits"


@pytest.mark.asyncio
async def test_workspace_context(client: LanguageClient, workspace: Path):
    tasks, billing = uri_of(workspace, "tasks.py"), uri_of(workspace, "billing.py")
    open_document(client, tasks, TASKS)
    open_document(client, billing, BILLING_PLAIN)
    await diagnostics_for(client, tasks, empty)
    await diagnostics_for(client, billing, empty)

    # an unsaved edit in the callee re-publishes the caller's diagnostics
    change_document(client, billing, BILLING_MONEY, version=2)
    (diagnostic,) = await diagnostics_for(client, tasks, has("BG603"))
    assert diagnostic.range.start.line == 6
    assert [info.message for info in diagnostic.related_information][-1] == "-> stripe.PaymentIntent.create"
    change_document(client, billing, BILLING_PLAIN, version=3)
    assert await diagnostics_for(client, tasks, empty) == []

    # closing the callee drops its unsaved text: the caller is checked against the file on disk again
    change_document(client, billing, BILLING_MONEY, version=4)
    await diagnostics_for(client, tasks, has("BG603"))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=billing)))
    assert await diagnostics_for(client, tasks, empty) == []

    # a document the configuration excludes gets no findings
    excluded = uri_of(workspace, "vendor/swallows.py")
    open_document(client, excluded, SWALLOWS)
    assert await diagnostics_for(client, excluded, lambda d: True) == []

    # a document outside the workspace is checked on its own
    outside = workspace.parent / "elsewhere" / "loose.py"
    outside.parent.mkdir()
    outside.write_text(SWALLOWS, encoding="utf-8")
    open_document(client, outside.as_uri(), SWALLOWS)
    assert codes(await diagnostics_for(client, outside.as_uri(), has("BG105"))) == ["BG105"]


@pytest.mark.asyncio
async def test_noqa_code_action_and_hover(client: LanguageClient, workspace: Path):
    uri = uri_of(workspace, "swallows.py")
    open_document(client, uri, SWALLOWS)
    (diagnostic,) = await diagnostics_for(client, uri, has("BG105"))

    # hover inside the diagnostic's range: the rule's summary, the finding's message and explanation,
    # and a link to the page (not the page: it is one click away, as is the code's codeDescription)
    inside = types.Position(line=diagnostic.range.start.line, character=diagnostic.range.start.character + 3)
    hover = await client.text_document_hover_async(hover_params(uri, inside))
    assert hover is not None
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert shown(hover) == (
        f"**BG105** `stop-request-swallowed`: {BG105_SUMMARY}\n\n"
        f"{diagnostic.message}\n\nThe work goes on, so TaskGroup, asyncio.timeout() and shutdown wait for "
        "work that never stops. Re-raise it (`raise`) after cleanup.\n\n" + page_links("BG105")
    )
    assert len(hover.contents.value) < 1000  # the page (9.6 KB for BG102) is not embedded
    assert diagnostic.code_description.href == "https://github.com/bgcheck/bgcheck/blob/main/rules/BG105.md"
    assert hover.range == diagnostic.range
    assert await client.text_document_hover_async(hover_params(uri, types.Position(line=0, character=0))) is None

    # the code action adds `# noqa: BG105`, and applying it clears the diagnostic
    (action,) = [a for a in await code_actions(client, uri, diagnostic) if "noqa" in a.title]
    assert action.kind == types.CodeActionKind.QuickFix
    (edit,) = action.edit.changes[uri]
    fixed = apply_edit(SWALLOWS, edit)
    assert fixed.split("\n")[SWALLOWS_LINE] == "    except asyncio.CancelledError:  # noqa: BG105"
    change_document(client, uri, fixed, version=2)
    assert await diagnostics_for(client, uri, empty) == []

    # ... merged into an existing `# noqa:` list of another tool's codes
    text = SWALLOWS.replace("CancelledError:", "CancelledError:  # noqa: E501")
    change_document(client, uri, text, version=3)
    (diagnostic,) = await diagnostics_for(client, uri, has("BG105"))
    (action,) = [a for a in await code_actions(client, uri, diagnostic) if "noqa" in a.title]
    (edit,) = action.edit.changes[uri]
    assert apply_edit(text, edit).split("\n")[SWALLOWS_LINE] == "    except asyncio.CancelledError:  # noqa: E501, BG105"

    # hover over the code in a noqa comment shows its page too
    noqa_line = apply_edit(text, edit).split("\n")[SWALLOWS_LINE]
    change_document(client, uri, apply_edit(text, edit), version=4)
    await diagnostics_for(client, uri, empty)
    on_code = types.Position(line=SWALLOWS_LINE, character=noqa_line.index("BG105") + 2)
    hover = await client.text_document_hover_async(hover_params(uri, on_code))
    assert hover is not None and shown(hover) == f"**BG105** `stop-request-swallowed`: {BG105_SUMMARY}\n\n" + page_links("BG105")


@pytest.mark.asyncio
async def test_quick_fix_applies_the_rules_fix(client: LanguageClient, workspace: Path):
    uri = uri_of(workspace, "swallows.py")
    open_document(client, uri, SWALLOWS)
    (diagnostic,) = await diagnostics_for(client, uri, has("BG105"))
    actions = await code_actions(client, uri, diagnostic)
    (action,) = [a for a in actions if "noqa" not in a.title]
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.title == "Re-raise the stop at the end of the handler (unsafe fix: see BG105's page)"
    assert not action.is_preferred, "an unsafe fix is offered, not preferred"
    (edit,) = action.edit.changes[uri]
    fixed = apply_edit(SWALLOWS, edit)
    assert fixed == FIXED
    change_document(client, uri, fixed, version=2)
    assert await diagnostics_for(client, uri, empty) == []


async def fix_all_actions(client: LanguageClient, uri: str) -> list:
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
        )
    )
    return list(actions or [])


@pytest.mark.asyncio
async def test_fix_all_applies_every_safe_fix(client: LanguageClient, workspace: Path):
    assert "source.fixAll.bgcheck" in client.initialize_result.capabilities.code_action_provider.code_action_kinds
    uri = uri_of(workspace, "clean.py")
    text = CLEAN.replace("def add(a, b):", "def add(a, b):  # noqa: BG102").replace("a + b", "a + b  # noqa: E501, BG105")
    open_document(client, uri, text)
    found = await diagnostics_for(client, uri, lambda ds: codes(ds) == ["BG001", "BG001"])
    assert all(d.message.startswith("Unused `noqa` directive") for d in found)
    (action,) = await fix_all_actions(client, uri)
    assert action.kind == "source.fixAll.bgcheck"
    (edit,) = action.edit.changes[uri]
    assert (edit.range.start.line, edit.range.start.character) == (0, 0)
    fixed = edit.new_text
    assert fixed == CLEAN.replace("a + b", "a + b  # noqa: E501")
    change_document(client, uri, fixed, version=2)
    assert await diagnostics_for(client, uri, empty) == []
    assert await fix_all_actions(client, uri) == [], "nothing left to fix"

    # only safe fixes: BG105's (unsafe) is not applied by fixAll
    swallows = uri_of(workspace, "swallows.py")
    open_document(client, swallows, SWALLOWS)
    await diagnostics_for(client, swallows, has("BG105"))
    assert await fix_all_actions(client, swallows) == []


@pytest.mark.asyncio
async def test_configuration_reloads_and_a_broken_one_is_reported(client: LanguageClient, workspace: Path):
    uri = uri_of(workspace, "swallows.py")
    pyproject = workspace / "pyproject.toml"
    open_document(client, uri, SWALLOWS)
    await diagnostics_for(client, uri, has("BG105"))

    def changed() -> None:
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]
            )
        )

    pyproject.write_text('[tool.bgcheck]\npreview = true\nignore = ["BG105"]\n', encoding="utf-8")
    changed()
    await diagnostics_for(client, uri, empty)

    pyproject.write_text("[tool.bgcheck]\nignore = 5\n", encoding="utf-8")
    shown = asyncio.ensure_future(client.wait_for_notification(types.WINDOW_SHOW_MESSAGE))
    changed()
    message = await asyncio.wait_for(shown, TIMEOUT)
    assert message.type == types.MessageType.Error
    assert "ignore" in message.message and "previous configuration" in message.message

    # the previous configuration (BG105 ignored) still applies
    published: list = []
    change_document(client, uri, "\n" + SWALLOWS, version=2)
    await diagnostics_for(client, uri, lambda d: any(p.uri == uri and p.version == 2 for p in published), published)
    assert list(client.diagnostics[uri]) == []


# ---------------------------------------------------------------------------
# the noqa edit on its own


@pytest.mark.parametrize(
    "line, expected",
    [
        ("x = 1", "x = 1  # noqa: BG105"),
        ("x = 1   ", "x = 1  # noqa: BG105"),
        ("x = 1  # type: ignore", "x = 1  # type: ignore  # noqa: BG105"),
        ("x = 1  # noqa: E501", "x = 1  # noqa: E501, BG105"),
        ("x = 1  # noqa:E501,BG102 because", "x = 1  # noqa:E501,BG102, BG105 because"),
        ("x = 1  # noqa: see below", "x = 1  # noqa: BG105 see below"),
        ("x = '\u00e9\U0001f600'", "x = '\u00e9\U0001f600'  # noqa: BG105"),
    ],
)
def test_noqa_edit(line: str, expected: str):
    text = f"import os\n{line}\n"
    edit = noqa_edit(text, 1, "BG105")
    assert edit is not None
    # positions are UTF-16: map back to code points for the check
    encoded = line.encode("utf-16-le")
    start = len(encoded[: edit.range.start.character * 2].decode("utf-16-le"))
    end = len(encoded[: edit.range.end.character * 2].decode("utf-16-le"))
    assert line[:start] + edit.new_text + line[end:] == expected


@pytest.mark.parametrize(
    "text, line",
    [
        ("x = 1  # noqa\n", 0),  # a bare noqa suppresses everything already
        ("x = 1  # noqa: BG105\n", 0),  # already listed
        ('x = """\nabc\n"""\n', 0),  # the line ends inside a string
        ("x = 1 + \\\n    2\n", 0),  # a backslash continuation
    ],
)
def test_noqa_edit_declines(text: str, line: int):
    assert noqa_edit(text, line, "BG105") is None


# ---------------------------------------------------------------------------
# the analysis state, in process


def test_one_failing_document_does_not_hide_the_others(workspace: Path, monkeypatch):
    import bgcheck.language_server as lsp

    state = lsp.WorkspaceState(Path(os.path.realpath(workspace)))
    assert state.load() == []
    crashing, good = (os.path.realpath(workspace / name) for name in ("clean.py", "swallows.py"))
    real_check_units = lsp.check_units

    def check_units(units, config, options, *args):
        if "clean.py" in options.report_for:
            raise RuntimeError("a rule crashed")
        return real_check_units(units, config, options, *args)

    monkeypatch.setattr(lsp, "check_units", check_units)
    findings, messages, errors = state.run([], [(crashing, CLEAN), (good, SWALLOWS)], [crashing, good])
    assert [f.diagnostic.code for f in findings[good]] == ["BG105"]
    assert findings[crashing] == []
    assert messages == []
    assert len(errors) == 1 and "clean.py" in errors[0] and "a rule crashed" in errors[0]


def test_a_rules_fix_becomes_an_lsp_edit():
    import bgcheck.language_server as lsp
    from bgcheck.diagnostics import Applicability, Diagnostic, Edit, Fix, Location, Severity

    fix = Fix(Applicability.SAFE, "Re-raise", (Edit(2, 5, 2, 9, "raise"),))
    d = Diagnostic("BG105", "stop-request-swallowed", Severity.ERROR, "m", Location("a.py", 2, 5, 2, 9), fix=fix)
    title, changes = lsp._fix_edit(d, {"a.py": "x = 1\n\u00e9   pass\n"})
    assert title == "Re-raise"
    (uri,) = changes
    assert uri.endswith("/a.py")
    assert changes[uri] == [
        {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 8}}, "newText": "raise"}
    ]
