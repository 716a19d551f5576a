# Not flagged: the cancelled future's outcome is turned into an error, not counted as a result.
import concurrent.futures


class ExportAborted(Exception):
    pass


def rendered_page(future):
    try:
        return future.result()
    except concurrent.futures.CancelledError as exc:
        raise ExportAborted("page rendering was cancelled") from exc
