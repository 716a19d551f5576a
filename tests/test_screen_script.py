"""scripts/screen.py, offline: the shapes it counts when it chooses candidates for a batch."""

from __future__ import annotations

import importlib.util
import io
import sys
import tarfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
sys.path.insert(0, str(SCRIPTS))
spec = importlib.util.spec_from_file_location("screen_script", SCRIPTS / "screen.py")
screen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(screen)


SOURCE = '''
import asyncio

async def swallows(queue):
    while True:
        try:
            await queue.get()
        except asyncio.CancelledError:
            pass

async def reraises(queue):
    while True:
        try:
            await queue.get()
        except asyncio.CancelledError:
            raise

async def outside_a_loop(queue):
    try:
        await queue.get()
    except (asyncio.CancelledError, ValueError):
        pass

def plain_function(queue):
    while True:
        try:
            queue.get()
        except asyncio.CancelledError:
            pass

async def returns_in_finally(queue):
    try:
        await queue.get()
    finally:
        return None

async def breaks_in_its_own_loop(queue):
    try:
        await queue.get()
    finally:
        for item in queue.items:
            break
'''


def test_the_shapes_counted_are_bg101s_and_bg103s():
    assert screen.shapes(SOURCE) == (1, 1, 0)


QUEUES = '''
import asyncio

class Connector:
    def __init__(self):
        self.requests = asyncio.Queue()          # unbounded, fed per datagram, taken at a pace: counted
        self.replies = asyncio.Queue(maxsize=0)  # unbounded, but taken without a pause: not counted
        self.bounded = asyncio.Queue(100)        # bounded: not counted

    async def receive(self, sock):
        while True:
            data = await sock.recv()
            self.requests.put_nowait(data)
            self.replies.put_nowait(data)
            await self.bounded.put(data)

    async def process(self):
        while True:
            item = await self.requests.get()
            await self.handle(item)
            await asyncio.sleep(0.2)

    async def reply(self):
        while True:
            await self.send(await self.replies.get())

    async def drain_bounded(self):
        while True:
            await self.bounded.get()
            await asyncio.sleep(1)
'''


def test_the_bg301_shape_is_an_unbounded_queue_with_a_paced_consumer():
    assert screen.shapes(QUEUES) == (0, 0, 1)


def test_a_file_that_does_not_parse_counts_nothing():
    assert screen.shapes("async def broken(:\n") == (0, 0, 0)


def test_tests_docs_and_examples_are_left_out_of_an_sdist():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path in ("pkg-1.0/pkg/app.py", "pkg-1.0/tests/test_app.py", "pkg-1.0/pkg/test_more.py",
                     "pkg-1.0/docs/conf.py", "pkg-1.0/pkg/README.md"):
            data = b"x = 1\n"
            info = tarfile.TarInfo(path)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    files = list(screen._python_files(buffer.getvalue(), "pkg-1.0.tar.gz"))
    assert [path for path, _text in files] == ["pkg-1.0/pkg/app.py"]
