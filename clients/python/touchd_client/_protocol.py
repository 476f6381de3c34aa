"""What the blocking and asyncio clients share: messages, errors, requests
and the state a reconnect restores (docs/protocol.md)."""
import json
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

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


class ConnectionClosed(Exception):
    """The connection ended: ``reason`` is the ``goodbye`` reason
    (``shutdown``, ``restart``, ...) or None when it closed without one."""

    def __init__(self, reason: Optional[str] = None) -> None:
        super().__init__(f"touchd closed the connection ({reason or 'no goodbye'})")
        self.reason = reason


class ProtocolError(Exception):
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
        raise TouchdError(str(message.get("code")), str(message.get("message")))
    if message.get("type") != "hello" or message.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError(f"expected a protocol {PROTOCOL_VERSION} hello, got {message}")
    return message


class SessionState:
    """What the client asked for that a reconnect asks for again, in order:
    coalescing, subscriptions, surfaces (registered or last updated)."""

    def __init__(self) -> None:
        self.coalesce_ms: float = 0
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

    def replay(self) -> List[Tuple[str, Dict[str, Any]]]:
        """The requests that restore this state on a new connection. Parents
        come before their children (registration order is kept)."""
        requests: List[Tuple[str, Dict[str, Any]]] = []
        if self.coalesce_ms:
            requests.append(("coalesce", {"intervalMs": self.coalesce_ms}))
        requests.extend(("subscribe", sub) for sub in self.subscriptions)
        requests.extend(("register", {"surface": s}) for s in self.surfaces.values())
        requests.extend(("drag-surface", r) for r in self.drag_roles.values())
        return requests
