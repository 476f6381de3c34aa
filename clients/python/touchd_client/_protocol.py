# SPDX-License-Identifier: MIT
"""What the blocking and asyncio clients share: messages, errors, the
requests (one definition for both), their encoding, and the state a
reconnect restores (docs/protocol.md)."""
import json
from typing import Any, Dict, Generic, Iterable, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union

#: One server message (``hello``, ``ack``, ``error``, ``touch``, ``gesture``,
#: ``system``, ``device``, ``overflow``, ``goodbye`` or a newer type), as the
#: JSON object the server sent.
Message = Dict[str, Any]

#: The default socket of a system-wide touchd.
DEFAULT_SOCKET = "/run/touchd/touchd.sock"

#: The only protocol version this client speaks.
PROTOCOL_VERSION = 1

#: The event streams a client can subscribe to.
STREAMS = ("gesture", "touch", "system", "device", "debug")

#: The type of the message the client yields after it reconnected (not a
#: server message): surfaces, subscriptions and coalescing are restored,
#: gestures in progress when the connection was lost are gone.
RECONNECTED = "reconnected"


class TouchdError(Exception):
    """The base of every error this package raises: catch it to handle any."""


class RequestError(TouchdError):
    """A request touchd answered with ``error``.

    ``code`` is the protocol's error code (``bad-field``, ``unknown-surface``,
    ``surface-exists``, ``not-permitted``, ...; docs/protocol.md, "Error
    codes"), ``message`` touchd's explanation, ``op`` the request's op (None
    for an error that answers no request, e.g. ``not-permitted`` on connect).
    """

    def __init__(self, code: str, message: str, op: Optional[str] = None) -> None:
        super().__init__(f"{op + ': ' if op else ''}{code}: {message}")
        self.code = code
        self.message = message
        self.op = op

    @classmethod
    def answering(cls, message: Message, op: Optional[str] = None) -> "RequestError":
        """The error an ``error`` message carries."""
        return cls(str(message.get("code")), str(message.get("message")), op)


class ConnectionClosed(TouchdError):
    """The connection ended: ``reason`` is the ``goodbye`` reason
    (``shutdown``, ``restart``, ...) or None when it closed without one."""

    def __init__(self, reason: Optional[str] = None) -> None:
        super().__init__(f"touchd closed the connection ({reason or 'no goodbye'})")
        self.reason = reason


class ProtocolError(TouchdError):
    """The server sent something this client cannot read (not a JSON object,
    or a first message that is not a protocol-1 ``hello``)."""


def recognizer(name: str, kind: str, **fields: Any) -> Dict[str, Any]:
    """A recognizer of a surface: ``recognizer("pan", "pan",
    requiresFailureOf=["tap"])``. Other fields are the gesture engine's, by
    their protocol names (docs/configuration.md, "Recognizers")."""
    return {"name": name, "kind": kind, **fields}


def surface(surface_id: str, x: float, y: float, width: float, height: float,
            recognizers: Sequence[Mapping[str, Any]] = (), **fields: Any) -> Dict[str, Any]:
    """A surface description for ``register`` and ``update``: a rectangle in
    screen pixels and its recognizers; other fields (``z``, ``parent``,
    ``screen``, ``deferEdges``, ...) by their protocol names."""
    return {"id": surface_id, "rect": {"x": x, "y": y, "width": width, "height": height},
            "recognizers": [dict(r) for r in recognizers], **fields}


def drag_item(*representations: Tuple[str, str]) -> Dict[str, Any]:
    """A drag item: ``(mime_type, data)`` pairs, the preferred first, e.g.
    ``drag_item(("text/plain", "Lyon"), ("text/uri-list", "geo:45.76,4.84"))``
    (binary data base64-encoded by the caller)."""
    return {"representations": [{"type": t, "data": d} for (t, d) in representations]}


def drag_data(item: Mapping[str, Any], mime_type: str) -> Optional[str]:
    """The data of one type in an item of a ``perform`` event, or None."""
    for r in item.get("representations", []):
        if r.get("type") == mime_type:
            return str(r.get("data"))
    return None


def subscription(events: Iterable[str], kinds: Optional[Iterable[str]] = None,
                 recognizers: Optional[Iterable[str]] = None, devices: Optional[Iterable[int]] = None,
                 touch_types: Optional[Iterable[str]] = None,
                 surfaces: Optional[Iterable[str]] = None) -> Dict[str, Any]:
    """The fields of a ``subscribe`` request: streams and an optional filter
    (keys combine with AND, values of one key with OR)."""
    streams = list(events)
    if not streams:
        raise ValueError("subscribe needs at least one stream")
    request: Dict[str, Any] = {"events": streams}
    filter_: Dict[str, List[Any]] = {}
    for key, values in (("kinds", kinds), ("recognizers", recognizers), ("devices", devices),
                        ("touchTypes", touch_types), ("surfaces", surfaces)):
        if values is not None:
            filter_[key] = list(values)
    if filter_:
        request["filter"] = filter_
    return request


