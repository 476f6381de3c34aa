# SPDX-License-Identifier: MIT
"""The asyncio client: the same requests as :class:`touchd_client.Client` as
coroutines, events from an ``async for`` (docs/protocol.md)."""
import asyncio
import collections
from typing import Any, AsyncIterator, Awaitable, Deque, Optional, Tuple

from ._protocol import (DEFAULT_SOCKET, RECONNECTED, ConnectionClosed, Message, ProtocolError, RequestError,
                        Requests, SessionState, check_hello, decode, encode)

# Ends the event queue (the connection ended and is not made again).
_END: Message = {"type": "__end__"}


class AsyncClient(Requests[Awaitable[Message]]):
    """A connection to touchd for asyncio programs.

    ::

        async with AsyncClient(path) as client:
            await client.subscribe(["gesture"])
            async for event in client.events():
                ...

    One task reads the socket: answers complete their requests (which may be
    awaited from several tasks; touchd answers in order) and events go to
    :meth:`events` / :meth:`next_event`. The requests are those of
    :class:`touchd_client.Requests`, awaited. ``reconnect`` behaves as in
    :class:`touchd_client.Client`: a request made while the connection is
    being made again waits for it.
    """

    def __init__(self, path: str = DEFAULT_SOCKET, *, reconnect: bool = False,
                 reconnect_timeout: float = 30.0, connect_timeout: float = 5.0) -> None:
        self.path = path
        self.reconnect = reconnect
        self.reconnect_timeout = reconnect_timeout
        self.connect_timeout = connect_timeout
        #: The server's ``hello`` on the current connection.
        self.hello: Optional[Message] = None
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._answers: Deque[Tuple[int, str, "asyncio.Future[Message]"]] = collections.deque()
        # Made in connect(): before Python 3.10 a queue belongs to the loop
        # current when it is made.
        self._events: "Optional[asyncio.Queue[Message]]" = None
        self._task: Optional["asyncio.Task[None]"] = None
        self._next_id = 1
        self._state = SessionState()
        self._closing = False
        self._ended = False
        # Set while connected (or for good once the connection has ended).
        self._connected: Optional[asyncio.Event] = None

    async def connect(self) -> Message:
        """Connects, returns the ``hello`` and starts reading."""
        self._closing = False
        self._ended = False
        self._events = asyncio.Queue()
        self._connected = asyncio.Event()
        self.hello = await self._open()
        self._connected.set()
        self._task = asyncio.ensure_future(self._read_loop())
        return self.hello

    async def close(self) -> None:
        """Closes the connection and stops reading."""
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        self._shut()
        self._fail_answers(ConnectionClosed(None))

    async def __aenter__(self) -> "AsyncClient":
        if self._task is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # --- requests ---------------------------------------------------------------------------
    async def request(self, op: str, **fields: Any) -> Message:
        """Sends any request and returns its ``ack``; raises RequestError on
        ``error`` and ConnectionClosed when the connection ends first (after
        waiting for the reconnection when ``reconnect`` is on)."""
        if self._connected is not None and not self._connected.is_set() and not self._closing:
            await self._connected.wait()
        if self._writer is None or self._ended:
            raise ConnectionClosed(None)
        request_id = self._next_id
        self._next_id += 1
        future: "asyncio.Future[Message]" = asyncio.get_running_loop().create_future()
        self._answers.append((request_id, op, future))
        self._writer.write(encode(op, request_id, fields))
        await self._writer.drain()
        answer = await future
        self._state.applied(op, fields)
        return answer

    # --- events -------------------------------------------------------------------------------
    async def next_event(self) -> Message:
        """The next event (``goodbye`` included; ``reconnected`` after a
        reconnect); raises ConnectionClosed once the connection has ended
        for good."""
        if self._events is None or (self._ended and self._events.empty()):
            raise ConnectionClosed(None)
        message = await self._events.get()
        if message is _END:
            self._queue().put_nowait(_END)  # every later call ends too
            raise ConnectionClosed(None)
        return message

    async def events(self) -> AsyncIterator[Message]:
        """Every event until the connection ends for good."""
        while True:
            try:
                yield await self.next_event()
            except ConnectionClosed:
                return

    # --- internals ------------------------------------------------------------------------------
    async def _open(self) -> Message:
        self._reader, self._writer = await asyncio.wait_for(
            asyncio.open_unix_connection(self.path, limit=1 << 24), self.connect_timeout)
        try:
            return check_hello(await asyncio.wait_for(self._read_message(), self.connect_timeout))
        except BaseException:
            self._shut()
            raise

    def _queue(self) -> "asyncio.Queue[Message]":
        assert self._events is not None
        return self._events

    def _shut(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    def _fail_answers(self, error: BaseException) -> None:
        while self._answers:
            _, _, future = self._answers.popleft()
            if not future.done():
                future.set_exception(error)

    async def _read_message(self) -> Optional[Message]:
        """The next message; None at the end of the stream."""
        assert self._reader is not None
        while True:
            line = await self._reader.readline()
            if not line:
                return None
            message = decode(line)
            if message is not None:
                return message

    async def _read_loop(self) -> None:
        try:
            while True:
                try:
                    message = await self._read_message()
                except (OSError, ProtocolError):
                    message = None
                if message is None:
                    self._shut()
                    if self._connected is not None:
                        self._connected.clear()
                    self._fail_answers(ConnectionClosed(None))
                    if not self.reconnect or self._closing:
                        break
                    try:
                        hello = await self._restore()
                    except (ConnectionClosed, RequestError):
                        break
                    self._queue().put_nowait({"type": RECONNECTED, "hello": hello})
                    if self._connected is not None:
                        self._connected.set()
                    continue
                kind = message.get("type")
                if kind in ("ack", "error") and self._answers and message.get("id") == self._answers[0][0]:
                    _, op, future = self._answers.popleft()
                    if not future.done():
                        if kind == "error":
                            future.set_exception(RequestError.answering(message, op))
                        else:
                            future.set_result(message)
                    continue
                self._queue().put_nowait(message)
        finally:
            self._ended = True
            if self._connected is not None:
                self._connected.set()  # waiting requests see the end
            self._queue().put_nowait(_END)

    async def _restore(self) -> Message:
        """Connects again and asks for the session's state again (answers
        read here, before the read loop goes on); ConnectionClosed after
        ``reconnect_timeout`` seconds of failures."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_timeout
        delay = 0.05
        while True:
            try:
                hello = await self._open()
                self.hello = hello
                for op, fields in self._state.replay():
                    assert self._writer is not None
                    request_id = self._next_id
                    self._next_id += 1
                    self._writer.write(encode(op, request_id, fields))
                    await self._writer.drain()
                    while True:
                        message = await self._read_message()
                        if message is None:
                            raise ConnectionClosed(None)
                        if message.get("type") in ("ack", "error") and message.get("id") == request_id:
                            if message.get("type") == "error":
                                raise RequestError.answering(message, op)
                            break
                        self._queue().put_nowait(message)
                return hello
            except (OSError, ConnectionClosed, ProtocolError, asyncio.TimeoutError) as e:
                self._shut()
                if loop.time() + delay > deadline:
                    raise ConnectionClosed(None) from e
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
