"""The server's logging: human lines (the default) or JSON lines (``--log-format json``), on stderr.

One ``logging.config.dictConfig`` for uvicorn's loggers and redtable's, handed to uvicorn
(``log_config``) so both write the same way. uvicorn's own access log is off: its lines carry
the raw path with its query string; ``redtable.access`` (``metrics.Observe``) logs the route
template, status, latency and request id instead.

A JSON line is one object: ``ts`` (UTC, ISO 8601), ``level``, ``logger``, ``msg``, the
fields a call passed in ``extra`` (``request_id``, ``method``, ``route``, ``status``,
``ms``...) and ``exc`` (the traceback) for an exception. Nothing else of the record goes in:
no argument is ever dumped whole, so nothing secret leaves through a field by accident.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson

FORMATS = ("text", "json")
EXTRA_FIELDS = ("request_id", "method", "route", "status", "ms", "game_id", "seat")


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in EXTRA_FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                out[name] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


def log_config(fmt: str = "text", level: str = "info") -> dict[str, Any]:
    """The ``dictConfig`` of uvicorn's and redtable's loggers for ``fmt`` (text or json) at ``level``."""
    if fmt not in FORMATS:
        raise ValueError(f"the log format is text or json, got {fmt!r}")
    lvl = level.upper()
    formatter: dict[str, Any] = (
        {"()": "redtable.server.jsonlog.JsonFormatter"}
        if fmt == "json"
        else {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s", "use_colors": None}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": lvl, "propagate": False},
            "uvicorn.error": {"level": lvl},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
            "redtable": {"handlers": ["stderr"], "level": lvl, "propagate": False},
            # one line per request at info: shown whenever requests are logged (create_app(log_requests=...))
            "redtable.access": {"level": "INFO"},
        },
    }
