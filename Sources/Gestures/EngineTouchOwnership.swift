import TouchCore

extension Engine {
    /// The surface a contact that is down began on, with that surface's owner;
    /// nil when the touch is not down, began outside every surface, or was
    /// blocked by an exclusive-touch surface. The daemon uses it to keep the
    /// touches of a client's surface out of the global touch stream.
    public func surface(ofContact id: TouchID) -> (surface: SurfaceID, owner: String)? {
        guard let i = activeContacts[id], let surface = records.items[i].surface else { return nil }
        return (surface, records.items[i].owner)
    }
}
