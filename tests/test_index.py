"""The project index as a data structure: built in one step and sealed, one call-graph search,
named parts of a call IR, the never-expires TTL as a named value."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from conftest import write_project

from bgcheck.load.config import load_config
from bgcheck.model.build import Project, build_index
from bgcheck.model.locks import NEVER, Expiry
from bgcheck.model.project import ProjectIndex, breadth_first
from bgcheck.run.engine import load_units
from bgcheck.syntax.ir import as_call, ir_path

# a -> b, c; b -> d; c -> d, e; d -> a (a cycle); e -> f
GRAPH = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": ["a"], "e": ["f"]}


def step(name: str) -> list[str]:
    return GRAPH.get(name, [])


def test_breadth_first_reaches_each_node_once_nearest_first_with_its_first_parent():
    assert list(breadth_first(["a"], step)) == [("a", None), ("b", "a"), ("c", "a"), ("d", "b"), ("e", "c"), ("f", "e")]


def test_breadth_first_depth_limit_skip_and_several_starts():
    assert [name for name, _ in breadth_first(["a"], step, max_depth=1)] == ["a", "b", "c"]
    # a node in ``skip`` is never entered, and nothing beyond it is reached through it
    assert [name for name, _ in breadth_first(["a"], step, skip={"c"})] == ["a", "b", "d"]
    # a start reached from another start stays a start (its parent is None)
    assert list(breadth_first(["e", "c"], step)) == [("e", None), ("c", None), ("f", "e"), ("d", "c"), ("a", "d"), ("b", "a")]


def test_breadth_first_is_lazy_a_caller_that_stops_expands_nothing_further():
    expanded = []

    def recording(name):
        expanded.append(name)
        return step(name)

    for name, _parent in breadth_first(["a"], recording):
        if name == "c":
            break
    assert expanded == ["a"]


def _index(tmp_path, monkeypatch) -> ProjectIndex:
    write_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/tasks.py": """
                from celery import Celery

                app = Celery()

                @app.task
                def nightly():
                    helper()

                def helper():
                    pass

                def unused():
                    pass
                """,
        },
    )
    return _built(tmp_path, monkeypatch)


def _built(tmp_path, monkeypatch) -> ProjectIndex:
    """The index of the project written under ``tmp_path``, as a check run from there builds it."""
    monkeypatch.chdir(tmp_path)
    config = load_config(start=tmp_path)
    units = load_units([Path(".")], config, jobs=1)
    return build_index([u.summary for u in units if u.summary is not None], config)


def test_the_index_is_built_complete_and_sealed(tmp_path, monkeypatch):
    index = _index(tmp_path, monkeypatch)
    for name in Project.MODELS:
        assert name in vars(index), name
    assert [job.function for job in index.jobs] == ["app.tasks.nightly"]
    assert set(index.job_roots) == {"app.tasks.nightly"}
    # reachability is computed from the jobs, never from the empty table before them
    assert index.job_code == {"app.tasks.nightly": "app.tasks.nightly", "app.tasks.helper": "app.tasks.nightly"}
    with pytest.raises(AttributeError):
        index.jobs = ()
    with pytest.raises(AttributeError):
        index.set_model("locks", ())
    with pytest.raises(Exception):  # a frozen model
        index.jobs[0].name = "renamed"
    # the parallel runner sends the index to worker processes
    copy = pickle.loads(pickle.dumps(index))
    assert copy.job_code == index.job_code
    with pytest.raises(AttributeError):
        copy.money = None


def test_a_model_cannot_be_missing_or_set_twice():
    index = Project([])
    index.set_model("atomic_requests", False)
    with pytest.raises(AttributeError):
        index.set_model("atomic_requests", True)
    with pytest.raises(AttributeError):
        index.set_model("not_a_model", 1)
    with pytest.raises(AttributeError):
        index.seal()  # the other models were never set


def test_call_ir_named_parts():
    call = ("call", "pkg.mod.f", (("v", 1), ("ref", "pkg.mod.X")), (("timeout", ("v", 5)),))
    parts = as_call(call)
    assert (parts.target, parts.first_arg, parts.keyword("timeout"), parts.keyword("other"), parts.receiver) == (
        "pkg.mod.f", ("v", 1), ("v", 5), None, None
    )
    chained = ("call", "?.do", (("ref", "pkg.job"),), (), ("attr", ("call", "schedule.every", (), ()), "minutes"))
    assert as_call(chained).receiver == ("attr", ("call", "schedule.every", (), ()), "minutes")
    assert as_call(("ref", "pkg.mod.f")) is None and as_call(None) is None
    partial = ("call", "functools.partial", (("ref", "concurrent.futures.ThreadPoolExecutor"), ("v", 4)), ())
    assert ir_path(partial) == "concurrent.futures.ThreadPoolExecutor"


def test_never_expires_is_a_named_value_that_survives_pickling():
    assert NEVER is Expiry.NEVER and NEVER != "never"
    assert pickle.loads(pickle.dumps(NEVER)) is NEVER


def test_a_path_imported_from_another_sys_path_folder_names_the_projects_module(tmp_path, monkeypatch):
    """Applications that put a folder inside the project on ``sys.path`` (label-studio runs with
    ``label_studio/`` on it) import ``core.redis``: that is the project's ``label_studio.core.redis``
    when exactly one inner package of that name defines what follows; a library of the same name
    as an inner package stays the library. A namespace package (a folder without ``__init__.py``
    above the packages: galaxy) is imported from the folder above it."""
    write_project(tmp_path, {
        "site/__init__.py": "",
        "site/core/__init__.py": "",
        "site/core/redis.py": "def start_job(job):\n    pass\n",
        "site/payments/__init__.py": "",
        "site/payments/stripe/__init__.py": "def fee():\n    return 1\n",
        "site/a/__init__.py": "",
        "site/a/util/__init__.py": "def shared():\n    pass\n",
        "site/b/__init__.py": "",
        "site/b/util/__init__.py": "def shared():\n    pass\n",
        "site/views.py": "",
        # nautobot: an inner package named after the library it configures, importing from it
        "site/core/celery/__init__.py": "from celery import Celery, shared_task\n\napp = Celery()\n",
        # a namespace package: ``galaxy/`` holds no __init__.py, its packages are imported as galaxy.x
        "galaxy/workers/__init__.py": "def galaxy_task(func):\n    return func\n",
        "galaxy/workers/tasks.py": "from galaxy.workers import galaxy_task\n",
    })
    index = _built(tmp_path, monkeypatch)
    assert index.canonical("core.redis.start_job") == "site.core.redis.start_job"
    assert index.resolve_function("core.redis.start_job") == "site.core.redis.start_job"
    assert index.canonical("payments.stripe.fee") == "site.payments.stripe.fee"
    # the stripe library: the project's inner ``stripe`` package defines no PaymentIntent
    assert index.canonical("stripe.PaymentIntent.create") == "stripe.PaymentIntent.create"
    # the celery library stays the library, though site.core.celery imports from it
    assert index.canonical("celery.Celery") == "celery.Celery"
    assert index.canonical("celery.shared_task") == "celery.shared_task"
    assert index.canonical("site.core.celery.app.task") == "celery.Celery().task"
    # two inner packages named util define shared(): which one is meant is not known
    assert index.resolve_function("util.shared") is None
    # the namespace package's modules are named from below it; written from above, they are the same
    assert index.resolve_function("galaxy.workers.galaxy_task") == "workers.galaxy_task"
    assert index.canonical("workers.tasks.galaxy_task") == "workers.galaxy_task"
    assert index.canonical("galaxy.other.thing") == "galaxy.other.thing"
    # a name the project's own top package starts with is never rewritten
    assert index.canonical("site.core.redis.start_job") == "site.core.redis.start_job"


def test_python_2_and_six_moves_module_names_are_the_python_3_modules(tmp_path, monkeypatch):
    """Code written for Python 2 and 3 imports ``Queue``, ``urllib2`` or ``six.moves.queue``: the
    same classes and functions as ``queue`` and ``urllib.request``, so the rules' tables apply; a
    project module of one of those names stays the project's."""
    write_project(tmp_path, {
        "svc/__init__.py": "",
        "svc/work.py": (
            "import six\nimport urllib2\nfrom six.moves import queue as q6\nfrom six.moves.urllib.request import urlopen\n"
            "try:\n    from Queue import Queue\nexcept ImportError:\n    from queue import Queue\n"
        ),
        "httplib/__init__.py": "def get(url):\n    pass\n",
    })
    index = _built(tmp_path, monkeypatch)
    assert index.canonical("svc.work.Queue()") == "queue.Queue()"  # the module's first import of the name
    assert index.canonical("svc.work.q6.Queue()") == "queue.Queue()"
    assert index.canonical("svc.work.urlopen") == "urllib.request.urlopen"
    assert index.canonical("svc.work.urllib2.urlopen") == "urllib.request.urlopen"
    assert index.canonical("svc.work.six.moves.urllib.request.urlopen") == "urllib.request.urlopen"
    assert index.canonical("six.moves.urllib.parse.urlencode") == "urllib.parse.urlencode"
    # not a module of the table, and a project module named as one: left as they are
    assert index.canonical("six.moves.range") == "six.moves.range"
    assert index.canonical("httplib.get") == "httplib.get"
    assert index.canonical("Queues.Queue") == "Queues.Queue"


