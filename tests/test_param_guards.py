"""Constants through arguments (issue 30, item 3): a call guarded by a parameter is not made along a
chain whose constants the guard rejects (``get_app()`` leaves ``start_scheduler=False``, so
``create_app`` starts no scheduler there); the same call is reached where a caller passes a value the
guard accepts, or a value bgcheck cannot know. First what the summary records, then the rules."""

from __future__ import annotations

import ast
import textwrap

import pytest

from bgcheck.load.summary import build_summary
from bgcheck.syntax import param_guards
from conftest import codes


def _function(source: str) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(source)).body[0]


def _guards_by_callee(source: str) -> dict[str, list]:
    node = _function(source)
    params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
    found = param_guards.call_guards(node, params)
    calls = [n for n in ast.walk(node) if type(n) is ast.Call]
    return {ast.unparse(call.func): sorted(found[id(call)]) for call in calls if id(call) in found}


def test_guards_of_ifs_early_exits_and_boolean_operators():
    assert _guards_by_callee(
        """
        def create_app(testing=None, start_scheduler=False, http=False, local_only=False, client=None):
            setup()
            if not testing and start_scheduler:
                start_cron()
            else:
                inline()
            http and probe()
            local_only or publish()
            if client is None:
                connect()
            if not http:
                return
            fetch()
        """
    ) == {
        "start_cron": [("start_scheduler", "truthy", True), ("testing", "truthy", False)],
        "probe": [("http", "truthy", True)],
        "publish": [("local_only", "truthy", False)],
        "connect": [("client", "none", True)],
        "fetch": [("http", "truthy", True)],
    }


def test_no_guard_where_the_test_says_nothing_about_one_parameter():
    assert _guards_by_callee(
        """
        def run(a, b, mode):
            if a or b:
                either()
            if mode == "fast":
                fast()
            if a:
                pass
            after()
        """
    ) == {}


def _summary_guards(source: str) -> dict[str, tuple]:
    text = textwrap.dedent(source)
    summary = build_summary(ast.parse(text), "m.py", "m", False, text)
    return {name: func.call_guards for name, func in summary.functions.items()}


def test_a_parameter_bound_again_guards_nothing():
    assert _summary_guards(
        """
        def run(start=False):
            start = start or settings.START
            if start:
                begin()


        def sweep(full=False):
            for full in (True, False):
                if full:
                    begin()


        def kept(start=False):
            if start:
                begin()
        """
    ) == {"m.run": (), "m.sweep": (), "m.kept": ((0, (("start", "truthy", True),)),)}


def test_arguments_constants_parameters_and_unpacking():
    call = ast.parse("f(1, flag, x.y, http=True, client=None, name='')").body[0].value
    assert param_guards.call_arguments(call, {"flag"}) == {
        0: ("c", True, False), 1: ("p", "flag"), 2: ("u",), "http": ("c", True, False),
        "client": ("c", False, True), "name": ("c", False, False),
    }
    assert param_guards.call_arguments(ast.parse("f(*args, http=True)").body[0].value, set()) is None
    assert param_guards.call_arguments(ast.parse("f(**options)").body[0].value, set()) is None


def test_constant_defaults():
    node = _function("def f(a, b=None, c=0, d=object(), *args, e=True, f=(), g):\n    pass\n")
    assert param_guards.param_defaults(node.args) == (("b", False, True), ("c", False, False), ("e", True, False), ("f", False, False))
    assert param_guards.positional_count(node.args) == 4


# --- through the project: which calls a job reaches ---------------------------------

SERVICE = """
    import threading

    import requests


    def create_app(testing=None, start_scheduler=False):
        if not testing and start_scheduler:
            refresh()
        return object()


    def refresh():
        requests.get("https://stats.example.com/refresh")


    def get_app(start_scheduler=False):
        return create_app(start_scheduler=start_scheduler)


    def wait_up(url, http=False):
        if http:
            return requests.head(url, timeout=5)
        if not can_connect(url):
            return None


    def can_connect(url):
        return requests.get(url)


    class Checker:
        def probe(self, url, http=False):
            if not http:
                return can_connect(url)
"""


def test_calls_ruled_out_by_the_constants_a_job_hands_on_are_not_its_code(bg):
    found = bg.files({
        "svc.py": SERVICE + """

    def job():
        get_app()
        wait_up("https://svc.example.com", http=True)
        Checker().probe("https://svc.example.com", True)


    threading.Thread(target=job).start()
""",
    })
    assert codes(found, "BG2") == []


def test_the_same_calls_are_reached_with_other_or_unknown_values(bg):
    found = bg.files({
        "svc.py": SERVICE + """

    def job(url, options):
        get_app(start_scheduler=True)
        wait_up(url)
        Checker().probe(url, options.http)


    threading.Thread(target=job).start()
""",
    })
    assert [(d.code, d.location.line, d.message) for d in found if d.code.startswith("BG2")] == [
        ("BG203", 14, "A `requests` call waits with no timeout in job `job`"),
        ("BG203", 29, "A `requests` call waits with no timeout in job `job`"),
    ]


