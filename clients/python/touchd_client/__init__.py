"""touchd_client: a client for touchd, the Linux touch input daemon.

Standard library only. :class:`Client` blocks, :class:`AsyncClient` is for
asyncio; both speak protocol 1 (docs/protocol.md of touchd): subscribe to
event streams with filters, register surfaces with recognizers, coalesce
continuous updates, read events, reconnect. Messages are the JSON objects
touchd sends, as dicts.
"""
from ._protocol import (DEFAULT_SOCKET, PROTOCOL_VERSION, RECONNECTED, STREAMS, ConnectionClosed, Message,
                        ProtocolError, TouchdError, drag_data, drag_item, recognizer, surface)
from .aio import AsyncClient
from .client import Client

__all__ = ["Client", "AsyncClient", "TouchdError", "ConnectionClosed", "ProtocolError", "Message", "surface",
           "recognizer", "drag_item", "drag_data", "DEFAULT_SOCKET", "PROTOCOL_VERSION", "RECONNECTED", "STREAMS"]
__version__ = "0.1.0"