def screen_change(name: str, *, width: Optional[int] = None, height: Optional[int] = None,
                  rotation: Optional[int] = None, size_mm: Optional[Tuple[float, float]] = None,
                  insets: Optional[Mapping[str, float]] = None, remove: bool = False) -> Dict[str, Any]:
    """A screen of a ``screens`` request, by name: the keys given change
    (``rotation`` 0, 90, 180 or 270 degrees clockwise; ``size_mm`` (width,
    height); ``insets`` top, right, bottom, left in pixels), a new name adds a
    screen, ``remove`` removes it (docs/protocol.md, "screens")."""
    change: Dict[str, Any] = {"name": name}
    if width is not None:
        change["width"] = width
    if height is not None:
        change["height"] = height
    if rotation is not None:
        change["rotation"] = rotation
    if size_mm is not None:
        change["sizeMM"] = {"width": size_mm[0], "height": size_mm[1]}
    if insets is not None:
        change["insets"] = dict(insets)
    if remove:
        change["remove"] = True
    return change


def device_mapping(screen: Union[int, str], *, device: Optional[int] = None,
                   name: Optional[str] = None) -> Dict[str, Any]:
    """A device of a ``screens`` request: the device by id or by name (a
    glob) maps to ``screen`` (an index or a screen's name)."""
    if device is None and name is None:
        raise ValueError("a device mapping needs a device id or a name")
    mapping: Dict[str, Any] = {"screen": screen}
    if device is not None:
        mapping["device"] = device
    if name is not None:
        mapping["name"] = name
    return mapping


#: What a request returns: the ack (blocking client) or an awaitable of it
#: (asyncio client).
Answer = TypeVar("Answer")


class Requests(Generic[Answer]):
    """The requests of protocol 1, defined once for both clients: each builds
    its fields and hands them to :meth:`request`, which the blocking client
    answers with the ``ack`` and the asyncio client with a coroutine of it.
    An ``error`` answer raises :class:`RequestError`."""

    def request(self, op: str, **fields: Any) -> Answer:
        """Sends any request (the operation ``op`` with ``fields``)."""
        raise NotImplementedError

    def subscribe(self, events: Iterable[str], *, kinds: Optional[Iterable[str]] = None,
                  recognizers: Optional[Iterable[str]] = None, devices: Optional[Iterable[int]] = None,
                  touch_types: Optional[Iterable[str]] = None, surfaces: Optional[Iterable[str]] = None) -> Answer:
        """Adds a subscription to the streams ``events`` (``gesture``,
        ``touch``, ``system``, ``device``, ``debug``), optionally filtered."""
        return self.request("subscribe", **subscription(events, kinds, recognizers, devices, touch_types, surfaces))

    def unsubscribe(self, events: Optional[Iterable[str]] = None) -> Answer:
        """Removes the streams from every subscription; all of them when None."""
        return self.request("unsubscribe", **({} if events is None else {"events": list(events)}))

    def register(self, surface: Mapping[str, Any]) -> Answer:
        """Registers a surface (see :func:`touchd_client.surface`)."""
        return self.request("register", surface=dict(surface))

    def update(self, surface: Mapping[str, Any]) -> Answer:
        """Replaces the whole description of a registered surface."""
        return self.request("update", surface=dict(surface))

    def unregister(self, surface_id: str) -> Answer:
        """Removes a surface; its gestures in progress are cancelled."""
        return self.request("unregister", surface=surface_id)

    def coalesce(self, interval_ms: float) -> Answer:
        """Continuous updates at most once per ``interval_ms`` (0 to 100; 0: off)."""
        return self.request("coalesce", intervalMs=interval_ms)

    def frames(self, period_ms: float, time: float = 0, *, horizon_ms: Optional[float] = None) -> Answer:
        """States the display's frames: one every ``period_ms`` (1 to 1000; 0
        stops them), one of them at ``time`` (seconds, on the clock of the
        events' ``time``). touchd then sends a ``motion`` message per touch
        and frame, taken 5 ms before the frame and interpolated between the
        touch's reports; with ``horizon_ms`` (0 to 100) it carries a
        ``predicted`` position that far past the newest report (cut to the
        touch's kind's recommended horizon). The ``touch`` messages still come."""
        fields: Dict[str, Any] = {"periodMs": period_ms}
        if period_ms:
            fields["time"] = time
            if horizon_ms is not None:
                fields["predict"] = {"horizonMs": horizon_ms}
        return self.request("frames", **fields)

    def ping(self) -> Answer:
        """A round trip to touchd."""
        return self.request("ping")

    def screens(self, screens: Sequence[Mapping[str, Any]] = (),
                devices: Sequence[Mapping[str, Any]] = ()) -> Answer:
        """Changes the screen geometry while touchd runs (see
        :func:`screen_change` and :func:`device_mapping`); a client needs
        ``access.changeScreens``. Every client then gets a ``screens``
        message. Not asked for again after a reconnect: the geometry is
        touchd's, not the connection's."""
        fields: Dict[str, Any] = {}
        if screens:
            fields["screens"] = [dict(s) for s in screens]
        if devices:
            fields["devices"] = [dict(d) for d in devices]
        if not fields:
            raise ValueError("screens needs a screen change or a device mapping")
        return self.request("screens", **fields)

    def drag_surface(self, surface_id: str, *, offers_items: bool = False, adds_items: bool = False,
                     drop_types: Optional[Iterable[str]] = None, compact: bool = False) -> Answer:
        """Says what one of this client's surfaces does in drag sessions
        (semantics §12): its drags offer items, its taps add items, it takes
        drops of ``drop_types`` (``text/plain``, ``image/*``); ``compact``:
        its long presses alongside a drag wait until the drag fails (at the
        lift for a touch held still) instead of beginning at their own time
        (§12.8). Asked for again after a reconnect, after the surfaces."""
        fields: Dict[str, Any] = {"surface": surface_id}
        if offers_items:
            fields["offersItems"] = True
        if adds_items:
            fields["addsItems"] = True
        if compact:
            fields["compact"] = True
        if drop_types:
            fields["dropTypes"] = list(drop_types)
        return self.request("drag-surface", **fields)

    def drag_items(self, request: int, items: Iterable[Mapping[str, Any]]) -> Answer:
        """Answers a ``drag`` event ``items-requested`` or ``add-requested``
        (its ``request``) with items (see :func:`drag_item`) within 250 ms;
        none lets the drag, or the tap, go on without them."""
        return self.request("drag-items", request=request, items=[dict(i) for i in items])

    def drop_proposal(self, session: int, operation: str) -> Answer:
        """As the target under a session's touch: ``copy``, ``move``,
        ``forbidden`` or ``cancel``; the last one before the lift counts."""
        return self.request("drop-proposal", session=session, operation=operation)


