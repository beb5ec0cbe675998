"""What the logs keep of a request: capped values, and expected refusals on one line.

A log line is written from what a client sent (a username, an address): one of a megabyte made a
megabyte line. And Django logs every 403 (and 400) with the traceback of the exception that
refused it, which is how a refusal works, not a fault.
"""

import logging

# The longest message a record writes; what goes beyond is cut and its length said.
MAX_MESSAGE = 2000


def cap(text: str, limit: int = MAX_MESSAGE) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters]"


class CapValues(logging.Filter):
    """Cuts a record's message to MAX_MESSAGE characters, and drops the traceback of a 4xx answer."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format: leave the record to the handler's own error handling
            return True
        if len(message) > MAX_MESSAGE:
            record.msg, record.args = cap(message), ()
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
