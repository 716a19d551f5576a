from conftest import codes


def test_swallowed_cancel_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]
