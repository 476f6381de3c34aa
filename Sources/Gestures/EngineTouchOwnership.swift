// SPDX-License-Identifier: MIT
import TouchCore

extension Engine {
    /// The surface a contact that is down began on, with that surface's owner;
    /// nil when the touch is not down, began outside every surface, or was
    /// blocked by an exclusive-touch surface. The daemon uses it to keep the
    /// touches of a client's surface out of the global touch stream.
    package func surface(ofContact id: TouchID) -> (surface: SurfaceID, owner: String)? {
        guard let i = activeContacts[id], let surface = records.items[i].surface else { return nil }
        return (surface, records.items[i].owner)
    }

    /// The recognizer that claimed a contact that is down: one that claims its touches when it
    /// begins (a drag, a system edge swipe; semantics sections 6, 7 and 9) took it, and it is
    /// cancelled for every other recognizer and for the raw stream. Its qualified name
    /// (`surface/name`, or `owner:name` for a system recognizer) and whether the system owns
    /// it; nil when the touch is not down or nothing claimed it.
    package func claimant(ofContact id: TouchID) -> (recognizer: String, isSystem: Bool)? {
        guard let i = activeContacts[id], let s = records.items[i].claimant, slots[s].live else { return nil }
        return (slots[s].qualifiedName, slots[s].isSystemOwned)
    }
}
