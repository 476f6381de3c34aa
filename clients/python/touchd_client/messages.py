# SPDX-License-Identifier: MIT
"""The server's messages as typed dictionaries (protocol 1, docs/protocol.md
and docs/schemas of touchd). Messages are the JSON objects touchd sends, so
a newer touchd's extra fields are still there at run time; these types list
what protocol 1 defines, for type checkers::

    for event in client.events():
        if event["type"] == "gesture":
            gesture = cast(GestureMessage, event)
            print(gesture["recognizer"], gesture["state"])

Keys a kind of message carries only sometimes (``taps``, ``force``...) are
in the ``total=False`` part of its class (a base class holds the keys always
present: the standard library's way before ``NotRequired``).
"""
from typing import Any, Dict, List, Literal, TypedDict, Union

__all__ = ["Point", "Size", "Insets", "DeviceInfo", "ScreenInfo", "HelloMessage", "AckMessage", "ErrorMessage",
           "TouchMessage", "GestureMessage", "SystemMessage", "DeviceMessage", "ScreensMessage", "OverflowMessage",
           "GoodbyeMessage", "DebugMessage", "SessionMessage", "LoginSessionStatus", "PassThroughInfo", "DragRepresentation", "DragItem", "DragMessage", "ReconnectedMessage",
           "ServerMessage", "MESSAGE_TYPES"]


class Point(TypedDict):
    x: float
    y: float


class _SizeKeys(TypedDict):
    width: float
    height: float


class Size(_SizeKeys, total=False):
    source: str


class Insets(TypedDict):
    top: float
    right: float
    bottom: float
    left: float


class _DeviceInfoKeys(TypedDict):
    id: int
    name: str
    touchType: str
    touchTypes: List[str]


class _PassThroughKeys(TypedDict):
    mirror: str
    name: str
    ending: str


class PassThroughInfo(_PassThroughKeys, total=False):
    """A device's pass-through mirror while touchd stands in front of the compositor for it:
    ``ending`` is how a taken touch ends on it (``lift`` or ``cancel``), ``endingReason`` why
    (``configured``, or what ``passThroughEnding: auto`` knows of the compositor)."""
    endingReason: str


class DeviceInfo(_DeviceInfoKeys, total=False):
    """A device of ``hello`` and ``device`` messages."""
    slots: int
    size: Size
    screen: int
    passThrough: PassThroughInfo


class _ScreenInfoKeys(TypedDict):
    id: int
    name: str
    width: int
    height: int


class ScreenInfo(_ScreenInfoKeys, total=False):
    """A screen as the user sees it (pixels after its rotation)."""
    rotation: int
    size: Size
    insets: Insets


class _SessionStatusKeys(TypedDict):
    state: str
    quiet: bool


class LoginSessionStatus(_SessionStatusKeys, total=False):
    """The seat's login session as touchd follows it (semantics §13): ``state``
    locked, unlocked, inactive or unknown; ``quiet`` while shortcuts not marked
    whenLocked are off; ``session`` logind's id of the seat's active session."""
    session: str


class _HelloMessageKeys(TypedDict):
    type: Literal["hello"]
    protocol: int
    server: str
    devices: List[DeviceInfo]
    screens: List[ScreenInfo]


class HelloMessage(_HelloMessageKeys, total=False):
    session: LoginSessionStatus


class _SessionMessageKeys(TypedDict):
    type: Literal["session"]
    time: float
    state: str
    quiet: bool


class SessionMessage(_SessionMessageKeys, total=False):
    """The seat's login session changed (locked, unlocked, another session active)."""
    session: str


class _AckMessageKeys(TypedDict):
    type: Literal["ack"]


class AckMessage(_AckMessageKeys, total=False):
    id: Union[int, str]


class _ErrorMessageKeys(TypedDict):
    type: Literal["error"]
    code: str
    message: str


class ErrorMessage(_ErrorMessageKeys, total=False):
    id: Union[int, str]


class _TouchMessageKeys(TypedDict):
    type: Literal["touch"]
    time: float
    device: int
    id: int
    phase: str
    touchType: str
    tool: str
    screen: int
    location: Point
    locationMM: Point


class TouchMessage(_TouchMessageKeys, total=False):
    surface: str
    force: float
    majorRadius: float
    minorRadius: float
    altitude: float
    azimuth: float
    distance: float
    buttons: List[str]
    serial: int
    inProximity: bool
    synthetic: bool


class Prediction(TypedDict):
    """A ``motion`` line's ``predicted``: a guessed position ``time`` (the
    newest report's time plus the horizon); never a report."""
    time: float
    location: Point


class _MotionMessageKeys(TypedDict):
    type: Literal["motion"]
    time: float
    frame: float
    device: int
    id: int
    touchType: str
    tool: str
    screen: int
    location: Point
    sample: str


