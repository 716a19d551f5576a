"""What module a file is (load.source.module_name): a folder with ``__init__.py`` is a package, and
so is a folder without one inside a package (a namespace package, PEP 420), as Python imports it;
a call through such a module resolves to the project's function."""

from __future__ import annotations

from pathlib import Path

from conftest import write_project

from bgcheck.load.source import module_name


def test_a_folder_without_init_inside_a_package_is_part_of_it(tmp_path):
    write_project(tmp_path, {
        "app/__init__.py": "",
        "app/utils/timers.py": "",
        "app/utils/deep/clock.py": "",
        "scripts/run.py": "",
        "lone/__init__.py": "",
    })
    assert module_name(tmp_path / "app" / "utils" / "timers.py") == ("app.utils.timers", False)
    assert module_name(tmp_path / "app" / "utils" / "deep" / "clock.py") == ("app.utils.deep.clock", False)
    assert module_name(tmp_path / "app" / "__init__.py") == ("app", True)
    # a folder in no package is no package: its modules are top-level, as on sys.path
    assert module_name(tmp_path / "scripts" / "run.py") == ("run", False)
    folders: dict = {}
    assert module_name(tmp_path / "app" / "utils" / "timers.py", folders) == ("app.utils.timers", False)
    assert module_name(tmp_path / "scripts" / "run.py", folders) == ("run", False)


def test_a_task_of_a_function_in_a_namespace_package_is_followed(tmp_path, monkeypatch):
    """open-webui's shape: ``open_webui/utils/`` has no ``__init__.py``; the dropped task's coroutine
    lives there, and BG602 sees its calls to other services."""
    from conftest import reported_at

    write_project(tmp_path, {
        "app/__init__.py": "",
        "app/utils/timers.py": """
            import httpx


            async def execute_due_timer(timer_id):
                async with httpx.AsyncClient() as client:
                    response = await client.post("https://hooks.example/timers", json={"id": timer_id})
                response.raise_for_status()
            """,
        "app/scheduler.py": """
            import asyncio

            from app.utils.timers import execute_due_timer


            def fire(timer_id):
                asyncio.create_task(execute_due_timer(timer_id))
            """,
    })
    monkeypatch.chdir(tmp_path)
    assert reported_at("BG602", "--no-cache") == reported_at("BG602") == ["app/scheduler.py:8:5"]
