"""Part files of a data set: ``part-00001.parquet`` / ``part-00001.jsonl``, written and read.

A directory holds numbered parts; every run that has rows to write adds the next number (in
each format asked for), so earlier parts never change. A part is written under a temporary
name and renamed when complete: a reader never meets half a part, and a run that fails
leaves nothing behind.

Rows come in as the exporters make them (``options`` a dict, times unix seconds or None) and
go out in each format's encoding (:mod:`redtable.data.schema`); reading gives them back as
:func:`~redtable.data.schema.normalize` makes them.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .schema import FIELD_NAMES, DataError, arrow_schema, iso, normalize

FORMATS = ("parquet", "jsonl")
PART_RE = re.compile(r"part-(\d{5,})\.(parquet|jsonl)")
BATCH_ROWS = 512  # rows per Parquet row group written at once


def check_formats(text: str) -> list[str]:
    """``parquet,jsonl`` as a list; an unknown or empty name is a :class:`DataError`."""
    out = [f.strip() for f in text.split(",") if f.strip()]
    bad = [f for f in out if f not in FORMATS]
    if bad or not out:
        raise DataError(f"formats are a comma-separated choice of {', '.join(FORMATS)}, got {text!r}")
    if "parquet" in out:
        need_pyarrow()
    return list(dict.fromkeys(out))


def need_pyarrow() -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise DataError("Parquet needs pyarrow: pip install 'redtable[data]' (or choose the jsonl format)") from None


def part_numbers(directory: Path) -> list[int]:
    if not directory.is_dir():
        return []
    return sorted({int(m.group(1)) for p in directory.iterdir() if (m := PART_RE.fullmatch(p.name))})


def next_part(directory: Path) -> int:
    return max(part_numbers(directory), default=0) + 1


def part_path(directory: Path, number: int, fmt: str) -> Path:
    return directory / f"part-{number:05d}.{fmt}"


def _jsonl_row(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: row[k] for k in FIELD_NAMES}
    out["created_at"], out["finished_at"] = iso(row["created_at"]), iso(row["finished_at"])
    return out


def _arrow_row(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: row[k] for k in FIELD_NAMES}
    out["options"] = json.dumps(row["options"], sort_keys=True)
    for k in ("created_at", "finished_at"):
        t = row[k]
        out[k] = None if t is None else datetime.fromtimestamp(round(t, 3), UTC)
    return out


class PartWriter:
    """Writes one part in each of ``formats``; :meth:`commit` makes them visible, :meth:`abort` drops them."""

    def __init__(self, directory: Path, number: int, formats: Iterable[str]) -> None:
        self.paths = {f: part_path(directory, number, f) for f in formats}
        self.tmp = {f: p.with_name(f".{p.name}.tmp") for f, p in self.paths.items()}
        self.rows = 0
        self._jsonl = open(self.tmp["jsonl"], "w", encoding="utf-8") if "jsonl" in self.tmp else None  # noqa: SIM115
        self._pq: Any = None
        self._batch: list[dict[str, Any]] = []
        if "parquet" in self.tmp:
            import pyarrow.parquet as pq

            self._schema = arrow_schema()
            self._pq = pq.ParquetWriter(self.tmp["parquet"], self._schema, compression="zstd")

    def add(self, row: dict[str, Any]) -> None:
        self.rows += 1
        if self._jsonl is not None:
            self._jsonl.write(json.dumps(_jsonl_row(row), ensure_ascii=False, separators=(",", ":")) + "\n")
        if self._pq is not None:
            self._batch.append(_arrow_row(row))
            if len(self._batch) >= BATCH_ROWS:
                self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self._batch:
            self._pq.write_table(pa.Table.from_pylist(self._batch, schema=self._schema))
            self._batch = []

    def _close(self) -> None:
        if self._jsonl is not None:
            self._jsonl.close()
            self._jsonl = None
        if self._pq is not None:
            self._flush()
            self._pq.close()
            self._pq = None

    def commit(self) -> list[Path]:
        """Close the files and give them their names (atomically, each)."""
        self._close()
        for f, tmp in self.tmp.items():
            os.replace(tmp, self.paths[f])
        return list(self.paths.values())

    def abort(self) -> None:
        try:
            self._close()
        finally:
            for tmp in self.tmp.values():
                tmp.unlink(missing_ok=True)


def write_part(directory: Path, rows: Iterable[dict[str, Any]], formats: Iterable[str]) -> list[Path]:
    """Write ``rows`` as the directory's next part (nothing when there are none); the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    writer = PartWriter(directory, next_part(directory), formats)
    try:
        for row in rows:
            writer.add(row)
    except BaseException:
        writer.abort()
        raise
    if not writer.rows:
        writer.abort()
        return []
    return writer.commit()


# ----------------------------------------------------------------------------- reading
def part_files(path: str | Path, fmt: str | None = None) -> list[Path]:
    """The files to read: ``path`` itself, or a directory's parts in order, in one format
    (``fmt``, else Parquet when the directory has it, else JSON Lines)."""
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise DataError(f"no data set at {p}: neither a part file nor a directory")
    found = {f: sorted(p.glob(f"part-*.{f}")) for f in FORMATS}
    if fmt is None:
        fmt = "parquet" if found["parquet"] else "jsonl"
    if fmt not in FORMATS:
        raise DataError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    return [f for f in found[fmt] if PART_RE.fullmatch(f.name)]


def read_rows(path: str | Path, fmt: str | None = None) -> Iterator[dict[str, Any]]:
    """Every row of a part file or a data set's directory, normalised (``schema.normalize``)."""
    for f in part_files(path, fmt):
        if f.suffix == ".parquet":
            need_pyarrow()
            import pyarrow.parquet as pq

            for batch in pq.ParquetFile(f).iter_batches(batch_size=BATCH_ROWS):
                for row in batch.to_pylist():
                    yield normalize(row)
        elif f.suffix == ".jsonl":
            with open(f, encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        row = json.loads(line)
                    except json.JSONDecodeError as e:
                        raise DataError(f"{f.name} line {n}: not JSON ({e.msg})") from None
                    if not isinstance(row, dict):
                        raise DataError(f"{f.name} line {n}: a row is a JSON object")
                    yield normalize(row)
        else:
            raise DataError(f"{f.name}: a part is a .parquet or a .jsonl file")
