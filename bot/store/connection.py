"""The SQLite driver: the store's one connection, its worker thread, and its group commit.

The connection lives on ONE worker thread of the store (`ConnectionThread`: a plain thread
and a queue, as in aiosqlite, but ours): every statement runs there, and a whole transaction
body (`bot.store.sql`: a generator of statements) is stepped through there in ONE hop, so a
transaction costs one trip to the thread instead of one per statement. `_transaction(fn)`
submits it to the **group commit**: a writer task takes every transaction waiting at that
moment and runs them in one `BEGIN IMMEDIATE ... COMMIT`, each inside its own `SAVEPOINT`.
A transaction that raises is rolled back to its savepoint alone (the others still commit) and
its caller gets the exception; each caller's future is resolved only after the COMMIT, so a
returned value is durable (as WAL with synchronous=NORMAL makes it) and atomic. One
transaction alone is a group of one. `run_group` is the one place a transaction runs.

Reads (`query`, `_read`) take the same `asyncio.Lock` as the writer task; since a write
transaction never spans two calls to the worker thread, a read never sees one half-done.

Why our own thread and not aiosqlite (the driver the design names): aiosqlite's public API
sends each statement to its thread separately (one hop and one event-loop wake-up per
statement: we measured 2-5x fewer committed transfers a second) and has no public way to run
a whole function (a transaction) on its thread. We would switch if it offered one (a public
"run this callable on the connection's thread"), since the group commit needs nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Self, TypeVar

import bot.metrics as metrics
from bot.store.driver import Driver, TxBody, committed
from bot.store.errors import typed_error
from bot.store.ledger import Tx
from bot.store.schema import migrate
from bot.store.sql import SQLITE, Body, Rows, Statement

BUSY_TIMEOUT_MS = 5000
#: the worker thread's name (its number is appended): tests and tools find it by this name
THREAD_NAME = "stoppa_store_connection_worker_thread"
T = TypeVar("T")


@dataclass(slots=True)
class _Job:
    """One transaction waiting for the writer task."""

    fn: TxBody[Any]
    now: float
    future: asyncio.Future[Any]
    outcome: tuple[bool, Any] = field(default=(False, None))


def run_group(conn: sqlite3.Connection, jobs: list[_Job]) -> None:
    """Run `jobs` in one `BEGIN IMMEDIATE ... COMMIT`, each in its own savepoint (on the
    worker thread). Sets each job's `outcome` to (True, value) or (False, exception); if the
    group itself fails (BEGIN, a savepoint or COMMIT), everything is rolled back and raised."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for job in jobs:
            conn.execute("SAVEPOINT job")
            try:
                value = run_body(conn, committed(job.fn, Tx(SQLITE, job.now)))
            except Exception as error:
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
                job.outcome = (False, typed_error(error))
            else:
                conn.execute("RELEASE job")
                job.outcome = (True, value)
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


def run_body(conn: sqlite3.Connection, body: Body[T]) -> T:
    """Step through a body on this thread: run each statement it yields, send it the rows."""
    with contextlib.closing(body):
        try:
            statement = next(body)
            while True:
                statement = body.send(_execute(conn, statement))
        except StopIteration as done:
            value: T = done.value
            return value


def _execute(conn: sqlite3.Connection, statement: Statement) -> Rows:
    if statement.many:
        conn.executemany(statement.sql, statement.params)
        return []
    return conn.execute(statement.sql, statement.params).fetchall()


