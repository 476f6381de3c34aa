# SPDX-License-Identifier: MIT
"""touchd_client: a client for touchd, the Linux touch input daemon.

Standard library only. :class:`Client` blocks, :class:`AsyncClient` is for
asyncio; both speak protocol 1 (docs/protocol.md of touchd) with the same
requests (:class:`Requests`): subscribe to event streams with filters,
register surfaces with recognizers, coalesce continuous updates, ask for
touches resampled at the display's frames, change the
screens, read events, reconnect. Messages are the JSON objects touchd sends,
as dicts; :mod:`touchd_client.messages` types them. Every error is a
:class:`TouchdError`.
"""
from ._protocol import (DEFAULT_SOCKET, PROTOCOL_VERSION, RECONNECTED, STREAMS, ConnectionClosed, Message,
                        ProtocolError, RequestError, Requests, TouchdError, device_mapping, drag_data, drag_item,
                        recognizer, screen_change, surface)
from .aio import AsyncClient
from .client import Client
from .messages import (AckMessage, DebugMessage, DeviceMessage, DragMessage, DragSessionMessage, ErrorMessage,
                       GestureMessage, GoodbyeMessage, HelloMessage, MotionMessage, OverflowMessage, Prediction, ReconnectedMessage, ScreensMessage, ServerMessage,
                       SessionMessage, SystemMessage, TouchMessage)

__all__ = ["Client", "AsyncClient", "Requests", "TouchdError", "RequestError", "ConnectionClosed", "ProtocolError",
           "Message", "surface", "recognizer", "screen_change", "device_mapping", "drag_item", "drag_data",
           "DEFAULT_SOCKET", "PROTOCOL_VERSION", "RECONNECTED", "STREAMS", "ServerMessage", "HelloMessage", "AckMessage",
           "ErrorMessage", "TouchMessage", "GestureMessage", "SystemMessage", "DeviceMessage", "ScreensMessage",
           "OverflowMessage", "GoodbyeMessage", "DebugMessage", "DragMessage", "DragSessionMessage", "ReconnectedMessage",
           "SessionMessage", "MotionMessage", "Prediction"]
#: The package's version (pyproject.toml reads it from here).
__version__ = "0.2.0"
