# SPDX-License-Identifier: MIT
"""The blocking client: one Unix socket, requests answered in order, events
read one at a time (docs/protocol.md)."""
import collections
import select
import socket
import time
from typing import Any, Deque, Iterator, Mapping, Optional

from ._protocol import (DEFAULT_SOCKET, RECONNECTED, ConnectionClosed, Message, ProtocolError, RequestError,
                        Requests, SessionState, check_hello, decode, encode)


class Client(Requests[Message]):
    """A connection to touchd.

    ::

        with Client("/run/touchd/touchd.sock") as client:
            client.subscribe(["gesture"], kinds=["tap"])
            for event in client.events():
                print(event["type"], event)

    Requests (``subscribe``, ``register``, ``screens``, ...: see
    :class:`touchd_client.Requests`) wait for their answer, return the
    ``ack`` and raise :class:`RequestError` with the protocol's code when it
    is an ``error``; events that arrive meanwhile are kept for :meth:`events` and
    :meth:`next_event`. With ``reconnect=True`` a lost connection is made
    again (retrying for ``reconnect_timeout`` seconds), the coalescing
    interval, subscriptions and surfaces are asked for again, and
    :meth:`events` yields a ``{"type": "reconnected", "hello": ...}``
    message before the new connection's events. Not thread-safe: use it from
    one thread (or use :class:`AsyncClient`).
    """

    def __init__(self, path: str = DEFAULT_SOCKET, *, reconnect: bool = False,
                 reconnect_timeout: float = 30.0, connect_timeout: float = 5.0) -> None:
        self.path = path
        self.reconnect = reconnect
        self.reconnect_timeout = reconnect_timeout
        self.connect_timeout = connect_timeout
        #: The server's ``hello`` on the current connection (devices, screens).
        self.hello: Optional[Message] = None
        self._sock: Optional[socket.socket] = None
        self._buffer = bytearray()
        self._events: Deque[Message] = collections.deque()
        self._next_id = 1
        self._state = SessionState()
        self._closed_by_user = False

    # --- connection -----------------------------------------------------------------------
    def connect(self) -> Message:
        """Connects and returns the server's ``hello``. Raises OSError when
        the socket cannot be reached, RequestError when touchd refuses the
        connection (``not-permitted``, ``limit-exceeded``)."""
        self._closed_by_user = False
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.connect_timeout)
            sock.connect(self.path)
            sock.settimeout(None)
        except OSError:
            sock.close()
            raise
        self._sock = sock
        self._buffer = bytearray()
        try:
            self.hello = check_hello(self._read_message(self.connect_timeout))
        except BaseException:
            self._drop()
            raise
        return self.hello

    def close(self) -> None:
        """Closes the connection (touchd removes this client's surfaces)."""
        self._closed_by_user = True
        self._drop()

    def fileno(self) -> int:
        """The socket's descriptor, for select/poll in the caller's own loop:
        readable means :meth:`next_event` with ``timeout=0`` may have one
        (events already read are pending when :meth:`pending` is true)."""
        if self._sock is None:
            raise ConnectionClosed(None)
        return self._sock.fileno()

    def pending(self) -> bool:
        """Whether events were read from the socket but not yet returned."""
        return bool(self._events)

    def __enter__(self) -> "Client":
        if self._sock is None:
            self.connect()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- requests ---------------------------------------------------------------------------
    def request(self, op: str, **fields: Any) -> Message:
        """Sends any request and returns its ``ack``; raises RequestError on
        ``error`` and ConnectionClosed when the connection ends first (after
        reconnecting first when ``reconnect`` is on and it had ended)."""
        if self._sock is None:
            if self.reconnect and not self._closed_by_user:
                self._reconnect()
            else:
                raise ConnectionClosed(None)
        answer = self._exchange(op, fields)
        self._state.applied(op, fields)
        return answer

    # --- events -------------------------------------------------------------------------------
    def next_event(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next event (any message that is not an answer, ``goodbye``
        included); None when ``timeout`` seconds pass without one. Raises
        ConnectionClosed when the connection has ended (after a reconnect
        attempt when ``reconnect`` is on)."""
        if self._events:
            return self._events.popleft()
        if self._sock is None:
            if self.reconnect and not self._closed_by_user:
                return self._reconnect()
            raise ConnectionClosed(None)
        try:
            message = self._read_message(timeout)
        except (ConnectionClosed, OSError):
            self._drop()
            if self.reconnect and not self._closed_by_user:
                return self._reconnect()
            raise ConnectionClosed(None)
        if message is None:
            return None
        if message.get("type") == "goodbye":
            self._drop()
        return message

    def events(self) -> Iterator[Message]:
        """Every event until the connection ends (``goodbye`` is the last one
        yielded); with ``reconnect`` on, until the client is closed or a
        reconnect fails for ``reconnect_timeout`` seconds."""
        while True:
            try:
                message = self.next_event()
            except ConnectionClosed:
                if self.reconnect and not self._closed_by_user:
                    raise
                return
            if message is not None:
                yield message

    # --- internals ------------------------------------------------------------------------------
    def _drop(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _exchange(self, op: str, fields: Mapping[str, Any]) -> Message:
        assert self._sock is not None
        request_id = self._next_id
        self._next_id += 1
        try:
            self._sock.sendall(encode(op, request_id, fields))
        except OSError as e:
            self._drop()
            raise ConnectionClosed(None) from e
        while True:
            try:
                message = self._read_message(None)
            except OSError as e:
                self._drop()
                raise ConnectionClosed(None) from e
            assert message is not None
            kind = message.get("type")
            if kind in ("ack", "error") and message.get("id") == request_id:
                if kind == "error":
                    raise RequestError.answering(message, op)
                return message
            self._events.append(message)
            if kind == "goodbye":
                self._drop()
                raise ConnectionClosed(message.get("reason"))

    def _read_message(self, timeout: Optional[float]) -> Optional[Message]:
        """The next message from the socket; None after ``timeout`` seconds
        (None: wait). Raises ConnectionClosed at the end of the stream."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            newline = self._buffer.find(b"\n")
            while newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[:newline + 1]
                message = decode(line)
                if message is not None:
                    return message
                newline = self._buffer.find(b"\n")
            if self._sock is None:
                raise ConnectionClosed(None)
            if deadline is not None:
                left = max(0.0, deadline - time.monotonic())
                if not select.select([self._sock], [], [], left)[0]:
                    return None
            chunk = self._sock.recv(65536)
            if not chunk:
                raise ConnectionClosed(None)
            self._buffer += chunk

    def _reconnect(self) -> Message:
        """Connects again, restores the session and returns the
        ``reconnected`` message; raises ConnectionClosed after
        ``reconnect_timeout`` seconds of failures."""
        deadline = time.monotonic() + self.reconnect_timeout
        delay = 0.05
        while True:
            try:
                hello = self.connect()
                for op, fields in self._state.replay():
                    self._exchange(op, fields)
                return {"type": RECONNECTED, "hello": hello}
            except (OSError, ConnectionClosed, ProtocolError) as e:
                # A RequestError (refused connection, a restored surface
                # rejected) goes to the caller: retrying would not change it.
                self._drop()
                if time.monotonic() + delay > deadline:
                    raise ConnectionClosed(None) from e
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