def encode(op: str, request_id: Union[int, str], fields: Mapping[str, Any]) -> bytes:
    """One request line."""
    return (json.dumps({"op": op, "id": request_id, **fields}, separators=(",", ":")) + "\n").encode("utf-8")


def decode(line: bytes) -> Optional[Message]:
    """One server line as a message; None for a blank line."""
    text = line.decode("utf-8").strip()
    if not text:
        return None
    try:
        message = json.loads(text)
    except ValueError as e:
        raise ProtocolError(f"not JSON from touchd: {text[:200]!r}") from e
    if not isinstance(message, dict):
        raise ProtocolError(f"not a JSON object from touchd: {text[:200]!r}")
    return message


def check_hello(message: Optional[Message]) -> Message:
    """The first message of a connection, which must be ``hello`` (an
    ``error`` there, e.g. ``not-permitted``, is raised as TouchdError)."""
    if message is None:
        raise ConnectionClosed(None)
    if message.get("type") == "error":
        raise RequestError.answering(message)
    if message.get("type") != "hello" or message.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError(f"expected a protocol {PROTOCOL_VERSION} hello, got {message}")
    return message


class SessionState:
    """What the client asked for that a reconnect asks for again, in order:
    coalescing, subscriptions, surfaces (registered or last updated)."""

    def __init__(self) -> None:
        self.coalesce_ms: float = 0
        self.frames: Optional[Dict[str, Any]] = None
        self.subscriptions: List[Dict[str, Any]] = []
        self.surfaces: Dict[str, Dict[str, Any]] = {}
        self.drag_roles: Dict[str, Dict[str, Any]] = {}

    def applied(self, op: str, fields: Mapping[str, Any]) -> None:
        """Records a request touchd acknowledged."""
        if op == "subscribe":
            self.subscriptions.append(dict(fields))
        elif op == "unsubscribe":
            streams = fields.get("events")
            if streams is None:
                self.subscriptions = []
            else:
                kept = []
                for sub in self.subscriptions:
                    left = [e for e in sub["events"] if e not in streams]
                    if left:
                        kept.append({**sub, "events": left})
                self.subscriptions = kept
        elif op in ("register", "update"):
            description = fields["surface"]
            self.surfaces[description["id"]] = dict(description)
        elif op == "unregister":
            self.surfaces.pop(fields["surface"], None)
            self.drag_roles.pop(fields["surface"], None)
        elif op == "drag-surface":
            self.drag_roles[fields["surface"]] = dict(fields)
        elif op == "coalesce":
            self.coalesce_ms = fields["intervalMs"]
        elif op == "frames":
            self.frames = dict(fields) if fields["periodMs"] else None

    def replay(self) -> List[Tuple[str, Dict[str, Any]]]:
        """The requests that restore this state on a new connection. Parents
        come before their children (registration order is kept)."""
        requests: List[Tuple[str, Dict[str, Any]]] = []
        if self.coalesce_ms:
            requests.append(("coalesce", {"intervalMs": self.coalesce_ms}))
        if self.frames:
            requests.append(("frames", self.frames))
        requests.extend(("subscribe", sub) for sub in self.subscriptions)
        requests.extend(("register", {"surface": s}) for s in self.surfaces.values())
        requests.extend(("drag-surface", r) for r in self.drag_roles.values())
        return requests