def _connect(path: str) -> sqlite3.Connection:
    """Open and migrate the file (on the worker thread). Pragmas: WAL journal,
    synchronous=NORMAL, busy_timeout, foreign_keys=ON."""
    # isolation_level="IMMEDIATE": should a write ever start outside an explicit BEGIN, the
    # sqlite3 module opens a `BEGIN IMMEDIATE` itself (never a deferred transaction)
    conn = sqlite3.connect(path, isolation_level="IMMEDIATE", check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _fetchall(sql: str, params: Sequence[object], conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()


class ConnectionThread:
    """The thread that owns the sqlite3 connection: runs functions on it one at a time, in
    the order given, and hands each result to the event loop that asked for it."""

    def __init__(self, name: str = THREAD_NAME) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any]] | None]
        self._jobs = queue.SimpleQueue()
        # one writer each (the loop's thread, the worker): equal when no job is queued or running
        self._submitted = 0
        self._finished = 0
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def run(self, fn: Callable[[], T]) -> asyncio.Future[T]:
        """Queue `fn()`; the future gets its value or exception."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._submitted += 1
        self._jobs.put((fn, future))
        return future

    def idle(self) -> bool:
        """Whether every job submitted so far has finished and its result was handed to the
        loop (a tool that steps a simulated clock waits for this before jumping)."""
        return self._finished == self._submitted

    def stop(self) -> None:
        """End the thread once the jobs queued before are done."""
        self._jobs.put(None)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, future = job
            try:
                outcome: tuple[bool, Any] = (True, fn())
            except BaseException as error:
                outcome = (False, error)
            # a closed loop (RuntimeError) has nobody waiting for this result
            with contextlib.suppress(RuntimeError):
                future.get_loop().call_soon_threadsafe(_settle, future, outcome)
            self._finished += 1


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():  # the caller was cancelled
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class SQLiteDriver(Driver):
    """Opening, closing, reads and the group commit of the SQLite store."""

    dialect = SQLITE

    def __init__(self, thread: ConnectionThread, conn: sqlite3.Connection, path: str) -> None:
        self._thread = thread
        self._conn = conn
        self._closed = False
        self.path = path
        self._lock = asyncio.Lock()
        self._pending: deque[_Job] = deque()
        self._writer: asyncio.Task[None] | None = None
        #: how many groups were committed and how many transactions they held (for benchmarks)
        self.groups = 0
        self.grouped = 0

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Self:
        """Open (creating the folder and file if needed) and migrate the database at `path`."""
        path = os.fspath(path)
        if path != ":memory:" and not path.startswith("file:"):
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        thread = ConnectionThread()
        try:
            conn = await thread.run(partial(_connect, path))
        except BaseException:
            thread.stop()
            raise
        return cls(thread, conn, path)

    async def close(self) -> None:
        """Close the connection, after every transaction already submitted has finished."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._thread.run(self._conn.close)
            self._thread.stop()

    async def pragma(self, name: str) -> Any:
        """The value of `PRAGMA name` (journal_mode, foreign_keys, busy_timeout...)."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        return (await self.query(f"PRAGMA {name}"))[0][0]

    async def query(self, sql: str, params: Sequence[object] = ()) -> Rows:
        """Every row of one read statement (never sees a write transaction half-done)."""
        async with self._lock:
            return await self._on_thread(partial(_fetchall, sql, params))

    async def _read(self, fn: Callable[[], Body[T]]) -> T:
        """Run a reading body on the worker thread in one hop (one consistent view)."""
        async with self._lock:
            return await self._on_thread(lambda conn: run_body(conn, fn()))

    async def _read_with(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run a reading function `fn(connection)` (several statements, one consistent view)."""
        async with self._lock:
            return await self._on_thread(fn)

    async def _on_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the store's worker thread (in submission order)."""
        if self._closed:
            raise ValueError("the store's connection is closed")
        return await self._thread.run(partial(fn, self._conn))

    async def _transaction(self, fn: TxBody[T], now: float | None = None) -> T:
        """Run the body `fn(tx)` as one transaction (savepoint of a group commit); its return value
        once committed. Any exception inside `fn` rolls back all it did and is raised here
        (a raw `sqlite3.IntegrityError` as the store's typed `IntegrityViolation`).

        Cancelling the caller before the group starts drops the transaction; once the group
        has started it runs to its end (committed or rolled back as a whole).
        """
        if self._closed:
            raise ValueError("the store's connection is closed")
        loop = asyncio.get_running_loop()
        job = _Job(fn, time.time() if now is None else now, loop.create_future())
        started = metrics.started()
        self._pending.append(job)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_groups(), name="stoppa-store-writer")
        result: T = await job.future
        metrics.transaction_committed("sqlite", started)
        return result

    async def _write_groups(self) -> None:
        """The writer task: commit groups until no transaction is waiting."""
        while self._pending:
            async with self._lock:
                jobs = [job for job in self._pending if not job.future.done()]
                self._pending.clear()
                if not jobs:
                    continue
                try:
                    await self._on_thread(partial(run_group, jobs=jobs))
                except Exception as error:  # BEGIN, a savepoint or COMMIT failed: none saved
                    failure = typed_error(error)
                    for job in jobs:
                        if not job.future.done():
                            job.future.set_exception(failure)
                    continue
                except BaseException:  # the writer task itself is cancelled (loop shutdown)
                    for job in [*jobs, *self._pending]:
                        job.future.cancel()
                    raise
            self.groups += 1
            self.grouped += len(jobs)
            for job in jobs:
                ok, value = job.outcome
                if job.future.done():
                    continue
                if ok:
                    job.future.set_result(value)
                else:
                    job.future.set_exception(value)