def test_calls_through_self_run_the_override_of_the_class_the_work_started_on(tmp_path, monkeypatch):
    """``super().run()`` runs the next ``run`` in the ancestry; a base method's ``self.load()``,
    reached from a subclass's method, runs that subclass's ``load`` (and so on down the calls through
    ``self``); a call of another class's method starts afresh; reached from the base itself, the
    base's own ``load``."""
    write_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/sync.py": """
                class Base:
                    def run(self):
                        self.sync()

                    def sync(self):
                        self.load()
                        Audit().check()

                    def load(self):
                        pass


                class Audit:
                    def check(self):
                        self.load()

                    def load(self):
                        pass


                class Middle(Base):
                    pass


                class Crm(Middle):
                    def run(self):
                        super().run()

                    def load(self):
                        pass

                    def check(self):
                        pass


                class Other(Base):
                    def load(self):
                        pass
                """,
        },
    )
    index = _built(tmp_path, monkeypatch)
    assert index.callees("app.sync.Crm.run") == ["app.sync.Base.run"]
    from_crm = index.reachable(["app.sync.Crm.run"])
    assert sorted(from_crm) == [
        "app.sync.Audit.check", "app.sync.Audit.load", "app.sync.Base.run", "app.sync.Base.sync", "app.sync.Crm.load", "app.sync.Crm.run",
    ]
    assert index.call_path(["app.sync.Crm.run"], "app.sync.Crm.load") == ["app.sync.Crm.run", "app.sync.Base.run", "app.sync.Base.sync", "app.sync.Crm.load"]
    assert sorted(index.reachable(["app.sync.Base.run"])) == [
        "app.sync.Audit.check", "app.sync.Audit.load", "app.sync.Base.load", "app.sync.Base.run", "app.sync.Base.sync",
    ]
