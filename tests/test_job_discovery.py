"""Job discovery through the project's own code (issue 30, item 1): a job base class whose worker
entry point runs a method its subclasses override (netbox's ``JobRunner``), a decorator class
whose ``__call__`` registers the function with a dispatcher (AWX's ``@task``), django-rq, Celery
apps reached through a factory, ``current_app`` or ``import_string``, names re-exported by a
``from .x import *``; and what is not a job (a decorator that registers nothing, a ``run()``
nothing invokes). A cached run lists what a cold run lists, after edits too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from conftest import write_project

PROJECT = {
    "proj/__init__.py": "",
    # --- netbox-style: records enqueue a callable through django-rq, a runner base hands its handle()
    "proj/records/__init__.py": "from .models import *\n",
    "proj/records/models.py": """
        from functools import partial

        import django_rq
        from django.db import transaction

        __all__ = ("Record",)


        class Record:
            @classmethod
            def enqueue(cls, func, name="", **kwargs):
                queue = django_rq.get_queue("default")
                transaction.on_commit(partial(queue.enqueue, func, name=name, **kwargs))
        """,
    "proj/runner.py": """
        from proj.records import Record


        class Runner:
            def __init__(self, record):
                self.record = record

            def run(self, *args, **kwargs):
                raise NotImplementedError

            @classmethod
            def handle(cls, record, *args, **kwargs):
                cls(record).run(*args, **kwargs)
                if record.interval:
                    cls.enqueue(record)

            @classmethod
            def enqueue(cls, *args, **kwargs):
                return Record.enqueue(cls.handle, *args, **kwargs)
        """,
    "proj/sync.py": """
        from django_rq import job

        from proj.runner import Runner


        class SyncSourceJob(Runner):
            def run(self, source_id):
                return source_id

            @classmethod
            def enqueue(cls, *args, **kwargs):
                return super().enqueue(*args, **kwargs)


        class Report:
            def run(self):
                return "nobody calls this run()"


        @job("default")
        def send_hook(payload):
            return payload
        """,
    # --- AWX-style: the project's own decorator class registers with dispatcherd's registry
    "proj/dispatch.py": """
        from dispatcherd.registry import registry


        class task:
            def __init__(self, queue=None):
                self.queue = queue

            def __call__(self, fn):
                registry.register(fn, queue=self.queue)
                return fn


        class traced:
            def __init__(self, label=None):
                self.label = label

            def __call__(self, fn):
                print(self.label, fn)
                return fn
        """,
    "proj/system.py": """
        from dispatcherd.publish import task as library_task

        from proj.dispatch import task, traced


        @task(queue="tower")
        def purge_old_stdout():
            return 1


        @library_task(queue="tower")
        def gather_analytics():
            return 2


        @traced(label="x")
        def not_a_job():
            return 3
        """,
    # --- Celery apps built in a factory, the current app, an app imported by its dotted path
    "proj/celery_factory.py": """
        from celery import Celery, current_app
        from django.utils.module_loading import import_string


        def create_app():
            app = Celery("proj")
            app.config_from_object("proj.settings")
            return app


        celery_app = create_app()
        loaded = import_string("proj.celery_factory.celery_app")
        loaded_by_keyword = import_string(dotted_path="proj.celery_factory.celery_app")


        @celery_app.task
        def from_factory():
            pass


        @loaded_by_keyword.task
        def from_import_string_by_keyword():
            pass


        @current_app.task
        def from_current_app():
            pass


        @loaded.task
        def from_import_string():
            pass
        """,
    # --- consoleme-style: the app is an instance of the project's own subclass of Celery; a class
    # that only shares the name is no app
    "proj/celery_subclass.py": """
        import celery


        class Celery(celery.Celery):
            def on_configure(self):
                pass


        class Registry:
            def task(self, fn):
                return fn


        app = Celery("proj")
        registry = Registry()


        @app.task(soft_time_limit=20)
        def cache_roles():
            pass


        @registry.task
        def not_celery():
            pass
        """,
    # --- label-studio-style: a start function that binds the queue's method to a local, may swap it
    # for a delayed one, and names the result after the parameter it handed on
    "proj/redis_jobs.py": """
        from datetime import timedelta
        from functools import partial

        import django_rq


        def start_job_async_or_sync(job, *args, in_seconds=0, **kwargs):
            queue = django_rq.get_queue("default")
            enqueue_method = queue.enqueue
            if in_seconds > 0:
                enqueue_method = partial(queue.enqueue_in, timedelta(seconds=in_seconds))
            job = enqueue_method(job, *args, **kwargs)
            return job


        def log_only(job, *args):
            report = print
            report(job, *args)
        """,
    "proj/exports.py": """
        from proj.redis_jobs import log_only, start_job_async_or_sync


        def export_project(project_id):
            return project_id


        def not_queued(project_id):
            return project_id


        def on_request(project_id):
            start_job_async_or_sync(export_project, project_id, in_seconds=5)
            log_only(not_queued, project_id)
        """,
    # --- galaxy-style: a decorator factory whose inner wrapper is the Celery task and stands for the
    # decorated function (functools.wraps); and the same shape without wraps() (a wrapper of its own)
    "proj/galaxy_tasks.py": """
        from functools import wraps

        from celery import shared_task


        def galaxy_task(*args, action=None, **celery_task_kwd):
            def decorate(func):
                @shared_task(**celery_task_kwd)
                @wraps(func)
                def wrapper(*args, **kwds):
                    return func(*args, **kwds)

                return wrapper

            if len(args) == 1 and callable(args[0]):
                return decorate(args[0])
            return decorate


        @galaxy_task(action="purge a history")
        def purge_history(history_id):
            return history_id


        @galaxy_task
        def touch(item_id):
            return item_id
        """,
    # --- AWX today: dispatcherd's @task on classes; its workers run ``RunJob().run(...)``
    "proj/awx_jobs.py": """
        from dispatcherd.publish import task


        def get_task_queuename():
            return "tower"


        class BaseTask:
            def run(self, pk):
                return self.build_args(pk)

            def build_args(self, pk):
                return [pk]


        @task(queue=get_task_queuename)
        class RunJob(BaseTask):
            pass


        @task(queue=get_task_queuename)
        class RunProjectUpdate(BaseTask):
            def run(self, pk):
                return pk


        class NotDispatched:
            def run(self):
                return "no worker runs this"
        """,
    # --- management commands: one runs a worker loop (through a helper), one does its work and returns
    "proj/management/__init__.py": "",
    "proj/management/commands/__init__.py": "",
    "proj/management/commands/process_outbox.py": """
        import time

        from django.core.management.base import BaseCommand


        def drain_forever():
            while True:
                time.sleep(1)


        class Command(BaseCommand):
            def handle(self, *args, **options):
                drain_forever()
        """,
    "proj/management/commands/rebuild_index.py": """
        from django.core.management.base import BaseCommand


        class Command(BaseCommand):
            def handle(self, *args, **options):
                for n in range(3):
                    print(n)
        """,
    # --- registries: a decorator stores the function in a container whose items a worker loop calls
    "proj/registry.py": """
        TASKS = {}


        def background(name):
            def register(fn):
                TASKS[name] = fn
                return fn
            return register


        def dispatch(name, args):
            handler = TASKS.get(name)
            handler(*args)
        """,
    "proj/registry_worker.py": """
        from proj.registry import dispatch


        def serve(inbox):
            while True:
                name, args = inbox.get()
                dispatch(name, args)
        """,
    "proj/mail.py": """
        from proj.bus import bus
        from proj.registry import background


        @background("send_digest")
        def send_digest(user_id):
            return user_id


        @bus.subscribe
        def on_signup(event):
            return event
        """,
    "proj/bus.py": """
        class Bus:
            def __init__(self):
                self.handlers = []

            def subscribe(self, fn):
                self.handlers.append(fn)
                return fn

            def run_forever(self, source):
                while True:
                    event = source.next()
                    for handler in self.handlers:
                        handler(event)


        bus = Bus()
        """,
    "proj/plugins.py": """
        PLUGINS = []


        def plugin(fn):
            PLUGINS.append(fn)
            return fn


        def load_all(app):
            for setup in PLUGINS:
                setup(app)


        @plugin
        def admin_setup(app):
            return app
        """,
    # --- pulp plugins: pulpcore's dispatch() queues a function for its workers; a call of another
    # module's dispatch() is not one
    "proj/pulp_tasks.py": """
        from pulpcore.plugin.tasking import dispatch

        from proj.registry import dispatch as run_now


        def sign_collection(collection_pk):
            return collection_pk


        def not_dispatched(pk):
            return pk


        def request_signing(collection):
            return dispatch(sign_collection, exclusive_resources=[collection], kwargs={"collection_pk": collection.pk})


        def run_inline():
            run_now("x", [not_dispatched])
        """,
    # --- a CKAN extension: toolkit.enqueue_job() queues an RQ job for `ckan jobs worker`, by
    # position or by keyword; a function only called inline is not one
    "proj/ckan_jobs.py": """
        import ckan.plugins as p
        from ckan.plugins.toolkit import enqueue_job


        def load_resource(resource_id):
            return resource_id


        def purge_resource(resource_id):
            return resource_id


        def inline(resource_id):
            return resource_id


        def notify(resource):
            enqueue_job(load_resource, [resource["id"]], title="load", rq_kwargs={"timeout": 3600})
            p.toolkit.enqueue_job(fn=purge_resource, args=[resource["id"]])
            inline(resource["id"])
        """,
    # --- a CKAN harvester: the harvest consumers run its gather, fetch and import stages; a method
    # of its own that no consumer calls is not a job, nor is a class of the same shape on no base
    "proj/harvesters.py": """
        from ckanext.harvest.harvesters import HarvesterBase


        class FeedHarvester(HarvesterBase):
            def info(self):
                return {"name": "feed"}

            def gather_stage(self, harvest_job):
                return []

            def fetch_stage(self, harvest_object):
                return True

            def import_stage(self, harvest_object):
                return True


        class NotAHarvester:
            def gather_stage(self, harvest_job):
                return []
        """,
    # --- a Luigi task: a worker runs its run(); requires() and output() only describe it
    "proj/pipeline.py": """
        import luigi


        class ExportOrders(luigi.Task):
            day = luigi.DateParameter()

            def output(self):
                return luigi.LocalTarget(f"orders-{self.day}.csv")

            def run(self):
                with self.output().open("w") as out:
                    out.write("id")
        """,
    # --- a threading.Timer runs its function in a thread of its own, once the interval is over
    "proj/timers.py": """
        import threading
        from threading import Timer


        def refresh_rates():
            return 1


        def expire_sessions():
            return 2


        def arm():
            threading.Timer(30.0, refresh_rates).start()
            timer = Timer(interval=5, function=expire_sessions)
            timer.start()
        """,
    # --- a decorator that runs each call of the function in a thread of _thread's (isso's purge)
    "proj/threaded.py": """
        import _thread as thread
        import time


        def threaded(func):
            def dec(self, *args, **kwargs):
                thread.start_new_thread(func, (self,) + args, kwargs)

            return dec


        class Cleaner:
            @threaded
            def purge(self, delta):
                while True:
                    time.sleep(delta)

            def start_new_thread(self, func):
                return func()

            def inline(self):
                self.start_new_thread(self.report)

            def report(self):
                return 1
        """,
    # --- a child process runs its target: the plain constructor and a context's
    "proj/processes.py": """
        import multiprocessing


        def transcode(path):
            return path


        def index_library(root):
            return root


        class Thumbnailer(multiprocessing.Process):
            def run(self):
                return 3

            def describe(self):
                return "thumbnails"


        def start(path):
            multiprocessing.Process(target=transcode, args=(path,), daemon=True).start()
            ctx = multiprocessing.get_context("spawn")
            worker = ctx.Process(target=index_library, args=("/media",))
            worker.start()
            return worker
        """,
    # --- Celery 3's module-level decorators and task classes (applications written for it)
    "proj/legacy_celery.py": """
        from datetime import timedelta

        from celery.decorators import periodic_task
        from celery.task import PeriodicTask, task


        @task(ignore_result=True)
        def run_all_checks():
            return 1


        @periodic_task(run_every=timedelta(minutes=30))
        def update_shifts():
            return 2


        class CleanDb(PeriodicTask):
            run_every = timedelta(days=1)

            def run(self):
                return 3
        """,
    # --- a framework decorator imported with a fallback for when the library is missing
    "proj/optional.py": """
        try:
            from dispatcherd.publish import task
        except ImportError:
            def task(*args, **kwargs):
                def wrapper(fn):
                    return fn
                return wrapper


        @task(queue="inventory")
        def run_collection(run_id):
            return run_id
        """,
}

EXPECTED = [
    # (function, framework, via)
    ("proj.awx_jobs.BaseTask.run", "dispatcherd", "class decorator dispatcherd.publish.task: run()"),
    ("proj.awx_jobs.RunProjectUpdate.run", "dispatcherd", "class decorator dispatcherd.publish.task: run()"),
    ("proj.celery_factory.from_current_app", "Celery", "decorator celery.current_app.task"),
    ("proj.celery_factory.from_factory", "Celery", "decorator proj.celery_factory.celery_app.task"),
    ("proj.celery_factory.from_import_string", "Celery", "decorator proj.celery_factory.loaded.task"),
    ("proj.celery_factory.from_import_string_by_keyword", "Celery", "decorator proj.celery_factory.loaded_by_keyword.task"),
    ("proj.celery_subclass.cache_roles", "Celery", "decorator proj.celery_subclass.app.task"),
    ("proj.ckan_jobs.load_resource", "RQ", "call ckan.plugins.toolkit.enqueue_job"),
    ("proj.ckan_jobs.purge_resource", "RQ", "call ckan.plugins.toolkit.enqueue_job"),
    ("proj.exports.export_project", "RQ", "wrapper proj.redis_jobs.start_job_async_or_sync -> rq.Queue().enqueue"),
    ("proj.galaxy_tasks.purge_history", "Celery", "wrapper proj.galaxy_tasks.galaxy_task -> celery.shared_task"),
    ("proj.galaxy_tasks.touch", "Celery", "wrapper proj.galaxy_tasks.galaxy_task -> celery.shared_task"),
    ("proj.harvesters.FeedHarvester.fetch_stage", "CKAN harvest", "subclass of ckanext.harvest.harvesters.HarvesterBase with fetch_stage()"),
    ("proj.harvesters.FeedHarvester.gather_stage", "CKAN harvest", "subclass of ckanext.harvest.harvesters.HarvesterBase with gather_stage()"),
    ("proj.harvesters.FeedHarvester.import_stage", "CKAN harvest", "subclass of ckanext.harvest.harvesters.HarvesterBase with import_stage()"),
    ("proj.legacy_celery.CleanDb.run", "Celery", "subclass of celery.Task with run()"),
    ("proj.legacy_celery.run_all_checks", "Celery", "decorator celery.task.task"),
    ("proj.legacy_celery.update_shifts", "Celery", "decorator celery.decorators.periodic_task"),
    ("proj.mail.on_signup", "project registry",
     "decorator proj.bus.Bus.subscribe stores it in proj.bus.Bus().handlers, whose items proj.bus.Bus.run_forever() calls in a worker loop"),
    ("proj.mail.send_digest", "project registry",
     "decorator proj.registry.background stores it in proj.registry.TASKS, whose items proj.registry.dispatch() calls in a worker loop"),
    ("proj.management.commands.process_outbox.Command.handle", "Django command",
     "management command whose handle() runs an endless loop through drain_forever()"),
    ("proj.optional.run_collection", "dispatcherd", "decorator dispatcherd.publish.task"),
    ("proj.pipeline.ExportOrders.run", "Luigi", "subclass of luigi.Task with run()"),
    ("proj.processes.Thumbnailer.run", "multiprocessing", "subclass of multiprocessing.Process with run()"),
    ("proj.processes.index_library", "multiprocessing", "call multiprocessing.get_context().Process"),
    ("proj.processes.transcode", "multiprocessing", "call multiprocessing.Process"),
    ("proj.pulp_tasks.sign_collection", "pulpcore", "call pulpcore.plugin.tasking.dispatch"),
    ("proj.runner.Runner.handle", "RQ", "wrapper proj.records.models.Record.enqueue -> rq.Queue().enqueue"),
    ("proj.sync.SyncSourceJob.run", "RQ", "subclass of proj.runner.Runner: run() run by proj.runner.Runner.handle"),
    ("proj.sync.send_hook", "RQ", "decorator django_rq.job"),
    ("proj.system.gather_analytics", "dispatcherd", "decorator dispatcherd.publish.task"),
    ("proj.system.purge_old_stdout", "dispatcherd", "wrapper proj.dispatch.task.__call__ -> dispatcherd.registry.registry.register"),
    ("proj.threaded.Cleaner.purge", "threading", "wrapper proj.threaded.threaded -> _thread.start_new_thread"),
    ("proj.timers.expire_sessions", "threading", "call threading.Timer"),
    ("proj.timers.refresh_rates", "threading", "call threading.Timer"),
]


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env={"BGCHECK_CACHE_DIR": None})


def jobs(*args: str) -> list[tuple]:
    result = run("jobs", "--format", "json", *args, ".")
    assert result.exit_code == 0, result.output
    return sorted(((j["function"], j["framework"], j["via"]) for j in json.loads(result.stdout)["jobs"]), key=repr)


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    write_project(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_jobs_found_through_the_projects_own_code(project):
    assert jobs("--no-cache") == EXPECTED


def test_what_is_not_a_job(project):
    functions = {function for function, _framework, _via in jobs("--no-cache")}
    assert "proj.sync.Report.run" not in functions  # a run() no job reaches
    assert "proj.awx_jobs.NotDispatched.run" not in functions  # a class no job decorator takes
    assert "proj.management.commands.rebuild_index.Command.handle" not in functions  # a command that returns
    assert "proj.ckan_jobs.inline" not in functions  # called inline, never enqueued
    assert "proj.system.not_a_job" not in functions  # a decorator class that registers nothing
    assert "proj.sync.SyncSourceJob.enqueue" not in functions  # handle() calls cls.enqueue: another start, not the job
    assert "proj.runner.Runner.run" not in functions  # the base's own run() is what subclasses replace
    assert "proj.timers.arm" not in functions  # arms the timers, runs in its caller
    assert "proj.threaded.Cleaner.report" not in functions  # a method of its own named start_new_thread
    assert "proj.processes.start" not in functions  # starts the processes, runs in its caller
    assert "proj.processes.Thumbnailer.describe" not in functions  # runs where it is called
    assert "proj.pipeline.ExportOrders.output" not in functions  # describes the task, runs nothing
    assert "proj.harvesters.FeedHarvester.info" not in functions  # no consumer runs info()
    assert "proj.harvesters.NotAHarvester.gather_stage" not in functions  # the same method on no harvester base
    assert "proj.celery_subclass.not_celery" not in functions  # a project class's task(), not Celery's
    assert "proj.plugins.admin_setup" not in functions  # a registry read once at start, in no loop


def test_no_warning_for_frameworks_whose_jobs_are_found(project):
    result = run("jobs", "--no-cache", ".")
    assert "no RQ job" not in result.stderr and "no django-rq job" not in result.stderr
    assert "no Celery job" not in result.stderr and "no dispatcherd job" not in result.stderr


def test_a_cached_run_lists_what_a_cold_run_lists_after_edits(project):
    assert jobs() == jobs() == EXPECTED
    # the re-export goes: Record no longer resolves, so neither the wrapper nor the runner classes are found
    (project / "proj" / "records" / "__init__.py").write_text("", encoding="utf-8")
    cached = jobs()
    assert cached == jobs("--no-cache")
    assert "proj.sync.SyncSourceJob.run" not in {f for f, _fw, _v in cached}
    (project / "proj" / "records" / "__init__.py").write_text("from .models import *\n", encoding="utf-8")
    assert jobs() == jobs("--no-cache") == EXPECTED
    # a subclass that stops overriding run() is no longer a job
    sync = project / "proj" / "sync.py"
    sync.write_text(sync.read_text(encoding="utf-8").replace("def run(self, source_id):", "def execute(self, source_id):"), encoding="utf-8")
    cached = jobs()
    assert cached == jobs("--no-cache")
    assert "proj.sync.SyncSourceJob.run" not in {f for f, _fw, _v in cached}
    # the decorator class stops registering: its functions are no longer jobs
    dispatch = project / "proj" / "dispatch.py"
    dispatch.write_text(dispatch.read_text(encoding="utf-8").replace("registry.register(fn, queue=self.queue)", "print(fn)"), encoding="utf-8")
    cached = jobs()
    assert cached == jobs("--no-cache")
    assert "proj.system.purge_old_stdout" not in {f for f, _fw, _v in cached}
    # the worker loop goes: the registry's functions are no longer jobs
    worker = project / "proj" / "registry_worker.py"
    worker.write_text(worker.read_text(encoding="utf-8").replace("while True:", "for _ in range(1):"), encoding="utf-8")
    cached = jobs()
    assert cached == jobs("--no-cache")
    assert "proj.mail.send_digest" not in {f for f, _fw, _v in cached}


def test_a_star_import_resolves_only_public_names_the_module_defines(tmp_path, monkeypatch):
    write_project(tmp_path, {
        "app/__init__.py": "from .impl import *\n",
        "app/impl.py": """
            from rq import Queue


            def _private(func):
                Queue().enqueue(func)


            def enqueue(func):
                Queue().enqueue(func)
            """,
        "app/use.py": """
            import app


            def work():
                pass


            def hidden():
                pass


            def start():
                app.enqueue(work)
                app._private(hidden)
            """,
    })
    monkeypatch.chdir(tmp_path)
    # _private(hidden) does not resolve: its own registration of a parameter stays, with no function
    assert [f for f, _fw, _v in jobs("--no-cache") if f] == ["app.use.work"]


def test_subclasses_of_a_library_job_class_that_define_its_run_are_jobs(tmp_path, monkeypatch):
    """Nautobot's jobs and NetBox's JobRunner subclasses (plugins of theirs, where the base class is
    the library's): each subclass that defines run() is a job its framework's worker runs; a mixin
    that defines no run() is not one, nor is a class of another base with a run()."""
    write_project(tmp_path, {
        "golden/__init__.py": "",
        "golden/jobs.py": """
            from nautobot.apps.jobs import Job, register_jobs


            class GoldenMixin(Job):
                def __init__(self, *args, **kwargs):
                    super().__init__(*args, **kwargs)


            class BackupJob(GoldenMixin):
                def run(self, *args, **data):
                    return "done"


            class Report:
                def run(self):
                    return "not a job"


            register_jobs(BackupJob)
            """,
        "golden/sync.py": """
            from netbox.jobs import JobRunner


            class SyncJob(JobRunner):
                def run(self, *args, **kwargs):
                    return "synced"
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert jobs("--no-cache") == [
        ("golden.jobs.BackupJob.run", "Nautobot", "subclass of nautobot.apps.jobs.Job with run()"),
        ("golden.sync.SyncJob.run", "NetBox", "subclass of netbox.jobs.JobRunner with run()"),
    ]


def test_an_app_built_from_a_class_loaded_by_a_setting_is_celerys_when_configured_as_one(tmp_path, monkeypatch):
    """mayan-edms: the Celery app is made from a class imported by a dotted path read from a setting
    (``import_string(setting.value)(main="mayan")``), which bgcheck cannot name; the project then
    configures it as only a Celery app is (``config_from_object``, ``autodiscover_tasks``), so its
    ``@app.task`` functions are Celery jobs. An object of an unknown class that is not configured
    so, or a project without celery, has no jobs."""
    files = {
        "proj/__init__.py": "",
        "proj/settings.py": """
            class Setting:
                def __init__(self, default):
                    self.default = default

                @property
                def value(self):
                    return self.default


            app_class = Setting(default="celery.Celery")
            """,
        "proj/celery.py": """
            from django.utils.module_loading import import_string

            from proj.settings import app_class

            celery_class = import_string(dotted_path=app_class.value)
            app = celery_class(main="proj")
            app.config_from_object(namespace="CELERY", obj="django.conf:settings")
            app.autodiscover_tasks()

            worker = celery_class(main="other")
            """,
        "proj/tasks.py": """
            from proj.celery import app, worker


            @app.task(ignore_result=True)
            def remove_metadata(document_id):
                return document_id


            @worker.task
            def not_a_job(x):
                return x
            """,
        "proj/uses_celery.py": "import celery\n",
    }
    write_project(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    assert [(f, fw) for f, fw, _via in jobs("--no-cache")] == [("proj.tasks.remove_metadata", "Celery")]
    (tmp_path / "proj" / "uses_celery.py").write_text("import json\n", encoding="utf-8")
    assert jobs("--no-cache") == []


def test_tasks_a_plugin_registers_on_its_platforms_celery_app(tmp_path, monkeypatch):
    # plugins of pretix, pretalx, Taiga and Indico decorate with the platform's own app, a module
    # the plugin's project does not hold (knowledge.PLATFORM_CELERY_APPS)
    write_project(tmp_path, {
        "plugin/__init__.py": "",
        "plugin/tasks.py": """
            from indico.core.celery import celery
            from pretalx.celery_app import app as pretalx_app
            from pretix.celery_app import app
            from taiga.celery import app as taiga_app


            @app.task(bind=True, max_retries=3)
            def invite(self, order_id):
                pass


            @pretalx_app.task(name="plugin.refresh")
            def refresh(event_slug):
                pass


            @taiga_app.task
            def notify(url, data):
                pass


            @celery.periodic_task(run_every=3600)
            def sync_all():
                pass


            def helper():
                pass
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert jobs("--no-cache") == [
        ("plugin.tasks.invite", "Celery", "decorator pretix.celery_app.app.task"),
        ("plugin.tasks.notify", "Celery", "decorator taiga.celery.app.task"),
        ("plugin.tasks.refresh", "Celery", "decorator pretalx.celery_app.app.task"),
        ("plugin.tasks.sync_all", "Celery", "decorator indico.core.celery.celery.periodic_task"),
    ]


def test_tasks_on_an_app_a_library_function_returns(tmp_path, monkeypatch):
    # vstutils' get_celery_app() returns a configured Celery app (knowledge.CELERY_APP_FACTORIES):
    # the project's tasks on it are Celery tasks; the same call of a function bgcheck does not
    # know makes nothing
    write_project(tmp_path, {
        "proj/__init__.py": "",
        "proj/wapp.py": """
            from vstutils.environment import get_celery_app
            from othertools import make_app

            app = get_celery_app()
            other = make_app()
            """,
        "proj/tasks.py": """
            from proj.wapp import app, other


            @app.task(ignore_result=True)
            def sync_repository(project_id):
                pass


            @other.task
            def not_a_task(project_id):
                pass
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert jobs("--no-cache") == [("proj.tasks.sync_repository", "Celery", "decorator proj.wapp.app.task")]


def test_methods_of_objects_bgcheck_cannot_type_are_the_one_method_of_that_name(tmp_path, monkeypatch):
    """glances: ``Thread(target=plugin.update_wrapper)`` and ``create_task(plugin.pump())`` with
    ``plugin`` a value of a dict of plugins: the job is the one project method of that name. Not
    when two classes define the name, nor for a parameter called as a whole (``Thread(target=fn)``),
    nor for a name no project class defines (a library object's method)."""
    write_project(tmp_path, {
        "mon/__init__.py": "",
        "mon/plugins.py": """
            import asyncio


            class Plugin:
                def update_wrapper(self):
                    return self.update()

                async def pump(self):
                    await asyncio.sleep(1)

                def refresh(self):
                    return 1


            class Other:
                def refresh(self):
                    return 2
            """,
        "mon/monitor.py": """
            import asyncio
            import threading


            def start(plugins, fn, client):
                for plugin in plugins.values():
                    threading.Thread(target=plugin.update_wrapper).start()
                    threading.Thread(target=plugin.refresh).start()
                    asyncio.create_task(plugin.pump())
                threading.Thread(target=fn).start()
                threading.Thread(target=client.serve_forever).start()
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert jobs("--no-cache") == [
        ("mon.plugins.Plugin.pump", "asyncio", "call asyncio.create_task"),
        ("mon.plugins.Plugin.update_wrapper", "threading", "call threading.Thread"),
        (None, "threading", "call threading.Thread"),
        (None, "threading", "call threading.Thread"),
        (None, "threading", "call threading.Thread"),
    ]


def test_airflow_operators_sensors_and_taskflow_functions_are_jobs(tmp_path, monkeypatch):
    """Airflow: an operator subclass's execute() (Airflow 2's airflow.models and Airflow 3's
    airflow.sdk), a sensor's poke() and execute(), a TaskFlow ``@task`` or ``@task.virtualenv``
    function, a PythonOperator's python_callable. Not jobs: an operator's __init__ (run when the
    DAG is parsed), a helper class with an execute() of its own, a function no operator runs."""
    write_project(tmp_path, {
        "dags/__init__.py": "",
        "dags/operators.py": """
            from airflow.models.baseoperator import BaseOperator
            from airflow.sdk import BaseSensorOperator


            class ExportOperator(BaseOperator):
                def __init__(self, bucket, **kwargs):
                    super().__init__(**kwargs)
                    self.bucket = bucket

                def execute(self, context):
                    return self.bucket


            class FileSensor(BaseSensorOperator):
                def poke(self, context):
                    return True


            class Query:
                def execute(self, sql):
                    return sql
            """,
        "dags/pipeline.py": """
            from airflow.decorators import task
            from airflow.operators.python import PythonOperator


            @task
            def extract():
                return [1, 2]


            @task.virtualenv(requirements=["pandas"])
            def transform(rows):
                return rows


            def load():
                return None


            def unused():
                return None


            PythonOperator(task_id="load", python_callable=load)
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert jobs("--no-cache") == [
        ("dags.operators.ExportOperator.execute", "Airflow", "subclass of airflow.models.baseoperator.BaseOperator with execute()"),
        ("dags.operators.FileSensor.poke", "Airflow", "subclass of airflow.sdk.BaseSensorOperator with poke()"),
        ("dags.pipeline.extract", "Airflow", "decorator airflow.decorators.task"),
        ("dags.pipeline.load", "Airflow", "call airflow.operators.python.PythonOperator"),
        ("dags.pipeline.transform", "Airflow", "decorator airflow.decorators.task.virtualenv"),
    ]


def test_a_second_method_of_the_name_drops_the_job_cached_as_cold(tmp_path, monkeypatch):
    """``Thread(target=plugin.refresh_all)`` runs the one ``refresh_all`` of the project until
    another class defines one too (in another module): a cached run lists what a cold run lists."""
    write_project(tmp_path, {
        "mon/__init__.py": "",
        "mon/plugins.py": """
            class Plugin:
                def refresh_all(self):
                    return 1
            """,
        "mon/monitor.py": """
            import threading


            def start(plugins):
                for plugin in plugins.values():
                    threading.Thread(target=plugin.refresh_all).start()
            """,
    })
    monkeypatch.chdir(tmp_path)
    found = [("mon.plugins.Plugin.refresh_all", "threading", "call threading.Thread")]
    assert jobs() == jobs("--no-cache") == found
    (tmp_path / "mon" / "other.py").write_text("class Other:\n    def refresh_all(self):\n        return 2\n")
    assert jobs() == jobs("--no-cache") == [(None, "threading", "call threading.Thread")]
    (tmp_path / "mon" / "other.py").unlink()
    assert jobs() == jobs("--no-cache") == found


def test_a_task_of_a_function_run_in_a_thread_runs_the_function(tmp_path, monkeypatch):
    """``create_task(asyncio.to_thread(sync_fetch, url))``: the task's work is ``sync_fetch``, run in
    a worker thread (also through ``functools.partial``). ``await asyncio.to_thread(f)`` starts no
    task: its work is the caller's."""
    write_project(tmp_path, {
        "svc/__init__.py": "",
        "svc/fetch.py": """
            import asyncio
            import functools
            from asyncio import to_thread


            def sync_fetch(url):
                return url


            def sync_store(rows):
                return rows


            def sync_render(page):
                return page


            async def refresh(url, rows, page):
                asyncio.create_task(asyncio.to_thread(sync_fetch, url))
                asyncio.ensure_future(to_thread(functools.partial(sync_store, rows)))
                return await asyncio.to_thread(sync_render, page)
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert jobs("--no-cache") == [
        ("svc.fetch.sync_fetch", "asyncio", "call asyncio.create_task"),
        ("svc.fetch.sync_store", "asyncio", "call asyncio.ensure_future"),
    ]


def test_a_plugin_subclass_added_in_another_module_is_job_code_cached_as_cold(tmp_path, monkeypatch):
    """The base's ``refresh_in_thread()`` calls ``self.update()``, which only its subclasses define:
    a subclass added in a module of its own is job code from then on (BG203 there), and a cached run
    reports what a cold one does, also once the module is gone again."""
    from conftest import reported_at

    write_project(tmp_path, {
        "mon/__init__.py": "",
        "mon/base.py": """
            import threading


            class Plugin:
                def refresh_in_thread(self):
                    self.update()


            def start(plugins):
                for plugin in plugins.values():
                    threading.Thread(target=plugin.refresh_in_thread).start()
            """,
        "mon/ping.py": """
            import requests

            from mon.base import Plugin


            class Ping(Plugin):
                def update(self):
                    return requests.get("https://ping.example", timeout=5)
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == []
    nginx = tmp_path / "mon" / "nginx.py"
    nginx.write_text(
        "import requests\n\nfrom mon.base import Plugin\n\n\nclass Nginx(Plugin):\n"
        "    def update(self):\n        return requests.get('https://nginx.example/status')\n"
    )
    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == ["mon/nginx.py:8:16"]
    nginx.unlink()
    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == []


def test_a_lambda_whose_body_is_a_call_runs_that_call(tmp_path, monkeypatch):
    """``Thread(target=lambda: self.poll(url))``, ``pool.submit(lambda: ...)`` and
    ``run_in_executor(None, lambda: ...)``: the job is the function the lambda's body calls. A
    lambda that calls a library function (``print``) names no job of the project."""
    write_project(tmp_path, {
        "svc/__init__.py": "",
        "svc/poller.py": """
            import threading
            from concurrent.futures import ThreadPoolExecutor

            pool = ThreadPoolExecutor(4)


            class Poller:
                def poll(self, url):
                    return url

                def flush(self):
                    return None

                def start(self, url, loop):
                    threading.Thread(target=lambda: self.poll(url), daemon=True).start()
                    pool.submit(lambda: self.flush())
                    threading.Thread(target=lambda: print(url)).start()
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert jobs("--no-cache") == [
        ("svc.poller.Poller.flush", "concurrent.futures", "call concurrent.futures.ThreadPoolExecutor().submit"),
        ("svc.poller.Poller.poll", "threading", "call threading.Thread"),
        (None, "threading", "call threading.Thread"),
    ]
