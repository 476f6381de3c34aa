# SPDX-License-Identifier: MIT
"""touchd_client against a real touchd replaying a bundled recording.

Environment: TOUCHD (the daemon binary, default .build/release/touchd of the
source tree), TOUCHD_TRACE (a recording, default the Atmel 4-finger drag).
Run from the source tree: python3 -m unittest discover -s clients/python/tests
(the package of the tree; with TOUCHD_CLIENT_INSTALLED=1 the installed one).
"""
import asyncio
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
if not os.environ.get("TOUCHD_CLIENT_INSTALLED"):  # else the installed package (scripts/check-python.sh)
    sys.path.insert(0, os.path.join(HERE, ".."))

from touchd_client import (RECONNECTED, AsyncClient, Client, ConnectionClosed, ProtocolError,  # noqa: E402
                           RequestError, TouchdError, device_mapping, drag_data, drag_item, recognizer,
                           screen_change, surface)
from touchd_client._protocol import decode  # noqa: E402
from touchd_client.messages import MESSAGE_TYPES  # noqa: E402

TOUCHD = os.environ.get("TOUCHD", os.path.join(ROOT, ".build", "release", "touchd"))
TRACE = os.environ.get("TOUCHD_TRACE", os.path.join(
    ROOT, "Tests", "Fixtures", "real", "evemu-devices", "touchscreens",
    "Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
DEVICE_NAME = "Atmel maXTouch Touchscreen"
DRAG_TRACE = os.path.join(ROOT, "Tests", "Fixtures", "derived", "Atmel maXTouch Touchscreen.hold-then-drag.events")
CORPUS = os.path.join(ROOT, "docs", "schemas", "examples.jsonl")


def typed_dict_keys(cls: Any) -> Tuple[frozenset, frozenset]:  # type: ignore[type-arg]
    return cls.__required_keys__, cls.__optional_keys__


def check_typed(test: unittest.TestCase, value: Any, cls: Any, where: str) -> None:
    """Every key of `value` is one `cls` declares, every key it requires is
    there, and nested typed dictionaries (points, devices, screens) likewise."""
    import typing
    required, optional = typed_dict_keys(cls)
    test.assertLessEqual(set(value), set(required) | set(optional), f"{where}: keys {cls.__name__} does not declare")
    test.assertLessEqual(set(required), set(value), f"{where}: keys {cls.__name__} requires")
    hints = typing.get_type_hints(cls)
    for key, member in value.items():
        hint = hints[key]
        candidates = [hint] + list(typing.get_args(hint))
        for c in candidates:
            inner = typing.get_args(c)
            if hasattr(c, "__required_keys__") and isinstance(member, dict):
                check_typed(test, member, c, f"{where}.{key}")
            elif typing.get_origin(c) is list and inner and hasattr(inner[0], "__required_keys__"):
                for i, element in enumerate(member):
                    check_typed(test, element, inner[0], f"{where}.{key}[{i}]")


class Daemon:
    """touchd on a temporary socket replaying TRACE once `subscribers`
    clients hold a subscription, then stopping (goodbye)."""

    def __init__(self, socket_path: str, subscribers: int = 1, speed: float = 0,
                 replay: bool = True, config: Optional[str] = None, trace: str = TRACE) -> None:
        self.socket_path = socket_path
        args = [TOUCHD, "--socket", socket_path, "--log-level", "warning", "--realtime-priority", "0"]
        if replay:
            args += ["--replay", trace, "--speed", str(speed), "--wait-for-subscribers", str(subscribers),
                     "--exit-after-replay"]
        else:  # a replay that never starts: a daemon that idles until stopped
            args += ["--replay", TRACE, "--wait-for-subscribers", "1000"]
        if config:
            args += ["--config", config]
        self.process = subprocess.Popen(args)
        deadline = time.monotonic() + 30
        while not os.path.exists(socket_path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"touchd did not start: {args}")
            time.sleep(0.02)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=30)


class RawReader(threading.Thread):
    """A plain socket client, the reference: subscribes and keeps every
    line until goodbye."""

    def __init__(self, socket_path: str, events: List[str]) -> None:
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(socket_path)
        self.file = self.sock.makefile("r", encoding="utf-8")
        self.hello = json.loads(self.file.readline())
        self.sock.sendall((json.dumps({"op": "subscribe", "id": 1, "events": events}) + "\n").encode())
        ack = json.loads(self.file.readline())
        assert ack == {"type": "ack", "id": 1}, ack
        self.messages: List[Dict[str, Any]] = []
        self.start()

    def run(self) -> None:
        for line in self.file:
            message = json.loads(line)
            self.messages.append(message)
            if message["type"] == "goodbye":
                break
        self.sock.close()

    def result(self) -> List[Dict[str, Any]]:
        self.join(timeout=60)
        return self.messages


def expected_frames(times_us: List[int], period_us: int, lead_us: int = 5000, gap_us: int = 20000) -> List[float]:
    """The frames (seconds) touchd serves a touch reported at `times_us`
    (docs/protocol.md, "frames"): from the first sampled (frame less the lead)
    at or after its first report, each when a report reaches its sampling
    time, the last at or before its last report; after a gap longer than
    `gap_us`, the newest due only."""
    def ceil(a: int, b: int) -> int:
        return -(-a // b)

    nxt = ceil(times_us[0] + lead_us, period_us)
    out: List[float] = []
    previous: Optional[int] = None
    for t in times_us:
        if previous is not None and t - previous > gap_us:
            nxt = max(nxt, ceil(t + lead_us + 1, period_us) - 1)
        while nxt * period_us - lead_us <= t:
            out.append(nxt * period_us / 1e6)
            nxt += 1
        previous = t
    return out


def last_moves(messages: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The last `moved` of each touch before its `ended`."""
    last: Dict[int, Dict[str, Any]] = {}
    out = []
    for m in messages:
        if m.get("type") != "touch":
            continue
        if m["phase"] == "moved":
            last[m["id"]] = m
        elif m["phase"] == "ended" and m["id"] in last:
            out.append(last.pop(m["id"]))
    return out


class MessageTests(unittest.TestCase):
    def test_the_corpus_decodes_and_fits_the_typed_messages(self) -> None:
        count = 0
        with open(CORPUS, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                case = json.loads(line)
                message = case["message"]
                if not case["valid"] or "type" not in message:
                    continue
                text = json.dumps(message, separators=(",", ":"))
                decoded = decode(text.encode("utf-8"))
                self.assertEqual(decoded, message, f"examples.jsonl:{number}")
                self.assertIn(message["type"], MESSAGE_TYPES, f"examples.jsonl:{number}: no typed message")
                check_typed(self, message, MESSAGE_TYPES[message["type"]], f"examples.jsonl:{number}")
                count += 1
        self.assertGreater(count, 15)
        with open(CORPUS, encoding="utf-8") as f:
            covered = {json.loads(line)["message"].get("type") for line in f}
        self.assertLessEqual(set(MESSAGE_TYPES), covered, "every typed message has an example in the corpus")

    def test_every_error_is_a_touchd_error(self) -> None:
        for error in (RequestError("bad-field", "x"), ConnectionClosed("shutdown"), ProtocolError("x")):
            self.assertIsInstance(error, TouchdError)
        with self.assertRaises(ProtocolError):
            decode(b"[1, 2]")

    def test_screen_changes_and_device_mappings(self) -> None:
        self.assertEqual(screen_change("main", rotation=90, size_mm=(68, 121), insets={"top": 48}),
                         {"name": "main", "rotation": 90, "sizeMM": {"width": 68, "height": 121}, "insets": {"top": 48}})
        self.assertEqual(screen_change("old", remove=True), {"name": "old", "remove": True})
        self.assertEqual(device_mapping(1, name="ELAN*"), {"screen": 1, "name": "ELAN*"})
        with self.assertRaises(ValueError):
            device_mapping(0)


class ClientTests(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="touchd-py-")
        self.socket_path = os.path.join(self.dir, "touchd.sock")
        self.daemons: List[Daemon] = []

    def tearDown(self) -> None:
        for d in self.daemons:
            d.stop()
        for name in os.listdir(self.dir):
            os.unlink(os.path.join(self.dir, name))
        os.rmdir(self.dir)

    def daemon(self, **kwargs: Any) -> Daemon:
        d = Daemon(self.socket_path, **kwargs)
        self.daemons.append(d)
        return d

    def test_subscribe_with_a_filter_gets_what_a_raw_client_gets_of_that_kind(self) -> None:
        self.daemon(subscribers=2)
        reference = RawReader(self.socket_path, ["gesture"])
        with Client(self.socket_path) as client:
            assert client.hello is not None
            self.assertEqual([d["name"] for d in client.hello["devices"]], [DEVICE_NAME])
            client.subscribe(["gesture"], kinds=["swipe"])
            # As a program's own loop would: select on the client, then
            # take what is there without waiting.
            events: List[Dict[str, Any]] = []
            deadline = time.monotonic() + 30
            while not events or events[-1]["type"] != "goodbye":
                self.assertLess(time.monotonic(), deadline, f"no goodbye within 30 s; {len(events)} events")
                if not client.pending():
                    self.assertEqual(select.select([client], [], [], 10)[0], [client], "nothing within 10 s")
                while not events or events[-1]["type"] != "goodbye":
                    event = client.next_event(timeout=0)
                    if event is None:
                        break
                    events.append(event)
        expected = [m for m in reference.result() if m["type"] == "gesture" and m["kind"] == "swipe"]
        self.assertTrue(expected, "the recording has a swipe")
        self.assertEqual([e for e in events if e["type"] == "gesture"], expected)
        self.assertEqual(events[-1], {"type": "goodbye", "reason": "shutdown"})
        self.assertLess(len(expected), len([m for m in reference.messages if m["type"] == "gesture"]))

    def test_errors_carry_the_protocol_code_and_keep_the_connection(self) -> None:
        self.daemon(replay=False)
        main = surface("main", 0, 0, 800, 480, [recognizer("tap", "tap")])
        with Client(self.socket_path) as client:
            client.register(main)
            cases: List[Tuple[Callable[[], Any], str, str]] = [
                (lambda: client.register(main), "surface-exists", "register"),
                (lambda: client.update(surface("other", 0, 0, 1, 1)), "unknown-surface", "update"),
                (lambda: client.unregister("other"), "unknown-surface", "unregister"),
                (lambda: client.coalesce(250), "bad-field", "coalesce"),
                (lambda: client.frames(-16, 1), "bad-field", "frames"),
                (lambda: client.frames(16, 1, horizon_ms=500), "bad-field", "frames"),
                (lambda: client.subscribe(["wind"]), "bad-field", "subscribe"),
                (lambda: client.register(surface("s", 0, 0, 1, 1, [recognizer("r", "nonsense")])),
                 "unknown-recognizer", "register"),
                (lambda: client.request("teleport"), "unknown-op", "teleport"),
            ]
            for call, code, op in cases:
                with self.assertRaises(RequestError) as caught:
                    call()
                self.assertEqual((caught.exception.code, caught.exception.op), (code, op))
                self.assertTrue(caught.exception.message)
            client.ping()
            self.assertIsNone(client.next_event(timeout=0))
            self.assertIsNone(client.next_event(timeout=0.05))
            client.update(surface("main", 0, 0, 400, 480))
            client.unregister("main")
            with self.assertRaises(RequestError) as caught:
                client.unregister("main")
            self.assertEqual(caught.exception.code, "unknown-surface")

    def test_a_refused_connection_raises_not_permitted(self) -> None:
        config = os.path.join(self.dir, "touchd.yaml")
        with open(config, "w") as f:
            f.write(f"access:\n  connect: {{users: [{os.getuid() + 12345}]}}\n")
        self.daemon(replay=False, config=config)
        with self.assertRaises(RequestError) as caught:
            Client(self.socket_path).connect()
        self.assertEqual(caught.exception.code, "not-permitted")

    def test_a_surface_gets_its_recognizers_gestures_until_unregistered(self) -> None:
        self.daemon(subscribers=1, speed=1)
        with Client(self.socket_path) as client:
            client.register(surface("main", 0, 0, 100, 100, [recognizer("drag", "pan")]))
            client.update(surface("main", 0, 0, 1920, 1080, [recognizer("drag", "pan", minTouches=4)]))
            client.subscribe(["device"])  # starts the replay
            mine = []
            while True:
                event = client.next_event(timeout=10)
                self.assertIsNotNone(event, "no event within 10 s")
                assert event is not None
                if event["type"] == "gesture":
                    mine.append(event)
                if len(mine) == 3:
                    break
            self.assertEqual({(e["surface"], e["recognizer"], e["touches"]) for e in mine}, {("main", "drag", 4)})
            client.unregister("main")
            after = list(client.events())
        self.assertEqual(after[-1]["type"], "goodbye")
        # The pan in progress is cancelled, and nothing of the surface comes after.
        self.assertEqual([e["state"] for e in after if e["type"] == "gesture"], ["cancelled"])

    def test_coalesced_touches_are_fewer_and_end_where_every_touch_ends(self) -> None:
        self.daemon(subscribers=2, speed=1)
        reference = RawReader(self.socket_path, ["touch"])
        with Client(self.socket_path) as client:
            client.coalesce(50)
            client.subscribe(["touch"])
            events = list(client.events())
        expected = reference.result()
        moved = [e for e in events if e["type"] == "touch" and e["phase"] == "moved"]
        all_moved = [e for e in expected if e["type"] == "touch" and e["phase"] == "moved"]
        self.assertTrue(moved)
        self.assertLess(len(moved), len(all_moved))
        self.assertEqual(len(last_moves(expected)), 4)
        self.assertEqual(last_moves(events), last_moves(expected))

    def test_frames_serve_one_position_per_touch_and_frame_beside_every_touch(self) -> None:
        # A 60 Hz display with a frame at 0 s; positions predicted 8 ms ahead.
        period = 16.667
        self.daemon(subscribers=2, speed=1)
        reference = RawReader(self.socket_path, ["touch"])
        with Client(self.socket_path) as client:
            client.frames(period, 0, horizon_ms=8)
            client.subscribe(["touch"])
            events = list(client.events())
        expected = reference.result()
        touches = [e for e in events if e["type"] == "touch"]
        motion = [e for e in events if e["type"] == "motion"]
        # The touch lines are the reference's, none delayed, dropped or reordered;
        # the other client gets no motion line.
        self.assertEqual(touches, [e for e in expected if e["type"] == "touch"])
        self.assertFalse([e for e in expected if e["type"] == "motion"])
        self.assertTrue(motion)
        for touch_id in {t["id"] for t in touches}:
            reports = [t for t in touches if t["id"] == touch_id]
            lines = [m for m in motion if m["id"] == touch_id]
            began, end = reports[0], reports[-1]
            self.assertEqual((began["phase"], end["phase"]), ("began", "ended"))
            # The began line comes before the touch's first motion line.
            self.assertLess(events.index(began), events.index(lines[0]))
            frames = [m["frame"] for m in lines]
            self.assertEqual(frames, sorted(set(frames)), "one line per frame, in order")
            for m in lines:
                # Each frame of the display (a whole number of periods from 0 s),
                # sampled 5 ms before it, never before the touch began nor past its end.
                periods = m["frame"] * 1000 / period
                self.assertAlmostEqual(periods, round(periods), delta=0.01)
                self.assertAlmostEqual(m["time"], m["frame"] - 0.005, delta=2e-6)
                self.assertGreaterEqual(m["time"] + 1e-6, began["time"])
                self.assertLessEqual(m["time"], end["time"] + 1e-6)
                self.assertIn(m["sample"], ("real", "interpolated"))
                self.assertEqual((m["touchType"], m["tool"], m["device"]), (began["touchType"], began["tool"], began["device"]))
            # Every frame sampled between the touch's first and last report is
            # served, but for the frames a gap of more than 20 ms skips (this
            # recording has fingers at rest): those would be invented.
            times = [r["time"] for r in reports]
            self.assertEqual(frames, expected_frames([round(t * 1e6) for t in times], round(period * 1000)))
            # Predicted positions are marked apart, 8 ms past a report, and only
            # while the touch is down (the frames its lift completes have none).
            predicted = [m for m in lines if "predicted" in m]
            self.assertTrue(predicted)
            for m in predicted:
                self.assertTrue(any(abs(m["predicted"]["time"] - (t + 0.008)) < 2e-6 for t in times[:-1]))
                self.assertLessEqual(m["predicted"]["time"], m["time"] + 0.008 + 0.020)

    def test_asyncio_client_iterates_the_same_events(self) -> None:
        self.daemon(subscribers=2)
        reference = RawReader(self.socket_path, ["gesture", "device"])

        async def run() -> List[Dict[str, Any]]:
            async with AsyncClient(self.socket_path) as client:
                assert client.hello is not None
                self.assertEqual(client.hello["type"], "hello")
                with self.assertRaises(RequestError) as caught:
                    await client.coalesce(-1)
                self.assertEqual(caught.exception.code, "bad-field")
                await asyncio.gather(client.ping(), client.subscribe(["gesture", "device"]), client.ping())
                return [e async for e in client.events()]

        events = asyncio.run(run())
        expected = reference.result()
        self.assertGreater(len([e for e in expected if e["type"] == "gesture"]), 10)
        self.assertEqual(events, expected)

    def test_reconnect_restores_surfaces_and_subscriptions(self) -> None:
        first = self.daemon(replay=False)
        client = Client(self.socket_path, reconnect=True, reconnect_timeout=20)
        client.connect()
        client.register(surface("main", 0, 0, 1920, 1080, [recognizer("drag", "pan")]))
        client.subscribe(["device"])
        self.assertEqual(first.stop(), 0)
        self.assertEqual(client.next_event(timeout=10), {"type": "goodbye", "reason": "shutdown"})
        os.unlink(self.socket_path) if os.path.exists(self.socket_path) else None
        restarted = threading.Timer(0.3, lambda: self.daemon(subscribers=1))
        restarted.start()
        reconnected = client.next_event(timeout=30)
        restarted.join()
        assert reconnected is not None
        self.assertEqual(reconnected["type"], RECONNECTED)
        self.assertEqual(reconnected["hello"]["type"], "hello")
        gestures = []
        for event in client.events():  # the restored subscription started the replay
            if event["type"] == "gesture":
                gestures.append(event)
            if event["type"] == "goodbye":
                break
        client.close()
        self.assertTrue(gestures)
        self.assertEqual({(g["surface"], g["recognizer"]) for g in gestures}, {("main", "drag")})
        with self.assertRaises(ConnectionClosed):
            client.ping()

    def test_screens_turns_the_screen_for_every_client(self) -> None:
        config = os.path.join(self.dir, "touchd.yaml")
        with open(config, "w") as f:
            f.write(f"access:\n  changeScreens: {{users: [{os.getuid()}]}}\n")
        self.daemon(replay=False, config=config)
        with Client(self.socket_path) as client, Client(self.socket_path) as other:
            assert client.hello is not None
            name = client.hello["screens"][0]["name"]
            width, height = client.hello["screens"][0]["width"], client.hello["screens"][0]["height"]
            self.assertEqual(client.screens([screen_change(name, rotation=90)])["type"], "ack")
            changed = other.next_event(timeout=10)
            assert changed is not None
            self.assertEqual(changed["type"], "screens")
            self.assertEqual((changed["screens"][0]["width"], changed["screens"][0]["height"], changed["screens"][0]["rotation"]),
                             (height, width, 90))
            with self.assertRaises(RequestError) as caught:
                client.screens([screen_change("no such screen", remove=True)])
            self.assertEqual(caught.exception.code, "bad-field")

    def test_asyncio_request_waits_for_the_reconnection(self) -> None:
        first = self.daemon(replay=False)

        async def run() -> Dict[str, Any]:
            client = AsyncClient(self.socket_path, reconnect=True, reconnect_timeout=20)
            await client.connect()
            self.assertEqual(first.stop(), 0)
            self.assertEqual((await client.next_event())["type"], "goodbye")
            # The connection is gone: the request waits until touchd is back.
            loop = asyncio.get_running_loop()
            loop.call_later(0.3, lambda: self.daemon(replay=False))
            answer = await asyncio.wait_for(client.ping(), 30)
            await client.close()
            return answer

        self.assertEqual(asyncio.run(run())["type"], "ack")

    def test_asyncio_reconnect_restores_the_subscription(self) -> None:
        first = self.daemon(replay=False)

        async def run() -> List[Dict[str, Any]]:
            client = AsyncClient(self.socket_path, reconnect=True, reconnect_timeout=20)
            await client.connect()
            await client.subscribe(["gesture"], kinds=["swipe"])
            self.assertEqual(first.stop(), 0)
            self.assertEqual((await client.next_event())["type"], "goodbye")
            self.daemon(subscribers=1)
            seen = []
            async for event in client.events():
                seen.append(event)
                if len(seen) > 1 and event["type"] == "goodbye":
                    break
            await client.close()
            return seen

        seen = asyncio.run(run())
        self.assertEqual(seen[0]["type"], RECONNECTED)
        self.assertEqual({e["kind"] for e in seen if e["type"] == "gesture"}, {"swipe"})
        self.assertEqual(seen[-1]["type"], "goodbye")

    def test_asyncio_drag_session_from_a_source_to_a_target(self) -> None:
        # A hold-then-drag at its recorded pace from the source's list (left) onto the target's map (right).
        self.daemon(subscribers=2, speed=1, trace=DRAG_TRACE)

        async def source() -> List[Dict[str, Any]]:
            async with AsyncClient(self.socket_path) as client:
                assert client.hello is not None
                w, h = client.hello["screens"][0]["width"], client.hello["screens"][0]["height"]
                await client.register(surface("list", 0, 0, w / 2, h / 2, [recognizer("drag", "drag")]))
                await client.drag_surface("list", offers_items=True, compact=True)
                with self.assertRaises(RequestError) as caught:
                    await client.drag_surface("nowhere", offers_items=True)
                self.assertEqual(caught.exception.code, "unknown-surface")
                await client.subscribe(["gesture"])
                seen = []
                async for event in client.events():
                    if event["type"] == "drag":
                        seen.append(event)
                        if event["event"] == "items-requested":
                            await client.drag_items(event["request"], [drag_item(("text/plain", "Lyon"))])
                return seen

        async def target() -> List[Dict[str, Any]]:
            async with AsyncClient(self.socket_path) as client:
                assert client.hello is not None
                w, h = client.hello["screens"][0]["width"], client.hello["screens"][0]["height"]
                await client.register(surface("map", w / 2, 0, w / 2, h))
                await client.drag_surface("map", drop_types=["text/plain"])
                await client.subscribe(["gesture"])
                seen = []
                async for event in client.events():
                    if event["type"] == "drag":
                        seen.append(event)
                        if event["event"] == "entered":
                            await client.drop_proposal(event["session"], "move")
                return seen

        async def both() -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
            s, t = await asyncio.gather(source(), target())
            return s, t

        from_source, at_target = asyncio.run(both())
        self.assertEqual([e["event"] for e in from_source], ["items-requested", "ended"])
        self.assertEqual((from_source[-1]["outcome"], from_source[-1]["reason"]), ("move", "lifted"))
        events = [e["event"] for e in at_target]
        self.assertEqual(events[0], "entered")
        self.assertEqual(events[-2:], ["perform", "ended"])
        self.assertEqual(set(events[1:-2]), {"moved"})
        perform = at_target[-2]
        self.assertEqual([drag_data(i, "text/plain") for i in perform["items"]], ["Lyon"])
        self.assertEqual(perform["operation"], "move")


class SessionStateTests(unittest.TestCase):
    def test_drag_roles_are_restored_after_their_surfaces_and_forgotten_with_them(self) -> None:
        from touchd_client._protocol import SessionState
        state = SessionState()
        state.applied("register", {"surface": {"id": "list"}})
        state.applied("drag-surface", {"surface": "list", "offersItems": True})
        state.applied("register", {"surface": {"id": "map"}})
        state.applied("drag-surface", {"surface": "map", "dropTypes": ["text/plain"]})
        state.applied("unregister", {"surface": "map"})
        self.assertEqual(state.replay(), [("register", {"surface": {"id": "list"}}),
                                          ("drag-surface", {"surface": "list", "offersItems": True})])


if __name__ == "__main__":
    unittest.main()
