"""BG606 (and BG602, which shares how a task is dropped): a task dropped inside an expression, or kept in a local nothing reads (issue 17)."""

from __future__ import annotations

from conftest import codes


def test_task_in_a_list_display_statement_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def kick(jobs):
            [asyncio.create_task(job()) for job in jobs]
            [asyncio.create_task(jobs[0]()), asyncio.ensure_future(jobs[1]())]
        """
    )
    assert codes(found, "BG606") == [("BG606", 5), ("BG606", 6), ("BG606", 6)]
    assert "thrown away with the display" in found[0].message


def test_task_in_a_kept_list_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def kick(jobs):
            tasks = [asyncio.create_task(jobs[0]())]
            return tasks
        """
    )
    assert codes(found, "BG606") == []


def test_task_used_only_as_a_truth_value_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def kick(job, items):
            flag = 1 if asyncio.create_task(job()) else 2
            pending = (i for i in items if asyncio.ensure_future(job()))
            if not asyncio.create_task(job()):
                return flag, pending
        """
    )
    assert codes(found, "BG606") == [("BG606", 5), ("BG606", 6), ("BG606", 7)]


def test_generator_expression_never_iterated_creates_no_task(bg):
    found = bg.code(
        """
        import asyncio

        async def kick(job, items):
            (asyncio.create_task(job()) for i in items)
        """
    )
    assert codes(found, "BG606") == []


def test_task_kept_in_an_unread_local_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def kick(job):
            task = asyncio.create_task(job())
            (other := asyncio.ensure_future(job()))
        """
    )
    assert codes(found, "BG606") == [("BG606", 5), ("BG606", 6)]
    assert "which nothing reads" in found[0].message


def test_task_kept_in_a_local_that_is_read_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        running = set()

        async def kick(job):
            task = asyncio.create_task(job())
            running.add(task)
            task.add_done_callback(running.discard)

        async def kick_closure(job):
            task = asyncio.create_task(job())

            def stop():
                task.cancel()

            return stop

        async def kick_global(job):
            global current
            current = asyncio.create_task(job())
        """
    )
    assert codes(found, "BG606") == []


def test_module_level_task_assignment_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        loop = asyncio.new_event_loop()
        task = loop.create_task(asyncio.sleep(1))
        """
    )
    assert codes(found, "BG606") == []


def test_function_local_import_of_create_task_is_flagged(bg):
    found = bg.code(
        """
        async def kick(job):
            from asyncio import create_task

            create_task(job())
        """
    )
    assert codes(found, "BG606") == [("BG606", 5)]