class MotionMessage(_MotionMessageKeys, total=False):
    """One touch's position for one of the client's display frames (the
    ``frames`` request): taken at ``frame`` less 5 ms (``time``), ``sample``
    says how (``real``, ``interpolated``, ``extrapolated``, ``held``);
    ``predicted`` only when asked for."""
    force: float
    altitude: float
    azimuth: float
    predicted: Prediction


class _GestureMessageKeys(TypedDict):
    type: Literal["gesture"]
    time: float
    device: int
    surface: Union[str, None]
    owner: str
    recognizer: str
    kind: str
    state: str
    touches: int
    touchType: str
    location: Point


class GestureMessage(_GestureMessageKeys, total=False):
    taps: int
    direction: str
    translation: Point
    #: px/s (pan, edge-pan, drag), scale/s (pinch), rad/s (rotate).
    velocity: Union[Point, float]
    scale: float
    rotation: float
    edge: str
    purpose: str
    system: bool


class _SystemMessageKeys(TypedDict):
    type: Literal["system"]
    time: float
    event: str


class SystemMessage(_SystemMessageKeys, total=False):
    surface: str
    requested: List[str]
    granted: List[str]
    edge: str
    screen: int
    windowEnd: float


class DeviceMessage(TypedDict):
    type: Literal["device"]
    time: float
    change: str
    device: DeviceInfo


class ScreensMessage(TypedDict):
    type: Literal["screens"]
    time: float
    screens: List[ScreenInfo]


class OverflowMessage(TypedDict):
    type: Literal["overflow"]
    lost: int
    time: float


class GoodbyeMessage(TypedDict):
    type: Literal["goodbye"]
    reason: str


class _DebugMessageKeys(TypedDict):
    type: Literal["debug"]
    time: float
    record: str
    text: str


#: A debug record's details, by its ``record`` (some are Python keywords,
#: hence this spelling).
_DebugDetails = TypedDict("_DebugDetails", {
    "surface": Union[str, None], "recognizers": List[str], "reason": str, "from": str, "to": str, "by": str,
    "with": str, "on": str, "phase": str, "message": str, "edge": str, "outcome": str, "windowEnd": float,
}, total=False)


class DebugMessage(_DebugMessageKeys, _DebugDetails, total=False):
    interaction: int
    touch: int
    recognizer: str


class DragRepresentation(TypedDict):
    type: str
    data: str


class DragItem(TypedDict):
    representations: List[DragRepresentation]


class _DragMessageKeys(TypedDict):
    type: Literal["drag"]
    event: str
    time: float
    session: int


class DragMessage(_DragMessageKeys, total=False):
    """A drag session's news for this client (semantics §12): ``event`` is
    items-requested, add-requested, entered, moved, exited, perform or ended."""
    surface: str
    location: Point
    request: int
    types: List[str]
    itemCount: int
    operation: str
    items: List[DragItem]
    outcome: str
    reason: str


class _DragSessionMessageKeys(TypedDict):
    type: Literal["drag-session"]
    event: str
    time: float
    session: int
    source: str
    screen: int
    location: Point
    itemCount: int
    types: List[str]


class DragSessionMessage(_DragSessionMessageKeys, total=False):
    """A drag session's decision as an observer sees it (the live view; only
    with ``seeAllTouches`` and a ``touch`` subscription): ``event`` is opened,
    items, add-asked, added, tap-released, entered, exited, proposal, dropped
    or ended. Never the items' data."""
    surface: str
    operation: str
    outcome: str
    reason: str


class ReconnectedMessage(TypedDict):
    """Not a server message: what the client yields after it reconnected."""
    type: Literal["reconnected"]
    hello: HelloMessage


#: Any message of protocol 1 (narrow it by its ``type``).
ServerMessage = Union[HelloMessage, AckMessage, ErrorMessage, TouchMessage, GestureMessage, SystemMessage,
                      DeviceMessage, ScreensMessage, OverflowMessage, GoodbyeMessage, DebugMessage, DragMessage,
                      SessionMessage, DragSessionMessage, MotionMessage]

#: The type of each message by its ``type`` field.
MESSAGE_TYPES: Dict[str, Any] = {
    "hello": HelloMessage, "ack": AckMessage, "error": ErrorMessage, "touch": TouchMessage,
    "gesture": GestureMessage, "system": SystemMessage, "device": DeviceMessage, "screens": ScreensMessage,
    "overflow": OverflowMessage, "goodbye": GoodbyeMessage, "debug": DebugMessage, "session": SessionMessage,
    "drag": DragMessage, "drag-session": DragSessionMessage, "motion": MotionMessage,
}
