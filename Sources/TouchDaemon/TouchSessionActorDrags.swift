// SPDX-License-Identifier: MIT
import EngineMessages
import Gestures
import Publisher
import Session
import TouchCore
import Wire

/// Drag sessions across clients (semantics §12), on the engine's owner.
extension TouchSessionActor {
    /// A client's drag request: a surface's roles, items answering a request,
    /// a target's proposal. What it causes (a target entered, a session ended)
    /// goes out before the answer.
    package func drag(_ request: DragRequest, from client: ClientID) throws(RequestError) {
        let owner = client.engineOwner
        switch request {
        case let .roles(local, roles):
            let id = ClientSurfaceID(client: client, local: local)
            do throws(ClientSurfaceError) { try router.clients.checkKnown(id) } catch { throw error.requestError }
            session.setDragRoles(DragRoles(roles), of: id.engineID, owner: owner)
        case let .items(number, items):
            prepareRound()
            defer { flush() }
            do {
                try session.offerDragItems(items.map(DragItem.init), request: number, from: owner, into: &router)
            } catch {
                throw RequestError(ErrorCode(rawValue: error.code.rawValue), error.message)
            }
        case let .proposal(number, operation):
            prepareRound()
            defer { flush() }
            do {
                try session.proposeDrop(DropOperation(operation), session: number, from: owner, into: &router)
            } catch {
                throw RequestError(ErrorCode(rawValue: error.code.rawValue), error.message)
            }
        }
    }
}

extension DaemonSessionSink {
    /// The sessions' decisions go to observers only (the live view): clients
    /// granted `seeAllTouches` that subscribe to `touch`, never to the
    /// parties (a record names every party's surfaces); never the items' data.
    mutating func dragSessionRecords(_ records: [DragSessionRecord]) {
        guard wants(.touch) else { return }
        for r in records {
            batch.append(stream: .touch, time: r.time.seconds, observersOnly: true) { MessageEncoder.dragSessionRecord(r, into: &$0) }
        }
    }

    /// Drag events go to the client they are for only, on its `gesture`
    /// stream (always delivered to a surface's owner); `moved` is an update a
    /// coalescing client may get folded, per session and surface.
    mutating func dragSessionEvents(_ events: [DragSessionEvent]) {
        for e in events {
            guard let client = clients.client(ofOwner: e.owner) else { continue }
            let local = e.surface.flatMap { clients.surface($0)?.local }
            batch.append(stream: .gesture, kind: "drag-session", recognizer: dragSessionName(e.session), surface: local, owner: client,
                         time: e.time.seconds, isUpdate: e.isUpdate) { MessageEncoder.drag(e, surface: local, into: &$0) }
        }
    }
}
