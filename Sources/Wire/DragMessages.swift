// SPDX-License-Identifier: MIT

extension MessageEncoder {
    /// Items as `drag-items` and `perform` carry them: an array of objects with `representations`.
    public static func dragItems(_ items: [WireDragItem], into w: inout JSONWriter) {
        w.beginArray()
        for item in items {
            w.beginObject()
            w.key("representations")
            w.beginArray()
            for r in item.representations {
                w.beginObject()
                w.field("type", string: r.type)
                w.field("data", string: r.data)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
    }
}