@pytest.mark.parametrize("start", ["", "start_scheduler=True"])
def test_a_main_block_that_leaves_the_scheduler_off_reaches_no_durable_write(bg, start):
    # faraday's shape: the scheduler thread and the inline write both stand under the guard; the
    # thread's own work writes nothing
    found = bg.files({
        "svc.py": f"""
            import sqlite3
            import threading
            import time


            def tick():
                while True:
                    time.sleep(60)


            def record():
                with sqlite3.connect("stats.db") as db:
                    db.execute("insert into runs values (1)")
                    db.commit()


            def create_app(start_scheduler=False):
                if start_scheduler:
                    threading.Thread(target=tick).start()
                    record()
                return object()


            def main():
                create_app({start})


            if __name__ == "__main__":
                main()
        """,
    })
    assert [code for code, _line in codes(found, "BG404")] == (["BG404"] if start else [])


ALERTS = """
    import requests
    from celery import shared_task


    def send_alert(study_id=None, test_message=None, test_user=None):
        if test_message:
            if test_user:
                requests.post("https://mail.example.com/test", json={"to": test_user})
            return
        requests.post("https://mail.example.com/alert", json={"study": study_id})
"""


@pytest.mark.parametrize(
    "call, flagged",
    [
        # the job leaves test_message at its default: only the alert itself is sent
        ("send_alert(study_id)", [11]),
        # a job that sends the test message returns before the alert
        ("send_alert(study_id, test_message=True, test_user='a@example.com')", [9]),
        # values bgcheck cannot know reach both
        ("send_alert(study_id, test_message=options, test_user=options)", [9, 11]),
        # the test message needs a test_user too, which stays at its default None
        ("send_alert(study_id, test_message=options)", [11]),
    ],
)
def test_one_call_of_a_target_ruled_out_beside_another_that_is_not(bg, call, flagged):
    # openrem's shape: the same call twice in one helper, once under `if test_message:`; the
    # summary's guards are per target (none common to both), the rule asks for the call's own
    found = bg.files({"alerts.py": ALERTS + f"""

    @shared_task
    def import_study(study_id, options=None):
        {call}
"""})
    assert [d.location.line for d in found if d.code == "BG203"] == flagged


def test_a_call_one_job_rules_out_is_reported_when_another_job_makes_it(bg):
    found = bg.files({"alerts.py": ALERTS + """

    @shared_task
    def import_study(study_id):
        send_alert(study_id)


    @shared_task
    def send_test_message(user):
        send_alert(test_message=True, test_user=user)
"""})
    assert [(d.location.line, d.message) for d in found if d.code == "BG203"] == [
        (9, "A `requests` call waits with no timeout in job `send_test_message`"),
        (11, "A `requests` call waits with no timeout in job `import_study`"),
    ]


SETTINGS_PROJECT = {
    "shop/__init__.py": "",
    "shop/settings.py": """
        INSTALLED_APPS = ["shop"]
        REUSE_CONNECTION = False
        MIRROR = None
    """,
    "shop/sync.py": """
        import requests
        from django.conf import settings

        USE_PROXY = False


        def keep_alive(url):
            requests.get(url)


        def through_proxy(url):
            requests.get(url)


        def from_mirror(url):
            requests.get(url)


        def serve(url):
            if settings.REUSE_CONNECTION:
                keep_alive(url)
            if USE_PROXY:
                through_proxy(url)
            if settings.MIRROR is None:
                return
            from_mirror(url)
    """,
}


@pytest.mark.parametrize(
    "changes, flagged",
    [
        # the settings turn every helper off: no call is job code
        ({}, []),
        # a setting turned on: its helper is job code again
        ({"shop/settings.py": ("REUSE_CONNECTION = False", "REUSE_CONNECTION = True")}, ["keep_alive"]),
        # a module constant turned on
        ({"shop/sync.py": ("USE_PROXY = False", "USE_PROXY = True")}, ["through_proxy"]),
        # a settings module that star-imports a module the project does not have: anything may be set
        ({"shop/settings.py": ("MIRROR = None", "MIRROR = None\nfrom shop.local_settings import *")}, ["keep_alive", "from_mirror"]),
    ],
)
def test_helpers_a_setting_or_module_constant_rules_out_are_not_job_code(bg, changes, flagged):
    files = dict(SETTINGS_PROJECT)
    for name, (old, new) in changes.items():
        files[name] = files[name].replace(old, new)
    files["shop/tasks.py"] = """
        from celery import shared_task

        from shop.sync import serve


        @shared_task
        def sync(url):
            serve(url)
    """
    found = bg.files(files)
    lines = {"keep_alive": 9, "through_proxy": 13, "from_mirror": 17}
    assert sorted(d.location.line for d in found if d.code == "BG203") == sorted(lines[name] for name in flagged)


def test_a_cached_run_follows_a_setting_turned_on_and_off(tmp_path, monkeypatch):
    """Cached runs give the results of a cold run when only the settings module changes: both the
    job's own test and a caller's test around a helper read it."""
    from conftest import reported_at, write_project

    write_project(tmp_path, {
        **SETTINGS_PROJECT,
        "shop/tasks.py": """
            import requests
            from celery import shared_task
            from django.conf import settings

            from shop.sync import serve


            @shared_task
            def sync(url):
                serve(url)
                if settings.REUSE_CONNECTION:
                    requests.post(url)
        """,
    })
    monkeypatch.chdir(tmp_path)
    settings_file = tmp_path / "shop" / "settings.py"

    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == []
    settings_file.write_text(settings_file.read_text().replace("REUSE_CONNECTION = False", "REUSE_CONNECTION = True"))
    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == ["shop/sync.py:9:5", "shop/tasks.py:13:9"]
    settings_file.write_text(settings_file.read_text().replace("REUSE_CONNECTION = True", "REUSE_CONNECTION = False"))
    assert reported_at("BG203") == []
