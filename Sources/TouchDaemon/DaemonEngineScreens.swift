import Logging
import Publisher
import Session
import Wire

/// Screen geometry changed at runtime (semantics §11), on the engine's owner.
extension DaemonEngine {
    /// Applies a `screens` request (the publisher has checked the client's
    /// `access.changeScreens` grant): touches down finish in their geometry,
    /// new ones use the new one; `hello` is rewritten, then every client gets
    /// the `screens` message (and `device` subscribers the remapped devices).
    public func changeScreens(_ change: ScreenChange, from client: ClientID?) throws(RequestError) {
        prepareRound()
        do {
            try session.changeScreens(change, into: &router)
        } catch {
            throw RequestError.badField(error.path, error.message)
        }
        publishHello()
        flush()
        logger.info("screens changed", metadata: [
            "client": "\(client.map { String($0.rawValue) } ?? "-")",
            "screens": "\(configuration.helloScreens.map { "\($0.name) \($0.width)x\($0.height)@\($0.rotation)" }.joined(separator: ", "))",
        ])
    }
}
