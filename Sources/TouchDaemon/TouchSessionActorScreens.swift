// SPDX-License-Identifier: MIT
import JSON
import Logging
import Publisher
import Session
import Trace
import Wire

/// Screen geometry changed at runtime (semantics §11), on the engine's owner.
extension TouchSessionActor {
    /// Applies a `screens` request (the publisher has checked the client's
    /// `access.changeScreens` grant): touches down finish in their geometry,
    /// new ones use the new one; `hello` is rewritten, then every client gets
    /// the `screens` message (and `device` subscribers the remapped devices).
    package func changeScreens(_ change: ScreenChange, from client: ClientID?) throws(RequestError) {
        prepareRound()
        do {
            try session.changeScreens(change, into: &router)
        } catch {
            throw RequestError.badField(error.path, error.message)
        }
        if recorder != nil {
            // The trace replays the change at its time (docs/trace-format.md, `screens` lines).
            let request = String(decoding: RequestEnvelope(id: nil, request: .screens(change)).bytes, as: UTF8.self)
            let time = session.lastTime
            record { r throws(TraceError) in try r.screens(request: request, at: time) }
        }
        publishHello()
        flush()
        logger.info("screens changed", metadata: [
            "client": "\(client.map { String($0.rawValue) } ?? "-")",
            "screens": "\(configuration.helloScreens.map { "\($0.name) \($0.width)x\($0.height)@\($0.rotation)" }.joined(separator: ", "))",
        ])
    }

    /// A screen change recorded in a replayed trace (`touchd --replay`): applied
    /// and announced as the `screens` request was when recording. One that no
    /// longer applies is logged and skipped.
    func applyRecordedScreenChange(_ request: JSONValue) {
        let change: ScreenChange
        do {
            let decoded = try RequestDecoder.decode(request).request
            if case .focus(let report) = decoded {
                applyFocus(report, from: nil)
                return
            }
            guard case .screens(let c) = decoded else {
                logger.warning("replay: a recorded screens line holds another request; skipped")
                return
            }
            change = c
        } catch {
            logger.warning("replay: a recorded screens line is not a screens request: \(error); skipped")
            return
        }
        do {
            try changeScreens(change, from: nil)
        } catch {
            logger.warning("replay: a recorded screen change does not apply: \(error); skipped")
        }
    }
}
